// expect-exit: 1
// timeout: 30
//
// Spec test for contracts J5 (default policy: throw), L3 and L5 with a
// same-thread MessagePort chain, a ping-pong whose every message is posted by
// the last one's handler (the chain goes on across passes of the loop): a
// promise reaction queued by message 2 throws, so its promise is rejected
// with no handler. The rejection is processed when message 2's checkpoint
// ends (all of its microtasks ran): the `unhandledrejection` task is queued
// after message 3, which message 2 posted before its checkpoint (L3), and
// runs before message 4; nobody cancels it, so the error is printed with
// "Uncaught (in promise)" and the program exits 1 right there: message 4
// never runs, nor anything message 3 set up. Expected:
// j6_port_chain_rejection_uncaught.stdout (exact) and .stderr.

import { keep } from './lib/keep_channels.mjs';

addEventListener('unhandledrejection', (event) => {
  console.log(`unhandledrejection ${event.reason.message}`);
});
const { port1, port2 } = keep(new MessageChannel());
const handler = (port) => (event) => {
  const n = event.data;
  console.log(`message ${n}`);
  if (n === 2) {
    Promise.resolve().then(function throwingReaction() {
      throw new RangeError(`j6 chain: thrown by a reaction of message ${n}`);
    });
    queueMicrotask(() => console.log(`  microtask ${n}`));
  }
  if (n === 3) {
    setTimeout(() => console.log('must not run: a timer of message 3'), 0);
    scheduler.postTask(() => console.log('must not run: a task of message 3'));
  }
  port.postMessage(n + 1);
};
port1.onmessage = handler(port1);
port2.onmessage = handler(port2);
port1.postMessage(0);
