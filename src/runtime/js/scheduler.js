'use strict';
// Prioritized task scheduling: scheduler.postTask and scheduler.yield (J6).
// https://wicg.github.io/scheduling-apis/
//
// Tasks wait in one FIFO per (priority, kind). Each posted task also puts
// one anonymous token into the runtime's ordered lane (host.postSchedulerToken),
// so scheduler tasks keep their place among timers and other macrotasks
// (L3: postTask is FIFO with setTimeout(0)); a token runs the highest-priority
// task that is due, which is how "among due tasks, higher priority first,
// FIFO within one priority" holds. A token that finds nothing due (its task
// was aborted) does nothing.

const TypeError = global.TypeError;
const ReflectApply = Reflect.apply;
const PromiseCtor = Promise;
const PromiseReject = Promise.reject.bind(Promise);
const ArrayPrototypePush = Array.prototype.push;
const ArrayPrototypeShift = Array.prototype.shift;
const ArrayPrototypeIndexOf = Array.prototype.indexOf;
const ArrayPrototypeSplice = Array.prototype.splice;
const ObjectDefineProperty = Object.defineProperty;

const kPriorities = ['user-blocking', 'user-visible', 'background'];

// Run order: continuations (yield) before tasks of the same priority, and
// every user-blocking entry before any user-visible one.
// https://wicg.github.io/scheduling-apis/#scheduler-task-queues
const queues = [[], [], [], [], [], []];  // [ub-cont, ub-task, uv-cont, uv-task, bg-cont, bg-task]
const priorityIndex = (priority) => ReflectApply(ArrayPrototypeIndexOf, kPriorities, [priority]);

// https://wicg.github.io/scheduling-apis/#sec-task-signal
// A TaskSignal is an AbortSignal with a priority; TaskController makes them.
const signalPriority = new WeakMap();

class TaskPriorityChangeEvent extends global.Event {
  #previous;
  constructor(type, init) {
    super(type, init);
    if (init === undefined || init === null || init.previousPriority === undefined) {
      throw new TypeError("Failed to construct 'TaskPriorityChangeEvent': required member previousPriority is undefined.");
    }
    this.#previous = String(init.previousPriority);
  }
  get previousPriority() {
    return this.#previous;
  }
}

// https://wicg.github.io/scheduling-apis/#sec-task-signal
class TaskSignal extends global.AbortSignal {
  constructor() {
    throw new TypeError('Illegal constructor');
  }
  get priority() {
    const priority = signalPriority.get(this);
    if (priority === undefined) throw new TypeError('Illegal invocation');
    return priority;
  }
}
ObjectDefineProperty(TaskSignal.prototype, Symbol.toStringTag, { value: 'TaskSignal', configurable: true });
internals.defineEventHandler(TaskSignal.prototype, 'prioritychange');

// Signals whose prioritychange is being dispatched ("priority changing").
const priorityChanging = new WeakSet();
const DOMExceptionCtor = global.DOMException;

class TaskController extends global.AbortController {
  constructor(init = undefined) {
    super();
    let priority = 'user-visible';
    if (init !== undefined && init !== null) {
      if (init.priority !== undefined) priority = String(init.priority);
    }
    if (priorityIndex(priority) < 0) {
      throw new TypeError(`Failed to construct 'TaskController': The provided value '${priority}' is not a valid enum value of type TaskPriority.`);
    }
    signalPriority.set(this.signal, priority);
    Object.setPrototypeOf(this.signal, TaskSignal.prototype);
  }
  setPriority(priority) {
    priority = String(priority);
    if (priorityIndex(priority) < 0) {
      throw new TypeError(`Failed to execute 'setPriority' on 'TaskController': The provided value '${priority}' is not a valid enum value of type TaskPriority.`);
    }
    const signal = this.signal;
    // https://wicg.github.io/scheduling-apis/#tasksignal-signal-priority-change
    // steps 1-3: not from inside this signal's own prioritychange.
    if (priorityChanging.has(signal)) {
      throw new DOMExceptionCtor("Failed to execute 'setPriority' on 'TaskController': The priority is already changing.", 'NotAllowedError');
    }
    const previousPriority = signalPriority.get(signal);
    if (previousPriority === priority) return;
    priorityChanging.add(signal);
    signalPriority.set(signal, priority);
    // Queued tasks that follow this signal move to the new priority.
    for (let q = 1; q < queues.length; q += 2) {
      const queue = queues[q];
      for (let i = 0; i < queue.length; i++) {
        const task = queue[i];
        if (task.signal === signal && task.followsSignal) {
          ReflectApply(ArrayPrototypeSplice, queue, [i--, 1]);
          task.priority = priority;
          ReflectApply(ArrayPrototypePush, queues[priorityIndex(priority) * 2 + 1], [task]);
        }
      }
    }
    try {
      internals.fireEvent(signal, 'prioritychange', TaskPriorityChangeEvent, { previousPriority });
    } finally {
      priorityChanging.delete(signal);
    }
  }
}
ObjectDefineProperty(TaskController.prototype, Symbol.toStringTag, { value: 'TaskController', configurable: true });

function isSignal(value) {
  return internals.isAbortSignal(value);
}

