// hostloop-flags: --uncaught-errors=warn
//
// Spec test for contract J4: with --uncaught-errors=warn an uncaught error is
// reported (stderr, with its stack) and the program keeps running, as in a
// browser: later timers run and the exit code is 0. The error event is still
// dispatched first.
// Expected: j4_errors_warn.stdout and .stderr.

let events = 0;
addEventListener('error', () => { events++; });
setTimeout(function firstThrow() {
  throw new Error('J4 warn: first');
}, 0);
queueMicrotask(() => {
  throw new TypeError('J4 warn: from a microtask');
});
setTimeout(function secondThrow() {
  throw new RangeError('J4 warn: second');
}, 10);
setTimeout(() => {
  console.log('J4 warn: later timer ran; error events seen:', events);
}, 30);
