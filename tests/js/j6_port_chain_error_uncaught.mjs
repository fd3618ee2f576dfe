// differential: node
// expect-exit: 1
// timeout: 30
//
// Spec test for contract J4 with same-thread MessagePort chains (the chain's
// script, js/messaging.js deliverChainedPortMessage, dispatches the next messages
// itself): an exception escaping a chained message's handler, with nothing
// to cancel it, ends the program at once with exit code 1. Nothing of the
// program runs after the throw: not the throwing handler's microtasks, not
// the next message of the chain (nor any later one, on this port or
// another), not a timer or a task. Node stops the same way, so its stdout
// must be the same. Expected: j6_port_chain_error_uncaught.stdout (exact)
// and .stderr.

import { keep } from './lib/keep_channels.mjs';

const { port1, port2 } = keep(new MessageChannel());
const other = keep(new MessageChannel());
port2.onmessage = (event) => {
  const n = event.data;
  console.log(`message ${n}`);
  queueMicrotask(() => console.log(`  microtask ${n}`));
  if (n === 3) {
    setTimeout(() => console.log('must not run: a timer set by the throwing handler'), 0);
    throw new Error(`j6 chain: thrown by message ${n}`);
  }
};
other.port2.onmessage = (event) => console.log(`must not run: other port's message ${event.data}`);
for (let i = 0; i < 8; i++) {
  port1.postMessage(i);
  if (i >= 3) other.port1.postMessage(i);
}
