// expect-exit: 1
// timeout: 10
//
// Spec test for contract J4: a thrown value that is not an Error, uncaught,
// is reported on stderr with where it was thrown (it has no stack of its
// own; the location printed was none, or inside hostloop's errors.js).
// Expected: j4_errors_uncaught_string.stderr.

setTimeout(() => { throw 'a string, not an Error'; }, 0);
