// timeout: 30
//
// Spec test for contracts L3, L5 and J6 with same-thread MessagePort chains
// (js/messaging.js deliverChainedPortMessage dispatches the deliveries the loop
// would run next without returning, host.nextPortMessage): the order must be
// the one the ordered lane gives one task per message. Expected:
// j6_port_chain_order.stdout (exact).
//  1. setTimeout(0) and scheduler.postTask from a handler run after the
//     messages posted before them and before those posted after them (L3);
//     queueMicrotask and promise reactions of a handler run before the next
//     message's handler (L5).
//  2. Two channels whose posts interleave are delivered in posting order,
//     with a timer posted between them running between them (one ordered
//     lane, L3); a timer cleared by a chained handler never runs.
//  3. Two ping-pongs at once, each between the two ends of its channel:
//     the four targets take turns in posting order.
//  4. Messages that transfer ports in the middle of a chain; what the
//     transferred ports receive comes after what was queued before it;
//     chained messages keep the event's shape (data undefined stays
//     undefined, trusted, frozen ports, source null).
//  5. addEventListener('message') + start() with two listeners: a
//     listener's microtasks run before the next listener of the same
//     message (HTML "clean up after running a callback"), for every message
//     of the chain, and one queued by listener 1 can stop listener 2.
// The HTML-only part of this also runs under node: j6_port_chain_standard.mjs.

import { keep } from './lib/keep_channels.mjs';

const lines = [];
const log = (line) => lines.push(line);
function section(title) {
  console.log(`${title}\n  ${lines.join('\n  ')}`);
  lines.length = 0;
}
function deferred() {
  let resolve;
  const promise = new Promise((r) => { resolve = r; });
  return { promise, resolve };
}

// 1.
{
  const end = deferred();
  const { port1, port2 } = keep(new MessageChannel());
  port2.onmessage = (event) => {
    const n = event.data;
    log(`message ${n}`);
    queueMicrotask(() => log(`  microtask ${n}`));
    Promise.resolve().then(() => log(`  reaction ${n}`)).then(() => log(`  second reaction ${n}`));
    if (n === 1) {
      port1.postMessage('posted by 1 before the timer');
      setTimeout(() => {
        log('timeout 0 set by message 1');
        queueMicrotask(() => log('  microtask of the timeout'));
      }, 0);
      scheduler.postTask(() => log('postTask from message 1'));
      port1.postMessage('posted by 1 after the timer and the task');
    }
    if (n === 3) {
      setTimeout(() => log('timeout 0 set by message 3'), 0);
      scheduler.postTask(() => {
        log('postTask from message 3');
        port1.postMessage('posted by the task');
      });
    }
    if (n === 'posted by the task') setTimeout(end.resolve, 0);
  };
  for (let i = 0; i < 5; i++) port1.postMessage(i);
  await end.promise;
  port2.close();
  section('1. timers and tasks posted from chained handlers');
}

// 2.
{
  const end = deferred();
  const a = keep(new MessageChannel());
  const b = keep(new MessageChannel());
  a.port2.onmessage = (event) => {
    log(`a ${event.data}`);
    Promise.resolve().then(() => log(`  a ${event.data} reaction`));
  };
  b.port2.onmessage = (event) => {
    log(`b ${event.data}`);
    Promise.resolve().then(() => log(`  b ${event.data} reaction`));
    if (event.data === 1) clearTimeout(cleared);
    if (event.data === 4) setTimeout(end.resolve, 0);
  };
  let cleared;
  for (let i = 0; i < 5; i++) {
    a.port1.postMessage(i);
    if (i === 1) setTimeout(() => log('timeout posted between a 1 and b 1'), 0);
    if (i === 2) cleared = setTimeout(() => log('the cleared timeout ran'), 0);
    if (i === 3) scheduler.postTask(() => log('postTask posted between a 3 and b 3'));
    b.port1.postMessage(i);
  }
  await end.promise;
  a.port2.close();
  b.port2.close();
  section('2. two channels, with a timer and a task between their posts');
}

// 3.
{
  const end = deferred();
  const channels = [keep(new MessageChannel()), keep(new MessageChannel())];
  let finished = 0;
  channels.forEach(({ port1, port2 }, c) => {
    for (const [name, port] of [['port1', port1], ['port2', port2]]) {
      port.onmessage = (event) => {
        const n = event.data;
        log(`channel ${c} ${name} got ${n}`);
        queueMicrotask(() => log(`  channel ${c} ${name} microtask ${n}`));
        if (n < 5) port.postMessage(n + 1);
        else if (++finished === 2) setTimeout(end.resolve, 0);
      };
    }
  });
  channels[0].port1.postMessage(0);
  channels[1].port2.postMessage(0);
  await end.promise;
  for (const { port1, port2 } of channels) {
    port1.close();
    port2.close();
  }
  section('3. two ping-pongs between the ends of their channels');
}

