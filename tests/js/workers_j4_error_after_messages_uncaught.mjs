// expect-exit: 1
// timeout: 60
//
// Spec test for contract J4 with W1's per-sender order: a worker's error
// that nobody cancels ends the parent with code 1, but only after the parent
// got every message the worker posted before the error (they were lost when
// the error overtook them).
// Expected: workers_j4_error_after_messages_uncaught.stdout and .stderr.

const worker = new Worker(new URL('./fixtures/workers/post_then_throw.mjs', import.meta.url), { type: 'module' });
let received = 0;
worker.onmessage = () => {
  if (++received === 5000) console.log('all 5000 messages arrived before the error');
};
