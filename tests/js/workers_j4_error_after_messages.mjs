// timeout: 60
//
// Spec test for contract J4 with W1's per-sender order: a worker's uncaught
// error reaches the Worker object after every message the worker posted
// before it ("post the result, then fail"). The error rides the same queue
// as the messages; before, it took a shortcut and overtook most of them.
// Expected: workers_j4_error_after_messages.stdout.

const worker = new Worker(new URL('./fixtures/workers/post_then_throw.mjs', import.meta.url), { type: 'module' });
let received = 0;
let inOrder = true;
worker.onmessage = (event) => {
  if (event.data !== received) inOrder = false;
  received++;
};
worker.onerror = (event) => {
  event.preventDefault();
  console.log(`error event: ${event.message}, after ${received} messages, in order: ${inOrder}`);
  worker.terminate();
};
