// hostloop-flags: --uncaught-errors=warn
//
// Spec test for contract J4: an error thrown inside an `error` listener does
// not recurse forever. HTML "report an exception" sets the global's "in error
// reporting mode" while the event is dispatched, so the listener's own
// exception is only reported to the console, never dispatched again.
// With --uncaught-errors=warn the program then goes on (exit 0).
// Expected: j4_errors_listener_throws.stdout and .stderr.

let calls = 0;
addEventListener('error', (event) => {
  calls++;
  event.preventDefault();
  throw new Error(`J4 thrown by the error listener (call ${calls})`);
});
setTimeout(() => {
  throw new Error('J4 original error 1');
}, 0);
setTimeout(() => {
  throw new Error('J4 original error 2');
}, 5);
setTimeout(() => {
  console.log('J4 listener calls:', calls);
}, 30);
