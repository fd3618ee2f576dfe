// hostloop-flags: --unhandled-rejections=throw
// expect-exit: 1
//
// Spec test for contract J5: --unhandled-rejections=throw (the default,
// spelled out) reports an unhandled rejection and exits with code 1. A
// rejection canceled by an unhandledrejection listener is not reported; the
// first one that is not canceled ends the program.
// Expected: j5_rejections_mode_throw.stdout and .stderr.

let canceled = 0;
addEventListener('unhandledrejection', (event) => {
  if (event.reason === 'J5 cancel me') {
    canceled++;
    event.preventDefault();
    // (Scheduled from here, not next to the rejection: a stall of more
    // than the timer's 10 ms before the rejection's task was queued let
    // the timer run first, "canceled so far 0", under load.)
    setTimeout(() => {
      console.log('J5 throw: canceled so far', canceled);
      Promise.reject('J5 throw-mode reason');
    }, 10);
  }
});
Promise.reject('J5 cancel me');
// (Far later than the rejection's report, a task of its own, however loaded
// the machine: under load a 60 ms timer was once due first.)
setTimeout(() => console.log('J5 throw: must not run'), 5000);
