// timeout: 20
//
// Spec test for contract J6 (https://wicg.github.io/scheduling-apis/) and L3:
// scheduler.postTask is FIFO with setTimeout(0), also after an abort. Every
// waiting task owns one token in the ordered lane; an aborted task's token
// must not run a task posted later, or that task runs ahead of a timer
// posted before it. (Before, it did: "B" ran before "timeout" in the first
// scenario, "C" before "timeout" in the second and third.) A yield()
// continuation's token is the same.
// Expected: j6_posttask_abort_keeps_order.stdout.

async function scenario(title, post) {
  const log = [];
  await Promise.allSettled(post(log));
  console.log(`${title}: ${log.join(', ')}`);
}

const timer = (log, name) => new Promise((resolve) => setTimeout(() => resolve(log.push(name)), 0));
const task = (log, name, options) =>
  scheduler.postTask(() => log.push(name), options).catch((error) => log.push(`${name} ${error.name}`));

await scenario('a queued task aborted', (log) => {
  const controller = new AbortController();
  const a = task(log, 'A', { signal: controller.signal });
  controller.abort();
  return [a, timer(log, 'timeout'), task(log, 'B')];
});

// B (user-blocking) runs at A's turn, and A takes B's turn; B then aborts
// A, so B's old turn is owed to nobody.
await scenario('a task aborted after another ran at its turn', (log) => {
  const controller = new AbortController();
  const later = [];
  const a = task(log, 'A', { priority: 'background', signal: controller.signal });
  const b = scheduler.postTask(() => {
    log.push('B');
    controller.abort();
    later.push(timer(log, 'timeout'), task(log, 'C'));
  }, { priority: 'user-blocking' });
  return [a, b.then(() => Promise.all(later))];
});

// The continuation inherits the task's signal; aborting it drops the
// continuation's turn.
await scenario('a yield() continuation aborted', (log) => {
  const controller = new TaskController();
  let inner;
  const outer = scheduler.postTask(() => {
    log.push('task');
    const continued = scheduler.yield().then(() => log.push('continued'), (error) => log.push(`yield ${error.name}`));
    controller.abort();
    inner = Promise.all([continued, timer(log, 'timeout'), task(log, 'C')]);
  }, { signal: controller.signal });
  return [outer.catch(() => inner)];
});
