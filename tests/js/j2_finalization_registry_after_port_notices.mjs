// hostloop-flags: --v8-flags=--expose-gc
// timeout: 30
//
// Spec test for contracts J2 and L4: FinalizationRegistry cleanup callbacks
// run promptly even when the internal lane holds a few hundred entries (here
// the notices of collected MessagePorts, one per port) and every pass of the
// loop begins with an ordered-lane entry that takes more than the lane's
// time budget (a timer callback that calls gc()). The internal lane's budget
// was counted from the pass's clock reading, so it was spent before the lane
// began: 8 entries a pass, the registry's cleanup task waited behind the
// notices for dozens of passes, and the program ended without it (196 of
// 200 callbacks; a registry made afterwards got none).
// Five turns of the loop are plenty for every callback (a collection, then
// a pass or two whose internal lane runs the notices and the cleanup task;
// counted in turns, not time). At 8 internal entries a pass the old loop
// lost them in about half the runs (how many passes a gc() spans varies);
// the exact check of the budget is loop_test's
// EventLoop.L4InternalBudgetStartsWhenTheLaneDoesNotWhenThePassDid.
// Expected: j2_finalization_registry_after_port_notices.stdout.

let collected = 0;
const registry = new FinalizationRegistry(() => { collected++; });

function channel(last) {
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    registry.register(port1, 1);
    registry.register(port2, 2);
    // Two listeners: the checkpoint between them runs this module's
    // continuation while the port is still on the stack.
    port1.addEventListener('message', () => resolve());
    port1.addEventListener('message', () => {});
    port1.start();
    port2.postMessage(last);
  });
}

for (let i = 0; i < 100; i++) await channel(i === 99);
for (let i = 0; i < 5; i++) {
  gc();
  await new Promise((resolve) => setTimeout(resolve, 0));
}
console.log(`port callbacks: ${collected} of 200`);

let later = 0;
const afterwards = new FinalizationRegistry(() => { later++; });
(() => {
  for (let i = 0; i < 10; i++) afterwards.register({}, i);
})();
for (let i = 0; i < 5; i++) {
  gc();
  await new Promise((resolve) => setTimeout(resolve, 0));
}
console.log(`a later registry's callbacks: ${later} of 10`);
