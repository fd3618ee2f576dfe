// timeout: 60
//
// Spec test for J4's load-failure case: a worker script that cannot be
// fetched is not a runtime script error. HTML "run a worker": "If the
// algorithm asynchronously completes with null or with a script whose error
// to rethrow is non-null, then queue a global task on the DOM manipulation
// task source given worker's relevant global object to fire an event named
// error at worker" -- a plain Event (not a cancelable ErrorEvent), and no
// error reporting follows: the parent program does not die of it, whether or
// not anybody listens.
// https://html.spec.whatwg.org/multipage/workers.html#run-a-worker
// Expected: workers_j4_load_failure_unhandled.stdout (and exit code 0).

const missing = new URL('./fixtures/workers/no_such_worker.mjs', import.meta.url);

// With a listener that does not cancel (it could not: the event is not
// cancelable).
const observed = new Worker(missing, { type: 'module' });
observed.onerror = (event) => {
  console.log(`error event at the Worker object: ${event.constructor.name}, cancelable ${event.cancelable}`);
};

// And with no listener at all.
new Worker(missing, { type: 'module' });

setTimeout(() => console.log('the parent is still running'), 300);
