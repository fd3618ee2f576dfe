'use strict';
// HTML timers (J1): setTimeout, setInterval, clearTimeout, clearInterval.
// https://html.spec.whatwg.org/multipage/timers-and-user-prompts.html#timers
//
// The callbacks and arguments live here, in one Timer record per id; the
// deadlines live in the ordered lane of the runtime's EventLoop, ordered by
// (deadline, sequence). host.timerStart returns the lane entry's handle,
// which clearTimeout hands back to cancel it (no lookup on the native side).
// When a timer is due the native side calls internals.runTimer(id); an
// interval re-arms itself through host.timerRearm, which keeps its phase
// (the next multiple of the period after now: missed ticks are skipped,
// never burst).

const TypeError = global.TypeError;
const FunctionPrototypeCall = Function.prototype.call;
// uncurryThis: calls that user code cannot redirect by patching prototypes.
const uncurryThis = (fn) => FunctionPrototypeCall.bind(fn);
const ReflectApply = Reflect.apply;
const MapCtor = Map;
const MapGet = uncurryThis(Map.prototype.get);
const MapSet = uncurryThis(Map.prototype.set);
const MapDelete = uncurryThis(Map.prototype.delete);
const ArrayPrototypeSlice = uncurryThis(Array.prototype.slice);
const StringCtor = String;
const kNoArgs = Object.freeze([]);

// A timer's id is the id of its ordered-lane entry (a positive integer below
// 2^53, unique among live timers); an interval keeps its first id while each
// repetition gets a new entry.
const kSlotModulus = 8388608;  // 2^23: the slot part of an entry id (timer_queue.h)

class Timer {
  constructor(handler, args, repeat, timeout, nesting) {
    this.handler = handler;
    this.args = args;
    this.repeat = repeat;
    this.timeout = timeout;
    this.nesting = nesting;
    this.id = 0;     // the public id
    this.entry = 0;  // the pending lane entry (0 while its callback runs)
  }
}

// Timers by the slot of their pending entry: bounded by the number of
// timers pending at once (slots are reused), and no hashing.
const bySlot = [];
// Intervals by public id (their entry, and so their slot, changes).
const intervals = new MapCtor();
// The timer nesting level of the running timer task; 0 outside timers.
let currentNesting = 0;

// clearTimeout does not call into the native side: cancelled entries are
// queued here and cancelled together at the end of the current task (before
// the loop computes its next wait, so a cleared timer never wakes it), or
// when the buffer fills. [0] is the count.
// The buffer is per run (the realm may come from a snapshot).
let cancelBuffer;
let kCancelCapacity = 0;
internals.timersRealmStarted = () => {
  cancelBuffer = host.timerCancelBuffer;
  kCancelCapacity = cancelBuffer.length - 1;
};

function track(timer, entry) {
  timer.entry = entry;
  bySlot[entry % kSlotModulus] = timer;
}

// https://html.spec.whatwg.org/multipage/timers-and-user-prompts.html#timer-initialisation-steps
function initializeTimer(handler, timeout, args, repeat) {
  // WebIDL (Function or DOMString): anything not callable becomes a string
  // now, and is evaluated as a classic script when the timer fires.
  if (typeof handler !== 'function') handler = StringCtor(handler);
  // WebIDL `long`: ToNumber, then ToInt32 (2**32 + 5 -> 5; NaN -> 0).
  timeout |= 0;
  // Step 4: negative timeouts are zero.
  if (timeout < 0) timeout = 0;
  // Steps 3, 5, 10: the nesting clamp applies when the running timer task's
  // nesting level is above 5; the new timer's task is one level deeper.
  if (currentNesting > 5 && timeout < 4) timeout = 4;
  const timer = new Timer(handler, args, repeat, timeout, currentNesting + 1);
  const entry = host.timerStart(timeout, false);
  timer.id = entry;
  track(timer, entry);
  if (repeat) MapSet(intervals, entry, timer);
  return entry;
}

function setTimeout(handler, timeout = 0) {
  if (arguments.length < 1) {
    throw new TypeError("Failed to execute 'setTimeout': 1 argument required, but only 0 present.");
  }
  const args = arguments.length > 2 ? ArrayPrototypeSlice(arguments, 2) : kNoArgs;
  return initializeTimer(handler, timeout, args, false);
}

