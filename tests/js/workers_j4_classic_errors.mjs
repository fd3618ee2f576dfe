// Spec tests for contract J4 in classic workers
// (https://html.spec.whatwg.org/multipage/workers.html#runtime-script-errors-2):
//  - an uncaught error in a classic worker after its script loaded reaches
//    the Worker object as a cancelable ErrorEvent with message and location
//    (it came as a plain Event, reported as "could not be loaded": a classic
//    worker's main state never left "not started");
//  - reporting an error runs none of the thrown value's getters or methods
//    (the worker read stack, name and message through getters).
// Expected: workers_j4_classic_errors.stdout.

const classic = new Worker(new URL('./fixtures/workers/classic_throws.js', import.meta.url), { type: 'classic' });
await new Promise((resolve) => {
  let seen = 0;
  classic.onerror = (event) => {
    const file = event.filename.slice(event.filename.lastIndexOf('/') + 1);
    console.log(`${event.constructor.name} cancelable=${event.cancelable}: ${event.message} at ${file}:${event.lineno}:${event.colno}`);
    event.preventDefault();
    if (++seen === 2) resolve();
  };
});
classic.terminate();

const getters = new Worker(new URL('./fixtures/workers/report_getters.js', import.meta.url), { type: 'classic' });
const [message, error] = await Promise.all([
  new Promise((resolve) => { getters.onmessage = (event) => resolve(event.data); }),
  new Promise((resolve) => {
    getters.onerror = (event) => {
      event.preventDefault();
      resolve(`${event.constructor.name}: ${event.message}`);
    };
  }),
]);
getters.terminate();
console.log(error);
console.log(message);
