// expect-exit: 1
// timeout: 10
//
// Spec test for contract J4 with the default policy: an error listener that
// does not cancel the error but throws one of its own. Both are reported on
// stderr, the listener's first (without a second dispatch), then the
// original error in full, and the process exits 1. (The original was printed
// as a bare "Uncaught ": the runtime stopped at the first report.)
// Expected: j4_errors_listener_throws_uncanceled.stderr.

self.onerror = () => { throw new Error('J4 thrown by onerror'); };
setTimeout(() => { throw new Error('J4 original, not canceled'); }, 0);
setTimeout(() => console.log('J4 must not run'), 50);
