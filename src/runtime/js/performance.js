'use strict';
// performance: High Resolution Time's now() and timeOrigin, and User Timing's
// marks and measures (PerformanceEntry, PerformanceMark, PerformanceMeasure).
// https://w3c.github.io/hr-time/#the-performance-attribute
// https://w3c.github.io/user-timing/
// (No PerformanceObserver, and no other entry types: hostloop has no
// navigation or resources to time.)

const TypeError = global.TypeError;
const DOMException = global.DOMException;
const ArrayPrototypePush = Array.prototype.push;
const ArrayPrototypeFilter = Array.prototype.filter;
const ReflectApply = Reflect.apply;
const SetHas = Set.prototype.has;
const NumberIsFinite = Number.isFinite;
const ObjectDefineProperty = Object.defineProperty;
// (Captured now: a program may replace the global one.)
const structuredClone = global.structuredClone;

// An entry's fields, in a private field of the entry (set only here: the
// getters brand-check by it).
const entrySlot = internals.newPrivateSlot();
// Lets this file construct entries whose interfaces have no public constructor.
const kInternal = Symbol('internal');

// The fields of an entry of the buffer (every buffered entry has them).
const stateOf = entrySlot.peek;

function entryState(value, member, interfaceName) {
  const state = entrySlot.peek(value);
  if (state === undefined) {
    throw new TypeError(`Failed to read the '${member}' property from '${interfaceName}': Illegal invocation`);
  }
  return state;
}

// WebIDL DOMHighResTimeStamp (a restricted double): finite, and here not
// negative either (User Timing's steps reject negative times with a TypeError).
function toTimeStamp(value, what) {
  const number = +value;
  if (!NumberIsFinite(number)) {
    throw new TypeError(`${what}: the provided double value is non-finite.`);
  }
  if (number < 0) throw new TypeError(`${what}: '${number}' is a negative time stamp.`);
  return number;
}

// A dictionary member's detail, copied as User Timing says (StructuredSerialize
// then StructuredDeserialize); null when absent.
function cloneDetail(detail) {
  return detail === undefined || detail === null ? null : structuredClone(detail);
}

class PerformanceEntry {
  constructor(token, name, entryType, startTime, duration, detail) {
    if (token !== kInternal) throw new TypeError('Illegal constructor');
    entrySlot.set(this, { name, entryType, startTime, duration, detail });
  }
  get name() {
    return entryState(this, 'name', 'PerformanceEntry').name;
  }
  get entryType() {
    return entryState(this, 'entryType', 'PerformanceEntry').entryType;
  }
  get startTime() {
    return entryState(this, 'startTime', 'PerformanceEntry').startTime;
  }
  get duration() {
    return entryState(this, 'duration', 'PerformanceEntry').duration;
  }
  toJSON() {
    const state = entryState(this, 'toJSON', 'PerformanceEntry');
    const json = { name: state.name, entryType: state.entryType, startTime: state.startTime, duration: state.duration };
    // A mark's or measure's detail too (as Chrome and node do).
    if (state.entryType === 'mark' || state.entryType === 'measure') json.detail = state.detail;
    return json;
  }
}

class PerformanceMark extends PerformanceEntry {
  // https://w3c.github.io/user-timing/#the-performancemark-constructor
  constructor(markName, markOptions = undefined) {
    if (arguments.length < 1) {
      throw new TypeError("Failed to construct 'PerformanceMark': 1 argument required, but only 0 present.");
    }
    const name = `${markName}`;
    const options = toDictionary(markOptions, "Failed to construct 'PerformanceMark'");
    // Dictionary members in order: detail, startTime.
    const detail = options === undefined ? undefined : options.detail;
    const rawStart = options === undefined ? undefined : options.startTime;
    const startTime = rawStart === undefined
      ? host.now()
      : toTimeStamp(rawStart, "Failed to construct 'PerformanceMark'");
    super(kInternal, name, 'mark', startTime, 0, cloneDetail(detail));
  }
  get detail() {
    return entryState(this, 'detail', 'PerformanceMark').detail;
  }
}

class PerformanceMeasure extends PerformanceEntry {
  constructor(token, name, startTime, duration, detail) {
    if (token !== kInternal) throw new TypeError('Illegal constructor');
    super(kInternal, name, 'measure', startTime, duration, detail);
  }
  get detail() {
    return entryState(this, 'detail', 'PerformanceMeasure').detail;
  }
}

// A WebIDL dictionary argument: undefined and null are the empty dictionary;
// anything else that is not an object is a TypeError.
function toDictionary(value, prefix) {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' && typeof value !== 'function') {
    throw new TypeError(`${prefix}: The provided value is not of type 'PerformanceMarkOptions'.`);
  }
  return value;
}

