// hostloop-flags: --v8-flags=--expose-gc
// timeout: 10
//
// Spec test for contract J3 (liveness): V8's own housekeeping tasks (GC,
// memory reducer, compile jobs) never keep the runtime alive. After a burst
// of garbage and gc() calls the program has nothing left to do, so the
// process exits at once with code 0 (the runner's timeout above fails the
// test if it lingers; V8's memory reducer alone would wait ~8 s).
// Expected output: j3_liveness_housekeeping.stdout.

const keep = [];
for (let round = 0; round < 20; round++) {
  let garbage = [];
  for (let i = 0; i < 20000; i++) garbage.push({ i, s: `string ${i}`, a: new Array(8).fill(i) });
  keep.push(garbage.length);
  garbage = null;
  gc();
}
// A few hot functions, so V8 may queue optimization jobs.
function hot(x) { return x * 2 + 1; }
let sum = 0;
for (let i = 0; i < 1e6; i++) sum += hot(i);
// Weak references whose targets were never collected keep nothing alive.
const registry = new FinalizationRegistry(() => {});
const target = {};
registry.register(target, 'never collected while the program runs');
const ref = new WeakRef(target);

console.log('J3 housekeeping: rounds', keep.length, 'sum', sum > 0, 'ref', ref.deref() === target);
console.log('J3 housekeeping: end of program');
