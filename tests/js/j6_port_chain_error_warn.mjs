// hostloop-flags: --uncaught-errors=warn
// timeout: 30
//
// Spec test for contract J4 with --uncaught-errors=warn and same-thread
// MessagePort chains: each exception escaping a chained handler (or a
// microtask of one) is reported on stderr, in order, and the chain goes on
// with the next message, its microtasks still in their place; the exit code
// is 0. Expected: j6_port_chain_error_warn.stdout (exact) and .stderr.

import { keep } from './lib/keep_channels.mjs';

const { port1, port2 } = keep(new MessageChannel());
port2.onmessage = (event) => {
  const n = event.data;
  console.log(`message ${n}`);
  queueMicrotask(() => console.log(`  microtask ${n}`));
  if (n === 1 || n === 3) throw new Error(`j6 chain warn: thrown by message ${n}`);
  if (n === 4) {
    queueMicrotask(() => {
      throw new TypeError(`j6 chain warn: thrown by a microtask of message ${n}`);
    });
    queueMicrotask(() => console.log(`  microtask ${n} after the throwing one`));
  }
  if (n === 6) port2.close();
};
for (let i = 0; i < 7; i++) port1.postMessage(i);
