'use strict';
// HTML timers (J1): setTimeout, setInterval, clearTimeout, clearInterval.
// https://html.spec.whatwg.org/multipage/timers-and-user-prompts.html#timers
//
// The callbacks and arguments live here, in arrays indexed by the slot of
// each timer's pending entry; the deadlines live in the ordered lane of the
// runtime's EventLoop, ordered by
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
const ArrayCtor = Array;
const MapGet = uncurryThis(Map.prototype.get);
const MapSet = uncurryThis(Map.prototype.set);
const MapDelete = uncurryThis(Map.prototype.delete);
const ArrayPrototypeSlice = uncurryThis(Array.prototype.slice);
const StringCtor = String;
const MathTrunc = Math.trunc;
const Float64ArrayCtor = Float64Array;
const Uint8ArrayCtor = Uint8Array;
const TypedArrayPrototypeSet = uncurryThis(Object.getPrototypeOf(Uint8Array.prototype).set);
const kNoArgs = Object.freeze([]);

// A timer's id is the id of its ordered-lane entry (a positive integer below
// 2^53, unique among live timers); an interval keeps its first id while each
// repetition gets a new entry.
// The slot part of an entry id: its low 23 bits (timer_queue.h). Ids pass
// 2^31 once a slot has been reused 256 times (a debounce's clear-and-set
// reuses one slot), and `id % 2 ** 23` on such a double is a call to fmod;
// ToUint32 (exact for integers below 2^53) keeps the low 32 bits in one
// instruction.
const kSlotMask = 0x7fffff;
const slotOf = (id) => (id >>> 0) & kSlotMask;

// A timer's record lives in arrays indexed by the slot of its pending
// entry, not in an object per timer: setTimeout(f, t) allocates nothing on
// the JS heap, so a million pending timers cost the scavenger nothing (with
// an object each, scavenges copying and promoting them were a third of the
// cost of setTimeout). A plain timeout needs 17 bytes: its entry (8), a
// state byte, and its handler in the one JS array (8); the rest (extra
// arguments, an interval's id and period) goes into a Record object, which
// only timers with arguments and intervals allocate. (Each JS array grows by
// copying into fresh pages, so a second array of 8 bytes a timer cost a
// fifth of setTimeout while a million were being set.) A slot whose entry
// is 0 is free; slots are reused (the native side hands out the lowest free
// one), so the arrays stay as large as the most timers ever pending at once.
let capacity = 0;
let slotEntry = new Float64ArrayCtor(0);  // the pending entry holding the slot, or 0
let slotState = new Uint8ArrayCtor(0);    // the nesting level of the timer's task, and the bits below
let slotHandler = [];  // the handler (function, or a StringHandler), or a Record (kRecord)

// The nesting level (see deeper) is the low bits of the state: only "above
// 5" matters to the clamp, so it stops growing at 6.
const kNestingMask = 7;
const kMaxNesting = 6;
const kInterval = 8;
// The entry is not the timer's public id (an interval after its first
// period, an unref timer): clearTimeout(entry) must not reach it.
const kPrivate = 16;
// slotHandler holds a Record.
const kRecord = 32;

// What a timer with extra arguments, or an interval, keeps beyond its state.
class Record {
  constructor(handler, args, id, timeout) {
    this.handler = handler;
    this.args = args;      // extra arguments (kNoArgs when none)
    this.id = id;          // the public id
    this.timeout = timeout;  // an interval's period after conversion and clamping
  }
}

// Intervals by public id: their current entry (their slot changes on each
// repetition), 0 while their callback runs.
const intervals = new MapCtor();
// The timer nesting level of the running timer task; 0 outside timers.
let currentNesting = 0;

// The nesting level one deeper than `level` (the clamp looks at > 5 only).
function deeper(level) {
  return level < kMaxNesting ? level + 1 : kMaxNesting;
}

function grow(slot) {
  let size = capacity === 0 ? 1024 : capacity * 2;
  while (size <= slot) size *= 2;
  // (Written out for each array: one helper called with both kinds of
  // typed array deoptimized the code it was inlined into, which for a
  // script that sets a million timers in a loop is that loop's OSR code,
  // compiled again on the main thread: ~7 ms.)
  const entries = new Float64ArrayCtor(size);
  TypedArrayPrototypeSet(entries, slotEntry);
  slotEntry = entries;
  const states = new Uint8ArrayCtor(size);
  TypedArrayPrototypeSet(states, slotState);
  slotState = states;
  // The handlers' array doubles here too, in one step, rather than growing
  // by half as V8 grows an array written past its end: with a million
  // timers being set, V8's growth steps (a fresh array and a copy each) were
  // ~8% of setTimeout's time.
  const handlers = new ArrayCtor(size);
  for (let i = 0; i < capacity; i++) handlers[i] = slotHandler[i];
  slotHandler = handlers;
  capacity = size;
}

