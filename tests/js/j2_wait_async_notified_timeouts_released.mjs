// hostloop-flags: --v8-flags=--expose-gc
// timeout: 120
//
// An Atomics.waitAsync with a finite timeout makes V8 post a delayed task
// for the timeout. When the wait is notified first, V8 marks that task
// aborted but cannot take it back from the platform: it waited in the
// runtime's internal lane until its deadline (each ~170 bytes, and a loop
// wakeup when it came due). The waitAsync wrapper now cancels that entry
// when the wait's promise settles (builtin_liveness.cc, WaitEnded). Here:
// memory stays flat over 160,000 notified waits with a one-minute timeout
// (it grew by ~27 MiB), and the timeouts that must still fire do: waits
// nobody notifies, waits whose timeout converts through program code, and a
// wait started from inside another waitAsync call's argument conversion,
// whose timeout task the outer call must not take for its own. (The loop
// wakeups: tests/cli_test.py, --trace-loop.)

import { readFile } from 'hostloop:fs';
import { test, assert, assertEquals } from './lib/assert.mjs';

async function residentMiB() {
  const status = await readFile('/proc/self/status', 'utf8');
  return Number(status.match(/VmRSS:\s+(\d+)/)[1]) / 1024;
}

function int32s(length = 4) {
  return new Int32Array(new SharedArrayBuffer(4 * length));
}

// `count` waits on ia[0] with `timeout`, notified in batches of 1000.
async function notifiedWaits(ia, count, timeout) {
  for (let done = 0; done < count; done += 1000) {
    const waits = [];
    for (let i = 0; i < 1000; i++) waits.push(Atomics.waitAsync(ia, 0, 0, timeout).value);
    assertEquals(Atomics.notify(ia, 0), 1000);
    const values = await Promise.all(waits);
    assert(values.every((value) => value === 'ok'), 'every notified wait resolves "ok"');
  }
}

await test('J2 160,000 notified waits with a one-minute timeout leave no memory behind', async () => {
  const ia = int32s();
  // Waits without a timeout first: V8's own memory for waits (its heap, its
  // lists) reaches its steady size, ~24 MiB above the start, and stays there.
  await notifiedWaits(ia, 160_000, undefined);
  gc();
  const before = await residentMiB();
  await notifiedWaits(ia, 160_000, 60_000);
  gc();
  const added = (await residentMiB()) - before;
  // Under ASan the resident set also holds the allocator's quarantine of
  // freed memory (256 MB by default), which these waits fill either way:
  // only the release build measures (LeakSanitizer checks leaks at exit).
  const maps = await readFile('/proc/self/maps', 'utf8');
  if (/lib[at]san|__asan/.test(maps)) return;
  // Generous: the stale timeout entries alone added ~27 MiB.
  assert(added < 12, `resident set grew by ${added.toFixed(1)} MiB`);
});

await test('J2 a wait nobody notifies still times out, beside notified ones', async () => {
  const ia = int32s();
  const started = performance.now();
  const lonely = Atomics.waitAsync(ia, 1, 0, 60).value;
  const notified = [10, 60, 61, 500].map((timeout) => Atomics.waitAsync(ia, 0, 0, timeout).value);
  assertEquals(Atomics.notify(ia, 0), 4);
  assertEquals(await Promise.all(notified), ['ok', 'ok', 'ok', 'ok']);
  assertEquals(await lonely, 'timed-out');
  assert(performance.now() - started >= 59, 'not before its timeout');
});

await test('J2 timeouts that convert through program code still time out, and notified ones end', async () => {
  const ia = int32s();
  const started = performance.now();
  const timedOut = [
    Atomics.waitAsync(ia, 1, 0, { valueOf: () => 30 }).value,
    Atomics.waitAsync(ia, 1, 0, '30').value,
    Atomics.waitAsync(ia, 1, 0, 30.5).value,
  ];
  const notified = [
    Atomics.waitAsync(ia, 0, 0, { valueOf: () => 60_000 }).value,
    Atomics.waitAsync(ia, 0, 0, Infinity).value,
    Atomics.waitAsync(ia, 0, 0, NaN).value,
    Atomics.waitAsync(ia, 0, 0, 1e300).value,
    Atomics.waitAsync(ia, 0, 0, 0.0005).value,
  ];
  assertEquals(Atomics.waitAsync(ia, 0, 0, 0).value, 'timed-out');
  assertEquals(Atomics.waitAsync(ia, 0, 0, -1).value, 'timed-out');
  // (The 0.0005 ms wait may have timed out already.)
  const woken = Atomics.notify(ia, 0);
  assert(woken === 4 || woken === 5, `notify woke ${woken}`);
  const values = await Promise.all(notified);
  assertEquals(values.slice(0, 4), ['ok', 'ok', 'ok', 'ok']);
  assertEquals(await Promise.all(timedOut), ['timed-out', 'timed-out', 'timed-out']);
  assert(performance.now() - started >= 29, 'not before their timeout');
});

// The outer call converts its index through valueOf, which starts a wait of
// its own: that wait's timeout task is posted during the outer call.
// Cancelling it when the outer wait is notified would leave the inner wait
// pending forever (and this test hanging).
for (const [what, innerTimeout] of [['a number', 40], ['an object', { valueOf: () => 40 }]]) {
  await test(`J2 a wait started during another waitAsync call keeps its own timeout (${what})`, async () => {
    const ia = int32s();
    const started = performance.now();
    let inner;
    const index = { valueOf() { inner = Atomics.waitAsync(ia, 1, 0, innerTimeout).value; return 0; } };
    const outer = Atomics.waitAsync(ia, index, 0, 60_000).value;
    assertEquals(Atomics.notify(ia, 0), 1);
    assertEquals(await outer, 'ok');
    assertEquals(await inner, 'timed-out');
    assert(performance.now() - started >= 39, 'not before its timeout');
  });
}
