// differential: node
// expect-exit: 1
// timeout: 30
//
// Spec test for contracts J4 and L5 with same-thread MessagePort chains: a
// chained message's task ends in host.nextPortMessage, which runs the
// microtask checkpoint before it takes the next message. A microtask of that
// checkpoint that throws, with nothing to cancel the error, ends the program
// there with exit code 1: the microtasks queued before it ran, the ones
// after it and the next message's handler never run. Node stops the same
// way, so its stdout must be the same. (A promise reaction that throws is a
// rejection instead: j6_port_chain_rejection_uncaught.mjs.) Expected:
// j6_port_chain_error_uncaught_microtask.stdout (exact) and .stderr.

import { keep } from './lib/keep_channels.mjs';

const { port1, port2 } = keep(new MessageChannel());
port2.onmessage = (event) => {
  const n = event.data;
  console.log(`message ${n}`);
  queueMicrotask(() => console.log(`  microtask ${n}`));
  if (n === 4) {
    queueMicrotask(function throwingMicrotask() {
      throw new RangeError(`j6 chain: thrown by a microtask of message ${n}`);
    });
  }
  queueMicrotask(() => console.log(`  last microtask ${n}`));
};
for (let i = 0; i < 8; i++) port1.postMessage(i);
