// expect-exit: 1
// timeout: 60
//
// Spec test for contract J4, the end of a worker error's chain: an exception
// escaping a worker's timer, canceled neither on the worker's global nor at
// the Worker object nor on main's global, is reported by the parent as its
// own uncaught error (`Uncaught Error: ...` and the worker's stack on
// stderr) and the process exits with code 1; nothing of main runs afterwards
// (its later timer does not print).
// https://html.spec.whatwg.org/multipage/workers.html#runtime-script-errors-2
// Expected: workers_j4_uncaught.stdout and .stderr.

const worker = new Worker(new URL('./fixtures/workers/throw_uncaught.mjs', import.meta.url), { type: 'module' });
worker.onerror = (event) => {
  console.log(`the Worker object saw: ${event.message} (line ${event.lineno}), not canceled`);
};
globalThis.addEventListener('error', (event) => {
  console.log('main\'s global saw the worker\'s error, not canceled');
});
setTimeout(() => console.log('J4 must not run: the process has exited'), 5000);
