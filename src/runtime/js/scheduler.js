'use strict';
// Prioritized task scheduling: scheduler.postTask and scheduler.yield (J6).
// https://wicg.github.io/scheduling-apis/
//
// Tasks wait in one FIFO per (priority, kind). Each posted task also puts
// one token into the runtime's ordered lane (host.postSchedulerToken), so
// scheduler tasks keep their place among timers and other macrotasks (L3:
// postTask is FIFO with setTimeout(0)); a token runs the highest-priority
// task that is due, which is how "among due tasks, higher priority first,
// FIFO within one priority" holds.
//
// Every waiting task owns exactly one pending token (a record: see
// postToken). A token that runs a task other than its owner hands the
// owner that task's token, so the owner still has its turn at a later
// place; an aborted task leaves its token ownerless, and an ownerless token
// does nothing. (A token used to run whatever was best even when its own
// task had been aborted: a task posted later took that early turn, ahead of
// a setTimeout(0) posted before it.)
//
// A delayed task's token is due when its delay ends, and the task also waits
// in a min-heap by (due, sequence). In the spec the task joins its queue the
// moment its delay ends, in parallel with the event loop; here every token
// first moves each task whose delay has ended out of the heap into its queue
// (by the loop's clock, which also timed the tokens), so due delayed tasks
// compete by priority, not by deadline. A task moved early still has its own
// token pending (due already): one macrotask per task.

const TypeError = global.TypeError;
const ReflectApply = Reflect.apply;
const PromiseCtor = Promise;
const PromiseReject = Promise.reject.bind(Promise);
const ArrayPrototypePush = Array.prototype.push;
const ArrayPrototypePop = Array.prototype.pop;
const ObjectDefineProperty = Object.defineProperty;
const ObjectSetPrototypeOf = Object.setPrototypeOf;
const SetPrototypeAdd = Set.prototype.add;
const SetPrototypeDelete = Set.prototype.delete;
const SetPrototypeForEach = Set.prototype.forEach;
const FinalizationRegistryCtor = typeof FinalizationRegistry === 'function' ? FinalizationRegistry : undefined;
const FinalizationRegistryPrototypeRegister =
  FinalizationRegistryCtor !== undefined ? FinalizationRegistry.prototype.register : undefined;

const kPriorities = ['user-blocking', 'user-visible', 'background'];

