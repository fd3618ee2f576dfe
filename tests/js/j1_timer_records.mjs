// Spec tests for contract J1 around how js/timers.js keeps timer records:
// in arrays indexed by the slot of each timer's lane entry (the low 23 bits
// of its id), which the native side reuses, lowest free first. These cover
// what that layout could get wrong: ids that share a slot, a slot freed
// while an interval's callback runs and taken by a new timer, the arrays
// growing past their first size, and intervals found by id after their
// entry (and slot) changed.

import { test, assert, assertEquals, waitFor } from './lib/assert.mjs';

const kSlotModulus = 2 ** 23;

await test('J1 an id in the same slot as a live timer but of another generation clears nothing', async () => {
  let ran = 0;
  const id = setTimeout(() => { ran++; }, 1);
  // Same slot, other generations: not this timer's id.
  clearTimeout(id + kSlotModulus);
  clearInterval(id + 2 * kSlotModulus);
  if (id > kSlotModulus) clearTimeout(id - kSlotModulus);
  await waitFor(() => ran === 1, 5000, 'the timer to fire');
});

await test('J1 5,000 pending timers (past the first record arrays) keep HTML order; cleared ones never fire', async () => {
  const fired = [];
  const ids = [];
  const delayOf = (i) => i % 50;
  for (let i = 0; i < 5000; i++) ids.push(setTimeout(() => fired.push(i), delayOf(i)));
  for (let i = 0; i < 5000; i += 3) clearTimeout(ids[i]);
  const live = 5000 - Math.ceil(5000 / 3);
  await waitFor(() => fired.length >= live, 10000, 'the timers to fire');
  await new Promise((resolve) => setTimeout(resolve, 60));
  assertEquals(fired.length, live, 'timers fired');
  assert(fired.every((i) => i % 3 !== 0), 'a cleared timer fired');
  assertEquals(new Set(fired).size, live, 'a timer fired twice');
  // HTML: a timer scheduled before another with a timeout not above it fires
  // before it. For each timer, every earlier-scheduled one with a timeout
  // <= its own must have fired earlier.
  const position = new Map(fired.map((i, at) => [i, at]));
  const latestByDelay = new Array(50).fill(-1);
  let violations = 0;
  for (let j = 0; j < 5000; j++) {
    if (j % 3 === 0) continue;
    const at = position.get(j);
    for (let d = 0; d <= delayOf(j); d++) if (latestByDelay[d] > at) violations++;
    latestByDelay[delayOf(j)] = Math.max(latestByDelay[delayOf(j)], at);
  }
  assertEquals(violations, 0, 'timers that fired before an earlier-scheduled one with a timeout not above theirs');
});

await test('J1 a timeout set inside an interval callback takes the freed slot; both keep their identity', async () => {
  const events = [];
  let ticks = 0;
  const inner = [];
  const interval = setInterval(() => {
    ticks++;
    events.push(`tick ${ticks}`);
    // The interval's entry slot is free while its callback runs: this
    // timeout may get it, and must stay a separate timer.
    const n = ticks;
    inner.push(setTimeout(() => events.push(`timeout ${n}`), 0));
    if (ticks === 4) clearInterval(interval);
  }, 5);
  await waitFor(() => events.includes('timeout 4'), 5000, 'four ticks and their timeouts');
  await new Promise((resolve) => setTimeout(resolve, 30));
  assertEquals(events, ['tick 1', 'timeout 1', 'tick 2', 'timeout 2', 'tick 3', 'timeout 3', 'tick 4', 'timeout 4']);
  assert(!inner.includes(interval), 'a timeout got the id of a live interval');
  assertEquals(new Set(inner).size, inner.length, 'duplicate ids');
});

await test('J1 an interval is found by its id after repeating (its entry moved), from another timer', async () => {
  let ticks = 0;
  const interval = setInterval(() => { ticks++; }, 2);
  await waitFor(() => ticks >= 3, 5000, 'three ticks');
  // Cleared from a timeout's callback, not from its own.
  await new Promise((resolve) => setTimeout(() => { clearInterval(interval); resolve(); }, 0));
  const after = ticks;
  await new Promise((resolve) => setTimeout(resolve, 30));
  assertEquals(ticks, after, 'ticks after clearInterval');
});

await test('J1 clearing a repeated interval does not clear the timer that took its first slot', async () => {
  let ticks = 0;
  let other = 0;
  const interval = setInterval(() => { ticks++; }, 3);
  await waitFor(() => ticks >= 2, 5000, 'two ticks');
  // Timers scheduled now may sit in the slot the interval's id names.
  const ids = [];
  for (let i = 0; i < 8; i++) ids.push(setTimeout(() => { other++; }, 10));
  clearInterval(interval);
  await waitFor(() => other === 8, 5000, 'all eight timeouts to fire');
  assert(!ids.includes(interval), 'a timeout got the id of a live interval');
});

await test('J1 an interval cleared inside its own callback after repeating stops, and its arguments go', async () => {
  let ticks = 0;
  const seen = [];
  const interval = setInterval((a, b) => {
    ticks++;
    seen.push(a + b);
    if (ticks === 3) clearInterval(interval);
  }, 1, 'x', 'y');
  await waitFor(() => ticks === 3, 5000, 'three ticks');
  await new Promise((resolve) => setTimeout(resolve, 30));
  assertEquals(ticks, 3, 'ticks');
  assertEquals(seen, ['xy', 'xy', 'xy'], 'arguments on every tick');
});

await test("J1 a repeated interval's later entries are not ids: clearTimeout of every nearby number leaves it running", async () => {
  // After its first period an interval's entry has an id of its own (another
  // slot or generation); only the interval's first id may clear it. Every
  // number with a slot part and a generation up to 64 past the largest seen
  // is tried, except the interval's own id: that covers the entries the
  // interval can hold here, whichever slot the native side gave it (the
  // lowest free one; a slot's generation counts its reuses).
  let ticks = 0;
  const interval = setInterval(() => { ticks++; }, 2);
  await waitFor(() => ticks >= 2, 5000, 'two ticks');
  const probe = setTimeout(() => {}, 0);
  const newest = Math.floor(Math.max(interval, probe) / kSlotModulus);
  const highest = Math.max(interval % kSlotModulus, probe % kSlotModulus);
  for (let generation = 0; generation <= newest + 64; generation++) {
    for (let slot = 1; slot <= highest + 64; slot++) {
      const number = generation * kSlotModulus + slot;
      if (number !== interval) clearTimeout(number);
    }
  }
  const before = ticks;
  await waitFor(() => ticks >= before + 2, 5000, 'two more ticks after the clears');
  clearInterval(interval);
});
