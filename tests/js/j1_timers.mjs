// Spec tests for contract J1 (HTML timers):
// https://html.spec.whatwg.org/multipage/timers-and-user-prompts.html#timers
//
// Assertions are about order and counts. Where time matters, only the robust
// direction is asserted: a lower bound that a delay or the 4 ms clamp
// causes, and generous "eventually" bounds through waitFor().
//
// The exact nesting level at which the clamp starts is checked in
// j1_timers_nesting_level.mjs.

import { test, assert, assertEquals, assertThrows, collectErrors, delay, waitFor } from './lib/assert.mjs';

// Deterministic PRNG (mulberry32), so a failure can be reproduced.
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Resolves once the task queue has moved on by a few turns: the current
// task, its microtasks and `turns` later setTimeout(0) tasks have run.
async function turns(count = 3) {
  for (let i = 0; i < count; i++) await delay(0);
}

// ---------------------------------------------------------------------------
// Ordering
// ---------------------------------------------------------------------------

await test('J1 200,000 random timers (0-99 ms) fire with zero ordering violations', async () => {
  const total = 200000;
  const batches = 4;
  const random = mulberry32(0x5eed1);
  const delayOf = new Uint8Array(total);
  // For each timeout value, the schedule indices that use it, in order, and
  // a cursor at the first one not fired yet.
  const byDelay = Array.from({ length: 100 }, () => []);
  const cursor = new Int32Array(100);
  let fired = 0;
  let violations = 0;
  let firstViolation = null;

  const fire = (index) => {
    const d = delayOf[index];
    fired++;
    // Every earlier timer with the same timeout must have fired already, so
    // this one must be the next unfired one of its value...
    if (byDelay[d][cursor[d]] !== index) {
      violations++;
      firstViolation ??= `timer #${index} (${d} ms) fired before #${byDelay[d][cursor[d]]} (${d} ms)`;
      // Resynchronize the cursor on this timer.
      cursor[d] = byDelay[d].indexOf(index);
    }
    cursor[d]++;
    // ...and every earlier timer with a smaller timeout must have fired too.
    for (let smaller = 0; smaller < d; smaller++) {
      const next = byDelay[smaller][cursor[smaller]];
      if (next !== undefined && next < index) {
        violations++;
        firstViolation ??= `timer #${index} (${d} ms) fired before #${next} (${smaller} ms)`;
      }
    }
  };

  // Scheduled in a few batches from different tasks, so the timers do not
  // all share one "now".
  let index = 0;
  for (let batch = 0; batch < batches; batch++) {
    for (let i = 0; i < total / batches; i++, index++) {
      const d = Math.floor(random() * 100);
      delayOf[index] = d;
      byDelay[d].push(index);
      setTimeout(fire, d, index);
    }
    if (batch < batches - 1) await delay(0);
  }
  await waitFor(() => fired === total, 60000, 'all 200,000 timers');
  assertEquals(violations, 0, `ordering violations (first: ${firstViolation})`);
});

await test('J1 equal timeouts fire in schedule order', async () => {
  const order = [];
  for (let i = 0; i < 50; i++) setTimeout(() => order.push(i), 3);
  await waitFor(() => order.length === 50);
  assertEquals(order, Array.from({ length: 50 }, (_, i) => i));
});

// ---------------------------------------------------------------------------
// Timeout conversion: WebIDL `long` (ToInt32), negative becomes 0
// ---------------------------------------------------------------------------

// Schedules a reference timer with timeout `effective - 1` (or 0 when
// effective is 0), then the timer under test with `timeout`, then a
// reference with `effective + 1`. By J1's ordering rule (an earlier timer
// with timeout <= a later one's fires first) the only correct order is
// lower, tested, upper, whatever the machine's load.
async function checkEffectiveTimeout(timeout, effective) {
  const order = [];
  setTimeout(() => order.push('lower'), Math.max(effective - 1, 0));
  setTimeout(() => order.push('tested'), timeout);
  setTimeout(() => order.push('upper'), effective + 1);
  await waitFor(() => order.length === 3, 5000, `timers around timeout ${String(timeout)}`);
  assertEquals(order, ['lower', 'tested', 'upper'], `timeout ${String(timeout)} should act as ${effective} ms`);
}