// A FIFO of tasks or continuations: the entries from `head` to `tail` of an
// array, so taking the first is O(1) (Array.prototype.shift copies the whole
// array: n queued tasks took O(n^2)). An emptied queue starts over at 0 and
// keeps its array (setting the length to 0 made V8 drop the backing store, a
// new one for every task of a postTask chain: 315 -> 445 ns a task); the
// consumed front of a long queue moves down once it is at least half of it.
// Every entry knows its index (`slot`), so an abort takes it out in O(1): its
// place becomes a hole (undefined) that shift() and compact() skip (shifting
// the rest down made n aborts of queued tasks O(n^2): one signal aborting
// 200k queued tasks took 110 s).
class EntryQueue {
  constructor() {
    this.entries = [];
    this.head = 0;
    this.tail = 0;
    this.holes = 0;
  }
  get size() {
    return this.tail - this.head - this.holes;
  }
  push(entry) {
    entry.slot = this.tail;
    this.entries[this.tail++] = entry;
  }
  // The first entry; the queue must not be empty.
  shift() {
    // (Never a hole: afterFrontTaken() moves the head past them.)
    const entries = this.entries;
    const entry = entries[this.head];
    entries[this.head++] = undefined;  // the queue no longer holds it alive
    this.afterFrontTaken();
    return entry;
  }
  afterFrontTaken() {
    const entries = this.entries;
    while (this.holes > 0 && this.head < this.tail && entries[this.head] === undefined) {
      this.head++;
      this.holes--;
    }
    if (this.head === this.tail) {
      this.head = 0;
      this.tail = 0;
      if (entries.length > 4096) this.entries = [];  // (after a burst: its memory back)
    } else if ((this.head >= 1024 && this.head * 2 >= this.tail) || (this.holes >= 1024 && this.holes * 2 >= this.size)) {
      this.compact();
    }
  }
  // Moves the entries down to index 0, closing the holes.
  compact() {
    const entries = this.entries;
    let kept = 0;
    for (let i = this.head; i < this.tail; i++) {
      const entry = entries[i];
      if (entry === undefined) continue;
      entry.slot = kept;
      entries[kept++] = entry;
    }
    for (let i = kept; i < this.tail; i++) entries[i] = undefined;
    this.head = 0;
    this.tail = kept;
    this.holes = 0;
  }
  // Takes an aborted entry out.
  remove(entry) {
    const slot = entry.slot;
    if (slot < this.head || slot >= this.tail || this.entries[slot] !== entry) return;
    this.entries[slot] = undefined;
    if (slot === this.tail - 1) {
      this.tail--;
    } else {
      this.holes++;
    }
    this.afterFrontTaken();
  }
  // Takes out, in order, the entries `match` accepts; returns them.
  removeAll(match) {
    this.compact();
    const entries = this.entries;
    const removed = [];
    let kept = 0;
    for (let i = 0; i < this.tail; i++) {
      const entry = entries[i];
      if (match(entry)) {
        removed[removed.length] = entry;
      } else {
        entry.slot = kept;
        entries[kept++] = entry;
      }
    }
    for (let i = kept; i < this.tail; i++) entries[i] = undefined;
    this.tail = kept;
    return removed;
  }
  // Merges `moved` (sorted by enqueue order) in by enqueue order (the queue
  // is sorted by it): O(n + m), where inserting one at a time was O(n * m).
  mergeByEnqueueOrder(moved) {
    if (moved.length === 0) return;
    this.compact();
    const entries = this.entries;
    const merged = [];
    let i = 0;
    let j = 0;
    while (i < this.tail || j < moved.length) {
      const entry = j === moved.length || (i < this.tail && entries[i].order < moved[j].order) ? entries[i++] : moved[j++];
      entry.slot = merged.length;
      merged[merged.length] = entry;
    }
    this.entries = merged;
    this.tail = merged.length;
  }
}

// Run order: continuations (yield) before tasks of the same priority, and
// every user-blocking entry before any user-visible one.
// https://wicg.github.io/scheduling-apis/#scheduler-task-queues
// [ub-cont, ub-task, uv-cont, uv-task, bg-cont, bg-task]
const queues = [
  new EntryQueue(), new EntryQueue(), new EntryQueue(), new EntryQueue(), new EntryQueue(), new EntryQueue(),
];
// The index of a TaskPriority in kPriorities, -1 for anything else.
const priorityIndex = (priority) =>
  priority === 'user-visible' ? 1 : priority === 'user-blocking' ? 0 : priority === 'background' ? 2 : -1;

// https://wicg.github.io/scheduling-apis/#sec-task-signal
// A TaskSignal is an AbortSignal with a priority; TaskController and
// TaskSignal.any make them. Its state: priority, priority changing, dependent,
// source signal (a weak handle) and dependent signals (a set of weak handles),
// plus `retained`, the dependents it must keep alive (see
// createDependentTaskSignal). Its priority change algorithms are the
// scheduler's, the same for every signal (moveQueuedEntries).
const taskSignalSlot = internals.newPrivateSlot();

function newTaskSignalState(priority) {
  return { priority, changing: false, dependent: false, source: null, dependents: null, retained: null };
}

// The state of a TaskSignal; undefined for anything else.
function taskSignalState(value) {
  return taskSignalSlot.peek(value);
}

// Weak handles on signals: the one each AbortSignal has (events.js).
const weakHandle = internals.signalWeakHandle;
const derefHandle = internals.derefSignalHandle;

// When a dependent signal is collected, its source forgets its handle.
const dependentRegistry = FinalizationRegistryCtor !== undefined
  ? new FinalizationRegistryCtor(({ sourceHandle, handle }) => {
    const source = derefHandle(sourceHandle);
    const sourceState = source === undefined ? undefined : taskSignalState(source);
    if (sourceState !== undefined) ReflectApply(SetPrototypeDelete, sourceState.dependents, [handle]);
  })
  : undefined;

