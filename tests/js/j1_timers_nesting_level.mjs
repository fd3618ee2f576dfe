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
// That reading assumes the two setTimeout calls are less than 4 ms apart:
// a thread descheduled between them (a loaded machine, a sanitizer build)
// makes an unclamped `next` due after the probe too. Each pair is timed
// (performance.now() reads the clock timers are scheduled by), a 'clamped'
// reading from a pair that took 3 ms or more proves nothing, and the whole
// chain (the nesting level depends on it) is run again, a few times at
// most: a clamp at the wrong level still fails every attempt.

import { test, assertEquals } from './lib/assert.mjs';

// How long the two setTimeout calls of one step may take for its order to
// tell: below 4 ms, an unclamped 0 ms timer is due before the probe.
const kMeasurableMs = 3;
const kAttempts = 5;

// Runs a chain of `depth` nested setTimeout(0) calls, starting from the
// current nesting level. Resolves with, per call, whether the 0 ms timer
// fired before the 4 ms probe scheduled just before it ('0ms-first') or not
// ('clamped'), and the calls whose 'clamped' proves nothing (`unmeasured`:
// the pair of setTimeout calls took kMeasurableMs or more).
function nestedChain(depth) {
  return new Promise((resolve) => {
    const events = [];
    const pairMs = [];
    let done = 0;
    const finish = () => {
      if (++done < 2 * depth) return;
      const steps = [];
      const unmeasured = [];
      for (let call = 0; call < depth; call++) {
        const zero = events.indexOf(`zero${call}`);
        const probe = events.indexOf(`probe${call}`);
        steps.push(zero < probe ? '0ms-first' : 'clamped');
        if (steps[call] === 'clamped' && pairMs[call] >= kMeasurableMs) unmeasured.push(call);
      }
      resolve({ steps, unmeasured });
    };
    const schedule = (call) => {
      const before = performance.now();
      setTimeout(() => { events.push(`probe${call}`); finish(); }, 4);
      setTimeout(() => {
        events.push(`zero${call}`);
        finish();
        if (call + 1 < depth) schedule(call + 1);
      }, 0);
      pairMs[call] = performance.now() - before;
    };
    schedule(0);
  });
}

// `run()` starts a chain (from whatever context the test needs) and resolves
// with nestedChain's result; the steps of the first attempt whose every
// step was measured.
async function measuredChain(run) {
  const skipped = [];
  for (let attempt = 0; attempt < kAttempts; attempt++) {
    const { steps, unmeasured } = await run();
    if (unmeasured.length === 0) return steps;
    skipped.push(unmeasured);
  }
  throw new Error(`the machine was too slow to measure the clamp: in each of ${kAttempts} ` +
    `attempts, a step read 'clamped' while its two setTimeout calls were ${kMeasurableMs} ms ` +
    `or more apart (steps per attempt: ${JSON.stringify(skipped)})`);
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
  const chain = await measuredChain(() => new Promise((resolve) => {
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
  }));
  // Levels 0-4 unclamped whatever the exact threshold; inherited from the
  // level-9 task, all of them would be clamped.
  assertEquals(chain.slice(0, 5), expectedFromLevelZero.slice(0, 5));
  assertEquals(chain[6], 'clamped');
});

await test('J1 a non-timer task (a scheduler.postTask task) resets the nesting level', async () => {
  const chain = await measuredChain(() => new Promise((resolve) => {
    let level = 0;
    const step = () => {
      if (++level < 9) setTimeout(step, 0);
      else scheduler.postTask(() => { nestedChain(7).then(resolve); });
    };
    setTimeout(step, 0);
  }));
  // Levels 0-4 unclamped whatever the exact threshold; inherited from the
  // level-9 task, all of them would be clamped.
  assertEquals(chain.slice(0, 5), expectedFromLevelZero.slice(0, 5));
  assertEquals(chain[6], 'clamped');
});

await test('J1 setTimeout(0) is not clamped at nesting levels 0-5 and is clamped from level 6 on', async () => {
  // This test body runs in a microtask: nesting level 0.
  assertEquals(await measuredChain(() => nestedChain(10)), expectedFromLevelZero,
    'per call at nesting level 0..9: did the 0 ms timer beat the 4 ms probe?');
});
