// expect-exit: 1
//
// Spec test for contract J5 (rejections), default policy (throw): a promise
// rejected without a handler, not canceled by an unhandledrejection
// listener, is reported like an uncaught error (J4): printed to stderr with
// its stack, and the process exits with code 1 before later timers run.
// Expected: j5_rejections_unhandled.stdout and .stderr.

console.log('J5 before');
async function rejectsLater() {
  await null;
  throw new Error('J5 nobody handles me');
}
rejectsLater();
// (Far later than the rejection's report, a task of its own, however loaded
// the machine.)
setTimeout(() => console.log('J5 must not run'), 5000);
