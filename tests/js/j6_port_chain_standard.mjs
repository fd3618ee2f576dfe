// differential: node
// timeout: 30
//
// Spec test for contracts J6 and L5 with same-thread MessagePort chains
// (js/messaging.js deliverChainedPortMessage goes on with the next delivery the loop
// would run, host.nextPortMessage): only what HTML fixes, so node prints the
// same (the runner compares the two stdouts; expected: .stdout):
// https://html.spec.whatwg.org/multipage/web-messaging.html#message-ports
//  - each message is a task of its own: the microtasks a handler queues
//    (queueMicrotask, promise reactions, an async handler's continuations,
//    microtasks they queue) all run before the next message's handler;
//  - one port's messages arrive in posting order, those posted from a
//    handler after those already queued;
//  - a ping-pong between the two ends of one channel alternates targets;
//  - a message that transfers ports (or an ArrayBuffer) in the middle of a
//    chain arrives with them, and the chain goes on after it.
// Left out because node departs from HTML there (hostloop-only files check
// them): the order between different ports (node runs one port's queue as a
// batch), two listeners of one message (HTML runs the microtasks between
// them; node does not), close() inside a handler (node delivers the rest of
// the batch), data `undefined` (node gives null), isTrusted and frozen ports.

import { keep } from './lib/keep_channels.mjs';

const out = (line) => console.log(line);

// 1. A pre-posted chain: each handler's microtasks before the next handler.
{
  const log = [];
  const { port1, port2 } = keep(new MessageChannel());
  let done;
  const finished = new Promise((resolve) => { done = resolve; });
  port2.onmessage = (event) => {
    const n = event.data;
    log.push(`handler ${n}`);
    queueMicrotask(() => {
      log.push(`  microtask ${n}`);
      queueMicrotask(() => log.push(`  nested microtask ${n}`));
    });
    Promise.resolve()
      .then(() => log.push(`  reaction ${n}`))
      .then(() => log.push(`  second reaction ${n}`))
      .then(() => Promise.resolve())
      .then(() => {
        log.push(`  after a resolved thenable ${n}`);
        if (n === 'posted by 2, second') done();
      });
    if (n === 2) {
      // Posted from a handler: after the messages already queued.
      port1.postMessage('posted by 2, first');
      port1.postMessage('posted by 2, second');
    }
  };
  for (let i = 0; i < 6; i++) port1.postMessage(i);
  await finished;
  port2.close();
  out('1. a pre-posted chain\n' + log.join('\n'));
}

// 2. An async handler: its continuations are microtasks of its own task.
{
  const log = [];
  const { port1, port2 } = keep(new MessageChannel());
  let done;
  const finished = new Promise((resolve) => { done = resolve; });
  port2.onmessage = async (event) => {
    log.push(`async handler ${event.data} starts`);
    await null;
    log.push(`  after await 1 (${event.data})`);
    await new Promise((resolve) => queueMicrotask(resolve));
    log.push(`  after await 2 (${event.data})`);
    for (let i = 0; i < 5; i++) await i;
    log.push(`  after five more (${event.data})`);
    if (event.data === 3) done();
  };
  for (let i = 0; i < 4; i++) port1.postMessage(i);
  await finished;
  port2.close();
  out('2. an async handler\n' + log.join('\n'));
}

// 3. A ping-pong between the two ends of one channel: the targets alternate.
{
  const log = [];
  const { port1, port2 } = keep(new MessageChannel());
  let done;
  const finished = new Promise((resolve) => { done = resolve; });
  const rounds = 12;
  // Each end answers on itself, so the answer goes to the other end.
  const reply = (name, port) => (event) => {
    const n = event.data;
    log.push(`${name} got ${n}`);
    Promise.resolve().then(() => log.push(`  ${name} reaction ${n}`));
    if (n + 1 < rounds) port.postMessage(n + 1);
    else done();
  };
  port1.onmessage = reply('port1', port1);
  port2.onmessage = reply('port2', port2);
  port1.postMessage(0);
  await finished;
  port1.close();
  port2.close();
  out('3. a ping-pong between the two ends\n' + log.join('\n'));
}

// 4. Two channels at once: each one's messages in order (the order between
// the two is the host's; the hostloop-only test checks it).
{
  const logs = [[], []];
  const channels = [keep(new MessageChannel()), keep(new MessageChannel())];
  let remaining = 2;
  let done;
  const finished = new Promise((resolve) => { done = resolve; });
  channels.forEach(({ port1, port2 }, c) => {
    port2.onmessage = (event) => {
      logs[c].push(`channel ${c}: ${event.data}`);
      queueMicrotask(() => logs[c].push(`  channel ${c}: microtask ${event.data}`));
      if (event.data === 4 && --remaining === 0) done();
    };
  });
  for (let i = 0; i < 5; i++) {
    channels[0].port1.postMessage(i);
    channels[1].port1.postMessage(i);
  }
  await finished;
  for (const { port2 } of channels) port2.close();
  out('4. two channels\n' + logs[0].join('\n') + '\n' + logs[1].join('\n'));
}

// 5. Transfers in the middle of a chain: ports and an ArrayBuffer.
{
  const log = [];
  const { port1, port2 } = keep(new MessageChannel());
  const side = keep(new MessageChannel());
  const third = keep(new MessageChannel());
  const buffer = new Uint8Array([1, 2, 3, 4]).buffer;
  let done;
  const finished = new Promise((resolve) => { done = resolve; });
  let received = null;
  const side1 = side.port1;
  port2.onmessage = (event) => {
    const { n, what } = event.data;
    log.push(`main ${n}: ${what}, ${event.ports.length} port(s)`);
    queueMicrotask(() => log.push(`  main ${n}: microtask`));
    if (event.ports.length === 1) {
      received = event.ports[0];
      received.onmessage = (e) => {
        log.push(`transferred port got ${e.data}`);
        if (e.data === 'side 1') done();
      };
      // Posted now, so after the main messages already queued.
      side.port2.postMessage('side 0');
      side.port2.postMessage('side 1');
    }
    if (event.ports.length === 2) {
      log.push(`  two ports: distinct ${event.ports[0] !== event.ports[1]}, are ports ${event.ports.every((p) => p instanceof MessagePort)}`);
      for (const port of event.ports) port.close();
    }
    if (event.data.bytes) log.push(`  bytes ${[...new Uint8Array(event.data.bytes)].join(',')}`);
  };
  port1.postMessage({ n: 0, what: 'plain' });
  port1.postMessage({ n: 1, what: 'plain' });
  port1.postMessage({ n: 2, what: 'carries a port' }, [side1]);
  port1.postMessage({ n: 3, what: 'carries an ArrayBuffer', bytes: buffer }, [buffer]);
  port1.postMessage({ n: 4, what: 'carries two ports' }, [third.port1, third.port2]);
  port1.postMessage({ n: 5, what: 'plain' });
  log.push(`sender's buffer detached: ${buffer.byteLength === 0}`);
  await finished;
  port2.close();
  received.close();
  side.port2.close();
  out('5. transfers in a chain\n' + log.join('\n'));
}