await test('J1 a timeout of 2**32 + 5 means 5 ms (ToInt32), between 4 ms and 6 ms timers', async () => {
  await checkEffectiveTimeout(2 ** 32 + 5, 5);
});

await test('J1 negative timeouts mean 0 (never before an earlier 0 ms timer)', async () => {
  await checkEffectiveTimeout(-10, 0);
  await checkEffectiveTimeout(-1e9, 0);
  // 2**31 wraps to -2**31 under ToInt32: negative, so 0.
  await checkEffectiveTimeout(2 ** 31, 0);
});

await test('J1 NaN, undefined, null, Infinity and non-numeric strings mean 0', async () => {
  for (const timeout of [NaN, undefined, null, Infinity, -Infinity, 'soon', {}]) {
    await checkEffectiveTimeout(timeout, 0);
  }
});

await test('J1 fractional, string and object timeouts convert like WebIDL long', async () => {
  await checkEffectiveTimeout(3.9, 3);
  await checkEffectiveTimeout('4', 4);
  await checkEffectiveTimeout({ valueOf: () => 2 }, 2);
  await checkEffectiveTimeout(2 ** 32 + 2, 2);
});

// ---------------------------------------------------------------------------
// The nesting clamp (lower bounds only)
// ---------------------------------------------------------------------------

await test('J1 a chain of 20 nested setTimeout(0) is slowed by the 4 ms clamp (>= 14 * 4 ms)', async () => {
  // HTML: calls made at nesting level > 5 get timeout 4, so of 20 chained
  // timers at least the last 14 wait >= 4 ms each.
  const started = performance.now();
  await new Promise((resolve) => {
    let remaining = 20;
    const step = () => (--remaining === 0 ? resolve() : setTimeout(step, 0));
    setTimeout(step, 0);
  });
  const elapsed = performance.now() - started;
  assert(elapsed >= 14 * 4 - 0.5, `20 nested timers took only ${elapsed.toFixed(2)} ms`);
});

await test('J1 an interval with timeout 0 is clamped to 4 ms after its first repetitions (>= 14 * 4 ms for 20 ticks)', async () => {
  const started = performance.now();
  let ticks = 0;
  await new Promise((resolve) => {
    const id = setInterval(() => {
      if (++ticks === 20) {
        clearInterval(id);
        resolve();
      }
    }, 0);
  });
  const elapsed = performance.now() - started;
  assert(elapsed >= 14 * 4 - 0.5, `20 interval ticks took only ${elapsed.toFixed(2)} ms`);
});

await test('J1 outside timer tasks a 1 ms timeout is not raised to 4 ms (it fires before an earlier-scheduled 4 ms timer)', async () => {
  // Outside timer tasks the nesting level is 0, so there is no clamp: a
  // 1 ms timer scheduled just after a 4 ms timer fires first. Clamped to
  // 4 ms (and scheduled later) it could never fire first.
  const order = [];
  setTimeout(() => order.push('4ms'), 4);
  setTimeout(() => order.push('1ms-after'), 1);
  await waitFor(() => order.length === 2);
  assertEquals(order, ['1ms-after', '4ms']);
});

// ---------------------------------------------------------------------------
// clearTimeout / clearInterval
// ---------------------------------------------------------------------------

await test('J1 clearTimeout from inside its own callback is harmless; the timer ran once', async () => {
  let runs = 0;
  const id = setTimeout(() => {
    runs++;
    clearTimeout(id);
  }, 0);
  await turns(5);
  assertEquals(runs, 1);
});

