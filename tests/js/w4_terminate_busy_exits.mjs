// timeout: 60
//
// Spec test for contract W4 (and J3): terminate() stops workers that never
// yield (a while(true) in a message handler, a while(true) in the entry
// script, an endless postMessage flood), returns at once, and once they are
// gone the main program ends by itself. Without termination this file never
// exits (the runner's timeout fails it): a worker that still runs keeps its
// thread, and hostloop joins worker threads at exit.
// https://html.spec.whatwg.org/multipage/workers.html#dom-worker-terminate
// Expected: w4_terminate_busy_exits.stdout.

const url = new URL('./fixtures/workers/spin_forever.mjs', import.meta.url);
const workers = [
  new Worker(url, { type: 'module', name: 'handler' }),
  new Worker(url, { type: 'module', name: 'top-level' }),
  new Worker(url, { type: 'module', name: 'flood' }),
];
workers[0].postMessage('go');

let busy = 0;
for (const worker of workers) {
  worker.onmessage = () => {
    worker.onmessage = null;
    if (++busy < workers.length) return;
    // All three are busy for good now.
    const start = performance.now();
    for (const w of workers) w.terminate();
    const took = performance.now() - start;
    console.log(`terminated ${workers.length} busy workers; terminate() returned ${took < 1000 ? 'at once' : `after ${took} ms`}`);
    for (const w of workers) {
      w.onmessage = () => console.log('a message after terminate() (must not happen)');
      w.onerror = () => console.log('an error after terminate() (must not happen)');
    }
  };
}
