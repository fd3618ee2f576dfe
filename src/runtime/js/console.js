'use strict';
// hostloop internal file: console.js
//
// Defines the global `console` object (log/info/debug/dirxml and dir to
// stdout; warn/error/trace/assert to stderr; time*, count*, group*, table),
// printing the same text as node's console. Formatting comes from
// inspect.js (internals.inspect / internals.format), which must be evaluated
// first. Output goes through host.print(text, stream) with stream 1 (stdout)
// or 2 (stderr); host.now() supplies the clock for console.time.
//
// Evaluated once at startup as the body of
//   function (host, internals, global) { ... }

const inspect = internals.inspect;
const formatWithOptions = internals.formatWithOptions;
const getStringWidth = internals.getStringWidth;

const STDOUT = 1;
const STDERR = 2;
const GROUP_INDENTATION = 2;

const ReflectApply = Reflect.apply;
const ObjectKeys = Object.keys;
const ObjectDefineProperty = Object.defineProperty;
const ObjectGetOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
const ArrayIsArray = Array.isArray;
const MathMax = Math.max;
const MathFloor = Math.floor;
const captureStackTrace = Error.captureStackTrace;
const ObjectPrototypeHasOwnProperty = Object.prototype.hasOwnProperty;
const hasOwnProperty = (obj, key) => ReflectApply(ObjectPrototypeHasOwnProperty, obj, [key]);
const mapSizeGetter = ObjectGetOwnPropertyDescriptor(Map.prototype, 'size').get;
const setSizeGetter = ObjectGetOwnPropertyDescriptor(Set.prototype, 'size').get;
const mapEntries = Map.prototype.entries;
const setValues = Set.prototype.values;

function hasBrand(getter, value) {
  try {
    ReflectApply(getter, value, []);
    return true;
  } catch {
    return false;
  }
}

const isMap = (v) => hasBrand(mapSizeGetter, v);
const isSet = (v) => hasBrand(setSizeGetter, v);

// Console state (null-prototype records keyed by label).
let groupIndent = '';
const counts = { __proto__: null };
const timers = { __proto__: null };

function write(stream, text) {
  if (groupIndent.length !== 0) {
    if (text.includes('\n')) text = text.replace(/\n/g, `\n${groupIndent}`);
    text = groupIndent + text;
  }
  text += '\n';
  try {
    host.print(text, stream);
  } catch {
    // Like node's global console, ignore failures of the underlying stream.
  }
}

function emitWarning(message) {
  if (typeof internals.emitWarning === 'function') {
    internals.emitWarning(message);
    return;
  }
  write(STDERR, `(hostloop) Warning: ${message}`);
}

const formatArgsUnguarded = internals.formatArgs;

// What a value that cannot be formatted shows instead (a getter or Proxy
// trap that throws, a built-in the program replaced): never an exception
// out of console.log, and never nothing.
function describeFailure(error) {
  try {
    if (typeof error === 'object' && error !== null) return `${error.name}: ${error.message}`;
    return `${error}`;
  } catch {
    return 'unknown error';
  }
}

function formatArgs(args) {
  try {
    return formatArgsUnguarded(undefined, args);
  } catch {
    // Each argument on its own, so the others still print.
    let text = '';
    for (let i = 0; i < args.length; i++) {
      let piece;
      try {
        piece = typeof args[i] === 'string' ? args[i] : inspect(args[i]);
      } catch (error) {
        piece = `[value could not be formatted: ${describeFailure(error)}]`;
      }
      text = i === 0 ? piece : `${text} ${piece}`;
    }
    return text;
  }
}

function writeLog(args) {
  write(STDOUT, formatArgs(args));
}

function writeError(args) {
  write(STDERR, formatArgs(args));
}

// console.time durations: "1.234ms", "1.500s", "1:02.003 (m:ss.mmm)".
function pad2(value) {
  return `${value}`.padStart(2, '0');
}

function formatDuration(ms) {
  let hours = 0;
  let minutes = 0;
  let seconds = 0;
  if (ms >= 1000) {
    if (ms >= 60000) {
      if (ms >= 3600000) {
        hours = MathFloor(ms / 3600000);
        ms %= 3600000;
      }
      minutes = MathFloor(ms / 60000);
      ms %= 60000;
    }
    seconds = ms / 1000;
  }
  if (hours !== 0 || minutes !== 0) {
    const [whole, fraction] = seconds.toFixed(3).split('.');
    const lead = hours !== 0 ? `${hours}:${pad2(minutes)}` : `${minutes}`;
    return `${lead}:${pad2(whole)}.${fraction} (${hours !== 0 ? 'h:m' : ''}m:ss.mmm)`;
  }
  if (seconds !== 0) return `${seconds.toFixed(3)}s`;
  return `${Number(ms.toFixed(3))}ms`;
}