// The performance entry buffer's marks and measures, in the order they were
// added.
let entries = [];

function sortedByStartTime(list) {
  // Stable: entries with equal start times keep the order they were added in.
  return list.slice().sort((a, b) => stateOf(a).startTime - stateOf(b).startTime);
}

// https://w3c.github.io/user-timing/#dfn-convert-a-mark-to-a-timestamp
// The read-only attributes of the PerformanceTiming interface (Navigation
// Timing level 1): as marks in measure() they name a Window's navigation
// timing, which no global here has.
const kPerformanceTimingNames = new Set([
  'navigationStart', 'unloadEventStart', 'unloadEventEnd', 'redirectStart', 'redirectEnd',
  'fetchStart', 'domainLookupStart', 'domainLookupEnd', 'connectStart', 'connectEnd',
  'secureConnectionStart', 'requestStart', 'responseStart', 'responseEnd', 'domLoading',
  'domInteractive', 'domContentLoadedEventStart', 'domContentLoadedEventEnd', 'domComplete',
  'loadEventStart', 'loadEventEnd',
]);
const SetPrototypeHas = (set, value) => ReflectApply(SetHas, set, [value]);

function markToTimestamp(mark, what) {
  if (typeof mark === 'string') {
    // https://w3c.github.io/user-timing/#convert-a-mark-to-a-timestamp step 1,
    // and "convert a name to a timestamp" step 1: not a Window, a TypeError.
    if (SetPrototypeHas(kPerformanceTimingNames, mark)) {
      throw new TypeError(`${what}: '${mark}' is a PerformanceTiming attribute, which only a Window has.`);
    }
    for (let i = entries.length - 1; i >= 0; i--) {
      const state = stateOf(entries[i]);
      if (state.entryType === 'mark' && state.name === mark) return state.startTime;
    }
    throw new DOMException(`${what}: The mark '${mark}' does not exist.`, 'SyntaxError');
  }
  return toTimeStamp(mark, what);
}

// (DOMString or DOMHighResTimeStamp): a number stays a number, anything else
// is a string.
function toMark(value) {
  return typeof value === 'number' ? value : `${value}`;
}

const kMeasurePrefix = "Failed to execute 'measure' on 'Performance'";

// https://w3c.github.io/hr-time/#the-performance-attribute
// performance.now() reads the loop's clock: the same time line as timers.
class Performance extends global.EventTarget {
  constructor() {
    throw new TypeError('Illegal constructor');
  }
  now() {
    return host.now();
  }
  get timeOrigin() {
    return host.timeOrigin;
  }
  toJSON() {
    return { timeOrigin: host.timeOrigin };
  }

  // https://w3c.github.io/user-timing/#mark-method
  mark(markName, markOptions = undefined) {
    checkPerformance(this, 'mark');
    if (arguments.length < 1) {
      throw new TypeError("Failed to execute 'mark' on 'Performance': 1 argument required, but only 0 present.");
    }
    const entry = new PerformanceMark(markName, markOptions);
    ReflectApply(ArrayPrototypePush, entries, [entry]);
    return entry;
  }

  // https://w3c.github.io/user-timing/#measure-method
  measure(measureName, startOrMeasureOptions = undefined, endMark = undefined) {
    checkPerformance(this, 'measure');
    if (arguments.length < 1) {
      throw new TypeError(`${kMeasurePrefix}: 1 argument required, but only 0 present.`);
    }
    const name = `${measureName}`;
    // (DOMString or PerformanceMeasureOptions): an object (or undefined or
    // null) is the dictionary; anything else is a string.
    let options;
    let startMark;
    if (startOrMeasureOptions === undefined || startOrMeasureOptions === null ||
        typeof startOrMeasureOptions === 'object' || typeof startOrMeasureOptions === 'function') {
      options = {};
      if (startOrMeasureOptions !== undefined && startOrMeasureOptions !== null) {
        // Members in order: detail, duration, end, start.
        const o = startOrMeasureOptions;
        options.detail = o.detail;
        options.duration = o.duration === undefined ? undefined : toTimeStamp(o.duration, kMeasurePrefix);
        options.end = o.end === undefined ? undefined : toMark(o.end);
        options.start = o.start === undefined ? undefined : toMark(o.start);
      }
    } else {
      startMark = `${startOrMeasureOptions}`;
    }
    const end = endMark === undefined ? undefined : toMark(endMark);
    // Step 1: a non-empty options dictionary.
    if (options !== undefined && (options.start !== undefined || options.end !== undefined ||
        options.duration !== undefined || options.detail !== undefined)) {
      if (end !== undefined) {
        throw new TypeError(`${kMeasurePrefix}: endMark cannot be given with a non-empty PerformanceMeasureOptions.`);
      }
      if (options.start === undefined && options.end === undefined) {
        throw new TypeError(`${kMeasurePrefix}: a non-empty PerformanceMeasureOptions needs 'start' or 'end'.`);
      }
      if (options.start !== undefined && options.duration !== undefined && options.end !== undefined) {
        throw new TypeError(`${kMeasurePrefix}: 'start', 'duration' and 'end' cannot all be given.`);
      }
    }
    // Steps 2-3: the end time, then the start time.
    let endTime;
    if (end !== undefined) {
      endTime = markToTimestamp(end, kMeasurePrefix);
    } else if (options !== undefined && options.end !== undefined) {
      endTime = markToTimestamp(options.end, kMeasurePrefix);
    } else if (options !== undefined && options.start !== undefined && options.duration !== undefined) {
      endTime = markToTimestamp(options.start, kMeasurePrefix) + options.duration;
    } else {
      endTime = host.now();
    }
    let startTime;
    if (options !== undefined && options.start !== undefined) {
      startTime = markToTimestamp(options.start, kMeasurePrefix);
    } else if (options !== undefined && options.duration !== undefined && options.end !== undefined) {
      startTime = endTime - options.duration;
    } else if (startMark !== undefined) {
      startTime = markToTimestamp(startMark, kMeasurePrefix);
    } else {
      startTime = 0;
    }
    const detail = cloneDetail(options === undefined ? undefined : options.detail);
    const entry = new PerformanceMeasure(kInternal, name, startTime, endTime - startTime, detail);
    ReflectApply(ArrayPrototypePush, entries, [entry]);
    return entry;
  }

