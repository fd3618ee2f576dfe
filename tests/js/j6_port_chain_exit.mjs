// expect-exit: 5
// timeout: 30
//
// hostloop.exit(code) called by a chained MessagePort handler (the chain's
// script, js/messaging.js deliverChainedPortMessage, would go on with the next
// delivery itself) ends the program at once with that code: the rest of the
// handler, its microtasks, the next message of the chain (on this port or
// another) never run. Expected: j6_port_chain_exit.stdout (exact), exit 5.

import { keep } from './lib/keep_channels.mjs';

const a = keep(new MessageChannel());
const b = keep(new MessageChannel());
a.port2.onmessage = (event) => {
  const n = event.data;
  console.log(`a ${n}`);
  queueMicrotask(() => console.log(`  a ${n} microtask`));
  if (n === 2) {
    hostloop.exit(5);
    console.log('must not run: the rest of the handler');
  }
};
b.port2.onmessage = (event) => {
  console.log(`b ${event.data}`);
  queueMicrotask(() => console.log(`  b ${event.data} microtask`));
};
for (let i = 0; i < 5; i++) {
  a.port1.postMessage(i);
  b.port1.postMessage(i);
}
