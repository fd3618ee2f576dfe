// Row "macrotask_posttask": the cost of one macrotask scheduled with
// scheduler.postTask (Prioritized Task Scheduling API).
//
// A chain of self-reposting tasks: each task posts the next one, so exactly
// one task is queued at a time. A warm-up chain of 20,000 runs first, then the
// measured chain of 200,000. Prints {"ns_per_task": ...}: wall time of the
// measured chain per task, from performance.now().
//
// Runtimes without a global `scheduler` (node 20, deno, bun at the time of
// writing) print {"skip": ...}; the row's target is therefore absolute (see
// bench/README.md).

const WARMUP = 20_000;
const N = 200_000;

if (typeof scheduler === 'undefined' || typeof scheduler.postTask !== 'function') {
  console.log(JSON.stringify({ skip: 'no scheduler.postTask' }));
} else {
  const chain = (n) =>
    new Promise((resolve) => {
      let left = n;
      const step = () => {
        if (--left > 0) scheduler.postTask(step);
        else resolve();
      };
      scheduler.postTask(step);
    });

  await chain(WARMUP);
  const t0 = performance.now();
  await chain(N);
  const t1 = performance.now();
  console.log(JSON.stringify({ ns_per_task: +(((t1 - t0) * 1e6) / N).toFixed(1) }));
}