  clearMarks(markName = undefined) {
    checkPerformance(this, 'clearMarks');
    clearEntries('mark', markName === undefined ? undefined : `${markName}`);
  }

  clearMeasures(measureName = undefined) {
    checkPerformance(this, 'clearMeasures');
    clearEntries('measure', measureName === undefined ? undefined : `${measureName}`);
  }

  // https://w3c.github.io/performance-timeline/#getentries-method
  getEntries() {
    checkPerformance(this, 'getEntries');
    return sortedByStartTime(entries);
  }

  getEntriesByType(type) {
    checkPerformance(this, 'getEntriesByType');
    if (arguments.length < 1) {
      throw new TypeError("Failed to execute 'getEntriesByType' on 'Performance': 1 argument required, but only 0 present.");
    }
    const wanted = `${type}`;
    return sortedByStartTime(ReflectApply(ArrayPrototypeFilter, entries,
      [(entry) => stateOf(entry).entryType === wanted]));
  }

  getEntriesByName(name, type = undefined) {
    checkPerformance(this, 'getEntriesByName');
    if (arguments.length < 1) {
      throw new TypeError("Failed to execute 'getEntriesByName' on 'Performance': 1 argument required, but only 0 present.");
    }
    const wantedName = `${name}`;
    const wantedType = type === undefined ? undefined : `${type}`;
    return sortedByStartTime(ReflectApply(ArrayPrototypeFilter, entries, [(entry) => {
      const state = stateOf(entry);
      return state.name === wantedName && (wantedType === undefined || state.entryType === wantedType);
    }]));
  }
}

function clearEntries(entryType, name) {
  entries = ReflectApply(ArrayPrototypeFilter, entries, [(entry) => {
    const state = stateOf(entry);
    return state.entryType !== entryType || (name !== undefined && state.name !== name);
  }]);
}

internals.exposeInterface(Performance, 'Performance');
const performance = internals.initEventTarget(Object.create(Performance.prototype));
function checkPerformance(value, member) {
  if (value !== performance) {
    throw new TypeError(`Failed to execute '${member}' on 'Performance': Illegal invocation`);
  }
}
ObjectDefineProperty(global, 'performance', {
  get() { return performance; },
  set(value) { ObjectDefineProperty(global, 'performance', { value, writable: true, configurable: true, enumerable: true }); },
  configurable: true,
  enumerable: true,
});

for (const [ctor, name] of [[PerformanceEntry, 'PerformanceEntry'], [PerformanceMark, 'PerformanceMark'],
  [PerformanceMeasure, 'PerformanceMeasure']]) {
  internals.exposeInterface(ctor, name);
}
// The interfaces' constructor lengths (WebIDL): the internal token is no argument.
ObjectDefineProperty(PerformanceEntry, 'length', { value: 0 });
ObjectDefineProperty(PerformanceMeasure, 'length', { value: 0 });
internals.defineInspect(PerformanceMark, ['name', 'entryType', 'startTime', 'duration', 'detail']);
internals.defineInspect(PerformanceMeasure, ['name', 'entryType', 'startTime', 'duration', 'detail']);
