// expect-exit: 1
//
// Spec test for contracts J4/J5: an `unhandledrejection` listener that
// throws. The listener's error is reported (HTML "report an exception"),
// and so is the rejection, which no listener canceled; then the default
// policies stop the program with exit code 1. The listener's error used to
// stop the program in the middle of the rejection's report, which then
// printed "Uncaught (in promise) " with the reason missing.
// Expected: j5_rejections_listener_throws.stderr.

addEventListener('unhandledrejection', () => {
  throw new Error('the listener threw');
});
Promise.reject(new Error('the rejection reason'));
