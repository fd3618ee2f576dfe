// timeout: 30
//
// Spec test for contract W4: self.close() finishes the current task, then
// stops. What that task (and its microtasks) posts after close() still
// reaches the Worker object (HTML: close() only sets the closing flag; the
// worker's port is disentangled when the worker has ended), a timer it set
// never runs, and the program then exits.
// https://html.spec.whatwg.org/multipage/workers.html#dom-workerglobalscope-close
// Expected: w4_close_posts_of_closing_task.stdout.

const worker = new Worker(new URL('./fixtures/workers/post_around_close.mjs', import.meta.url), { type: 'module' });
worker.onmessage = (event) => console.log(event.data);
