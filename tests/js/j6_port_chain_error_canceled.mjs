// timeout: 30
//
// Spec test for contracts J4, L5 and J6 with same-thread MessagePort chains
// (js/messaging.js deliverChainedPortMessage goes on with the next delivery itself):
// an exception escaping a message handler, a second listener, or a microtask
// a handler queued dispatches one `error` event (ErrorEvent, the thrown
// value as its error) on the global per throw, within that message's task;
// with preventDefault() the error is not reported and the chain goes on with
// the next message, in order, with its microtask checkpoints. Checked on a
// chain of one port, and on one that alternates between two ports (the
// chain's other form: the next message is for another port). Where the
// error event falls among the throwing task's microtasks is hostloop's
// order for any task (here: when the exception leaves the listener, before
// the microtasks); message 0, the first of the chain (dispatched before any
// host.nextPortMessage), throws too, and the chained ones must look the
// same. Expected: j6_port_chain_error_canceled.stdout (exact), exit 0 (an
// error not canceled would end the program with 1).

import { keep } from './lib/keep_channels.mjs';

const lines = [];
const log = (line) => lines.push(line);
const thrown = new Map();
addEventListener('error', (event) => {
  event.preventDefault();
  const same = thrown.get(event.message) === event.error;
  log(`  error event: ${event.message} (ErrorEvent ${event instanceof ErrorEvent}, ` +
    `error is the thrown value ${same}, cancelable ${event.cancelable})`);
  queueMicrotask(() => log('    microtask of the error listener'));
});
function boom(text) {
  const error = new Error(text);
  thrown.set(`Uncaught Error: ${text}`, error);
  throw error;
}

// One port, onmessage.
{
  const { port1, port2 } = keep(new MessageChannel());
  const done = new Promise((resolve) => {
    port2.onmessage = (event) => {
      const n = event.data;
      log(`message ${n}`);
      queueMicrotask(() => log(`  microtask ${n}`));
      Promise.resolve().then(() => log(`  reaction ${n}`));
      if (n === 5) resolve();
      if (n <= 2) boom(`thrown by message ${n}`);
      if (n === 3) queueMicrotask(() => boom(`thrown by a microtask of message ${n}`));
    };
  });
  for (let i = 0; i < 6; i++) port1.postMessage(i);
  await done;
  port2.close();
  console.log(`one port\n${lines.join('\n')}`);
  lines.length = 0;
}

// Two ports in turns, two listeners each (addEventListener + start()); the
// first one of port a throws on every other message, the second of b once.
{
  const a = keep(new MessageChannel());
  const b = keep(new MessageChannel());
  const done = new Promise((resolve) => {
    for (const [name, port] of [['a', a.port2], ['b', b.port2]]) {
      port.addEventListener('message', (event) => {
        const n = event.data;
        log(`${name} ${n}: listener 1`);
        queueMicrotask(() => log(`  ${name} ${n}: listener 1 microtask`));
        if (name === 'a' && n % 2 === 1) boom(`thrown by listener 1 of a ${n}`);
      });
      port.addEventListener('message', (event) => {
        const n = event.data;
        log(`${name} ${n}: listener 2`);
        queueMicrotask(() => log(`  ${name} ${n}: listener 2 microtask`));
        if (name === 'b' && n === 2) boom(`thrown by listener 2 of b ${n}`);
        if (name === 'b' && n === 3) resolve();
      });
      port.start();
    }
  });
  for (let i = 0; i < 4; i++) {
    a.port1.postMessage(i);
    b.port1.postMessage(i);
  }
  await done;
  a.port2.close();
  b.port2.close();
  console.log(`two ports in turns\n${lines.join('\n')}`);
}