// 4.
{
  const end = deferred();
  const { port1, port2 } = keep(new MessageChannel());
  const extra = [keep(new MessageChannel()), keep(new MessageChannel()), keep(new MessageChannel())];
  const received = [];
  const describe = (event) => {
    const data = event.data === undefined ? 'undefined' : JSON.stringify(event.data);
    return `data ${data}, ${event.ports.length} port(s), trusted ${event.isTrusted}, ` +
      `frozen ports ${Object.isFrozen(event.ports)}, source ${event.source}, target ${event.target === port2}`;
  };
  port2.onmessage = (event) => {
    log(describe(event));
    queueMicrotask(() => log('  microtask'));
    for (const port of event.ports) {
      const index = received.length;
      received.push(port);
      port.onmessage = (e) => {
        log(`received port ${index} got ${e.data}`);
        if (e.data === 'last') setTimeout(end.resolve, 0);
      };
    }
    // The partners post at once: after the main messages queued already.
    if (event.ports.length > 0) extra[0].port2.postMessage(`from partner 0 during ${JSON.stringify(event.data)}`);
  };
  port1.postMessage(0);
  port1.postMessage(undefined);
  port1.postMessage({ carries: 'one port' }, [extra[0].port1]);
  port1.postMessage([1, [2, 'three']]);
  extra[1].port2.postMessage('queued before its transfer');
  port1.postMessage(null, [extra[1].port1, extra[2].port1]);
  port1.postMessage('after the transfers');
  await new Promise((resolve) => setTimeout(resolve, 0));
  extra[2].port2.postMessage('last');
  await end.promise;
  port2.close();
  for (const port of received) port.close();
  section('4. transfers in the middle of a chain');
}

// 5.
{
  const end = deferred();
  const { port1, port2 } = keep(new MessageChannel());
  const second = (event) => {
    log(`${event.data}: listener 2`);
    queueMicrotask(() => log(`  ${event.data}: listener 2 microtask`));
    if (event.data === 'm3') setTimeout(end.resolve, 0);
  };
  port2.addEventListener('message', (event) => {
    log(`${event.data}: listener 1`);
    queueMicrotask(() => log(`  ${event.data}: listener 1 microtask`));
    Promise.resolve().then(() => log(`  ${event.data}: listener 1 reaction`));
    // Queued by listener 1 and run before listener 2: that stops it.
    if (event.data === 'm1') queueMicrotask(() => event.stopImmediatePropagation());
  });
  port2.addEventListener('message', second);
  for (let i = 0; i < 4; i++) port1.postMessage(`m${i}`);
  port2.start();
  await end.promise;
  port2.close();
  section('5. two listeners, microtasks between them');
}

// 6. Long chains, checked by program: a batch of 3000 messages posted at
// once, every 100th handler posting a message, a setTimeout(0), a
// scheduler.postTask and another message; and a ping-pong of 3000 messages
// whose every 7th handler sets a setTimeout(0) before it posts the next
// message and every 11th posts a scheduler.postTask after it. Each timer and
// task runs after everything posted before it and before everything posted
// after it; each handler's microtask runs before the next handler.
{
  const total = 3000;
  const seen = [];
  const expected = [];
  const { port1, port2 } = keep(new MessageChannel());
  let pendingMicrotask = null;
  const record = (entry) => {
    if (pendingMicrotask !== null) seen.push(`missing microtask of ${pendingMicrotask}`);
    seen.push(entry);
  };
  await new Promise((resolve) => {
    port2.onmessage = (event) => {
      const n = event.data;
      record(n);
      pendingMicrotask = n;
      queueMicrotask(() => { pendingMicrotask = null; });
      if (typeof n === 'number' && n % 100 === 0) {
        port1.postMessage(`${n} before`);
        setTimeout(() => record(`${n} timeout`), 0);
        scheduler.postTask(() => record(`${n} task`));
        port1.postMessage(`${n} after`);
      }
      if (n === `${total - 100} after`) resolve();
    };
    for (let i = 0; i < total; i++) {
      port1.postMessage(i);
      expected.push(i);
    }
    for (let i = 0; i < total; i += 100) expected.push(`${i} before`, `${i} timeout`, `${i} task`, `${i} after`);
  });
  port2.close();
  const mismatch = seen.findIndex((entry, i) => entry !== expected[i]);
  console.log(`6a. a batch of ${total}: ${seen.length === expected.length && mismatch < 0 ? 'in order' :
    `out of order at ${mismatch}: ${JSON.stringify(seen.slice(Math.max(0, mismatch - 3), mismatch + 4))}, ` +
    `expected ${JSON.stringify(expected.slice(Math.max(0, mismatch - 3), mismatch + 4))}`}`);
}
{
  const total = 3000;
  const seen = [];
  const expected = [];
  const channel = keep(new MessageChannel());
  let pendingMicrotask = null;
  const record = (entry) => {
    if (pendingMicrotask !== null) seen.push(`missing microtask of ${pendingMicrotask}`);
    seen.push(entry);
  };
  await new Promise((resolve) => {
    const handler = (port) => (event) => {
      const n = event.data;
      record(n);
      pendingMicrotask = n;
      Promise.resolve().then(() => { pendingMicrotask = null; });
      if (n === total) {
        resolve();
        return;
      }
      if (n % 7 === 0) setTimeout(() => record(`${n} timeout`), 0);
      port.postMessage(n + 1);
      if (n % 11 === 0) scheduler.postTask(() => record(`${n} task`));
    };
    channel.port1.onmessage = handler(channel.port1);
    channel.port2.onmessage = handler(channel.port2);
    channel.port1.postMessage(0);
  });
  channel.port1.close();
  channel.port2.close();
  // Message n posts n + 1, so: n, then its timeout, then n + 1, then its
  // task (both were posted before n + 1's handler posted n + 2).
  for (let n = 0; n <= total; n++) {
    expected.push(n);
    if (n > 0 && (n - 1) % 11 === 0) expected.push(`${n - 1} task`);
    if (n < total && n % 7 === 0) expected.push(`${n} timeout`);
  }
  const mismatch = seen.findIndex((entry, i) => entry !== expected[i]);
  console.log(`6b. a ping-pong of ${total}: ${seen.length === expected.length && mismatch < 0 ? 'in order' :
    `out of order at ${mismatch}: ${JSON.stringify(seen.slice(Math.max(0, mismatch - 3), mismatch + 4))}, ` +
    `expected ${JSON.stringify(expected.slice(Math.max(0, mismatch - 3), mismatch + 4))}`}`);
}
