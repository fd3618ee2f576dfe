// expect-exit: 1
//
// Spec test for contract J4 with the default policy: the error listener
// cancels the original error but throws one of its own. That second error is
// reported without a second dispatch (no recursion, HTML "in error reporting
// mode"); nobody can cancel it, so it is printed and the process exits 1.
// Expected: j4_errors_listener_throws_default.stdout and .stderr.

let calls = 0;
addEventListener('error', (event) => {
  calls++;
  console.log('J4 listener call', calls, 'for', event.error.message);
  event.preventDefault();
  throw new Error('J4 thrown by the error listener');
});
setTimeout(() => {
  throw new Error('J4 original');
}, 0);
setTimeout(() => console.log('J4 must not run'), 50);