await test('J1 clearInterval inside the interval callback stops it', async () => {
  let ticks = 0;
  const id = setInterval(() => {
    if (++ticks === 3) clearInterval(id);
  }, 1);
  await waitFor(() => ticks >= 3);
  await delay(30);
  assertEquals(ticks, 3, 'ticks after clearInterval in the third tick');
});

await test('J1 clearTimeout stops an interval and clearInterval cancels a timeout (interchangeable)', async () => {
  let intervalTicks = 0;
  let timeoutRuns = 0;
  const intervalId = setInterval(() => intervalTicks++, 1);
  const timeoutId = setTimeout(() => timeoutRuns++, 1);
  clearTimeout(intervalId);
  clearInterval(timeoutId);
  // Also after it has ticked: clearTimeout stops a running interval.
  let later = 0;
  const laterId = setInterval(() => {
    if (++later === 2) clearTimeout(laterId);
  }, 1);
  await waitFor(() => later >= 2);
  await delay(30);
  assertEquals(intervalTicks, 0);
  assertEquals(timeoutRuns, 0);
  assertEquals(later, 2);
});

await test('J1 a timer cleared by an earlier timer due at the same time never runs', async () => {
  const order = [];
  let second;
  setTimeout(() => {
    order.push('first');
    clearTimeout(second);
  }, 2);
  second = setTimeout(() => order.push('second'), 2);
  setTimeout(() => order.push('third'), 2);
  await waitFor(() => order.length >= 2);
  await turns(3);
  assertEquals(order, ['first', 'third']);
});

await test('J1 unknown ids are ignored by clearTimeout and clearInterval', async () => {
  let ran = false;
  const id = setTimeout(() => { ran = true; }, 1);
  for (const unknown of [undefined, 0, -1, id + 100000, 2 ** 31 - 1, 'nope', null, {}, NaN]) {
    clearTimeout(unknown);
    clearInterval(unknown);
  }
  clearTimeout();
  clearInterval();
  await waitFor(() => ran, 5000, 'the live timer to still fire');
});

await test('J1 ids are positive integers, unique among live timers, one space for both kinds', async () => {
  const ids = [];
  for (let i = 0; i < 200; i++) {
    ids.push(i % 2 === 0 ? setTimeout(() => {}, 1000) : setInterval(() => {}, 1000));
  }
  try {
    for (const id of ids) assert(Number.isInteger(id) && id > 0, `id ${id} is not a positive integer`);
    assertEquals(new Set(ids).size, ids.length, 'duplicate ids among live timers');
  } finally {
    for (const id of ids) clearTimeout(id);
  }
});

// ---------------------------------------------------------------------------
// Intervals: phase, skipped ticks, errors
// ---------------------------------------------------------------------------

await test('J1 an interval keeps its phase and skips missed ticks after a 50 ms busy tick instead of bursting', async () => {
  const period = 20;
  const ticks = [];
  let busyEnd = 0;
  let reference = null;
  const started = performance.now();
  const id = setInterval(() => {
    const now = performance.now();
    ticks.push(now);
    if (ticks.length === 3) {
      // Block the loop until ~110 ms after start (the phase points were at
      // 20, 40, 60; 80 and 100 are missed).
      const until = Math.max(started + 110, now + 50);
      while (performance.now() < until) { /* busy */ }
      busyEnd = performance.now();
    }
  }, period);
  // Due at start + 125 (scheduled just after the interval): a phase-kept
  // interval ticks at start + 120, before it; an interval re-armed from the
  // end of the busy tick would tick at >= start + 130, after it.
  setTimeout(() => { reference = ticks.length; }, 125);
  await waitFor(() => ticks.length >= 8, 10000, 'eight interval ticks');
  clearInterval(id);

  // Skip, not burst: after the busy tick ends, at most one tick falls into
  // the next `period` ms (each tick has a distinct phase point after the
  // end of the busy tick).
  const burst = ticks.filter((t) => t >= busyEnd && t < busyEnd + period).length;
  assert(burst <= 1, `${burst} ticks ran within ${period} ms after the busy tick (a burst)`);
  // Never more ticks than phase points elapsed.
  const last = ticks[ticks.length - 1];
  assert(ticks.length <= (last - started) / period + 0.01,
    `${ticks.length} ticks by ${(last - started).toFixed(1)} ms at a ${period} ms period`);
  // Phase kept: the tick after the busy one came before the 125 ms timer
  // (only when the busy tick itself ran on time, which it does unless the
  // machine stalled for tens of milliseconds).
  if (busyEnd < started + 118) {
    assert(reference !== null && reference >= 4,
      `the tick after the busy one came after the ${125} ms timer (ticks seen then: ${reference})`);
  }
});

