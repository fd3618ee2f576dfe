// expect-exit: 1
// timeout: 30
//
// Spec test for contract J4 with same-thread MessagePort chains that
// alternate between two ports (each next message is for the other port:
// host.nextPortMessage hands over [end, target, data, ports]), two listeners
// per port (addEventListener + start()): the second listener of a chained
// message throws; the global `error` event fires (its listener does not
// cancel it), the error is printed, and the program exits 1 at once. What
// ran before stays (listener 1's microtask ran before listener 2, HTML
// "clean up after running a callback"); nothing after: not the throwing
// listener's microtask, not the next message (for the other port), not a
// timer. Expected: j6_port_chain_error_uncaught_listener.stdout (exact) and
// .stderr.

import { keep } from './lib/keep_channels.mjs';

addEventListener('error', (event) => {
  console.log(`error event: ${event.message}, cancelable ${event.cancelable}`);
  queueMicrotask(() => console.log('must not run: a microtask of the error listener'));
});
const a = keep(new MessageChannel());
const b = keep(new MessageChannel());
for (const [name, port] of [['a', a.port2], ['b', b.port2]]) {
  port.addEventListener('message', (event) => {
    console.log(`${name} ${event.data}: listener 1`);
    queueMicrotask(() => console.log(`  ${name} ${event.data}: listener 1 microtask`));
  });
  port.addEventListener('message', (event) => {
    console.log(`${name} ${event.data}: listener 2`);
    queueMicrotask(() => console.log(`  ${name} ${event.data}: listener 2 microtask`));
    if (name === 'b' && event.data === 2) {
      setTimeout(() => console.log('must not run: a timer'), 0);
      throw new TypeError(`j6 chain: thrown by listener 2 of ${name} ${event.data}`);
    }
  });
  port.start();
}
for (let i = 0; i < 5; i++) {
  a.port1.postMessage(i);
  b.port1.postMessage(i);
}