function logTime(name, label, data) {
  const start = timers[label];
  if (start === undefined) {
    emitWarning(`No such label '${label}' for console.${name}()`);
    return false;
  }
  const formatted = formatDuration(host.now() - start);
  writeLog(['%s: %s', label, formatted, ...data]);
  return true;
}

// ---------------------------------------------------------------------------
// console.table

const TABLE = {
  middleMiddle: '─',
  rowMiddle: '┼',
  topRight: '┐',
  topLeft: '┌',
  leftMiddle: '├',
  topMiddle: '┬',
  bottomRight: '┘',
  bottomLeft: '└',
  bottomMiddle: '┴',
  rightMiddle: '┤',
  left: '│ ',
  right: ' │',
  middle: ' │ ',
};

function renderRow(row, widths) {
  let out = TABLE.left;
  for (let i = 0; i < row.length; i++) {
    const cell = row[i];
    // Left-aligned, padded to the column width.
    out += cell + ' '.repeat(widths[i] - getStringWidth(cell));
    if (i !== row.length - 1) out += TABLE.middle;
  }
  return out + TABLE.right;
}

function renderTable(head, columns) {
  const rows = [];
  const widths = head.map((h) => getStringWidth(h));
  const longest = MathMax(0, ...columns.map((c) => c.length));
  for (let i = 0; i < head.length; i++) {
    const column = columns[i];
    for (let j = 0; j < longest; j++) {
      if (rows[j] === undefined) rows[j] = [];
      const value = hasOwnProperty(column, j) ? column[j] : '';
      rows[j][i] = value;
      widths[i] = MathMax(widths[i] || 0, getStringWidth(value));
    }
  }
  const divider = widths.map((w) => TABLE.middleMiddle.repeat(w + 2));
  let result = `${TABLE.topLeft}${divider.join(TABLE.topMiddle)}${TABLE.topRight}\n` +
    `${renderRow(head, widths)}\n` +
    `${TABLE.leftMiddle}${divider.join(TABLE.rowMiddle)}${TABLE.rightMiddle}\n`;
  for (const row of rows) result += `${renderRow(row, widths)}\n`;
  result += `${TABLE.bottomLeft}${divider.join(TABLE.bottomMiddle)}${TABLE.bottomRight}`;
  return result;
}

function tableCell(value) {
  const depth = value !== null && typeof value === 'object' && !ArrayIsArray(value) &&
    ObjectKeys(value).length > 2 ? -1 : 0;
  return inspect(value, { depth, maxArrayLength: 3, breakLength: Infinity });
}

// How node's ERR_INVALID_ARG_TYPE messages describe the received value.
function describeForError(value) {
  if (value === null || value === undefined) return `${value}`;
  if (typeof value === 'function') return `function ${value.name}`;
  if (typeof value === 'object') {
    if (value.constructor && value.constructor.name) {
      return `an instance of ${value.constructor.name}`;
    }
    return inspect(value, { depth: -1 });
  }
  let shown = value;
  if (typeof value === 'string' && value.length > 28) shown = `${value.slice(0, 25)}...`;
  return `type ${typeof value} (${inspect(shown, { colors: false })})`;
}

function buildTable(data, properties) {
  const indexColumn = (length) => Array.from({ length }, (_, i) => tableCell(i));

  if (isMap(data)) {
    const keys = [];
    const values = [];
    for (const [k, v] of ReflectApply(mapEntries, data, [])) {
      keys.push(tableCell(k));
      values.push(tableCell(v));
    }
    return renderTable(['(iteration index)', 'Key', 'Values'],
                       [indexColumn(keys.length), keys, values]);
  }
  if (isSet(data)) {
    const values = [];
    for (const v of ReflectApply(setValues, data, [])) values.push(tableCell(v));
    return renderTable(['(iteration index)', 'Values'], [indexColumn(values.length), values]);
  }

  const columns = { __proto__: null };
  let hasPrimitives = false;
  const primitiveValues = [];
  const rowKeys = ObjectKeys(data);
  for (let i = 0; i < rowKeys.length; i++) {
    const item = data[rowKeys[i]];
    const primitive = item === null || (typeof item !== 'function' && typeof item !== 'object');
    if (properties === undefined && primitive) {
      hasPrimitives = true;
      primitiveValues[i] = tableCell(item);
    } else {
      const keys = properties || ObjectKeys(item);
      for (const key of keys) {
        columns[key] ??= [];
        if ((primitive && properties) || !hasOwnProperty(item, key)) {
          columns[key][i] = '';
        } else {
          columns[key][i] = tableCell(item[key]);
        }
      }
    }
  }
  const head = ObjectKeys(columns);
  const values = head.map((k) => columns[k]);
  if (hasPrimitives) {
    head.push('Values');
    values.push(primitiveValues);
  }
  head.unshift('(index)');
  values.unshift(rowKeys);
  return renderTable(head, values);
}

