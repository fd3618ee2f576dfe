// hostloop-flags: --v8-flags=--expose-gc
// timeout: 30
//
// Spec test for contract J6: TaskSignal.any(signals, init)
// (https://wicg.github.io/scheduling-apis/#dom-tasksignal-any). It was
// AbortSignal.any, inherited, so it returned an AbortSignal without priority.
// Now it returns a TaskSignal that aborts with any of `signals` and whose
// priority is init.priority: a fixed TaskPriority, or, for a TaskSignal, that
// signal's priority, followed from then on (a prioritychange event on every
// change, after the source's own; intermediate dependents are flattened to
// their source). postTask tasks and yield continuations with such a signal
// move with its priority; the arguments convert as WebIDL says; a dependent
// with prioritychange listeners outlives every reference to it while its
// source lives.

import { test, assert, assertEquals, assertThrows } from './lib/assert.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

await test('TaskSignal.any is its own static operation returning a TaskSignal', () => {
  assert(TaskSignal.any !== AbortSignal.any, 'TaskSignal.any is AbortSignal.any');
  assertEquals(TaskSignal.any.length, 1);
  assertEquals(Object.getOwnPropertyDescriptor(TaskSignal, 'any').enumerable, true);
  const signal = TaskSignal.any([]);
  assert(signal instanceof TaskSignal, 'not a TaskSignal');
  assertEquals(signal.priority, 'user-visible');
  assertEquals(signal.aborted, false);
  assertEquals(Object.prototype.toString.call(signal), '[object TaskSignal]');
  assertEquals(TaskSignal.any([], null).priority, 'user-visible');
  assertEquals(TaskSignal.any([], { priority: undefined }).priority, 'user-visible');
  for (const priority of ['user-blocking', 'user-visible', 'background']) {
    assertEquals(TaskSignal.any([], { priority }).priority, priority);
    assertEquals(TaskSignal.any([], { priority: new TaskController({ priority }).signal }).priority, priority);
  }
  // AbortSignal.any still makes AbortSignals.
  assertEquals(AbortSignal.any([]) instanceof TaskSignal, false);
});

await test('the arguments convert as WebIDL sequence<AbortSignal> and TaskSignalAnyInit', () => {
  assertThrows(() => TaskSignal.any(), TypeError, /1 argument required/);
  assertThrows(() => TaskSignal.any(5), TypeError, /sequence/);
  assertThrows(() => TaskSignal.any({}), TypeError, /sequence/);
  assertThrows(() => TaskSignal.any([{}]), TypeError, /AbortSignal/);
  assertThrows(() => TaskSignal.any([], 5), TypeError, /TaskSignalAnyInit/);
  assertThrows(() => TaskSignal.any([], { priority: 'urgent' }), TypeError, /TaskPriority/);
  // An AbortSignal is not a TaskSignal: it converts to the enum, and fails.
  assertThrows(() => TaskSignal.any([], { priority: new AbortController().signal }), TypeError, /TaskPriority/);
  assertThrows(() => TaskSignal.any([], { priority: Symbol('p') }), TypeError);
  // Any iterable of signals; the priority's toString is the enum value.
  const controller = new AbortController();
  const fromSet = TaskSignal.any(new Set([controller.signal]), { priority: { toString: () => 'background' } });
  assertEquals(fromSet.priority, 'background');
  controller.abort('why');
  assertEquals(fromSet.reason, 'why');
});

await test('a dependent priority follows its source and fires prioritychange after it', () => {
  const controller = new TaskController({ priority: 'user-blocking' });
  const fixed = TaskSignal.any([], { priority: 'user-blocking' });
  const first = TaskSignal.any([], { priority: controller.signal });
  const second = TaskSignal.any([], { priority: first });
  const third = TaskSignal.any([], { priority: fixed });
  const events = [];
  const listen = (signal, name) => signal.addEventListener('prioritychange', (e) => {
    assertEquals(e.target, signal);
    assert(e instanceof TaskPriorityChangeEvent, 'not a TaskPriorityChangeEvent');
    events.push(`${name}:${e.previousPriority}->${signal.priority}`);
  });
  listen(controller.signal, 'source');
  listen(first, 'first');
  listen(second, 'second');
  listen(third, 'third');
  controller.setPriority('background');
  controller.setPriority('background');
  controller.setPriority('user-visible');
  assertEquals(events.join(' '), 'source:user-blocking->background first:user-blocking->background '
    + 'second:user-blocking->background source:background->user-visible first:background->user-visible '
    + 'second:background->user-visible');
  assertEquals(third.priority, 'user-blocking');
});

