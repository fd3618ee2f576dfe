// hostloop-flags: --v8-flags=--expose-gc
// expect-exit: 1
// timeout: 20
//
// Spec test for contract J4: an exception thrown by a FinalizationRegistry
// cleanup callback is reported like any other (HTML
// HostCleanupFinalizationRegistry: "report the exception"): an `error` event
// on the global (which may cancel it), then, not canceled, stderr and exit
// code 1. (V8 printed it on stdout by itself, and the program went on.)
// Expected: j4_errors_finalization.stdout and .stderr.

let canceled = false;
addEventListener('error', (event) => {
  console.log(`J4 finalization: error event: ${event.message}`);
  if (!canceled) {
    canceled = true;
    event.preventDefault();
  }
});
const registry = new FinalizationRegistry((held) => { throw new Error(`thrown in cleanup of ${held}`); });
(() => registry.register({}, 'first'))();
setTimeout(() => {
  gc();
  setTimeout(() => {
    (() => registry.register({}, 'second'))();
    setTimeout(() => gc(), 0);
    setTimeout(() => console.log('J4 must not run: the second error ended the program'), 2000);
  }, 100);
}, 0);
