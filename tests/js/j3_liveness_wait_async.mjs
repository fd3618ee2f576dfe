// Spec test for contract J3 (liveness): a pending Atomics.waitAsync keeps
// the runtime alive until its promise settles. Nothing else is pending here:
// the top-level await below can only finish because the waitAsync timeout
// (a delayed V8 task) keeps the loop running for 300 ms.
// Expected output: j3_liveness_wait_async.stdout.

const ia = new Int32Array(new SharedArrayBuffer(16));
const started = performance.now();

// Without top-level await: only the pending waitAsync keeps the process up.
Atomics.waitAsync(ia, 1, 0, 150).value.then((value) => {
  console.log('J3 waitAsync (no await) settled:', value);
});

console.log('J3 waiting');
const value = await Atomics.waitAsync(ia, 0, 0, 300).value;
const elapsed = performance.now() - started;
console.log('J3 waitAsync settled after the await:', value);
console.log('J3 not before its 300 ms timeout:', elapsed >= 295);