// https://wicg.github.io/scheduling-apis/#schedule-a-posttask-task
function scheduleTask(callback, options, resolve, reject) {
  let priority;
  let signal;
  let delay = 0;
  if (options !== undefined && options !== null) {
    if (options.signal !== undefined && options.signal !== null) {
      signal = options.signal;
      if (!isSignal(signal)) throw new TypeError("Failed to execute 'postTask' on 'Scheduler': member signal is not of type AbortSignal.");
    }
    if (options.priority !== undefined) {
      priority = String(options.priority);
      if (priorityIndex(priority) < 0) {
        throw new TypeError(`Failed to execute 'postTask' on 'Scheduler': The provided value '${priority}' is not a valid enum value of type TaskPriority.`);
      }
    }
    if (options.delay !== undefined) {
      // WebIDL [EnforceRange] unsigned long long.
      delay = +options.delay;
      if (!Number.isFinite(delay)) throw new TypeError("Failed to execute 'postTask' on 'Scheduler': Value is not a finite number.");
      delay = Math.trunc(delay);
      if (delay < 0 || delay > Number.MAX_SAFE_INTEGER) throw new TypeError("Failed to execute 'postTask' on 'Scheduler': Value is outside the 'unsigned long long' value range.");
    }
  }
  const followsSignal = priority === undefined && signal !== undefined && signalPriority.has(signal);
  if (priority === undefined) priority = followsSignal ? signalPriority.get(signal) : 'user-visible';
  if (signal !== undefined && signal.aborted) {
    reject(signal.reason);
    return;
  }
  const task = {
    callback, resolve, reject, priority, signal, followsSignal, queued: false, done: false, abort: undefined, token: 0,
  };
  if (signal !== undefined) {
    task.abort = () => {
      if (task.done) return;
      task.done = true;
      if (task.queued) {
        const queue = queues[priorityIndex(task.priority) * 2 + 1];
        const index = ReflectApply(ArrayPrototypeIndexOf, queue, [task]);
        if (index >= 0) ReflectApply(ArrayPrototypeSplice, queue, [index, 1]);
      } else if (task.token !== 0) {
        // Still in its delay: its token leaves the lane, and with it what
        // kept the runtime alive for the rest of the delay (J3).
        host.cancelSchedulerToken(task.token);
      }
      reject(signal.reason);
    };
    internals.addAbortAlgorithm(signal, task.abort);
  }
  if (delay > 0) {
    // The delayed token itself makes the task due; no second token.
    task.token = host.postSchedulerToken(delay, task);
  } else {
    enqueue(task);
    host.postSchedulerToken(0);
  }
}

function enqueue(task) {
  task.queued = true;
  ReflectApply(ArrayPrototypePush, queues[priorityIndex(task.priority) * 2 + 1], [task]);
}

// Called by the native side for every token (a task of its own). A delayed
// token brings its task along.
internals.runSchedulerToken = function runSchedulerToken(delayedTask) {
  if (delayedTask !== undefined && !delayedTask.done) enqueue(delayedTask);
  for (let q = 0; q < queues.length; q++) {
    const queue = queues[q];
    if (queue.length === 0) continue;
    const entry = ReflectApply(ArrayPrototypeShift, queue, []);
    if (entry.continuation) {
      entry.resolve();
      return;
    }
    entry.done = true;
    if (entry.signal !== undefined) internals.removeAbortAlgorithm(entry.signal, entry.abort);
    let result;
    try {
      result = ReflectApply(entry.callback, undefined, []);
    } catch (error) {
      // The callback's exception rejects the promise; it is not "reported".
      entry.reject(error);
      return;
    }
    entry.resolve(result);
    return;
  }
};

class Scheduler {
  constructor() {
    throw new TypeError('Illegal constructor');
  }
  // https://wicg.github.io/scheduling-apis/#dom-scheduler-posttask
  postTask(callback, options = undefined) {
    // A promise-returning operation: argument errors reject (WebIDL).
    if (typeof callback !== 'function') {
      return PromiseReject(new TypeError("Failed to execute 'postTask' on 'Scheduler': parameter 1 is not of type 'Function'."));
    }
    let resolve;
    let reject;
    const promise = new PromiseCtor((res, rej) => { resolve = res; reject = rej; });
    try {
      scheduleTask(callback, options, resolve, reject);
    } catch (error) {
      reject(error);
    }
    return promise;
  }
  // https://wicg.github.io/scheduling-apis/#dom-scheduler-yield
  yield() {
    return new PromiseCtor((resolve) => {
      ReflectApply(ArrayPrototypePush, queues[2], [{ continuation: true, resolve }]);
      host.postSchedulerToken(0);
    });
  }
}
ObjectDefineProperty(Scheduler.prototype, Symbol.toStringTag, { value: 'Scheduler', configurable: true });
const scheduler = Object.create(Scheduler.prototype);


for (const [name, value] of [['Scheduler', Scheduler], ['TaskController', TaskController], ['TaskSignal', TaskSignal],
  ['TaskPriorityChangeEvent', TaskPriorityChangeEvent]]) {
  ObjectDefineProperty(global, name, { value, writable: true, configurable: true, enumerable: false });
}
ObjectDefineProperty(global, 'scheduler', { value: scheduler, writable: true, configurable: true, enumerable: true });
