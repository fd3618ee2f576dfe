// hostloop-flags: --uncaught-errors=warn
// timeout: 60
//
// Spec test for contract J4 in workers: a DOMException escaping a worker's
// timer is reported all along the chain as "Uncaught AbortError: message"
// (Chrome's text): by the worker's global error event, the Worker object's
// ErrorEvent and, uncanceled, the parent's own report, whose error keeps the
// DOMException's name and message and whose stderr text shows them and the
// worker's stack. Each message used to be "Uncaught " alone (V8 does not
// call the name and message getters of a DOMException), and the parent's
// error was a plain Error without either.
// https://html.spec.whatwg.org/multipage/workers.html#runtime-script-errors-2
// Expected: workers_j4_domexception.stdout and .stderr.

const worker = new Worker(new URL('./fixtures/workers/throw_domexception.mjs', import.meta.url), { type: 'module' });
worker.onmessage = (event) => console.log(event.data);
worker.onerror = (event) => {
  console.log(`the Worker object saw: ${event.message} (line ${event.lineno}), not canceled`);
};
globalThis.addEventListener('error', (event) => {
  const { name, message } = event.error;
  console.log(`main's global saw: ${event.message}; its error: ${name}: ${message}`);
  worker.terminate();
});