// WebIDL enum TaskPriority: the value's string, or a TypeError naming `what`.
function toTaskPriority(value, what) {
  const priority = `${value}`;  // ToString: a symbol throws TypeError
  if (priorityIndex(priority) < 0) {
    throw new TypeError(`${what}: The provided value '${priority}' is not a valid enum value of type TaskPriority.`);
  }
  return priority;
}

// WebIDL dictionary conversion's first step: undefined and null are an empty
// dictionary, other non-objects a TypeError.
function checkDictionary(value, what, dictionary) {
  if (value !== undefined && value !== null && typeof value !== 'object' && typeof value !== 'function') {
    throw new TypeError(`${what}: The provided value is not of type '${dictionary}'.`);
  }
  return value !== undefined && value !== null;
}

class TaskPriorityChangeEvent extends global.Event {
  #previous;
  constructor(type, init) {
    // EventInit's members are read (by Event) before previousPriority.
    super(type, init);
    const what = "Failed to construct 'TaskPriorityChangeEvent'";
    const previous = init === undefined || init === null ? undefined : init.previousPriority;
    if (previous === undefined) {
      throw new TypeError(`${what}: required member previousPriority is undefined.`);
    }
    this.#previous = toTaskPriority(previous, what);
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
  // https://wicg.github.io/scheduling-apis/#dom-tasksignal-any
  static any(signals, init = undefined) {
    const what = "Failed to execute 'any' on 'TaskSignal'";
    if (arguments.length < 1) {
      throw new TypeError(`${what}: 1 argument required, but only 0 present.`);
    }
    const list = internals.toAbortSignalSequence(signals, what);
    // TaskSignalAnyInit { (TaskPriority or TaskSignal) priority = "user-visible" }:
    // a TaskSignal is itself, anything else converts to the enum.
    let priority = 'user-visible';
    if (checkDictionary(init, what, 'TaskSignalAnyInit')) {
      const value = init.priority;
      if (value !== undefined) priority = taskSignalState(value) !== undefined ? value : toTaskPriority(value, what);
    }
    return createDependentTaskSignal(list, priority);
  }
  get priority() {
    const state = taskSignalState(this);
    if (state === undefined) throw new TypeError('Illegal invocation');
    return state.priority;
  }
}
internals.defineEventHandler(TaskSignal.prototype, 'prioritychange');
const TaskSignalPrototype = TaskSignal.prototype;

// https://wicg.github.io/scheduling-apis/#create-a-dependent-task-signal;
// `priority` is init["priority"]: a TaskPriority or a TaskSignal.
function createDependentTaskSignal(signals, priority) {
  // Step 1.
  const resultSignal = internals.createDependentAbortSignal(signals);
  ObjectSetPrototypeOf(resultSignal, TaskSignalPrototype);
  const result = newTaskSignalState('user-visible');
  taskSignalSlot.set(resultSignal, result);
  // Step 2.
  result.dependent = true;
  if (typeof priority === 'string') {
    // Step 3.1.
    result.priority = priority;
    return resultSignal;
  }
  // Steps 4.1-4.2.
  let sourceSignal = priority;
  let source = taskSignalState(sourceSignal);
  result.priority = source.priority;
  // Step 4.3: a signal of fixed priority is not followed.
  if (source.dependent && source.source === null) return resultSignal;
  // Step 4.3.1 (the source is held weakly: a collected one is fixed now).
  if (source.dependent) {
    sourceSignal = derefHandle(source.source);
    if (sourceSignal === undefined) return resultSignal;
    source = taskSignalState(sourceSignal);
  }
  // Steps 4.3.3-4.3.4.
  const sourceHandle = weakHandle(sourceSignal);
  const handle = weakHandle(resultSignal);
  result.source = sourceHandle;
  if (source.dependents === null) source.dependents = new Set();
  ReflectApply(SetPrototypeAdd, source.dependents, [handle]);
  if (dependentRegistry !== undefined) {
    ReflectApply(FinalizationRegistryPrototypeRegister, dependentRegistry, [resultSignal, { sourceHandle, handle }]);
  }
  // https://wicg.github.io/scheduling-apis/#sec-task-signal-garbage-collection:
  // while it has prioritychange listeners, its source holds it strongly. (Its
  // queued tasks, the other reason to keep it, hold it themselves.)
  internals.watchEventListeners(resultSignal, (target, type, present) => {
    if (type !== 'prioritychange') return;
    if (present) {
      if (source.retained === null) source.retained = new Set();
      ReflectApply(SetPrototypeAdd, source.retained, [target]);
    } else if (source.retained !== null) {
      ReflectApply(SetPrototypeDelete, source.retained, [target]);
    }
  });
  // Step 5.
  return resultSignal;
}

const DOMExceptionCtor = global.DOMException;

// https://wicg.github.io/scheduling-apis/#tasksignal-signal-priority-change
function signalPriorityChange(signal, state, priority) {
  // Step 1.
  if (state.changing) {
    throw new DOMExceptionCtor("Failed to execute 'setPriority' on 'TaskController': The priority is already changing.", 'NotAllowedError');
  }
  // Step 2.
  if (state.priority === priority) return;
  // Step 3.
  state.changing = true;
  try {
    // Steps 4-5.
    const previousPriority = state.priority;
    state.priority = priority;
    // Step 6: the priority change algorithms.
    moveQueuedEntries(signal, previousPriority, priority);
    // Step 7.
    internals.fireEvent(signal, 'prioritychange', TaskPriorityChangeEvent, { previousPriority });
    // Step 8, for the dependents there were before the event: one added by a
    // listener already has the new priority.
    if (state.dependents !== null) {
      const dependents = [];
      ReflectApply(SetPrototypeForEach, state.dependents, [(handle) => {
        const dependent = derefHandle(handle);
        if (dependent !== undefined) ReflectApply(ArrayPrototypePush, dependents, [dependent]);
      }]);
      for (let i = 0; i < dependents.length; i++) {
        signalPriorityChange(dependents[i], taskSignalState(dependents[i]), priority);
      }
    }
  } finally {
    // Step 9.
    state.changing = false;
  }
}

class TaskController extends global.AbortController {
  constructor(init = undefined) {
    // TaskControllerInit { TaskPriority priority = "user-visible" }, converted
    // before anything is created.
    const what = "Failed to construct 'TaskController'";
    let priority = 'user-visible';
    if (checkDictionary(init, what, 'TaskControllerInit')) {
      const value = init.priority;
      if (value !== undefined) priority = toTaskPriority(value, what);
    }
    super();
    const signal = this.signal;
    taskSignalSlot.set(signal, newTaskSignalState(priority));
    ObjectSetPrototypeOf(signal, TaskSignalPrototype);
  }
  // https://wicg.github.io/scheduling-apis/#dom-taskcontroller-setpriority
  setPriority(priority) {
    if (arguments.length < 1) {
      throw new TypeError("Failed to execute 'setPriority' on 'TaskController': 1 argument required, but only 0 present.");
    }
    priority = toTaskPriority(priority, "Failed to execute 'setPriority' on 'TaskController'");
    const signal = this.signal;
    const state = taskSignalState(signal);
    if (state === undefined) throw new TypeError('Illegal invocation');
    signalPriorityChange(signal, state, priority);
  }
}

// The priority change algorithm "select the scheduler task queue" (step
// 1.1.3) adds for a signal's task queue and continuation queue: they take the
// signal's new priority. Here, where each priority has one queue of each kind,
// the signal's queued tasks and continuations move from the queues of
// `previous` to those of `priority`, each placed by its enqueue order, which
// is the order the spec's "oldest first runnable task" rule runs them in.
function moveQueuedEntries(signal, previous, priority) {
  for (let kind = 0; kind < 2; kind++) {
    const from = queues[priorityIndex(previous) * 2 + kind];
    const to = queues[priorityIndex(priority) * 2 + kind];
    const moved = from.removeAll((entry) => entry.signal === signal && entry.followsSignal);
    for (let i = 0; i < moved.length; i++) moved[i].priority = priority;
    to.mergeByEnqueueOrder(moved);
  }
}

// Tokens. A record { owner, id, due, slot }: `owner` the task or
// continuation whose turn it is (null once that was aborted), `id` the lane
// entry of a delayed token (for host.cancelSchedulerToken; 0 for one due
// now, or once it ran), `due` its deadline (written by the native side),
// `slot` its index in dueNowTokens. The lane runs due-now tokens in the
// order they were posted, so their records wait in that order there; a
// delayed token's record comes back with its lane entry.
const dueNowTokens = new EntryQueue();

// Posts the token `entry` owns: due now, or (`delay` > 0, a task) at the end
// of the delay, when it also sets entry.due. Throws a RangeError when the
// loop's queue is full (nothing is posted then).
function postToken(entry, delay) {
  const token = { owner: entry, id: 0, due: 0, slot: 0 };
  if (delay > 0) {
    token.id = host.postSchedulerToken(delay, token);
    entry.due = token.due;
  } else {
    dueNowTokens.push(token);
    host.postSchedulerToken(0);
  }
  entry.token = token;
}

// An aborted entry gives up its turn: its token runs nothing, and a delayed
// one leaves the lane, with what kept the runtime alive for the rest of the
// delay (J3).
function dropToken(entry) {
  const token = entry.token;
  if (token === null) return;
  entry.token = null;
  token.owner = null;
  if (token.id !== 0) {
    host.cancelSchedulerToken(token.id);
    token.id = 0;
  }
}

function isSignal(value) {
  return internals.isAbortSignal(value);
}

// https://wicg.github.io/scheduling-apis/#schedule-a-posttask-task, with the
// SchedulerPostTaskOptions dictionary converted as WebIDL does: members in
// lexicographic order (delay, priority, signal), each converted as it is read.
function scheduleTask(callback, options, resolve, reject) {
  const what = "Failed to execute 'postTask' on 'Scheduler'";
  let priority;
  let signal;
  let delay = 0;
  if (checkDictionary(options, what, 'SchedulerPostTaskOptions')) {
    const delayValue = options.delay;
    if (delayValue !== undefined) {
      // [EnforceRange] unsigned long long.
      delay = +delayValue;
      if (!Number.isFinite(delay)) throw new TypeError(`${what}: Value is not a finite number.`);
      delay = Math.trunc(delay);
      if (delay < 0 || delay > Number.MAX_SAFE_INTEGER) throw new TypeError(`${what}: Value is outside the 'unsigned long long' value range.`);
    }
    const priorityValue = options.priority;
    if (priorityValue !== undefined) priority = toTaskPriority(priorityValue, what);
    const signalValue = options.signal;
    if (signalValue !== undefined) {
      // AbortSignal, not nullable.
      if (!isSignal(signalValue)) throw new TypeError(`${what}: member signal is not of type AbortSignal.`);
      signal = signalValue;
    }
  }
  const followsSignal = priority === undefined && signal !== undefined && taskSignalState(signal) !== undefined;
  if (priority === undefined) priority = followsSignal ? taskSignalState(signal).priority : 'user-visible';
  if (signal !== undefined && signal.aborted) {
    reject(signal.reason);
    return;
  }
  const task = {
    callback, resolve, reject, priority, signal, followsSignal, queued: false, running: false, done: false,
    abort: undefined, token: null, order: 0, due: 0, sequence: 0, heapIndex: -1, slot: 0,
  };
  // The delayed token itself makes the task due; no second token. Posted
  // first: when the loop's queue is full it throws a RangeError (the
  // promise rejects) before anything else is set up. It sets task.due.
  if (delay > 0) {
    postToken(task, delay);
    if (task.token.id !== 0) addDelayed(task);
  }
  if (signal !== undefined) {
    task.abort = () => {
      if (task.done) return;
      task.done = true;
      // Aborted by its own callback: the abort steps reject the result (the
      // callback's return value then changes nothing).
      if (task.running) {
        reject(signal.reason);
        return;
      }
      if (task.queued) {
        queues[priorityIndex(task.priority) * 2 + 1].remove(task);
      } else if (task.heapIndex >= 0) {
        removeDelayed(task);
      }
      dropToken(task);
      reject(signal.reason);
    };
    internals.addAbortAlgorithm(signal, task.abort);
  }
  if (delay === 0) {
    // Delays that ended before this post joined their queues then (in the
    // spec, in parallel): they go ahead of this task. (Moved only when a
    // token ran, a task posted after a delay ended took the ended task's
    // turn, and ran ahead of a setTimeout(0) posted before it.)
    enqueueEndedDelays();
    enqueue(task);
    postToken(task, 0);
  }
}

// The spec's "enqueue order": the scheduler's counter, taken when a task or
// a continuation joins a queue (a delayed task when its delay ends).
let nextEnqueueOrder = 1;

function enqueue(task) {
  task.queued = true;
  task.order = nextEnqueueOrder++;
  queues[priorityIndex(task.priority) * 2 + 1].push(task);
}

// A delayed task that reaches its queue: the queue is chosen now, since a
// signal's priority may have changed during the delay.
function enqueueDelayed(task) {
  if (task.followsSignal) task.priority = taskSignalState(task.signal).priority;
  enqueue(task);
}

// Delayed tasks in their delay: a binary min-heap by (due, sequence), the
// order of their tokens in the lane. `due` is the token's deadline as the
// native side computed it (loop clock, nanoseconds since the runtime
// started), `heapIndex` a task's place here (-1 once out).
const delayed = [];
let nextDelayedSequence = 1;

function delayedBefore(a, b) {
  return a.due < b.due || (a.due === b.due && a.sequence < b.sequence);
}

function placeDelayed(task, index) {
  delayed[index] = task;
  task.heapIndex = index;
}

function siftUpDelayed(task, index) {
  while (index > 0) {
    const parent = (index - 1) >> 1;
    if (!delayedBefore(task, delayed[parent])) break;
    placeDelayed(delayed[parent], index);
    index = parent;
  }
  placeDelayed(task, index);
}

function siftDownDelayed(task, index) {
  const length = delayed.length;
  for (;;) {
    let child = 2 * index + 1;
    if (child >= length) break;
    if (child + 1 < length && delayedBefore(delayed[child + 1], delayed[child])) child++;
    if (!delayedBefore(delayed[child], task)) break;
    placeDelayed(delayed[child], index);
    index = child;
  }
  placeDelayed(task, index);
}

function addDelayed(task) {
  task.sequence = nextDelayedSequence++;
  ReflectApply(ArrayPrototypePush, delayed, [task]);
  siftUpDelayed(task, delayed.length - 1);
}

// Takes `task` out of the heap (its delay ended, or it was aborted).
function removeDelayed(task) {
  const index = task.heapIndex;
  task.heapIndex = -1;
  const last = ReflectApply(ArrayPrototypePop, delayed, []);
  if (last === task) return;
  if (index > 0 && delayedBefore(last, delayed[(index - 1) >> 1])) {
    siftUpDelayed(last, index);
  } else {
    siftDownDelayed(last, index);
  }
}

// https://wicg.github.io/scheduling-apis/#schedule-a-posttask-task step
// "run steps after a timeout": every delayed task whose delay has ended by
// now joins its queue, in the order the delays ended.
function enqueueEndedDelays() {
  if (delayed.length === 0) return;
  const now = host.schedulerNow();
  while (delayed.length > 0 && delayed[0].due <= now) {
    const task = delayed[0];
    removeDelayed(task);
    enqueueDelayed(task);
  }
}

// Called by the native side for every token (a task of its own). A delayed
// token brings its record along; a due-now one is the first in
// dueNowTokens. Unless its owner was aborted, the best entry runs: "select
// the next scheduler task queue from all schedulers" sees every ended delay.
internals.runSchedulerToken = function runSchedulerToken(delayedToken) {
  const token = delayedToken !== undefined ? delayedToken : dueNowTokens.shift();
  token.id = 0;
  const owner = token.owner;
  token.owner = null;
  enqueueEndedDelays();
  // Its owner was aborted: no task is owed this turn.
  if (owner === null) return;
  if (owner.heapIndex >= 0) {
    // A delayed token's own task (a task in its delay never owns another's
    // token): its token ran, so its delay is over, whatever the clock read
    // above said (both come from the loop's clock; this is a safeguard).
    removeDelayed(owner);
    enqueueDelayed(owner);
  }
  for (let q = 0; q < queues.length; q++) {
    const queue = queues[q];
    if (queue.size === 0) continue;
    const entry = queue.shift();
    if (entry !== owner) {
      // The owner's turn comes at the token this entry leaves unused.
      const unused = entry.token;
      unused.owner = owner;
      owner.token = unused;
    }
    entry.token = null;
    if (entry.continuation) {
      if (entry.signal !== undefined) internals.removeAbortAlgorithm(entry.signal, entry.abort);
      entry.resolve();
      return;
    }
    runTask(entry);
    return;
  }
};

// Runs a postTask callback. Its abort algorithm stays until the callback
// returns (an abort from inside it rejects the result). A task with a
// signal or a priority other than the default is the "scheduling state"
// scheduler.yield() inherits: V8 carries it (continuation-preserved embedder
// data) into the promise reactions the callback creates, so a yield() after
// an await still finds it. Tasks without either skip the two host calls:
// their state is what no state means.
function runTask(entry) {
  entry.running = true;
  const inherits = entry.signal !== undefined || entry.priority !== 'user-visible';
  if (inherits) host.setSchedulingState(entry);
  let result;
  let threw = false;
  try {
    result = ReflectApply(entry.callback, undefined, []);
  } catch (error) {
    threw = true;
    result = error;
  } finally {
    if (inherits) host.setSchedulingState(undefined);
  }
  entry.running = false;
  entry.done = true;
  if (entry.signal !== undefined) internals.removeAbortAlgorithm(entry.signal, entry.abort);
  // The callback's exception rejects the promise; it is not "reported".
  if (threw) {
    entry.reject(result);
  } else {
    entry.resolve(result);
  }
}

// The scheduling state of the code running now: the postTask task record it
// continues, or undefined.
function currentSchedulingState() {
  const state = host.getSchedulingState();
  return typeof state === 'object' && state !== null ? state : undefined;
}

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
    // The executor did not run (a stack overflow): the promise is rejected
    // with that error, and the caller gets it to handle.
    if (reject === undefined) return promise;
    try {
      scheduleTask(callback, options, resolve, reject);
    } catch (error) {
      reject(error);
    }
    return promise;
  }
  // https://wicg.github.io/scheduling-apis/#dom-scheduler-yield: the
  // continuation inherits the current task's signal and priority (following
  // the signal's priority changes when the task did), and runs before tasks
  // of that priority.
  yield() {
    const state = currentSchedulingState();
    let priority = 'user-visible';
    let signal;
    let followsSignal = false;
    if (state !== undefined) {
      signal = state.signal;
      followsSignal = state.followsSignal;
      priority = followsSignal ? taskSignalState(signal).priority : state.priority;
    }
    if (signal !== undefined && signal.aborted) return PromiseReject(signal.reason);
    return new PromiseCtor((resolve, reject) => {
      enqueueEndedDelays();  // (as for postTask: they joined their queues first)
      const entry = {
        continuation: true, resolve, signal, followsSignal, priority, abort: undefined, order: nextEnqueueOrder++, slot: 0,
        token: null,
      };
      if (signal !== undefined) {
        entry.abort = () => {
          queues[priorityIndex(entry.priority) * 2].remove(entry);
          dropToken(entry);
          reject(signal.reason);
        };
        internals.addAbortAlgorithm(signal, entry.abort);
      }
      queues[priorityIndex(priority) * 2].push(entry);
      postToken(entry, 0);
    });
  }
}
const scheduler = Object.create(Scheduler.prototype);

for (const [name, value] of [['Scheduler', Scheduler], ['TaskController', TaskController], ['TaskSignal', TaskSignal],
  ['TaskPriorityChangeEvent', TaskPriorityChangeEvent]]) {
  internals.exposeInterface(value, name);
}
internals.defineInspect(TaskSignal, ['aborted', 'reason', 'priority'], ['reason']);
internals.defineInspect(TaskPriorityChangeEvent,
  ['type', 'defaultPrevented', 'cancelable', 'timeStamp', 'previousPriority']);
ObjectDefineProperty(global, 'scheduler', { value: scheduler, writable: true, configurable: true, enumerable: true });