// ---------------------------------------------------------------------------
// The console object. Methods do not depend on `this`, so they keep working
// when detached (`const { log } = console`).

const console = {
  log(...args) {
    writeLog(args);
  },
  info(...args) {
    writeLog(args);
  },
  debug(...args) {
    writeLog(args);
  },
  warn(...args) {
    writeError(args);
  },
  error(...args) {
    writeError(args);
  },
  dirxml(...args) {
    writeLog(args);
  },
  dir(object, options) {
    write(STDOUT, inspect(object, { customInspect: false, ...options }));
  },
  trace: function trace(...args) {
    const err = { name: 'Trace', message: formatArgs(args) };
    captureStackTrace(err, trace);
    write(STDERR, `${err.stack}`);
  },
  // https://console.spec.whatwg.org/#assert: a string first argument gets
  // the prefix; anything else is printed after it, as it is (a symbol or a
  // null-prototype object threw when made a string).
  assert(expression, ...args) {
    if (!expression) {
      if (args.length === 0) {
        args = ['Assertion failed'];
      } else if (typeof args[0] === 'string') {
        args[0] = `Assertion failed: ${args[0]}`;
      } else {
        args.unshift('Assertion failed:');
      }
      writeError(args);
    }
  },
  time(label = 'default') {
    label = `${label}`;
    if (timers[label] !== undefined) {
      emitWarning(`Label '${label}' already exists for console.time()`);
      return;
    }
    timers[label] = host.now();
  },
  timeLog(label = 'default', ...data) {
    logTime('timeLog', `${label}`, data);
  },
  timeEnd(label = 'default') {
    label = `${label}`;
    if (logTime('timeEnd', label, [])) delete timers[label];
  },
  count(label = 'default') {
    label = `${label}`;
    const count = (counts[label] || 0) + 1;
    counts[label] = count;
    writeLog([`${label}: ${count}`]);
  },
  countReset(label = 'default') {
    label = `${label}`;
    if (counts[label] === undefined) {
      emitWarning(`Count for '${label}' does not exist`);
      return;
    }
    delete counts[label];
  },
  group(...data) {
    if (data.length > 0) writeLog(data);
    groupIndent += ' '.repeat(GROUP_INDENTATION);
  },
  groupCollapsed(...data) {
    if (data.length > 0) writeLog(data);
    groupIndent += ' '.repeat(GROUP_INDENTATION);
  },
  groupEnd() {
    groupIndent = groupIndent.slice(0, groupIndent.length - GROUP_INDENTATION);
  },
  table(tabularData, properties) {
    if (properties !== undefined && !ArrayIsArray(properties)) {
      const err = new TypeError('The "properties" argument must be an instance of Array. ' +
                                `Received ${describeForError(properties)}`);
      err.code = 'ERR_INVALID_ARG_TYPE';
      throw err;
    }
    if (tabularData === null || typeof tabularData !== 'object') {
      writeLog([tabularData]);
      return;
    }
    writeLog([buildTable(tabularData, properties)]);
  },
  // https://console.spec.whatwg.org/#clear: clears a terminal (as node and
  // the `clear` command do); nothing when stdout is not one.
  clear() {
    if (!host.isatty(STDOUT)) return;
    try {
      host.print('\x1b[1;1H\x1b[0J', STDOUT);  // cursor home, clear the screen below
    } catch {
      // (as write(): failures of the stream are ignored)
    }
  },
  // Inspector-only methods: accepted and ignored, as in node without an
  // inspector attached.
  profile() {},
  profileEnd() {},
  timeStamp() {},
};

// https://console.spec.whatwg.org/#console-namespace: a namespace object
// whose [[Prototype]] is an empty object inheriting from Object.prototype.
Object.setPrototypeOf(console, Object.create(Object.prototype));

ObjectDefineProperty(console, Symbol.toStringTag, {
  value: 'console',
  writable: false,
  enumerable: false,
  configurable: true,
});

ObjectDefineProperty(global, 'console', {
  value: console,
  writable: true,
  enumerable: false,
  configurable: true,
});