await test('setPriority from a dependent\'s prioritychange throws NotAllowedError; the change completes', () => {
  const controller = new TaskController();
  const dependent = TaskSignal.any([], { priority: controller.signal });
  let thrown;
  dependent.onprioritychange = () => {
    try {
      controller.setPriority('user-blocking');
    } catch (error) {
      thrown = error;
    }
  };
  controller.setPriority('background');
  assertEquals(thrown?.name, 'NotAllowedError');
  assertEquals(controller.signal.priority, 'background');
  assertEquals(dependent.priority, 'background');
  controller.setPriority('user-blocking');
  assertEquals(dependent.priority, 'user-blocking');
});

await test('abort comes from `signals`, priority from init.priority', () => {
  const tasks = new TaskController();
  const aborts = new AbortController();
  const signal = TaskSignal.any([aborts.signal], { priority: tasks.signal });
  tasks.abort();
  assertEquals(signal.aborted, false);
  aborts.abort('stop');
  assertEquals(signal.reason, 'stop');
  tasks.setPriority('background');
  assertEquals(signal.priority, 'background');
  const already = TaskSignal.any([AbortSignal.abort('early')], { priority: 'user-blocking' });
  assert(already instanceof TaskSignal && already.aborted, 'not an aborted TaskSignal');
  assertEquals(already.reason, 'early');
  assertEquals(already.priority, 'user-blocking');
});

await test('postTask tasks and yield continuations with a dependent signal move with its priority', async () => {
  const order = [];
  const controller = new TaskController();
  const dependent = TaskSignal.any([], { priority: controller.signal });
  const fixed = TaskSignal.any([], { priority: 'background' });
  const post = (label, options) => scheduler.postTask(() => order.push(label), options);
  post('fixed', { signal: fixed });
  post('dependent', { signal: dependent });
  post('uv');
  controller.setPriority('user-blocking');
  await sleep(5);
  assertEquals(order.splice(0).join(' '), 'dependent uv fixed');

  await scheduler.postTask(() => {
    post('uv');
    scheduler.yield().then(() => order.push('continuation'));
    controller.setPriority('background');
  }, { signal: dependent });
  post('bg', { priority: 'background' });
  await sleep(5);
  assertEquals(order.splice(0).join(' '), 'uv continuation bg');
});

await test('aborting a source of the dependent signal rejects its queued task', async () => {
  const aborts = new AbortController();
  const signal = TaskSignal.any([aborts.signal], { priority: 'user-blocking' });
  const result = scheduler.postTask(() => 'ran', { signal });
  aborts.abort(new Error('aborted source'));
  const outcome = await result.then((v) => v, (e) => e.message);
  assertEquals(outcome, 'aborted source');
});

await test('a dependent with a prioritychange listener outlives its last reference', async () => {
  const controller = new TaskController();
  let fired = 0;
  let collected = 0;
  const registry = new FinalizationRegistry(() => collected++);
  (() => {
    const kept = TaskSignal.any([], { priority: controller.signal });
    kept.onprioritychange = () => fired++;
    for (let i = 0; i < 100; i++) registry.register(TaskSignal.any([], { priority: controller.signal }), i);
  })();
  for (let i = 0; i < 3; i++) {
    gc();
    await sleep(0);
  }
  await sleep(20);  // the registry's callbacks are a task of their own
  assert(collected >= 99, `collected ${collected} of 100 dependents without listeners`);
  controller.setPriority('background');
  assertEquals(fired, 1);
});
