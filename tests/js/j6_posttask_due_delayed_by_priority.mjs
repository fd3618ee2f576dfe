// timeout: 20
//
// Spec test for contract J6 (https://wicg.github.io/scheduling-apis/): a
// delayed task joins its scheduler task queue when its delay ends ("run steps
// after a timeout" in #schedule-a-posttask-task, in parallel with the event
// loop), and "select the next scheduler task queue from all schedulers" picks
// by priority among everything queued. So delayed tasks whose delays have all
// run out by the time the loop picks its next task run by priority, not by
// deadline (each delayed task used to reach its queue only when its own loop
// entry ran, and ran in deadline order). Each task is still a macrotask of
// its own (its microtasks run before the next task), a timer keeps its place
// by its deadline, a task posted after a delay ended runs after the delayed
// task, and a delayed task aborted after it joined its queue does not run.
// Expected: j6_posttask_due_delayed_by_priority.stdout.

function busyWait(ms) {
  const end = performance.now() + ms;
  while (performance.now() < end) {}
}

// Runs `post(log)`, keeps the loop busy until every delay is over, and
// prints what ran once everything has.
async function scenario(title, post) {
  const log = [];
  const done = post(log);
  busyWait(30);
  await Promise.allSettled(done);
  console.log(`${title}: ${log.join(', ')}`);
}

await scenario('due delayed tasks', (log) => [
  scheduler.postTask(() => log.push('background (delay 5)'), { priority: 'background', delay: 5 }),
  scheduler.postTask(() => log.push('user-visible (delay 6)'), { priority: 'user-visible', delay: 6 }),
  scheduler.postTask(() => log.push('user-blocking (delay 7)'), { priority: 'user-blocking', delay: 7 }),
]);

await scenario('a queued task and a due delayed one', (log) => [
  scheduler.postTask(() => log.push('background'), { priority: 'background' }),
  scheduler.postTask(() => log.push('user-blocking (delay 5)'), { priority: 'user-blocking', delay: 5 }),
]);

await scenario('one macrotask each, timers by deadline', (log) => {
  const task = (name, options) => scheduler.postTask(() => {
    log.push(name);
    queueMicrotask(() => log.push(`${name} microtask`));
  }, options);
  const timer = (name, ms) => new Promise((resolve) => setTimeout(() => resolve(log.push(name)), ms));
  return [
    timer('timer 0', 0),
    task('background', { priority: 'background', delay: 5 }),
    task('user-blocking', { priority: 'user-blocking', delay: 6 }),
    timer('timer 20', 20),
    task('user-visible', { delay: 7 }),
  ];
});

// The delay ends while the task that posted it still runs; a timer and a
// task posted after that come after the delayed task (it joined its queue
// first), and the task keeps its place behind the timer posted before it.
// (Moved to its queue only when a token ran, the delayed task let the later
// task take its turn, which then ran ahead of that setTimeout(0).)
await scenario('a delay that ended before later posts', (log) => {
  const delayed = scheduler.postTask(() => log.push('user-visible (delay 1)'), { delay: 1 });
  busyWait(5);
  return [
    delayed,
    new Promise((resolve) => setTimeout(() => resolve(log.push('timer 0')), 0)),
    scheduler.postTask(() => log.push('user-visible, posted after the delay ended')),
  ];
});

await scenario('aborted after joining its queue', (log) => {
  const controller = new AbortController();
  return [
    scheduler.postTask(() => {
      log.push('user-blocking aborts background');
      controller.abort();
    }, { priority: 'user-blocking', delay: 7 }),
    scheduler.postTask(() => log.push('background: must not run'), { priority: 'background', delay: 5, signal: controller.signal })
      .catch((error) => log.push(`background rejected with ${error.name}`)),
    scheduler.postTask(() => log.push('background (delay 6)'), { priority: 'background', delay: 6 }),
  ];
});

// A delayed task still in its delay keeps the runtime alive; this one runs
// last, after the loop has had nothing else to do.
scheduler.postTask(() => console.log('a pending delayed task kept the runtime alive'), { priority: 'background', delay: 20 });
