// Spec test for contract J6 (https://wicg.github.io/scheduling-apis/):
//  - scheduler.yield() inherits the running postTask task's priority and
//    signal, also after an await (V8 carries the task's scheduling state into
//    its promise reactions): a continuation of a user-blocking task runs
//    before other user-blocking tasks, one of a background task after
//    user-visible tasks, and an aborted signal rejects the yield (it used to
//    resume at user-visible, never rejected);
//  - a postTask callback that aborts its own signal gets its result
//    rejected with the abort reason (the abort algorithm was removed before
//    the callback ran, so the callback's value resolved it);
//  - code outside postTask tasks (a timer, the module) yields at
//    user-visible with no signal.
// Expected: j6_yield_inherits.stdout.

const order = [];
async function yieldy(label, count) {
  order.push(`${label}0`);
  for (let i = 1; i <= count; i++) {
    await scheduler.yield();
    order.push(`${label}${i}`);
  }
}

await scheduler.postTask(async () => {
  scheduler.postTask(() => order.push('ub1'), { priority: 'user-blocking' });
  scheduler.postTask(() => order.push('ub2'), { priority: 'user-blocking' });
  await yieldy('y', 3);
}, { priority: 'user-blocking' });
await new Promise((resolve) => setTimeout(resolve, 5));
console.log('user-blocking task:', order.splice(0).join(','));

const controller = new TaskController({ priority: 'background' });
await scheduler.postTask(async () => {
  scheduler.postTask(() => order.push('uv'));
  await yieldy('b', 2);
}, { signal: controller.signal });
await new Promise((resolve) => setTimeout(resolve, 5));
console.log('background task:', order.splice(0).join(','));

const aborting = new TaskController();
const result = await scheduler.postTask(async () => {
  aborting.abort(new Error('stop'));
  try {
    await scheduler.yield();
    return 'yield resolved';
  } catch (error) {
    return `yield rejected: ${error.message}`;
  }
}, { signal: aborting.signal }).then((v) => v, (e) => `task rejected: ${e.message}`);
console.log('abort then yield:', result);

const later = new TaskController();
const pending = scheduler.postTask(async () => {
  scheduler.postTask(() => later.abort(new Error('while yielding')), { priority: 'user-blocking' });
  try {
    await scheduler.yield();
    return 'resolved';
  } catch (error) {
    return `rejected: ${error.message}`;
  }
}, { signal: later.signal });
console.log('aborted while yielding:', await pending);

const selfAbort = new TaskController();
console.log('callback aborts its signal:', await scheduler.postTask(() => {
  selfAbort.abort(new Error('from inside'));
  return 'value';
}, { signal: selfAbort.signal }).then((v) => `resolved ${v}`, (e) => `rejected ${e.message}`));

// Outside any postTask task: user-visible, behind user-blocking work.
setTimeout(async () => {
  scheduler.postTask(() => order.push('ub'), { priority: 'user-blocking' });
  await yieldy('t', 1);
  console.log('timer:', order.splice(0).join(','));
}, 0);
