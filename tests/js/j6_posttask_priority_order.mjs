// Spec test for contract J6 (https://wicg.github.io/scheduling-apis/):
// priority changes and the order of tasks.
//  - A delayed task whose TaskSignal changes priority during the delay joins
//    the queue of the signal's priority when the delay ends (it used to run
//    at the priority it had when posted).
//  - A queued task moved by setPriority keeps its enqueue order in its new
//    priority (it used to go behind tasks posted after it).
//  - SchedulerPostTaskOptions and TaskControllerInit convert as WebIDL
//    dictionaries: members read in lexicographic order, a null signal or a
//    non-object dictionary is a TypeError, priorities are enum values.
// Expected: j6_posttask_priority_order.stdout.

function busyWait(ms) {
  const end = performance.now() + ms;
  while (performance.now() < end) {}
}

{
  const order = [];
  const controller = new TaskController({ priority: 'background' });
  let visible;
  setTimeout(() => {
    visible = scheduler.postTask(() => order.push('user-visible task'));
  }, 0);
  const delayed = scheduler.postTask(() => order.push(`delayed task (${controller.signal.priority})`), {
    signal: controller.signal,
    delay: 5,
  });
  controller.setPriority('user-blocking');
  busyWait(20); // both the timer and the delay are due at the next pass
  await delayed;
  await visible;
  console.log('priority changed during a delay:', order.join(' -> '));
}

{
  const order = [];
  const controller = new TaskController({ priority: 'background' });
  const a = scheduler.postTask(() => order.push('A'), { signal: controller.signal });
  const b = scheduler.postTask(() => order.push('B'));
  const c = scheduler.postTask(() => order.push('C'), { signal: controller.signal });
  controller.setPriority('user-visible');
  await Promise.all([a, b, c]);
  console.log('moved tasks keep their enqueue order:', order.join(' -> '));
}

{
  const reads = [];
  const options = {};
  for (const key of ['signal', 'priority', 'delay']) {
    Object.defineProperty(options, key, {
      get() {
        reads.push(key);
        return undefined;
      },
    });
  }
  await scheduler.postTask(() => {}, options);
  console.log('options read in order:', reads.join(', '));
}

const outcome = (promise) => promise.then((v) => `resolved ${v}`, (e) => `rejected ${e.constructor.name}`);
console.log('signal: null:', await outcome(scheduler.postTask(() => 'ran', { signal: null })));
console.log('options 5:', await outcome(scheduler.postTask(() => 'ran', 5)));
console.log('priority bogus:', await outcome(scheduler.postTask(() => 'ran', { priority: 'bogus' })));
console.log('options function:', await outcome(scheduler.postTask(() => 'ran', Object.assign(() => {}, { priority: 'background' }))));

for (const make of [
  () => new TaskController(5),
  () => new TaskController({ priority: 'urgent' }),
  () => new TaskPriorityChangeEvent('prioritychange', { previousPriority: 'bogus' }),
  () => new TaskPriorityChangeEvent('prioritychange', {}),
  () => new TaskController().setPriority(),
  () => setTimeout(Symbol('handler'), 0),
]) {
  try {
    make();
    console.log('accepted:', make.toString());
  } catch (e) {
    console.log('threw', e.constructor.name);
  }
}
console.log(new TaskPriorityChangeEvent('x', { previousPriority: 'background' }).previousPriority);
