// hostloop-flags: --unhandled-rejections=warn
//
// Spec test for contract J5: --unhandled-rejections=warn reports unhandled
// rejections on stderr and keeps running (exit 0). The unhandledrejection
// event is still dispatched for each, and rejectionhandled still follows a
// late handler.
// Expected: j5_rejections_mode_warn.stdout and .stderr.

const seen = [];
const finish = () => console.log('J5 warn: still running;', seen.join(', '));
// (Each step is scheduled from the event before it, not by a fixed delay
// from the start: a stall under load must not reorder them.)
addEventListener('unhandledrejection', (event) => {
  seen.push(`unhandled:${event.reason.message}`);
  if (event.reason.message === 'J5 warn first') {
    setTimeout(() => {
      Promise.reject(new TypeError('J5 warn second'));
    }, 5);
  } else {
    setTimeout(() => {
      first.catch(() => {});
    }, 5);
  }
});
addEventListener('rejectionhandled', (event) => {
  seen.push(`handled:${event.reason.message}`);
  setTimeout(finish, 10);
});
const first = Promise.reject(new Error('J5 warn first'));
