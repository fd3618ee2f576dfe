// timeout: 15
//
// Spec test for contract J5 at scale: 100,000 promises rejected in one task
// and handled later in the same task (in reverse order, then in a shuffled
// order) are all "handled" at the checkpoint: no unhandledrejection event,
// exit code 0. The tracker finds each promise without a scan: with a linear
// search this file took ~20-50 s here (it now takes well under a second;
// the runner's timeout is the generous bound).
// Expected: j5_rejections_many.stdout.

let events = 0;
addEventListener('unhandledrejection', () => { events++; });

const N = 100_000;
function rejectAll() {
  const promises = [];
  for (let i = 0; i < N; i++) promises.push(Promise.reject(new Error(`r${i}`)));
  return promises;
}
let handled = 0;
const count = () => { handled++; };

const reversed = rejectAll();
for (let i = N - 1; i >= 0; i--) reversed[i].catch(count);

const shuffled = rejectAll();
let seed = 12345;
const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
for (let i = N - 1; i > 0; i--) {
  const j = Math.floor(random() * (i + 1));
  [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
}
for (const promise of shuffled) promise.catch(count);

setTimeout(() => console.log(`J5 many: ${handled} handled, ${events} unhandledrejection events`), 0);