function setInterval(handler, timeout = 0) {
  if (arguments.length < 1) {
    throw new TypeError("Failed to execute 'setInterval': 1 argument required, but only 0 present.");
  }
  const args = arguments.length > 2 ? ArrayPrototypeSlice(arguments, 2) : kNoArgs;
  return initializeTimer(handler, timeout, args, true);
}

// The live timer with public id `id`, or undefined.
function lookup(id) {
  if (typeof id !== 'number' || !(id > 0)) return undefined;
  const timer = bySlot[id % kSlotModulus];
  if (timer !== undefined && timer.id === id) return timer;
  return MapGet(intervals, id);
}

function forget(timer) {
  if (timer.entry !== 0 && bySlot[timer.entry % kSlotModulus] === timer) {
    bySlot[timer.entry % kSlotModulus] = undefined;
  }
  if (timer.repeat) MapDelete(intervals, timer.id);
}

// clearTimeout and clearInterval share the id space and are interchangeable;
// unknown ids are ignored. Clearing from inside the timer's own callback
// stops an interval (runTimer checks after the callback).
// WebIDL `long` would wrap ids above 2^31; hostloop's ids are up to 2^53, so
// the argument is taken as a number (what every caller passes back).
function clearTimer(id) {
  const timer = lookup(+id);
  if (timer === undefined) return;
  forget(timer);
  const entry = timer.entry;
  timer.entry = 0;
  timer.repeat = false;
  if (entry === 0) return;  // its callback is running: nothing is pending
  let count = cancelBuffer[0];
  cancelBuffer[++count] = entry;
  cancelBuffer[0] = count;
  if (count === kCancelCapacity) host.timerFlushCancels();
}

function clearTimeout(id = 0) {
  clearTimer(id);
}

function clearInterval(id = 0) {
  clearTimer(id);
}

// The timer whose callback is running, for finishTimer().
let runningTimer;

// Called by the native side when the lane entry `entry` is due (a task of
// its own). When the callback throws, the exception goes back to the native
// side, which reports it with the location it was thrown at ("invoke ... and
// report") and then calls finishTimer() itself; an interval keeps running
// either way.
internals.runTimer = function runTimer(entry) {
  const timer = bySlot[entry % kSlotModulus];
  if (timer === undefined || timer.entry !== entry) return;
  bySlot[entry % kSlotModulus] = undefined;
  timer.entry = 0;
  currentNesting = timer.nesting;
  runningTimer = timer;
  if (typeof timer.handler === 'function') {
    const args = timer.args;
    if (args.length === 0) {
      FunctionPrototypeCall.call(timer.handler, global);
    } else {
      ReflectApply(timer.handler, global, args);
    }
  } else {
    host.evaluateScript(timer.handler, 'timer');
  }
  finishTimer();
};

function finishTimer() {
  const timer = runningTimer;
  runningTimer = undefined;
  currentNesting = 0;
  // A timeout, or an interval cleared by its own callback: done.
  if (timer === undefined || !timer.repeat) return;
  // The repeat re-runs the initialization steps from inside this task: the
  // clamp looks at this task's level, the next task is one deeper.
  if (timer.nesting > 5 && timer.timeout < 4) timer.timeout = 4;
  timer.nesting++;
  track(timer, host.timerRearm(timer.timeout));
}
internals.finishTimer = finishTimer;

for (const [name, fn] of [['setTimeout', setTimeout], ['setInterval', setInterval],
  ['clearTimeout', clearTimeout], ['clearInterval', clearInterval]]) {
  Object.defineProperty(global, name, { value: fn, writable: true, configurable: true, enumerable: true });
}

internals.setUnrefTimeout = function setUnrefTimeout(callback, ms) {
  // Used by AbortSignal.timeout: a timer that never keeps the runtime alive.
  const timer = new Timer(callback, kNoArgs, false, ms, 1);
  const entry = host.timerStart(ms, true);
  timer.id = entry;
  track(timer, entry);
  return entry;
};
