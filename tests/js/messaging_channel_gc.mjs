// hostloop-flags: --v8-flags=--expose-gc
// timeout: 20
//
// A MessageChannel whose ports nobody references is garbage at once, even
// with a listener and a message posted on it: neither port is held by the
// runtime (a port whose partner is in another runtime is). The first port
// of a new channel was held strongly until a notification ran in a later
// task, and a loop creating channels faster than those ran grew without
// bound (RSS past 2 GB).
// Expected: messaging_channel_gc.stdout.

let collected = 0;
const registry = new FinalizationRegistry(() => { collected++; });
(() => {
  for (let i = 0; i < 1000; i++) {
    const { port1, port2 } = new MessageChannel();
    port2.onmessage = () => {};
    port1.postMessage(i);
    registry.register(port1, i);
  }
})();
gc();  // in the same task: the channels are unreachable already
setTimeout(() => {
  gc();
  setTimeout(() => console.log(`first ports collected: ${collected >= 900}`), 50);
}, 0);
