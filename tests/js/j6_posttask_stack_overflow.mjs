// timeout: 10
//
// Contract J6 / J5: scheduler.postTask called at the stack limit. Its
// promise's executor could not run, so the promise was rejected with the
// RangeError and dropped (an unhandled rejection: exit 1 although the
// program handled everything it was given), and postTask then threw
// "TypeError: reject is not a function". Now the caller gets that rejected
// promise (or a synchronous RangeError), and nothing else.
// Expected: j6_posttask_stack_overflow.stdout (and exit 0).

const errors = new Set();
let rejections = 0;
let calls = 0;
function recurse() {
  try {
    recurse();
  } catch (error) {
    if (calls < 400) {
      calls++;
      try {
        scheduler.postTask(() => {}).catch((reason) => {
          if (reason instanceof RangeError) rejections++;
          else errors.add(`rejected with ${reason}`);
        });
      } catch (e) {
        errors.add(e.constructor.name);
      }
    }
    throw error;
  }
}
try {
  recurse();
} catch {}
setTimeout(() => {
  console.log(`J6 postTask at the stack limit: errors other than RangeError: ${[...errors].filter((e) => e !== 'RangeError').join(', ') || 'none'}`);
  console.log('J6 postTask at the stack limit: no unhandled rejection; still running');
}, 10);
