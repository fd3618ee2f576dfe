// hostloop-flags: --unhandled-rejections=none
//
// Spec test for contract J5: --unhandled-rejections=none ignores unhandled
// rejections: the program keeps running and exits with code 0.
// Expected output: j5_rejections_mode_none.stdout.

Promise.reject(new Error('J5 ignored 1'));
setTimeout(() => {
  Promise.reject(new Error('J5 ignored 2'));
  (async () => { throw new Error('J5 ignored 3'); })();
}, 5);
setTimeout(() => console.log('J5 none: still running after three unhandled rejections'), 40);
// No unhandledrejection fires in this mode, so no rejectionhandled may
// follow when a handler comes late (it fired alone).
addEventListener('unhandledrejection', () => console.log('J5 none: unexpected unhandledrejection'));
addEventListener('rejectionhandled', () => console.log('J5 none: unexpected rejectionhandled'));
const late = Promise.reject(new Error('J5 handled late'));
setTimeout(() => late.catch(() => {}), 10);
