// expect-exit: 13
// timeout: 20
//
// Spec test for contract J3 (liveness): a top-level await that can never
// settle ends the process with a clear error and exit code 13 (README: exit
// codes). The promise below could have been resolved by a timer, but that
// timer is cleared, so nothing left in the program can resolve it.
// Expected: j3_liveness_tla_never.stdout and .stderr.

let resolveLater;
const never = new Promise((resolve) => { resolveLater = resolve; });
const id = setTimeout(() => resolveLater('too late'), 50);
clearTimeout(id);
// Work that does finish still runs first.
setTimeout(() => console.log('J3 tla: an unrelated timer still ran'), 20);
console.log('J3 tla: awaiting');
await never;
console.log('J3 tla: unreachable');
