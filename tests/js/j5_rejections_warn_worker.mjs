// hostloop-flags: --unhandled-rejections=warn
//
// Spec test for contract J5 with the warn policy in a worker: the rejection
// is reported as a warning where it happened, the worker runs on, and
// nothing reaches the Worker object (no `error` event; before, the parent
// got one and its own policy for uncaught errors ended the program).
const worker = new Worker(new URL('./fixtures/workers/reject_then_post.mjs', import.meta.url), { type: 'module' });
worker.onerror = (event) => console.log('error event:', event.message);
worker.onmessage = (event) => {
  console.log('main got', event.data);
  worker.terminate();
};
