'use strict';
// HTML timers (J1): setTimeout, setInterval, clearTimeout, clearInterval.
// https://html.spec.whatwg.org/multipage/timers-and-user-prompts.html#timers
//
// The callbacks and arguments live here, keyed by id; the deadlines live in
// the ordered lane of the runtime's EventLoop (host.timerStart), ordered by
// (deadline, sequence). The C++ side calls internals.runTimer(id) when a
// timer is due, and re-arms an interval at its next phase point (missed
// ticks are skipped, never burst) when runTimer returns a timeout >= 0.

const TypeError = global.TypeError;
const ReflectApply = Reflect.apply;
const MapCtor = Map;
const MapGet = Map.prototype.get;
const MapSet = Map.prototype.set;
const MapDelete = Map.prototype.delete;
const MapHas = Map.prototype.has;
const StringCtor = String;

// id -> { handler, args, repeat, timeout, nesting }
const active = new MapCtor();
let lastId = 0;
// The timer nesting level of the running timer task; 0 outside timers.
let currentNesting = 0;

const kMaxId = 0x7fffffff;

function nextId() {
  // Ids are positive and unique among live timers; after 2^31 - 1 they
  // wrap, skipping ids still in use.
  do {
    lastId = lastId >= kMaxId ? 1 : lastId + 1;
  } while (ReflectApply(MapHas, active, [lastId]));
  return lastId;
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
  const nesting = currentNesting + 1;
  const id = nextId();
  ReflectApply(MapSet, active, [id, { handler, args, repeat, timeout, nesting }]);
  host.timerStart(id, timeout);
  return id;
}

function setTimeout(handler, timeout = 0, ...args) {
  if (arguments.length < 1) {
    throw new TypeError("Failed to execute 'setTimeout': 1 argument required, but only 0 present.");
  }
  return initializeTimer(handler, timeout, args, false);
}

function setInterval(handler, timeout = 0, ...args) {
  if (arguments.length < 1) {
    throw new TypeError("Failed to execute 'setInterval': 1 argument required, but only 0 present.");
  }
  return initializeTimer(handler, timeout, args, true);
}

// clearTimeout and clearInterval share the id space and are interchangeable;
// unknown ids are ignored. Clearing from inside the timer's own callback
// stops an interval (runTimer checks the map after the callback).
function clearTimer(id = 0) {
  id |= 0;
  if (ReflectApply(MapDelete, active, [id])) host.timerCancel(id);
}

function clearTimeout(id) {
  clearTimer(id);
}

function clearInterval(id) {
  clearTimer(id);
}

// The timer whose callback is running, for finishTimer().
let runningId = 0;
let runningTimer;

// Called by the C++ side when timer `id` is due (a task of its own).
// Returns the timeout to re-arm an interval with, or -1 when done. When the
// callback throws, the exception goes back to the C++ side, which reports it
// with the location it was thrown at ("invoke ... and report") and then calls
// finishTimer() itself; an interval keeps running either way.
internals.runTimer = function runTimer(id) {
  const timer = ReflectApply(MapGet, active, [id]);
  if (timer === undefined) return -1;
  if (!timer.repeat) ReflectApply(MapDelete, active, [id]);
  currentNesting = timer.nesting;
  runningId = id;
  runningTimer = timer;
  if (typeof timer.handler === 'function') {
    ReflectApply(timer.handler, global, timer.args);
  } else {
    host.evaluateScript(timer.handler, 'timer');
  }
  return finishTimer();
};

function finishTimer() {
  const id = runningId;
  const timer = runningTimer;
  runningId = 0;
  runningTimer = undefined;
  currentNesting = 0;
  if (timer === undefined) return -1;
  // Cleared by its own callback (or the id reused meanwhile): stop.
  if (!timer.repeat || ReflectApply(MapGet, active, [id]) !== timer) return -1;
  // The repeat re-runs the initialization steps from inside this task: the
  // clamp looks at this task's level, the next task is one deeper.
  if (timer.nesting > 5 && timer.timeout < 4) timer.timeout = 4;
  timer.nesting++;
  return timer.timeout;
}
internals.finishTimer = finishTimer;

for (const [name, fn] of [['setTimeout', setTimeout], ['setInterval', setInterval],
  ['clearTimeout', clearTimeout], ['clearInterval', clearInterval]]) {
  Object.defineProperty(global, name, { value: fn, writable: true, configurable: true, enumerable: true });
}

internals.setUnrefTimeout = function setUnrefTimeout(callback, ms) {
  // Used by AbortSignal.timeout: a timer that never keeps the runtime alive.
  const id = nextId();
  ReflectApply(MapSet, active, [id, { handler: callback, args: [], repeat: false, timeout: ms, nesting: 1 }]);
  host.timerStart(id, ms, true);
  return id;
};
