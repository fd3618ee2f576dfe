// timeout: 10
//
// Contract J3: an Atomics.waitAsync call that fails with a stack overflow
// must not leave the runtime held alive. The runtime's wrapper takes a
// liveness reference for every waiting call; when the bookkeeping after V8's
// waitAsync overflowed the stack, the caller got the RangeError and the
// reference was never released: the process never exited.
// Calls are made at every depth on the way back up from a stack overflow,
// so some of them fail at each step of the wrapper. Every wait has a 10 ms
// timeout; the process must exit once they and the timer below are done.
// Expected: j3_liveness_wait_async_stack_overflow.stdout (and exit 0).

const ia = new Int32Array(new SharedArrayBuffer(4));
let successes = 0;
let rangeErrors = 0;
let otherErrors = 0;
function waitHere() {
  Atomics.waitAsync(ia, 0, 0, 10);
}
// Each call of waitHere with k more arguments starts 8 * k bytes deeper, so
// the calls of one level sweep the stack left in steps of 8 bytes: some fail
// at every point of the wrapper, whatever the frame sizes.
const padding = [];
for (let k = 0; k <= 64; k++) padding.push(new Array(k).fill(0));
function recurse() {
  try {
    recurse();
  } catch (error) {
    // Hundreds of levels fail outright (waitAsync needs several KB of
    // stack); the levels just above them are the ones of interest.
    if (successes < 200) {
      for (const args of padding) {
        try {
          Reflect.apply(waitHere, undefined, args);
          successes++;
        } catch (e) {
          if (e instanceof RangeError) rangeErrors++;
          else otherErrors++;
        }
      }
    }
    throw error;
  }
}
try {
  recurse();
} catch {}
console.log(`J3 waitAsync at the stack limit: some failed with RangeError: ${rangeErrors > 0}; other errors: ${otherErrors}`);
setTimeout(() => console.log('J3 waitAsync at the stack limit: every wait settled; the process exits'), 50);
