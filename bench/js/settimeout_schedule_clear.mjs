// Row "settimeout_schedule_clear": the cost of scheduling and of cancelling a
// timer when many are pending.
//
// Schedules 1,000,000 setTimeout(f, 1000 + (i % 1000)) (1000 distinct delays,
// none due while the script runs), then clears them all, in scheduling order.
// Prints one line of JSON: {"schedule_ns": ..., "clear_ns": ...}, each the
// mean wall time per call in nanoseconds, from performance.now().
//
// Web-standard APIs only (setTimeout, clearTimeout, performance, console), so
// it runs unchanged under hostloop, node, deno and bun. Handles are kept as
// returned: a number in deno/hostloop, an object in node/bun; clearTimeout
// takes either.
//
// How to write another js row: print exactly one line of JSON to stdout with
// the metrics the row in bench/run.py names; if the script needs an API a
// runtime lacks, print {"skip": "reason"} instead; fail loudly (throw)
// otherwise, and the harness shows "n/a" with the error in its notes.

const N = 1_000_000;
const handles = new Array(N);
function f() {}

const t0 = performance.now();
for (let i = 0; i < N; i++) handles[i] = setTimeout(f, 1000 + (i % 1000));
const t1 = performance.now();
for (let i = 0; i < N; i++) clearTimeout(handles[i]);
const t2 = performance.now();

console.log(
  JSON.stringify({
    schedule_ns: +(((t1 - t0) * 1e6) / N).toFixed(2),
    clear_ns: +(((t2 - t1) * 1e6) / N).toFixed(2),
  }),
);