// Fills the slot of `entry`; `bits` are kInterval, kPrivate, kRecord as they
// apply, and `value` the handler or a Record (kRecord then).
function store(entry, value, nesting, bits) {
  const slot = slotOf(entry);
  if (slot >= capacity) grow(slot);
  slotEntry[slot] = entry;
  slotState[slot] = nesting | bits;
  slotHandler[slot] = value;
}

// Frees `slot` (and lets its handler and arguments be collected).
function release(slot) {
  slotEntry[slot] = 0;
  slotHandler[slot] = undefined;
}

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

// A string handler: its source, and the base URL an import() in it resolves
// against (HTML timer initialisation steps 9.2-9.4: the initiating script's
// base URL): the file of the code that called setTimeout, or, for a string
// handler that sets another, that handler's own base. Undefined (the REPL,
// -e) means the current directory.
let runningStringBase;
function newStringHandler(value) {
  const source = `${value}`;  // WebIDL DOMString: a symbol throws TypeError
  return { source, base: host.initiatingScriptUrl() ?? runningStringBase };
}

// https://html.spec.whatwg.org/multipage/timers-and-user-prompts.html#timer-initialisation-steps
function initializeTimer(handler, timeout, args, repeat) {
  // WebIDL (Function or DOMString): anything not callable becomes a string
  // now, and is evaluated as a classic script when the timer fires.
  if (typeof handler !== 'function') handler = newStringHandler(handler);
  // WebIDL `long`: ToNumber, then ToInt32 (2**32 + 5 -> 5; NaN -> 0).
  timeout |= 0;
  // Step 4: negative timeouts are zero.
  if (timeout < 0) timeout = 0;
  // Steps 3, 5, 10: the nesting clamp applies when the running timer task's
  // nesting level is above 5; the new timer's task is one level deeper.
  if (currentNesting > 5 && timeout < 4) timeout = 4;
  const entry = host.timerStart(timeout, false);
  const nesting = deeper(currentNesting);
  if (repeat) {
    store(entry, new Record(handler, args, entry, timeout), nesting, kInterval | kRecord);
    MapSet(intervals, entry, entry);
  } else if (args === kNoArgs) {
    store(entry, handler, nesting, 0);
  } else {
    store(entry, new Record(handler, args, entry, timeout), nesting, kRecord);
  }
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

// The running timer (one at a time: ordered-lane entries never nest), from
// runTimer() until finishTimer(). Its slot is free while its callback runs.
let running = false;
let runningId = 0;        // an interval's public id
let runningRecord;        // its Record, if it has one
let runningNesting = 0;
let runningRepeat = false;

// clearTimeout and clearInterval share the id space and are interchangeable;
// unknown ids are ignored. Clearing from inside the timer's own callback
// stops an interval (finishTimer checks after the callback).
// WebIDL `long` would wrap ids above 2^31; hostloop's ids are up to 2^53, so
// the argument is taken as a number (what every caller passes back).
function clearTimer(value) {
  // WebIDL `long` truncates (clearTimeout(id + 0.5) clears id).
  const id = MathTrunc(+value);
  if (!(id > 0)) return;
  const slot = slotOf(id);
  if (slot < capacity && slotEntry[slot] === id && (slotState[slot] & kPrivate) === 0) {
    // A timer in its first period (its entry is its id).
    if ((slotState[slot] & kInterval) !== 0) MapDelete(intervals, id);
    cancelEntry(slot, id);
    return;
  }
  // An interval that has repeated, one whose callback is running, or no
  // live timer.
  const entry = MapGet(intervals, id);
  if (entry === undefined) return;
  MapDelete(intervals, id);
  if (entry === 0) {
    // Its callback is running: nothing is pending, and it must not repeat.
    if (running && runningId === id) runningRepeat = false;
    return;
  }
  cancelEntry(slotOf(entry), entry);
}

// Frees `slot` and queues its pending `entry` for cancellation.
function cancelEntry(slot, entry) {
  release(slot);
  let count = cancelBuffer[0];
  cancelBuffer[++count] = entry;
  cancelBuffer[0] = count;
  if (count === kCancelCapacity) host.timerFlushCancels();
}

// clearTimeout and clearInterval: clearTimer with the common case (a
// timeout in its first period) written out, so that a clear costs one call
// before V8 optimizes the caller, not five (a program that clears a
// million timers once spends most of it in the interpreter and baseline
// code: ~150 -> ~105 ns a call there; clearing 1M: 26-42 -> 22-25 ns).
function makeClear() {
  return function (value = 0) {
    // The common case: a number that is exactly a live timeout's id (the
    // slot's entry is that number), which needs no conversion. Anything
    // else (another type, a fraction, an interval) goes through clearTimer,
    // which converts it once.
    if (typeof value === 'number' && value > 0) {
      const slot = (value >>> 0) & kSlotMask;
      if (slot < capacity && slotEntry[slot] === value &&
          (slotState[slot] & (kPrivate | kInterval)) === 0) {
        // cancelEntry(slot, value), written out.
        slotEntry[slot] = 0;
        slotHandler[slot] = undefined;
        const count = cancelBuffer[0] + 1;
        cancelBuffer[count] = value;
        cancelBuffer[0] = count;
        if (count === kCancelCapacity) host.timerFlushCancels();
        return;
      }
    }
    clearTimer(value);
  };
}
const clearTimeout = makeClear();
const clearInterval = makeClear();
Object.defineProperty(clearTimeout, 'name', { value: 'clearTimeout' });
Object.defineProperty(clearInterval, 'name', { value: 'clearInterval' });

// Called by the native side when the lane entry `entry` is due (a task of
// its own). When the callback throws, the exception goes back to the native
// side, which reports it with the location it was thrown at ("invoke ... and
// report") and then calls finishTimer() itself; an interval keeps running
// either way.
internals.runTimer = function runTimer(entry) {
  const slot = slotOf(entry);
  if (slot >= capacity || slotEntry[slot] !== entry) return;
  const state = slotState[slot];
  const value = slotHandler[slot];
  release(slot);
  running = true;
  runningId = 0;
  runningNesting = state & kNestingMask;
  runningRepeat = (state & kInterval) !== 0;
  let handler = value;
  let args = kNoArgs;
  if ((state & kRecord) !== 0) {
    runningRecord = value;
    handler = value.handler;
    args = value.args;
    if (runningRepeat) {
      runningId = value.id;
      MapSet(intervals, runningId, 0);
    }
  }
  currentNesting = runningNesting;
  if (typeof handler === 'function') {
    if (args.length === 0) {
      FunctionPrototypeCall.call(handler, global);
    } else {
      ReflectApply(handler, global, args);
    }
  } else {
    const outer = runningStringBase;
    runningStringBase = handler.base;
    try {
      host.evaluateScript(handler.source, 'timer', handler.base);
    } finally {
      runningStringBase = outer;
    }
  }
  finishTimer();
};

function finishTimer() {
  if (!running) return;
  running = false;
  currentNesting = 0;
  const record = runningRecord;
  runningRecord = undefined;
  // A timeout, or an interval cleared by its own callback: done.
  if (!runningRepeat) return;
  // The repeat re-runs the initialization steps from inside this task: the
  // clamp looks at this task's level, the next task is one deeper.
  let timeout = record.timeout;
  if (runningNesting > 5 && timeout < 4) timeout = 4;
  const entry = host.timerRearm(timeout);
  record.timeout = timeout;
  store(entry, record, deeper(runningNesting), kInterval | kPrivate | kRecord);
  MapSet(intervals, record.id, entry);
}
internals.finishTimer = finishTimer;

for (const [name, fn] of [['setTimeout', setTimeout], ['setInterval', setInterval],
  ['clearTimeout', clearTimeout], ['clearInterval', clearInterval]]) {
  Object.defineProperty(global, name, { value: fn, writable: true, configurable: true, enumerable: true });
}

internals.setUnrefTimeout = function setUnrefTimeout(callback, ms) {
  // Used by AbortSignal.timeout: a timer that never keeps the runtime alive.
  // Not in the map of timer ids (DOM: clearTimeout cannot reach it): its
  // entry is private.
  const entry = host.timerStart(ms, true);
  store(entry, callback, 1, kPrivate);
  return entry;
};

// Cancels an unref timer by the entry setUnrefTimeout returned (its signal
// was collected); nothing if it fired already.
internals.clearUnrefTimeout = function clearUnrefTimeout(entry) {
  const slot = slotOf(entry);
  if (slot >= capacity || slotEntry[slot] !== entry || (slotState[slot] & (kPrivate | kInterval)) !== kPrivate) return;
  cancelEntry(slot, entry);
};
