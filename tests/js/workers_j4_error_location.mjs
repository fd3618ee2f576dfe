// timeout: 30
//
// Spec test for contract J4: the ErrorEvent a Worker object gets carries the
// location where the worker's error happened (HTML runtime script errors:
// the worker's message, filename, lineno and colno), also for a thrown value
// that is not an Error, and also when it comes up from a nested worker
// through an intermediate worker that cancels nothing. (They were reported
// at hostloop's own errors.js, where the report was printed.)
// Expected: workers_j4_error_location.stdout.

const base = new URL('./fixtures/workers/', import.meta.url).href;
const where = (event) => `${event.message} at ${event.filename.replace(base, '')}:${event.lineno}:${event.colno}`;

const seen = [];
function watch(worker, count) {
  return new Promise((resolve) => {
    worker.onerror = (event) => {
      event.preventDefault();
      seen.push(where(event));
      if (--count === 0) {
        worker.terminate();
        resolve();
      }
    };
  });
}
await watch(new Worker(`${base}throw_values.mjs`, { type: 'module' }), 1);
await watch(new Worker(`${base}nest_throw.mjs`, { type: 'module' }), 2);
for (const line of seen) console.log(line);
