// Row "worker_pingpong": the round trip of a small message main -> worker ->
// main over postMessage.
//
// The worker (workers/echo.mjs) posts every message straight back; main posts
// the next one when the echo arrives, so one message is in flight at a time.
// 20,000 round trips warm up (JIT, worker start-up), then 20,000 are timed.
// The warm-up is that long because, pinned to one CPU, TurboFan's background
// compiles of the event-dispatch functions (JS in hostloop) compete with the
// ping-pong itself: after 2,000 round trips they were still running and
// doubled hostloop's time (9-12 us instead of a steady 4.7-5).
// The message is a small integer. Prints {"us_per_round_trip": ...}: wall time
// per round trip, from performance.now().
//
// bench/run.py runs this row with the whole process pinned to one CPU, as
// loop_bench pins both threads of BM_EventfdPingPongFloor (the row's
// reference) to one CPU: see bench/README.md.
//
// Global Worker where it exists (hostloop, deno, bun), node:worker_threads in
// node 20 (workers/compat.mjs).
import { startWorker } from './workers/compat.mjs';

const WARMUP = 20_000;
const N = 20_000;

const w = await startWorker(new URL('./workers/echo.mjs', import.meta.url));

let left = 0;
let done = null;
w.onData(() => {
  if (--left > 0) w.post(left);
  else done();
});

function pingpong(n) {
  return new Promise((resolve) => {
    left = n;
    done = resolve;
    w.post(left);
  });
}

await pingpong(WARMUP);
const t0 = performance.now();
await pingpong(N);
const t1 = performance.now();
await w.terminate();

console.log(JSON.stringify({ us_per_round_trip: +(((t1 - t0) * 1e3) / N).toFixed(3) }));
