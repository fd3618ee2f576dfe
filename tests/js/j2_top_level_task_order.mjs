// hostloop-flags: --v8-flags=--expose-gc
//
// Spec test for contracts J2 and L3: the main module (and a worker's entry
// module) is evaluated as a task, the loop's first entry, so what it
// schedules takes its turn exactly as when a task schedules it: V8's tasks
// (a waitAsync notified, FinalizationRegistry cleanup) run before a
// setTimeout(0) set after them. The module used to be evaluated before the
// loop's first pass, whose snapshot then held the timer, which ran first.
// Expected: j2_top_level_task_order.stdout.

const order = [];
const ints = new Int32Array(new SharedArrayBuffer(8));
Atomics.waitAsync(ints, 0, 0).value.then(() => order.push('waitAsync'));
Atomics.notify(ints, 0);
const registry = new FinalizationRegistry((held) => order.push(held));
(function () {
  registry.register({}, 'cleanup');
})();
gc();
setTimeout(() => {
  order.push('timeout 0');
  console.log('main:', order.join(' -> '));
  // The same from inside a task, for comparison.
  const inTask = [];
  Atomics.waitAsync(ints, 1, 0).value.then(() => inTask.push('waitAsync'));
  Atomics.notify(ints, 1);
  setTimeout(() => {
    inTask.push('timeout 0');
    console.log('task:', inTask.join(' -> '));
    const worker = new Worker(new URL('./fixtures/workers/top_level_order.mjs', import.meta.url), { type: 'module' });
    worker.onmessage = (event) => {
      console.log('worker:', event.data);
      worker.terminate();
    };
  }, 0);
}, 0);
