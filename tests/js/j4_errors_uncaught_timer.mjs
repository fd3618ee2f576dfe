// expect-exit: 1
//
// Spec test for contract J4 (errors): an exception escaping a timer callback,
// with no error listener to cancel it, is printed to stderr with its message
// and stack (the file URL and line), and the process exits with code 1;
// nothing of the program runs afterwards (the later timer does not print).
// Expected: j4_errors_uncaught_timer.stdout and .stderr.

console.log('J4 before the throw');
setTimeout(function throwingTimer() {
  throw new Error('J4 boom from a timer');
}, 0);
setTimeout(() => console.log('J4 must not run: the process has exited'), 50);
