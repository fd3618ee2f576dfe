// Spec tests for contract J1: the exact timer nesting level at which the
// 4 ms clamp starts.
//
// HTML timer initialization steps
// (https://html.spec.whatwg.org/multipage/timers-and-user-prompts.html#timer-initialisation-steps):
//   3. If the currently running task is a task that was created by this
//      algorithm, let nesting level be the task's timer nesting level;
//      otherwise 0.
//   5. If nesting level is greater than 5, and timeout is less than 4, then
//      set timeout to 4.
//   9. Increment nesting level by one. 10. Set task's timer nesting level
//      to nesting level.
// So setTimeout(f, 0) called at top level (level 0) and from inside timer
// tasks of levels 1..5 is not clamped; called from a task of level 6 or
// deeper it is. (whatwg/html#10386 traces the same reading.)
//
// The clamp is observed by order, not by wall time: inside the task, a
// probe setTimeout(probe, 4) is scheduled first, then setTimeout(next, 0).
// Unclamped, `next` (0 ms) fires before the probe; clamped to 4 ms and
// scheduled later, `next` can only fire after the probe (J1 ordering).

import { test, assertEquals } from './lib/assert.mjs';

// Runs a chain of `depth` nested setTimeout(0) calls, starting from the
// current nesting level. Returns, per call, whether the 0 ms timer fired
// before the 4 ms probe scheduled just before it ('0ms-first') or not.
function nestedChain(depth) {
  return new Promise((resolve) => {
    const events = [];
    let done = 0;
    const finish = () => {
      if (++done < 2 * depth) return;
      const result = [];
      for (let call = 0; call < depth; call++) {
        const zero = events.indexOf(`zero${call}`);
        const probe = events.indexOf(`probe${call}`);
        result.push(zero < probe ? '0ms-first' : 'clamped');
      }
      resolve(result);
    };
    const schedule = (call) => {
      setTimeout(() => { events.push(`probe${call}`); finish(); }, 4);
      setTimeout(() => {
        events.push(`zero${call}`);
        finish();
        if (call + 1 < depth) schedule(call + 1);
      }, 0);
    };
    schedule(0);
  });
}

// Calls 0..5 are made at nesting levels 0..5; calls 6.. at levels 6.. .
// (The exact-threshold test is last, so the others run even if it fails.)
const expectedFromLevelZero = [
  '0ms-first', '0ms-first', '0ms-first', '0ms-first', '0ms-first', '0ms-first',
  'clamped', 'clamped', 'clamped', 'clamped',
];

await test('J1 a timer scheduled from a microtask after a deeply nested timer task is not clamped', async () => {
  // WPT html/webappapis/timers/timer-nesting-not-inherited-in-microtask.html:
  // the microtask checkpoint's running task is the microtask, not the timer.
  const chain = await new Promise((resolve) => {
    let level = 0;
    const step = () => {
      if (++level < 9) {
        setTimeout(step, 0);
        return;
      }
      // In the timer task at level 9: start a fresh chain from a microtask.
      queueMicrotask(() => nestedChain(7).then(resolve));
    };
    setTimeout(step, 0);
  });
  // Levels 0-4 unclamped whatever the exact threshold; inherited from the
  // level-9 task, all of them would be clamped.
  assertEquals(chain.slice(0, 5), expectedFromLevelZero.slice(0, 5));
  assertEquals(chain[6], 'clamped');
});

await test('J1 a non-timer task (a scheduler.postTask task) resets the nesting level', async () => {
  const chain = await new Promise((resolve) => {
    let level = 0;
    const step = () => {
      if (++level < 9) setTimeout(step, 0);
      else scheduler.postTask(() => { nestedChain(7).then(resolve); });
    };
    setTimeout(step, 0);
  });
  // Levels 0-4 unclamped whatever the exact threshold; inherited from the
  // level-9 task, all of them would be clamped.
  assertEquals(chain.slice(0, 5), expectedFromLevelZero.slice(0, 5));
  assertEquals(chain[6], 'clamped');
});

await test('J1 setTimeout(0) is not clamped at nesting levels 0-5 and is clamped from level 6 on', async () => {
  // This test body runs in a microtask: nesting level 0.
  assertEquals(await nestedChain(10), expectedFromLevelZero,
    'per call at nesting level 0..9: did the 0 ms timer beat the 4 ms probe?');
});