await test('J1 an interval whose callback throws keeps firing; each throw is an error event', async () => {
  await collectErrors(async (events) => {
    let ticks = 0;
    const id = setInterval(() => {
      ticks++;
      throw new Error(`tick ${ticks}`);
    }, 1);
    await waitFor(() => events.length >= 3, 5000, 'three error events');
    clearInterval(id);
    assertEquals(events.slice(0, 3).map((e) => e.error.message), ['tick 1', 'tick 2', 'tick 3']);
    assert(ticks >= 3);
  });
});

// ---------------------------------------------------------------------------
// Handlers and arguments
// ---------------------------------------------------------------------------

await test('J1 extra arguments are passed to the handler (setTimeout and setInterval)', async () => {
  const object = { k: 1 };
  let timeoutArgs = null;
  let intervalArgs = null;
  setTimeout((...args) => { timeoutArgs = args; }, 0, 1, 'two', object, undefined);
  const id = setInterval((...args) => {
    intervalArgs = args;
    clearInterval(id);
  }, 0, 'x', 'y');
  await waitFor(() => timeoutArgs !== null && intervalArgs !== null);
  assertEquals(timeoutArgs.length, 4);
  assertEquals(timeoutArgs.slice(0, 2), [1, 'two']);
  assert(timeoutArgs[2] === object, 'the object argument is passed by identity');
  assertEquals(intervalArgs, ['x', 'y']);
});

await test('J1 the handler is called with the global object as this', async () => {
  let receiver = null;
  setTimeout(function () { receiver = this; }, 0);
  await waitFor(() => receiver !== null);
  assert(receiver === globalThis, 'this is the global object');
});

await test('J1 a string handler is evaluated as a classic script', async () => {
  delete globalThis.x;
  setTimeout('globalThis.x = 1', 0);
  await waitFor(() => globalThis.x === 1, 5000, 'the string handler to run');
  // Classic-script semantics: a top-level var becomes a global property,
  // and `this` is the global object (a module would give neither).
  setTimeout('var j1DeclaredByTimer = 42; globalThis.j1TimerThis = this;', 0);
  await waitFor(() => globalThis.j1DeclaredByTimer === 42, 5000, 'the var to become global');
  assert(globalThis.j1TimerThis === globalThis, 'this in a string handler is the global');
  // A string interval is evaluated on every tick.
  globalThis.j1Count = 0;
  const id = setInterval('globalThis.j1Count++', 1);
  await waitFor(() => globalThis.j1Count >= 3);
  clearInterval(id);
});

await test('J1 a string handler that throws is reported as an error event', async () => {
  await collectErrors(async (events) => {
    setTimeout('throw new RangeError("from a string handler")', 0);
    await waitFor(() => events.length === 1);
    assert(events[0].error instanceof RangeError);
    assertEquals(events[0].error.message, 'from a string handler');
  });
});

await test('J1 setTimeout() and setInterval() without arguments throw TypeError', () => {
  assertThrows(() => setTimeout(), TypeError);
  assertThrows(() => setInterval(), TypeError);
});
