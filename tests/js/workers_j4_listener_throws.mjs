// timeout: 20
//
// Spec test for contract J4 in a worker: an exception thrown by the worker's
// own error handler is reported to the console only (HTML "error reporting
// mode": the worker's stderr), not sent to the Worker object as a second
// ErrorEvent; the error the handler did not cancel goes up as usual, and the
// worker goes on.
// Expected: workers_j4_listener_throws.stdout and .stderr.

const worker = new Worker(new URL('./fixtures/workers/onerror_throws.mjs', import.meta.url), { type: 'module' });
worker.onerror = (event) => {
  console.log(`the Worker object saw: ${event.message}`);
  event.preventDefault();
};
worker.onmessage = (event) => {
  console.log(event.data);
  worker.terminate();
};
