// Row "waitasync_pingpong": a round trip between main and a worker through
// shared memory alone: main waits with Atomics.waitAsync (its event loop
// sleeps, the wakeup arrives as a task), the worker blocks its thread in
// Atomics.wait.
//
// An Int32Array over a SharedArrayBuffer: slot 1 is the worker's, slot 0 is
// main's. Round r: main calls Atomics.waitAsync(slot 0, r - 1) first, then
// stores r in slot 1 and notifies it; the worker (workers/atomics_echo.mjs)
// wakes, stores r in slot 0 and notifies it, which settles main's promise;
// main starts round r + 1 in the promise's reaction. Because main waits before
// it wakes the worker, every round is one Atomics.waitAsync wakeup through
// main's event loop and one Atomics.wait wakeup in the worker. 2,000 rounds
// warm up, then 20,000 are timed. Prints {"us_per_round_trip": ...} and, for
// information, "sync_rounds": timed rounds whose waitAsync did not wait (0
// unless something is wrong).
//
// bench/run.py pins this row to one CPU, like worker_pingpong (see
// bench/README.md). Prints {"skip": ...} where Atomics.waitAsync is missing.
import { startWorker } from './workers/compat.mjs';

const WARMUP = 2_000;
const N = 20_000;

if (typeof Atomics.waitAsync !== 'function') {
  console.log(JSON.stringify({ skip: 'no Atomics.waitAsync' }));
} else {
  const i32 = new Int32Array(new SharedArrayBuffer(16));
  const w = await startWorker(new URL('./workers/atomics_echo.mjs', import.meta.url));
  let onData = null;
  w.onData((data) => onData(data));
  const next = () => new Promise((resolve) => (onData = resolve));

  let round = 0;
  let syncRounds = 0;
  async function rounds(n) {
    syncRounds = 0;
    for (let k = 0; k < n; k++) {
      const r = ++round;
      // Wait first (slot 0 still holds r - 1), then wake the worker: the worker's
      // notify always finds main's waiter, so every round is one asynchronous wakeup.
      let res = Atomics.waitAsync(i32, 0, r - 1);
      Atomics.store(i32, 1, r);
      Atomics.notify(i32, 1);
      if (!res.async) syncRounds++;
      for (;;) {
        if (res.async) await res.value;
        const seen = Atomics.load(i32, 0);
        if (seen === r) break;
        res = Atomics.waitAsync(i32, 0, seen); // woken early: wait again
      }
    }
  }

  const ready = next();
  w.post({ sab: i32.buffer });
  if ((await ready) !== 'ready') throw new Error('worker did not start');
  await rounds(WARMUP);
  const t0 = performance.now();
  await rounds(N);
  const t1 = performance.now();
  const bye = next();
  Atomics.store(i32, 1, -1);
  Atomics.notify(i32, 1);
  await bye;
  await w.terminate();

  console.log(
    JSON.stringify({
      us_per_round_trip: +(((t1 - t0) * 1e3) / N).toFixed(3),
      sync_rounds: syncRounds,
    }),
  );
}
