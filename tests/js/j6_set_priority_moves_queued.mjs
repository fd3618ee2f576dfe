// timeout: 20
//
// Spec test for contract J6 (https://wicg.github.io/scheduling-apis/,
// "signal priority change" and "select the next scheduler task queue"):
// TaskController.setPriority() moves the signal's queued tasks and yield
// continuations to the queues of the new priority, each once, where they run
// by enqueue order among the entries already there.
//  - Lowering the priority of a signal with a queued task hung the process at
//    100% CPU: setPriority walked the task queues from high to low priority
//    and met the moved task again in its new, later queue, forever.
//  - A yield continuation stayed at the priority it was queued with; it now
//    follows its task's signal, as the spec's continuation queue for that
//    signal does.
// Expected: j6_set_priority_moves_queued.stdout.

const order = [];
const post = (label, options) => scheduler.postTask(() => order.push(label), options);
const drain = () => new Promise((resolve) => setTimeout(resolve, 5));

{
  const controller = new TaskController();
  const result = scheduler.postTask(() => 'task ran', { signal: controller.signal });
  controller.setPriority('background');
  console.log('lowered with a queued task:', await result);
}

{
  // Enqueue order: A1 B C1 E D1 F2 G, then c1 down and c2 up.
  const c1 = new TaskController();
  const c2 = new TaskController();
  post('A1', { signal: c1.signal });
  post('B');
  post('C2', { signal: c2.signal });
  post('E', { priority: 'background' });
  post('D1', { signal: c1.signal });
  post('F2', { signal: c2.signal });
  post('G');
  c1.setPriority('background');
  c2.setPriority('user-blocking');
  await drain();
  console.log('one controller down, one up:', order.splice(0).join(' '));
}

{
  // Several changes before anything runs: only the last one counts, and the
  // tasks keep their enqueue order through all of them.
  const c1 = new TaskController({ priority: 'background' });
  const c2 = new TaskController({ priority: 'user-blocking' });
  post('P1', { signal: c1.signal });
  post('Q2', { signal: c2.signal });
  post('R', { priority: 'user-visible' });
  post('S1', { signal: c1.signal });
  post('T2', { signal: c2.signal });
  post('U', { priority: 'background' });
  c1.setPriority('user-blocking');
  c2.setPriority('background');
  c1.setPriority('user-visible');
  c2.setPriority('user-visible');
  c1.setPriority('background');
  await drain();
  console.log('repeated changes:', order.splice(0).join(' '));
}

{
  // Raising: the moved tasks go before later tasks of their new priority and
  // after earlier ones.
  const c = new TaskController({ priority: 'background' });
  post('ub-early', { priority: 'user-blocking' });
  post('X', { signal: c.signal });
  post('ub-late', { priority: 'user-blocking' });
  post('Y', { signal: c.signal });
  post('uv');
  c.setPriority('user-blocking');
  await drain();
  console.log('raised:', order.splice(0).join(' '));
}

{
  // A continuation and a task of the same signal, lowered from inside the
  // task: user-visible task, then the background continuation, then the
  // background tasks by enqueue order.
  const c = new TaskController();
  await scheduler.postTask(() => {
    post('bg', { priority: 'background' });
    post('own', { signal: c.signal });
    post('uv');
    scheduler.yield().then(() => order.push('continuation'));
    c.setPriority('background');
  }, { signal: c.signal });
  await drain();
  console.log('continuation lowered:', order.splice(0).join(' '));
}

{
  // Raised: the continuation now runs before user-blocking tasks.
  const c = new TaskController({ priority: 'background' });
  await scheduler.postTask(() => {
    post('ub', { priority: 'user-blocking' });
    post('uv');
    scheduler.yield().then(() => order.push('continuation 1'));
    scheduler.yield().then(() => order.push('continuation 2'));
    c.setPriority('user-blocking');
  }, { signal: c.signal });
  await drain();
  console.log('continuations raised:', order.splice(0).join(' '));
}

{
  // A task posted with an explicit priority and the signal keeps its priority.
  const c = new TaskController();
  post('fixed', { signal: c.signal, priority: 'user-visible' });
  post('follows', { signal: c.signal });
  post('uv');
  c.setPriority('background');
  await drain();
  console.log('explicit priority stays:', order.splice(0).join(' '));
}

{
  // An aborted moved task leaves its new queue; the others still run.
  const c = new TaskController();
  const aborted = scheduler.postTask(() => order.push('aborted'), { signal: c.signal });
  post('uv');
  c.setPriority('background');
  c.abort();
  console.log('moved then aborted:', await aborted.then(() => 'resolved', (e) => `rejected ${e.name}`));
  await drain();
  console.log('after the abort:', order.splice(0).join(' '));
}
