// timeout: 60
//
// Spec test for contract W4 (and J3): self.close() finishes the current task
// (the code after close() and the task's microtasks run), a timer the worker
// set before close() never runs, then the worker stops and its parent's
// liveness is released: this program has nothing else to do and must exit
// (a worker that kept running would keep it alive: the runner's timeout).
// Only the worker prints, so the output order is deterministic.
// https://html.spec.whatwg.org/multipage/workers.html#dom-workerglobalscope-close
// Expected: w4_close_releases_parent.stdout.

const worker = new Worker(new URL('./fixtures/workers/close_in_task.mjs', import.meta.url), { type: 'module' });
worker.onmessage = () => {};
worker.postMessage({ ints: new Int32Array(new SharedArrayBuffer(16)), log: true });
