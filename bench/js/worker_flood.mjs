// Row "worker_flood": a worker floods main with 200,000 small messages while a
// 1 ms interval ticks on main. Measures the delivery rate and how much the
// flood delays main's timer (contract L4: no lane starves the other).
//
// 1. setInterval(tick, 1) starts on main. HTML clamps a nested or repeating
//    timer below 4 ms to 4 ms once its nesting level passes 5, so the
//    interval ticks every ~4 ms in hostloop (and browsers, deno) but every
//    ~1 ms in node and bun. The interval's effective period is measured
//    first: the median tick-to-tick time of ticks 10-40, before any message.
// 2. Main asks the worker (workers/flood.mjs) for N = 200,000 messages; the
//    worker posts them in one loop. Main counts them.
// 3. After the last message, main waits for the next tick, then stops.
//
// Prints one line of JSON:
//   msgs_per_s     N / (time from main's request to the last message's arrival)
//   worst_gap_ms   the largest (time between two consecutive ticks) minus the
//                  period from step 1, over every tick interval that overlaps
//                  the flood (from the request to the first tick after the
//                  last message); 0 when no tick was late
//   period_ms      the effective interval period from step 1 (information)
//   ticks          ticks during the flood (information)
//
// Global Worker where it exists (hostloop, deno, bun), node:worker_threads in
// node 20 (workers/compat.mjs).
import { startWorker } from './workers/compat.mjs';

const N = 200_000;
const SKIP_TICKS = 10; // past the nesting clamp's ramp (levels 1-5 are not clamped)
const PERIOD_TICKS = 30;

const w = await startWorker(new URL('./workers/flood.mjs', import.meta.url));

const result = await new Promise((resolve) => {
  const ticks = [];
  let period = 0;
  let tGo = 0;
  let goTick = 0; // index of the last tick before the request
  let tLast = 0;
  let received = 0;

  w.onData(() => {
    if (++received === N) tLast = performance.now();
  });

  const iv = setInterval(() => {
    const now = performance.now();
    ticks.push(now);
    if (tGo === 0) {
      if (ticks.length === SKIP_TICKS + PERIOD_TICKS + 1) {
        const d = [];
        for (let i = SKIP_TICKS + 1; i < ticks.length; i++) d.push(ticks[i] - ticks[i - 1]);
        d.sort((a, b) => a - b);
        period = d[d.length >> 1];
        goTick = ticks.length - 1;
        tGo = performance.now();
        w.post(N);
      }
      return;
    }
    if (tLast === 0) return;
    clearInterval(iv);
    let worst = 0;
    for (let i = goTick + 1; i < ticks.length; i++) {
      worst = Math.max(worst, ticks[i] - ticks[i - 1] - period);
    }
    resolve({
      msgs_per_s: Math.round(N / ((tLast - tGo) / 1e3)),
      worst_gap_ms: +worst.toFixed(3),
      period_ms: +period.toFixed(3),
      ticks: ticks.length - 1 - goTick,
    });
  }, 1);
});
await w.terminate();

console.log(JSON.stringify(result));
