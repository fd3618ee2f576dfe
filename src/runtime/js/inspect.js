'use strict';
// hostloop internal file: inspect.js
//
// The value formatter used by `console`. It renders JavaScript values the way
// Node.js's `util.inspect()` does and implements the printf-style
// `util.format()` used by console.log, so that hostloop prints the same bytes
// as node for the same program. This is an independent implementation written
// against node's observable behaviour (checked with
// tests/tools/inspect_vs_node.mjs).
//
// Evaluated once at startup as the body of
//   function (host, internals, global) { ... }
// and installs:
//   internals.inspect(value, options) -> string   (like util.inspect)
//   internals.format(...args)         -> string   (like util.format)
//   internals.formatWithOptions(inspectOptions, ...args) -> string
//   internals.getStringWidth(str)     -> number   (used by console.table)
//
// Host functions used:
//   host.getProxyTarget(value): called for every object printed; the target
//     of a Proxy (null once revoked), undefined for anything else.
//   host.getPromiseState(value): called for promises and for objects without
//     prototype; [0] pending, [1, value], [2, reason], undefined if `value`
//     is not a promise.
//   host.isModuleNamespace(value): called for objects without prototype.
// Optional, used only when the host provides them:
//   host.previewEntries(obj) -> [entries, isKeyValue]: the remaining entries
//     of a Map/Set iterator (flattened [k, v, k, v...] when isKeyValue), the
//     contents of a WeakMap (flattened) / WeakSet (v8::Object::PreviewEntries).
//   host.getOwnNonIndexProperties(obj, onlyEnumerable) -> keys: own string
//     and symbol keys that are not array indices, so that printing a huge
//     array does not list all its indices (v8 GetPropertyNames with
//     IndexFilter::kSkipIndices).
//   host.getProxyHandler(proxy): the handler, for `showProxy` and `%o`.
//   host.getConstructorName(obj): V8's class name, for objects whose
//     prototype chain has no constructor at all.
//
// Deliberate differences from node 20 (everything else is meant to match):
//  - `colors: true` is accepted but output is never colourised.
//  - Map/Set iterators print as `Object [Map Iterator] {}` and
//    WeakMap/WeakSet print `<items unknown>` even with showHidden, unless the
//    host provides previewEntries.
//  - With showProxy (and `%o`) a Proxy prints as its target unless the host
//    provides getProxyHandler.
//  - Objects whose prototype chain has no `constructor` at all report their
//    class as "Object" ("Function"/"Array"/...) unless the host provides
//    getConstructorName.
//  - Async/generator functions are recognised through their prototype chain;
//    one whose prototype was replaced prints as a plain `[Function]`.
//  - Likewise a built-in object whose prototype was replaced by an unrelated
//    object (e.g. Object.setPrototypeOf(new ArrayBuffer(1), {})) prints as an
//    ordinary object; Date, RegExp, Error, Number, String and Boolean objects
//    are still recognised, and null-prototype built-ins are fully supported.
//  - getStringWidth (console.table and compact:true layouts) uses a built-in
//    approximation of East Asian width instead of ICU.
//  - Node's few node-only value kinds (Buffer, KeyObject, external values,
//    ...) are not special-cased.
//  - Web interfaces print their state through the custom-inspect hook that
//    events.js's defineInspect installs (`Event { type: ..., ... }`, as
//    node); Event subclasses add their own fields (a MessageEvent's data,
//    a CustomEvent's detail), and an aborted AbortSignal its reason, which
//    node leaves out.

const customInspectSymbol = Symbol.for('nodejs.util.inspect.custom');

// ---------------------------------------------------------------------------
// Captured built-ins, so user code that patches prototypes does not change
// how values are printed.

const ObjectPrototype = Object.prototype;
const ObjectKeys = Object.keys;
const ObjectGetOwnPropertyNames = Object.getOwnPropertyNames;
const ObjectGetOwnPropertySymbols = Object.getOwnPropertySymbols;
const ObjectGetOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
const ObjectGetPrototypeOf = Object.getPrototypeOf;
const ObjectIs = Object.is;
const ObjectAssign = Object.assign;
const ReflectOwnKeys = Reflect.ownKeys;
const ReflectApply = Reflect.apply;
const ArrayIsArray = Array.isArray;
const NumberIsNaN = Number.isNaN;
const NumberParseInt = Number.parseInt;
const NumberParseFloat = Number.parseFloat;
const MathMin = Math.min;
const MathMax = Math.max;
const MathSqrt = Math.sqrt;
const MathRound = Math.round;
const MathFloor = Math.floor;
const JSONStringify = JSON.stringify;
const StringCtor = String;
const SymbolToStringTag = Symbol.toStringTag;
const SymbolToPrimitive = Symbol.toPrimitive;
const SymbolIterator = Symbol.iterator;
const RegExpCtor = RegExp;

const uncurryThis = Function.prototype.bind.bind(Function.prototype.call);
const getterOf = (proto, name) => {
  const desc = ObjectGetOwnPropertyDescriptor(proto, name);
  return desc && desc.get ? uncurryThis(desc.get) : undefined;
};

const hasOwnProperty = uncurryThis(ObjectPrototype.hasOwnProperty);
const propertyIsEnumerable = uncurryThis(ObjectPrototype.propertyIsEnumerable);
const objectToString = uncurryThis(ObjectPrototype.toString);
const functionToString = uncurryThis(Function.prototype.toString);
const errorToString = uncurryThis(Error.prototype.toString);
const symbolToString = uncurryThis(Symbol.prototype.toString);
const regExpToString = uncurryThis(RegExp.prototype.toString);
const regExpGlobal = getterOf(RegExp.prototype, 'global');
const dateGetTime = uncurryThis(Date.prototype.getTime);
const dateToISOString = uncurryThis(Date.prototype.toISOString);
const dateToString = uncurryThis(Date.prototype.toString);
const mapSize = getterOf(Map.prototype, 'size');
const mapEntries = uncurryThis(Map.prototype.entries);
const setSize = getterOf(Set.prototype, 'size');
const setValues = uncurryThis(Set.prototype.values);
const mapIteratorPrototype = ObjectGetPrototypeOf(new Map().entries());
const setIteratorPrototype = ObjectGetPrototypeOf(new Set().values());
const mapIteratorNext = uncurryThis(mapIteratorPrototype.next);
const setIteratorNext = uncurryThis(setIteratorPrototype.next);
const weakMapHas = uncurryThis(WeakMap.prototype.has);
const weakSetHas = uncurryThis(WeakSet.prototype.has);
const arrayBufferByteLength = getterOf(ArrayBuffer.prototype, 'byteLength');
// SharedArrayBuffer (like Atomics) is installed when a context starts, after
// a startup snapshot is deserialized, so it is looked up again then.
let sharedArrayBufferByteLength = typeof SharedArrayBuffer === 'function' ?
  getterOf(SharedArrayBuffer.prototype, 'byteLength') : undefined;
const TypedArrayPrototype = ObjectGetPrototypeOf(Uint8Array.prototype);
const typedArrayTag = getterOf(TypedArrayPrototype, SymbolToStringTag);
const typedArrayLength = getterOf(TypedArrayPrototype, 'length');
const dataViewBuffer = getterOf(DataView.prototype, 'buffer');
const numberValueOf = uncurryThis(Number.prototype.valueOf);
const stringValueOf = uncurryThis(String.prototype.valueOf);
const booleanValueOf = uncurryThis(Boolean.prototype.valueOf);
const bigIntValueOf = uncurryThis(BigInt.prototype.valueOf);
const symbolValueOf = uncurryThis(Symbol.prototype.valueOf);
const AsyncFunctionPrototype = ObjectGetPrototypeOf(async function () {});
const GeneratorFunctionPrototype = ObjectGetPrototypeOf(function* () {});
const AsyncGeneratorFunctionPrototype =
  ObjectGetPrototypeOf(async function* () {});
const PromisePrototype = Promise.prototype;
const SetPrototype = Set.prototype;
const MapPrototype = Map.prototype;
const DatePrototype = Date.prototype;
const ArrayBufferPrototype = ArrayBuffer.prototype;
let SharedArrayBufferPrototype = typeof SharedArrayBuffer === 'function' ?
  SharedArrayBuffer.prototype : undefined;
internals.inspectRealmStarted = () => {
  if (typeof global.SharedArrayBuffer !== 'function') return;
  sharedArrayBufferByteLength = getterOf(global.SharedArrayBuffer.prototype, 'byteLength');
  SharedArrayBufferPrototype = global.SharedArrayBuffer.prototype;
};
const DataViewPrototype = DataView.prototype;
const WeakSetPrototype = WeakSet.prototype;
const WeakMapPrototype = WeakMap.prototype;
const ErrorCtor = Error;
const RegExpPrototype = RegExp.prototype;

// Names of the constructors that exist as globals when hostloop starts; a
// class whose `toString` comes from one of them counts as "built-in".
const builtInObjects = new Set(
  ObjectGetOwnPropertyNames(global).filter((e) => /^[A-Z][a-zA-Z0-9]+$/.test(e)),
);

// ---------------------------------------------------------------------------
// Type detection. Every check works on brand (internal slots) where the
// language allows it, not on the prototype chain.

// Does fn(value) run without throwing? Used for brand checks with built-in
// methods that reject foreign receivers; the stack trace capture of the
// TypeError is switched off meanwhile (no user code runs in between), which
// makes a failed check about ten times cheaper.
function succeeds(fn, value) {
  const desc = ObjectGetOwnPropertyDescriptor(ErrorCtor, 'stackTraceLimit');
  const adjust = desc !== undefined && desc.writable === true;
  if (adjust) ErrorCtor.stackTraceLimit = 0;
  try {
    fn(value);
    return true;
  } catch {
    return false;
  } finally {
    if (adjust) ErrorCtor.stackTraceLimit = desc.value;
  }
}

const isDate = (v) => succeeds(dateGetTime, v);
const isRegExp = (v) => v !== RegExpPrototype && succeeds(regExpGlobal, v);
const isMap = (v) => succeeds(mapSize, v);
const isSet = (v) => succeeds(setSize, v);
const isWeakMap = (v) => succeeds((x) => weakMapHas(x, ObjectPrototype), v);
const isWeakSet = (v) => succeeds((x) => weakSetHas(x, ObjectPrototype), v);
const isArrayBuffer = (v) => succeeds(arrayBufferByteLength, v);
const isSharedArrayBuffer = (v) => sharedArrayBufferByteLength !== undefined &&
  succeeds(sharedArrayBufferByteLength, v);
const isDataView = (v) => succeeds(dataViewBuffer, v);
const typedArrayName = (v) => typedArrayTag(v); // undefined unless a TypedArray
const isArguments = (v) => objectToString(v) === '[object Arguments]';

function protoChainIncludes(value, proto) {
  let p = value;
  for (let n = 0; n < 10000; n++) {
    p = ObjectGetPrototypeOf(p);
    if (p === null) return false;
    if (p === proto) return true;
  }
  return false;
}

function isError(value) {
  if (objectToString(value) === '[object Error]') return true;
  try {
    return value instanceof ErrorCtor;
  } catch {
    return false;
  }
}

// Returns [0] / [1, value] / [2, reason] for promises, undefined otherwise.
function promiseState(value) {
  // Only ask the host about objects that look like promises (including
  // promises whose prototype was removed).
  let candidate = false;
  try {
    const proto = ObjectGetPrototypeOf(value);
    candidate = proto === null || proto === PromisePrototype ||
      protoChainIncludes(value, PromisePrototype) ||
      objectToString(value) === '[object Promise]';
  } catch {
    candidate = false;
  }
  if (!candidate) return undefined;
  try {
    const state = host.getPromiseState(value);
    return ArrayIsArray(state) ? state : undefined;
  } catch {
    return undefined;
  }
}

function proxyTargetOf(value) {
  try {
    return host.getProxyTarget(value);
  } catch {
    return undefined;
  }
}

function isModuleNamespace(value) {
  try {
    return host.isModuleNamespace(value) === true;
  } catch {
    return false;
  }
}

// `could(proto)` and `builtinTag` narrow down which brands to test (see
// formatRaw); without them every brand is tested.
function boxedKind(value, could = () => true, builtinTag = '') {
  if ((could(Number.prototype) || builtinTag === '[object Number]') &&
      succeeds(numberValueOf, value)) return 'Number';
  if ((could(String.prototype) || builtinTag === '[object String]') &&
      succeeds(stringValueOf, value)) return 'String';
  if ((could(Boolean.prototype) || builtinTag === '[object Boolean]') &&
      succeeds(booleanValueOf, value)) return 'Boolean';
  if (could(BigInt.prototype) && succeeds(bigIntValueOf, value)) return 'BigInt';
  if (could(Symbol.prototype) && succeeds(symbolValueOf, value)) return 'Symbol';
  return undefined;
}

function prototypeChain(value) {
  const chain = [];
  let proto = ObjectGetPrototypeOf(value);
  while (proto !== null && chain.length < 10000) {
    chain.push(proto);
    proto = ObjectGetPrototypeOf(proto);
  }
  return chain;
}

function functionKind(fn) {
  try {
    if (protoChainIncludes(fn, AsyncGeneratorFunctionPrototype)) return 'AsyncGeneratorFunction';
    if (protoChainIncludes(fn, GeneratorFunctionPrototype)) return 'GeneratorFunction';
    if (protoChainIncludes(fn, AsyncFunctionPrototype)) return 'AsyncFunction';
  } catch {
    // fall through
  }
  return 'Function';
}

// The class name V8 would report for an object (used only when the
// prototype chain has no usable constructor).
function internalClassName(value) {
  if (typeof host.getConstructorName === 'function') {
    try {
      const name = host.getConstructorName(value);
      if (typeof name === 'string') return name;
    } catch {
      // fall through
    }
  }
  return typeFallbackName(value);
}

function typeFallbackName(value) {
  if (typeof value === 'function') return 'Function';
  if (ArrayIsArray(value)) return 'Array';
  const ta = typedArrayName(value);
  if (ta !== undefined) return ta;
  if (isMap(value)) return 'Map';
  if (isSet(value)) return 'Set';
  if (isWeakMap(value)) return 'WeakMap';
  if (isWeakSet(value)) return 'WeakSet';
  if (isDate(value)) return 'Date';
  if (isRegExp(value)) return 'RegExp';
  if (isArrayBuffer(value)) return 'ArrayBuffer';
  if (isSharedArrayBuffer(value)) return 'SharedArrayBuffer';
  if (isDataView(value)) return 'DataView';
  if (promiseState(value) !== undefined) return 'Promise';
  if (isError(value)) return 'Error';
  const boxed = boxedKind(value);
  if (boxed !== undefined) return boxed;
  return 'Object';
}

// ---------------------------------------------------------------------------
// Options and context.

const defaultOptions = {
  showHidden: false,
  depth: 2,
  colors: false,
  customInspect: true,
  showProxy: false,
  maxArrayLength: 100,
  maxStringLength: 10000,
  breakLength: 80,
  compact: 3,
  sorted: false,
  getters: false,
  numericSeparator: false,
};

const stylizeNoColor = (str) => str;

// How formatProperty renders an entry: `key: value` for objects and for the
// extra (non-index) properties of array-likes, just the value for elements.
const OBJECT_TYPE = 0;
const ARRAY_TYPE = 1;
const ARRAY_EXTRAS = 2;

function createContext(options) {
  const ctx = {
    budget: {},
    indentationLvl: 0,
    seen: [],
    currentDepth: 0,
    stylize: stylizeNoColor,
    circular: undefined,
    userOptions: undefined,
  };
  ObjectAssign(ctx, defaultOptions);
  if (options !== null && typeof options === 'object') {
    for (const key of ObjectKeys(options)) {
      if (hasOwnProperty(defaultOptions, key) || key === 'stylize') {
        ctx[key] = options[key];
      } else if (ctx.userOptions === undefined) {
        ctx.userOptions = options;
      }
    }
  }
  // Colours are not supported: always print plain text.
  ctx.colors = false;
  if (typeof ctx.stylize !== 'function') ctx.stylize = stylizeNoColor;
  if (ctx.maxArrayLength === null) ctx.maxArrayLength = Infinity;
  if (ctx.maxStringLength === null) ctx.maxStringLength = Infinity;
  return ctx;
}

function inspect(value, opts, ...legacy) {
  // Also accepts the legacy signature inspect(value, showHidden, depth, colors).
  let options = opts !== null && typeof opts === 'object' ? opts : undefined;
  if (typeof opts === 'boolean' || legacy.length !== 0) {
    options = { ...options };
    if (typeof opts === 'boolean') options.showHidden = opts;
    if (legacy.length >= 1 && legacy[0] !== undefined) options.depth = legacy[0];
    if (legacy.length >= 2 && legacy[1] !== undefined) options.colors = legacy[1];
  }
  const ctx = createContext(options);
  return formatValue(ctx, value, 0);
}
inspect.custom = customInspectSymbol;

// The options object handed to custom [inspect.custom] functions.
function optionsForCustom(ctx) {
  const out = { ...ctx.userOptions };
  for (const key of ObjectKeys(defaultOptions)) out[key] = ctx[key];
  out.stylize = ctx.stylize;
  return out;
}

// ---------------------------------------------------------------------------
// Strings.

const CONTROL_NAMES = { 8: '\\b', 9: '\\t', 10: '\\n', 12: '\\f', 13: '\\r' };

function escapeCode(code) {
  if (CONTROL_NAMES[code] !== undefined) return CONTROL_NAMES[code];
  if (code < 0x100) return `\\x${code.toString(16).toUpperCase().padStart(2, '0')}`;
  return `\\u${code.toString(16)}`;
}

// Escape characters that must not appear raw inside a quoted string literal.
// `quote` is the code unit of the quote in use (escaped too), or -1.
function escapeBody(str, quote) {
  let out = '';
  let last = 0;
  const len = str.length;
  for (let i = 0; i < len; i++) {
    const c = str.charCodeAt(i);
    let rep;
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
      rep = escapeCode(c);
    } else if (c === 0x5c) {
      rep = '\\\\';
    } else if (c === quote) {
      rep = `\\${str[i]}`;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      if (c <= 0xdbff && i + 1 < len) {
        const next = str.charCodeAt(i + 1);
        if (next >= 0xdc00 && next <= 0xdfff) {
          i++;
          continue;
        }
      }
      rep = `\\u${c.toString(16)}`;
    } else {
      continue;
    }
    out += str.slice(last, i) + rep;
    last = i + 1;
  }
  return last === 0 ? str : out + str.slice(last);
}

function quoteString(str) {
  let quote = "'";
  if (str.includes("'")) {
    if (!str.includes('"')) {
      quote = '"';
    } else if (!str.includes('`') && !str.includes('${')) {
      quote = '`';
    }
  }
  return quote + escapeBody(str, quote === "'" ? 0x27 : -1) + quote;
}

// Symbol descriptions and non-enumerable key names: escaped, single quote
// included, but not quoted.
function escapeName(str) {
  return escapeBody(str, 0x27);
}

const IDENTIFIER_KEY = /^[a-zA-Z_][a-zA-Z_0-9]*$/;
const MIN_LINE_WIDTH = 16;

// ---------------------------------------------------------------------------
// Primitives.

function addSeparatorsToInteger(digits) {
  const start = digits[0] === '-' ? 1 : 0;
  let i = digits.length;
  let grouped = '';
  while (i - 3 >= start + 1) {
    grouped = `_${digits.slice(i - 3, i)}${grouped}`;
    i -= 3;
  }
  return i === digits.length ? digits : digits.slice(0, i) + grouped;
}

function addSeparatorsToFraction(digits) {
  let grouped = '';
  let i = 0;
  while (i < digits.length - 3) {
    grouped += `${digits.slice(i, i + 3)}_`;
    i += 3;
  }
  return i === 0 ? digits : grouped + digits.slice(i);
}

function formatNumber(stylize, number, numericSeparator) {
  if (!numericSeparator) {
    if (ObjectIs(number, -0)) return stylize('-0', 'number');
    return stylize(`${number}`, 'number');
  }
  if (NumberIsNaN(number)) return stylize(`${number}`, 'number');
  const text = `${number}`;
  if (Math.trunc(number) === number) {
    if (!Number.isFinite(number) || text.includes('e')) return stylize(text, 'number');
    return stylize(addSeparatorsToInteger(text), 'number');
  }
  // Split at the decimal point (node splits exponent forms such as 1e-7
  // the same way, which gives odd but stable output).
  const point = text.indexOf('.');
  return stylize(`${addSeparatorsToInteger(text.slice(0, point))}.${
    addSeparatorsToFraction(text.slice(point + 1))}`, 'number');
}

function formatBigInt(stylize, bigint, numericSeparator) {
  const digits = StringCtor(bigint);
  if (!numericSeparator) return stylize(`${digits}n`, 'bigint');
  return stylize(`${addSeparatorsToInteger(digits)}n`, 'bigint');
}

function formatPrimitive(stylize, value, ctx) {
  switch (typeof value) {
    case 'string': {
      let trailer = '';
      if (value.length > ctx.maxStringLength) {
        const remaining = value.length - ctx.maxStringLength;
        value = value.slice(0, ctx.maxStringLength);
        trailer = `... ${remaining} more character${remaining > 1 ? 's' : ''}`;
      }
      if (ctx.compact !== true &&
          value.length > MIN_LINE_WIDTH &&
          value.length > ctx.breakLength - ctx.indentationLvl - 4) {
        // Long strings are split after each newline, one piece per line.
        const pieces = value.split(/(?<=\n)/);
        const glue = ` +\n${' '.repeat(ctx.indentationLvl + 2)}`;
        return pieces.map((line) => stylize(quoteString(line), 'string')).join(glue) +
          trailer;
      }
      return stylize(quoteString(value), 'string') + trailer;
    }
    case 'number':
      return formatNumber(stylize, value, ctx.numericSeparator);
    case 'bigint':
      return formatBigInt(stylize, value, ctx.numericSeparator);
    case 'boolean':
      return stylize(`${value}`, 'boolean');
    case 'undefined':
      return stylize('undefined', 'undefined');
    case 'symbol':
      return stylize(symbolToString(value), 'symbol');
    default:
      return stylize(StringCtor(value), 'undefined');
  }
}

// ---------------------------------------------------------------------------
// Keys.

function getKeys(value, showHidden) {
  const symbols = ObjectGetOwnPropertySymbols(value);
  let keys;
  if (showHidden) {
    keys = ObjectGetOwnPropertyNames(value);
    for (const s of symbols) keys.push(s);
  } else {
    try {
      keys = ObjectKeys(value);
    } catch (err) {
      // Module namespaces with uninitialized bindings throw here.
      if (!isModuleNamespace(value)) throw err;
      keys = ObjectGetOwnPropertyNames(value);
    }
    for (const s of symbols) {
      if (propertyIsEnumerable(value, s)) keys.push(s);
    }
  }
  return keys;
}

function isArrayIndexKey(key) {
  if (typeof key !== 'string') return false;
  if (key === '0') return true;
  if (!/^[1-9][0-9]*$/.test(key)) return false;
  return key.length < 10 || +key < 4294967295;
}

// Own keys that are not array indices (for arrays and typed arrays).
function getNonIndexKeys(value, showHidden) {
  if (typeof host.getOwnNonIndexProperties === 'function') {
    // Optional host fast path: no need to list a big array's indices.
    const keys = host.getOwnNonIndexProperties(value, !showHidden);
    if (ArrayIsArray(keys)) return keys;
  }
  const all = ReflectOwnKeys(value);
  // Array indices come first, in ascending order: scan back from the end.
  let start = all.length;
  while (start > 0 && !isArrayIndexKey(all[start - 1])) start--;
  const keys = [];
  for (let i = start; i < all.length; i++) {
    const key = all[i];
    if (showHidden || propertyIsEnumerable(value, key)) keys.push(key);
  }
  return keys;
}

// ---------------------------------------------------------------------------
// Constructor names and prefixes.

function safeInstanceOf(object, ctor) {
  try {
    return object instanceof ctor;
  } catch {
    return false;
  }
}

// Name of the nearest constructor in the prototype chain that `original` is
// an instance of; null for objects without prototype.
function getConstructorName(original, ctx, recurseTimes, protoProps) {
  let obj = original;
  let firstProto;
  while (obj !== null && obj !== undefined) {
    const desc = ObjectGetOwnPropertyDescriptor(obj, 'constructor');
    if (desc !== undefined && typeof desc.value === 'function' &&
        desc.value.name !== '' && safeInstanceOf(original, desc.value)) {
      const name = StringCtor(desc.value.name);
      if (protoProps !== undefined &&
          (firstProto !== obj || !builtInObjects.has(name))) {
        collectPrototypeProperties(ctx, original, firstProto || original,
                                   recurseTimes, protoProps);
      }
      return name;
    }
    obj = ObjectGetPrototypeOf(obj);
    if (firstProto === undefined) firstProto = obj;
  }
  if (firstProto === null) return null;
  const className = internalClassName(original);
  if (recurseTimes > ctx.depth && ctx.depth !== null) {
    return `${className} <Complex prototype>`;
  }
  const protoName = getConstructorName(firstProto, ctx, recurseTimes + 1, protoProps);
  if (protoName === null) {
    const shown = inspect(firstProto, {
      ...ctx, customInspect: false, depth: -1,
    });
    return `${className} <${shown}>`;
  }
  return `${className} <${protoName}>`;
}

// With showHidden, data properties and accessors found on user-defined
// prototypes (up to three levels) are listed after the own properties.
function collectPrototypeProperties(ctx, main, obj, recurseTimes, output) {
  let level = 0;
  let previousKeys;
  let shown;
  do {
    if (level !== 0 || main === obj) {
      obj = ObjectGetPrototypeOf(obj);
      if (obj === null) return;
      const desc = ObjectGetOwnPropertyDescriptor(obj, 'constructor');
      if (desc !== undefined && typeof desc.value === 'function' &&
          builtInObjects.has(desc.value.name)) {
        return;
      }
    }
    if (level === 0) {
      shown = new Set();
    } else {
      for (const key of previousKeys) shown.add(key);
    }
    previousKeys = ReflectOwnKeys(obj);
    ctx.seen.push(main);
    for (const key of previousKeys) {
      if (key === 'constructor' || hasOwnProperty(main, key) ||
          (level !== 0 && shown.has(key))) {
        continue;
      }
      const desc = ObjectGetOwnPropertyDescriptor(obj, key);
      if (typeof desc.value === 'function') continue;
      output.push(formatProperty(ctx, obj, recurseTimes, key, OBJECT_TYPE, desc, main));
    }
    ctx.seen.pop();
    level++;
  } while (level !== 3);
}

function getPrefix(constructor, tag, fallback, size = '') {
  if (constructor === null) {
    if (tag !== '' && fallback !== tag) {
      return `[${fallback}${size}: null prototype] [${tag}] `;
    }
    return `[${fallback}${size}: null prototype] `;
  }
  if (tag !== '' && constructor !== tag) {
    return `${constructor}${size} [${tag}] `;
  }
  return `${constructor}${size} `;
}

// ---------------------------------------------------------------------------
// The formatter.

function formatValue(ctx, value, recurseTimes, typedArray) {
  if (typeof value !== 'object' && typeof value !== 'function') {
    return formatPrimitive(ctx.stylize, value, ctx);
  }
  if (value === null) return ctx.stylize('null', 'null');

  const context = value;
  // Proxies are shown as their target, without running any trap.
  const target = proxyTargetOf(value);
  if (target !== undefined) {
    if (target === null) return ctx.stylize('<Revoked Proxy>', 'special');
    if (ctx.showProxy && typeof host.getProxyHandler === 'function') {
      return formatProxy(ctx, value, target, recurseTimes);
    }
    value = target;
  }

  if (ctx.customInspect) {
    const custom = value[customInspectSymbol];
    if (typeof custom === 'function' && custom !== inspect &&
        !(value.constructor && value.constructor.prototype === value)) {
      const depth = ctx.depth === null ? null : ctx.depth - recurseTimes;
      const result = ReflectApply(custom, context,
                                  [depth, optionsForCustom(ctx), inspect]);
      if (result !== context) {
        if (typeof result !== 'string') return formatValue(ctx, result, recurseTimes);
        return result.replaceAll('\n', `\n${' '.repeat(ctx.indentationLvl)}`);
      }
    }
  }

  if (ctx.seen.includes(value)) {
    let index = 1;
    if (ctx.circular === undefined) {
      ctx.circular = new Map();
      ctx.circular.set(value, index);
    } else {
      index = ctx.circular.get(value);
      if (index === undefined) {
        index = ctx.circular.size + 1;
        ctx.circular.set(value, index);
      }
    }
    return ctx.stylize(`[Circular *${index}]`, 'special');
  }

  return formatRaw(ctx, value, recurseTimes, typedArray);
}

function formatProxy(ctx, proxy, target, recurseTimes) {
  if (recurseTimes > ctx.depth && ctx.depth !== null) {
    return ctx.stylize('Proxy [Array]', 'special');
  }
  let handler;
  try {
    handler = host.getProxyHandler(proxy);
  } catch {
    handler = undefined;
  }
  recurseTimes += 1;
  ctx.indentationLvl += 2;
  const parts = [
    formatValue(ctx, target, recurseTimes),
    formatValue(ctx, handler, recurseTimes),
  ];
  ctx.indentationLvl -= 2;
  return reduceToSingleString(ctx, parts, '', ['Proxy [', ']'], ARRAY_EXTRAS, recurseTimes);
}

const noEntries = () => [];

function formatRaw(ctx, value, recurseTimes, typedArray) {
  let keys;
  let protoProps;
  if (ctx.showHidden && (recurseTimes <= ctx.depth || ctx.depth === null)) {
    protoProps = [];
  }
  const constructor = getConstructorName(value, ctx, recurseTimes, protoProps);
  if (protoProps !== undefined && protoProps.length === 0) protoProps = undefined;

  let tag = value[SymbolToStringTag];
  // The tag is shown only when it is not already listed as a property.
  if (typeof tag !== 'string' ||
      (tag !== '' &&
       (ctx.showHidden ? hasOwnProperty : propertyIsEnumerable)(value, SymbolToStringTag))) {
    tag = '';
  }

  let base = '';
  let formatter = noEntries;
  let braces;
  let extrasType = OBJECT_TYPE;
  let fallback = 'Object'; // type name used when beyond the depth limit
  const noProps = () => keys.length === 0 && protoProps === undefined;

  // Built-in brands are only tested for values whose prototype chain
  // contains the class's prototype (or that have no prototype), which keeps
  // plain objects from paying for a dozen failed brand checks.
  const chain = prototypeChain(value);
  const could = (proto) => chain.length === 0 || chain.includes(proto);
  const builtinTag = objectToString(value);

  // Like node, array-likes and collections are recognised only when they
  // are iterable or have no prototype.
  let kind;
  let taName;
  if (value[SymbolIterator] || constructor === null) {
    if (ArrayIsArray(value)) {
      kind = 'array';
    } else if (could(SetPrototype) && isSet(value)) {
      kind = 'set';
    } else if (could(MapPrototype) && isMap(value)) {
      kind = 'map';
    } else if ((taName = typedArrayName(value)) !== undefined) {
      kind = 'typed';
    } else if (typeof host.previewEntries === 'function' && chain.includes(mapIteratorPrototype)) {
      kind = 'mapIterator';
    } else if (typeof host.previewEntries === 'function' && chain.includes(setIteratorPrototype)) {
      kind = 'setIterator';
    }
  }

  if (kind === 'array') {
    fallback = 'Array';
    const prefix = (constructor !== 'Array' || tag !== '') ?
      getPrefix(constructor, tag, 'Array', `(${value.length})`) : '';
    keys = getNonIndexKeys(value, ctx.showHidden);
    braces = [`${prefix}[`, ']'];
    if (value.length === 0 && noProps()) return `${braces[0]}]`;
    extrasType = ARRAY_EXTRAS;
    formatter = formatArray;
  } else if (kind === 'set') {
    fallback = 'Set';
    const size = setSize(value);
    const prefix = getPrefix(constructor, tag, 'Set', `(${size})`);
    keys = getKeys(value, ctx.showHidden);
    formatter = formatSet;
    if (size === 0 && noProps()) return `${prefix}{}`;
    braces = [`${prefix}{`, '}'];
  } else if (kind === 'map') {
    fallback = 'Map';
    const size = mapSize(value);
    const prefix = getPrefix(constructor, tag, 'Map', `(${size})`);
    keys = getKeys(value, ctx.showHidden);
    formatter = formatMap;
    if (size === 0 && noProps()) return `${prefix}{}`;
    braces = [`${prefix}{`, '}'];
  } else if (kind === 'typed') {
    fallback = taName;
    keys = getNonIndexKeys(value, ctx.showHidden);
    const size = typedArrayLength(value);
    const prefix = getPrefix(constructor, tag, constructor === null ? taName : '', `(${size})`);
    braces = [`${prefix}[`, ']'];
    if (size === 0 && keys.length === 0 && !ctx.showHidden) return `${braces[0]}]`;
    formatter = formatTypedArray;
    extrasType = ARRAY_EXTRAS;
  } else if (kind === 'mapIterator') {
    keys = getKeys(value, ctx.showHidden);
    braces = iteratorBraces('Map', tag);
    formatter = (c, v, r) => formatIterator(braces, c, v, r);
  } else if (kind === 'setIterator') {
    keys = getKeys(value, ctx.showHidden);
    braces = iteratorBraces('Set', tag);
    formatter = (c, v, r) => formatIterator(braces, c, v, r);
  } else {
    keys = getKeys(value, ctx.showHidden);
    braces = ['{', '}'];
    let state;
    let boxed;
    if (typeof value === 'function') {
      fallback = 'Function';
      base = functionBase(value, constructor, tag);
      if (noProps()) return ctx.stylize(base, 'special');
    } else if (constructor === 'Object') {
      if (isArguments(value)) {
        braces[0] = '[Arguments] {';
      } else if (tag !== '') {
        braces[0] = `${getPrefix(constructor, tag, 'Object')}{`;
      }
      if (noProps()) return `${braces[0]}}`;
    } else if ((could(RegExpPrototype) || builtinTag === '[object RegExp]') && isRegExp(value)) {
      fallback = 'RegExp';
      base = regExpToString(constructor !== null ? value : new RegExpCtor(value));
      const prefix = getPrefix(constructor, tag, 'RegExp');
      if (prefix !== 'RegExp ') base = `${prefix}${base}`;
      if (noProps() || (recurseTimes > ctx.depth && ctx.depth !== null)) {
        return ctx.stylize(base, 'regexp');
      }
    } else if ((could(DatePrototype) || builtinTag === '[object Date]') && isDate(value)) {
      fallback = 'Date';
      base = NumberIsNaN(dateGetTime(value)) ? dateToString(value) : dateToISOString(value);
      const prefix = getPrefix(constructor, tag, 'Date');
      if (prefix !== 'Date ') base = `${prefix}${base}`;
      if (noProps()) return ctx.stylize(base, 'date');
    } else if (builtinTag === '[object Error]' || isError(value)) {
      fallback = 'Error';
      base = formatError(value, constructor, tag, ctx, keys);
      if (noProps()) return base;
    } else if ((could(ArrayBufferPrototype) && isArrayBuffer(value)) ||
               (could(SharedArrayBufferPrototype) && isSharedArrayBuffer(value))) {
      const arrayType = isArrayBuffer(value) ? 'ArrayBuffer' : 'SharedArrayBuffer';
      fallback = arrayType;
      const prefix = getPrefix(constructor, tag, arrayType);
      if (typedArray === undefined) {
        formatter = formatArrayBuffer;
      } else if (noProps()) {
        const byteLength = arrayType === 'ArrayBuffer' ?
          arrayBufferByteLength(value) : sharedArrayBufferByteLength(value);
        return `${prefix}{ byteLength: ${formatNumber(ctx.stylize, byteLength, false)} }`;
      }
      braces[0] = `${prefix}{`;
      keys.unshift('byteLength');
    } else if (could(DataViewPrototype) && isDataView(value)) {
      fallback = 'DataView';
      braces[0] = `${getPrefix(constructor, tag, 'DataView')}{`;
      keys.unshift('byteLength', 'byteOffset', 'buffer');
    } else if ((could(PromisePrototype) || builtinTag === '[object Promise]') &&
               (state = promiseState(value)) !== undefined) {
      fallback = 'Promise';
      braces[0] = `${getPrefix(constructor, tag, 'Promise')}{`;
      formatter = (c, v, r) => formatPromise(c, state, r);
    } else if (could(WeakSetPrototype) && isWeakSet(value)) {
      fallback = 'WeakSet';
      braces[0] = `${getPrefix(constructor, tag, 'WeakSet')}{`;
      formatter = ctx.showHidden ? formatWeakSet : formatWeakUnknown;
    } else if (could(WeakMapPrototype) && isWeakMap(value)) {
      fallback = 'WeakMap';
      braces[0] = `${getPrefix(constructor, tag, 'WeakMap')}{`;
      formatter = ctx.showHidden ? formatWeakMap : formatWeakUnknown;
    } else if (chain.length === 0 && isModuleNamespace(value)) {
      fallback = 'Module';
      braces[0] = `${getPrefix(constructor, tag, 'Module')}{`;
      const nsKeys = keys;
      keys = [];
      formatter = (c, v, r) => formatNamespace(nsKeys, c, v, r);
    } else if ((boxed = boxedKind(value, could, builtinTag)) !== undefined) {
      fallback = boxed;
      base = boxedBase(value, ctx, keys, constructor, tag, boxed);
      if (noProps()) return base;
    } else {
      fallback = constructor === null ? typeFallbackName(value) : 'Object';
      if (noProps()) return `${getPrefix(constructor, tag, fallback)}{}`;
      braces[0] = `${getPrefix(constructor, tag, fallback)}{`;
    }
  }

  if (recurseTimes > ctx.depth && ctx.depth !== null) {
    let name = getPrefix(constructor, tag, fallback).slice(0, -1);
    if (constructor !== null) name = `[${name}]`;
    return ctx.stylize(name, 'special');
  }

  recurseTimes += 1;
  ctx.seen.push(value);
  ctx.currentDepth = recurseTimes;
  let output;
  const indentationLvl = ctx.indentationLvl;
  try {
    output = formatter(ctx, value, recurseTimes);
    for (let i = 0; i < keys.length; i++) {
      output.push(formatProperty(ctx, value, recurseTimes, keys[i], extrasType));
    }
    if (protoProps !== undefined) {
      for (const entry of protoProps) output.push(entry);
    }
  } catch (err) {
    if (!isStackOverflow(err)) throw err;
    ctx.seen.pop();
    ctx.indentationLvl = indentationLvl;
    const name = getPrefix(constructor, tag, fallback).slice(0, -1);
    return ctx.stylize(
      `[${name}: Inspection interrupted prematurely. Maximum call stack size exceeded.]`,
      'special');
  }

  if (ctx.circular !== undefined) {
    const index = ctx.circular.get(value);
    if (index !== undefined) {
      const reference = ctx.stylize(`<ref *${index}>`, 'special');
      if (ctx.compact !== true) {
        base = base === '' ? reference : `${reference} ${base}`;
      } else {
        braces[0] = `${reference} ${braces[0]}`;
      }
    }
  }
  ctx.seen.pop();

  if (ctx.sorted) {
    const comparator = ctx.sorted === true ? undefined : ctx.sorted;
    if (extrasType === OBJECT_TYPE) {
      output.sort(comparator);
    } else if (keys.length > 1) {
      const tail = output.slice(output.length - keys.length).sort(comparator);
      output.splice(output.length - keys.length, keys.length, ...tail);
    }
  }

  const res = reduceToSingleString(ctx, output, base, braces, extrasType, recurseTimes, value);
  const budget = ctx.budget[ctx.indentationLvl] || 0;
  const newLength = budget + res.length;
  ctx.budget[ctx.indentationLvl] = newLength;
  // Stop descending into huge structures (node does the same at 2**27).
  if (newLength > 2 ** 27) ctx.depth = -1;
  return res;
}

function isStackOverflow(err) {
  return err instanceof RangeError &&
    typeof err.message === 'string' &&
    err.message.includes('Maximum call stack size exceeded');
}

function iteratorBraces(type, tag) {
  if (tag !== `${type} Iterator`) {
    if (tag !== '') tag += '] [';
    tag += `${type} Iterator`;
  }
  return [`[${tag}] {`, '}'];
}

function previewEntries(value) {
  try {
    const res = host.previewEntries(value);
    if (ArrayIsArray(res)) return res;
  } catch {
    // fall through
  }
  return [[], false];
}

function formatIterator(braces, ctx, value, recurseTimes) {
  const [entries, isKeyValue] = previewEntries(value);
  if (isKeyValue) {
    braces[0] = braces[0].replace(/ Iterator] \{$/, ' Entries] {');
    return formatMapIterInner(ctx, recurseTimes, entries, false);
  }
  return formatSetIterInner(ctx, recurseTimes, entries, false);
}

function formatSetIterInner(ctx, recurseTimes, entries, weak) {
  const maxLength = MathMin(MathMax(ctx.maxArrayLength, 0), entries.length);
  const output = [];
  ctx.indentationLvl += 2;
  for (let i = 0; i < maxLength; i++) output.push(formatValue(ctx, entries[i], recurseTimes));
  ctx.indentationLvl -= 2;
  if (weak && !ctx.sorted) output.sort();
  const remaining = entries.length - maxLength;
  if (remaining > 0) output.push(moreItems(remaining));
  return output;
}

function formatMapIterInner(ctx, recurseTimes, entries, weak) {
  const pairs = entries.length / 2;
  const maxLength = MathMin(MathMax(ctx.maxArrayLength, 0), pairs);
  const remaining = pairs - maxLength;
  const output = [];
  ctx.indentationLvl += 2;
  for (let i = 0; i < maxLength; i++) {
    const k = formatValue(ctx, entries[i * 2], recurseTimes);
    const v = formatValue(ctx, entries[i * 2 + 1], recurseTimes);
    if (weak) {
      output.push(`${k} => ${v}`);
    } else {
      output.push(reduceToSingleString(ctx, [k, v], '', ['[', ']'], ARRAY_EXTRAS, recurseTimes));
    }
  }
  ctx.indentationLvl -= 2;
  if (weak && !ctx.sorted) output.sort();
  if (remaining > 0) output.push(moreItems(remaining));
  return output;
}

function formatWeakUnknown(ctx) {
  return [ctx.stylize('<items unknown>', 'special')];
}

function formatWeakSet(ctx, value, recurseTimes) {
  if (typeof host.previewEntries !== 'function') return formatWeakUnknown(ctx);
  return formatSetIterInner(ctx, recurseTimes, previewEntries(value)[0], true);
}

function formatWeakMap(ctx, value, recurseTimes) {
  if (typeof host.previewEntries !== 'function') return formatWeakUnknown(ctx);
  return formatMapIterInner(ctx, recurseTimes, previewEntries(value)[0], true);
}

function formatNamespace(keys, ctx, value, recurseTimes) {
  const output = [];
  for (const key of keys) {
    try {
      output.push(formatProperty(ctx, value, recurseTimes, key, OBJECT_TYPE));
    } catch (err) {
      if (!(err instanceof ReferenceError)) throw err;
      // An uninitialized (TDZ) binding.
      const line = formatProperty(ctx, { [key]: '' }, recurseTimes, key, OBJECT_TYPE);
      const pos = line.lastIndexOf(' ');
      output.push(line.slice(0, pos + 1) + ctx.stylize('<uninitialized>', 'special'));
    }
  }
  return output;
}

function formatPromise(ctx, state, recurseTimes) {
  if (state[0] === 0) return [ctx.stylize('<pending>', 'special')];
  ctx.indentationLvl += 2;
  const str = formatValue(ctx, state[1], recurseTimes);
  ctx.indentationLvl -= 2;
  return [state[0] === 2 ? `${ctx.stylize('<rejected>', 'special')} ${str}` : str];
}

function boxedBase(value, ctx, keys, constructor, tag, type) {
  let primitive;
  switch (type) {
    case 'Number': primitive = numberValueOf(value); break;
    case 'String':
      primitive = stringValueOf(value);
      // Drop the index keys of the string's characters.
      keys.splice(0, primitive.length);
      break;
    case 'Boolean': primitive = booleanValueOf(value); break;
    case 'BigInt': primitive = bigIntValueOf(value); break;
    default: primitive = symbolValueOf(value);
  }
  let base = `[${type}`;
  if (type !== constructor) {
    base += constructor === null ? ' (null prototype)' : ` (${constructor})`;
  }
  base += `: ${formatPrimitive(stylizeNoColor, primitive, ctx)}]`;
  if (tag !== '' && tag !== constructor) base += ` [${tag}]`;
  if (keys.length !== 0 || ctx.stylize === stylizeNoColor) return base;
  return ctx.stylize(base, type.toLowerCase());
}

function looksLikeClass(fn) {
  let source;
  try {
    source = functionToString(fn);
  } catch {
    return false;
  }
  if (!source.startsWith('class') || !source.endsWith('}')) return false;
  const body = source.slice(5, -1);
  const brace = body.indexOf('{');
  if (brace === -1) return false;
  const head = body.slice(0, brace);
  if (!head.includes('(')) return true;
  // `class` followed by a heritage expression that contains parentheses.
  const withoutComments = body.replace(/\/\/.*?\n|\/\*(.|\n)*?\*\//g, '');
  return /^(\s+[^(]*?)\s*{/.test(withoutComments);
}

function classBase(fn, constructor, tag) {
  const name = (hasOwnProperty(fn, 'name') && fn.name) || '(anonymous)';
  let base = `class ${name}`;
  if (constructor !== 'Function' && constructor !== null) base += ` [${constructor}]`;
  if (tag !== '' && constructor !== tag) base += ` [${tag}]`;
  if (constructor !== null) {
    const superName = ObjectGetPrototypeOf(fn).name;
    if (superName) base += ` extends ${superName}`;
  } else {
    base += ' extends [null prototype]';
  }
  return `[${base}]`;
}

function functionBase(fn, constructor, tag) {
  if (looksLikeClass(fn)) return classBase(fn, constructor, tag);
  const type = functionKind(fn);
  let base = `[${type}`;
  if (constructor === null) base += ' (null prototype)';
  if (fn.name === '') {
    base += ' (anonymous)';
  } else {
    base += `: ${fn.name}`;
  }
  base += ']';
  if (constructor !== type && constructor !== null) base += ` ${constructor}`;
  if (tag !== '' && constructor !== tag) base += ` [${tag}]`;
  return base;
}

// ---------------------------------------------------------------------------
// Errors.

function stackOf(err) {
  return err.stack ? StringCtor(err.stack) : errorToString(err);
}

// Prefix the first line of the stack with the real class name when it
// differs from what the stack says (e.g. `class Foo extends Error`).
function improveStack(stack, constructor, name, tag) {
  let len = name.length;
  if (constructor === null ||
      (name.endsWith('Error') && stack.startsWith(name) &&
       (stack.length === len || stack[len] === ':' || stack[len] === '\n'))) {
    let fallback = 'Error';
    if (constructor === null) {
      const start = /^([A-Z][a-z_ A-Z0-9[\]()-]+)(?::|\n\s+at)/.exec(stack) ||
        /^([a-z_A-Z0-9-]*Error)$/.exec(stack);
      fallback = (start && start[1]) || '';
      len = fallback.length;
      fallback = fallback || 'Error';
    }
    const prefix = getPrefix(constructor, tag, fallback).slice(0, -1);
    if (name !== prefix) {
      if (prefix.includes(name)) {
        stack = len === 0 ? `${prefix}: ${stack}` : `${prefix}${stack.slice(len)}`;
      } else {
        stack = `${prefix} [${name}]${stack.slice(len)}`;
      }
    }
  }
  return stack;
}

// Find a run of more than three identical lines shared by both stacks.
function sharedFrames(frames, causeFrames) {
  for (let i = 0; i < frames.length - 3; i++) {
    const pos = causeFrames.indexOf(frames[i]);
    if (pos === -1) continue;
    const rest = causeFrames.length - pos;
    if (rest <= 3) continue;
    let len = 1;
    const maxLen = MathMin(frames.length - i, rest);
    while (maxLen > len && frames[i + len] === causeFrames[pos + len]) len++;
    if (len > 3) return { len, offset: i };
  }
  return { len: 0, offset: 0 };
}

function stackFrames(ctx, err, stackPart) {
  const frames = stackPart.split('\n');
  let cause;
  try {
    cause = err.cause;
  } catch {
    cause = undefined;
  }
  if (cause && typeof cause === 'object' && isError(cause)) {
    const causeStack = stackOf(cause);
    const at = causeStack.indexOf('\n    at');
    if (at !== -1) {
      const causeFrames = causeStack.slice(at + 1).split('\n');
      const { len, offset } = sharedFrames(frames, causeFrames);
      if (len > 0) {
        const skipped = len - 2;
        const msg = `    ... ${skipped} lines matching cause stack trace ...`;
        frames.splice(offset + 1, skipped, ctx.stylize(msg, 'undefined'));
      }
    }
  }
  return frames;
}

function formatError(err, constructor, tag, ctx, keys) {
  const name = err.name != null ? StringCtor(err.name) : 'Error';
  let stack = stackOf(err);
  // Hide name/message/stack properties whose text is already in the stack.
  if (!ctx.showHidden && keys.length !== 0) {
    for (const prop of ['name', 'message', 'stack']) {
      const index = keys.indexOf(prop);
      if (index !== -1 && stack.includes(err[prop])) keys.splice(index, 1);
    }
  }
  if ('cause' in err && (keys.length === 0 || !keys.includes('cause'))) {
    keys.push('cause');
  }
  if (ArrayIsArray(err.errors) && (keys.length === 0 || !keys.includes('errors'))) {
    keys.push('errors');
  }
  stack = improveStack(stack, constructor, name, tag);

  // The message may itself contain "\n    at"; look for frames after it.
  let pos = (err.message && stack.indexOf(err.message)) || -1;
  if (pos !== -1) pos += err.message.length;
  const framesStart = stack.indexOf('\n    at', pos);
  if (framesStart === -1) {
    stack = `[${stack}]`;
  } else {
    const head = stack.slice(0, framesStart);
    const lines = stackFrames(ctx, err, stack.slice(framesStart + 1));
    stack = `${head}\n${lines.join('\n')}`;
  }
  if (ctx.indentationLvl !== 0) {
    stack = stack.replaceAll('\n', `\n${' '.repeat(ctx.indentationLvl)}`);
  }
  return stack;
}

// ---------------------------------------------------------------------------
// Entries of collections.

function moreItems(n) {
  return `... ${n} more item${n > 1 ? 's' : ''}`;
}

function formatArray(ctx, value, recurseTimes) {
  const length = value.length;
  const max = MathMin(MathMax(0, ctx.maxArrayLength), length);
  const output = [];
  for (let i = 0; i < max; i++) {
    if (!hasOwnProperty(value, i)) return formatSparseArray(ctx, value, recurseTimes, max, output, i);
    output.push(formatProperty(ctx, value, recurseTimes, i, ARRAY_TYPE));
  }
  if (length - max > 0) output.push(moreItems(length - max));
  return output;
}

function emptyItems(n) {
  return `<${n} empty item${n > 1 ? 's' : ''}>`;
}

// Arrays with holes: walk the present indices and summarise each gap.
function formatSparseArray(ctx, value, recurseTimes, maxLength, output, firstHole) {
  const keys = ObjectKeys(value);
  let index = firstHole; // next array index to account for
  for (let k = firstHole; k < keys.length && output.length < maxLength; k++) {
    const key = keys[k];
    const num = +key;
    if (num > 2 ** 32 - 2) break;
    if (`${index}` !== key) {
      if (!/^(0|[1-9][0-9]*)$/.test(key)) break;
      output.push(ctx.stylize(emptyItems(num - index), 'undefined'));
      index = num;
      if (output.length === maxLength) break;
    }
    output.push(formatProperty(ctx, value, recurseTimes, key, ARRAY_TYPE));
    index++;
  }
  const remaining = value.length - index;
  if (output.length !== maxLength) {
    if (remaining > 0) output.push(ctx.stylize(emptyItems(remaining), 'undefined'));
  } else if (remaining > 0) {
    output.push(moreItems(remaining));
  }
  return output;
}

function formatTypedArray(ctx, value, recurseTimes) {
  const length = typedArrayLength(value);
  const max = MathMin(MathMax(0, ctx.maxArrayLength), length);
  const output = [];
  const isNumber = length > 0 && typeof value[0] === 'number';
  for (let i = 0; i < max; i++) {
    output.push(isNumber ?
      formatNumber(ctx.stylize, value[i], ctx.numericSeparator) :
      formatBigInt(ctx.stylize, value[i], ctx.numericSeparator));
  }
  if (length - max > 0) output.push(moreItems(length - max));
  if (ctx.showHidden) {
    ctx.indentationLvl += 2;
    for (const key of ['BYTES_PER_ELEMENT', 'length', 'byteLength', 'byteOffset', 'buffer']) {
      const str = formatValue(ctx, value[key], recurseTimes, true);
      output.push(`[${key}]: ${str}`);
    }
    ctx.indentationLvl -= 2;
  }
  return output;
}

function formatArrayBuffer(ctx, value) {
  let bytes;
  try {
    bytes = new Uint8Array(value);
  } catch {
    return [ctx.stylize('(detached)', 'special')];
  }
  const shown = MathMin(ctx.maxArrayLength, bytes.length);
  const hex = [];
  for (let i = 0; i < shown; i++) hex.push(bytes[i].toString(16).padStart(2, '0'));
  let str = hex.join(' ');
  const remaining = bytes.length - ctx.maxArrayLength;
  if (remaining > 0) str += ` ... ${remaining} more byte${remaining > 1 ? 's' : ''}`;
  return [`${ctx.stylize('[Uint8Contents]', 'special')}: <${str}>`];
}

function formatSet(ctx, value, recurseTimes) {
  const size = setSize(value);
  const max = MathMin(MathMax(0, ctx.maxArrayLength), size);
  const output = [];
  ctx.indentationLvl += 2;
  const it = setValues(value);
  for (let i = 0; i < max; i++) {
    const step = setIteratorNext(it);
    if (step.done) break;
    output.push(formatValue(ctx, step.value, recurseTimes));
  }
  if (size - max > 0) output.push(moreItems(size - max));
  ctx.indentationLvl -= 2;
  return output;
}

function formatMap(ctx, value, recurseTimes) {
  const size = mapSize(value);
  const max = MathMin(MathMax(0, ctx.maxArrayLength), size);
  const output = [];
  ctx.indentationLvl += 2;
  const it = mapEntries(value);
  for (let i = 0; i < max; i++) {
    const step = mapIteratorNext(it);
    if (step.done) break;
    const [k, v] = step.value;
    output.push(`${formatValue(ctx, k, recurseTimes)} => ${formatValue(ctx, v, recurseTimes)}`);
  }
  if (size - max > 0) output.push(moreItems(size - max));
  ctx.indentationLvl -= 2;
  return output;
}

// One `key: value` entry (or just the value for array elements).
function formatProperty(ctx, value, recurseTimes, key, type, desc, original = value) {
  let str;
  let extra = ' ';
  desc = desc || ObjectGetOwnPropertyDescriptor(value, key) ||
    { value: value[key], enumerable: true };
  if (desc.value !== undefined) {
    const diff = (ctx.compact !== true || type !== OBJECT_TYPE) ? 2 : 3;
    ctx.indentationLvl += diff;
    str = formatValue(ctx, desc.value, recurseTimes);
    if (diff === 3 && ctx.breakLength < getStringWidth(str)) {
      extra = `\n${' '.repeat(ctx.indentationLvl)}`;
    }
    ctx.indentationLvl -= diff;
  } else if (desc.get !== undefined) {
    const label = desc.set !== undefined ? 'Getter/Setter' : 'Getter';
    const s = ctx.stylize;
    const getters = ctx.getters;
    if (getters && (getters === true ||
        (getters === 'get' && desc.set === undefined) ||
        (getters === 'set' && desc.set !== undefined))) {
      try {
        const got = ReflectApply(desc.get, original, []);
        ctx.indentationLvl += 2;
        if (got === null) {
          str = `${s(`[${label}:`, 'special')} ${s('null', 'null')}${s(']', 'special')}`;
        } else if (typeof got === 'object') {
          str = `${s(`[${label}]`, 'special')} ${formatValue(ctx, got, recurseTimes)}`;
        } else {
          const primitive = formatPrimitive(s, got, ctx);
          str = `${s(`[${label}:`, 'special')} ${primitive}${s(']', 'special')}`;
        }
        ctx.indentationLvl -= 2;
      } catch (err) {
        const message = `<Inspection threw (${err.message})>`;
        str = `${s(`[${label}:`, 'special')} ${message}${s(']', 'special')}`;
      }
    } else {
      str = s(`[${label}]`, 'special');
    }
  } else if (desc.set !== undefined) {
    str = ctx.stylize('[Setter]', 'special');
  } else {
    str = ctx.stylize('undefined', 'undefined');
  }
  if (type === ARRAY_TYPE) return str;

  let name;
  if (typeof key === 'symbol') {
    name = `[${ctx.stylize(escapeName(symbolToString(key)), 'symbol')}]`;
  } else if (key === '__proto__') {
    name = "['__proto__']";
  } else if (desc.enumerable === false) {
    name = `[${escapeName(key)}]`;
  } else if (IDENTIFIER_KEY.test(key)) {
    name = ctx.stylize(key, 'name');
  } else {
    name = ctx.stylize(quoteString(key), 'string');
  }
  return `${name}:${extra}${str}`;
}

// ---------------------------------------------------------------------------
// Layout.

// Does the output fit on one line of `breakLength` columns?
function fitsOnOneLine(ctx, output, start, base) {
  let total = output.length + start;
  if (total + output.length > ctx.breakLength) return false;
  for (const entry of output) {
    total += entry.length;
    if (total > ctx.breakLength) return false;
  }
  return base === '' || !base.includes('\n');
}

// Lay many short array entries out in aligned columns.
function groupArrayElements(ctx, output, value) {
  let totalLength = 0;
  let maxLength = 0;
  let outputLength = output.length;
  // A trailing "... more items" entry takes no part in the grouping.
  if (ctx.maxArrayLength < output.length) outputLength--;
  const separatorSpace = 2; // ", "
  const dataLen = new Array(outputLength);
  for (let i = 0; i < outputLength; i++) {
    const len = getStringWidth(output[i], ctx.colors);
    dataLen[i] = len;
    totalLength += len + separatorSpace;
    if (maxLength < len) maxLength = len;
  }
  const actualMax = maxLength + separatorSpace;
  // Needs at least three columns, and no entry much longer than the rest.
  if (actualMax * 3 + ctx.indentationLvl < ctx.breakLength &&
      (totalLength / actualMax > 5 || maxLength <= 6)) {
    const averageBias = MathSqrt(actualMax - totalLength / output.length);
    const biasedMax = MathMax(actualMax - 3 - averageBias, 1);
    // Aim for a roughly square block, characters being ~2.5 times as high
    // as wide, within the line width, compact*4 and at most 15 columns.
    const columns = MathMin(
      MathRound(MathSqrt(2.5 * biasedMax * outputLength) / biasedMax),
      MathFloor((ctx.breakLength - ctx.indentationLvl) / actualMax),
      ctx.compact * 4,
      15,
    );
    if (columns <= 1) return output;
    const maxLineLength = [];
    for (let col = 0; col < columns; col++) {
      let lineLength = 0;
      for (let j = col; j < output.length; j += columns) {
        if (dataLen[j] > lineLength) lineLength = dataLen[j];
      }
      maxLineLength.push(lineLength + separatorSpace);
    }
    // Numbers are right-aligned, everything else left-aligned.
    let padStart = true;
    if (value !== undefined) {
      for (let i = 0; i < output.length; i++) {
        if (typeof value[i] !== 'number' && typeof value[i] !== 'bigint') {
          padStart = false;
          break;
        }
      }
    }
    const grouped = [];
    for (let i = 0; i < outputLength; i += columns) {
      const lineEnd = MathMin(i + columns, outputLength);
      let line = '';
      let j = i;
      for (; j < lineEnd - 1; j++) {
        const width = maxLineLength[j - i] + output[j].length - dataLen[j];
        const cell = `${output[j]}, `;
        line += padStart ? cell.padStart(width, ' ') : cell.padEnd(width, ' ');
      }
      if (padStart) {
        const width = maxLineLength[j - i] + output[j].length - dataLen[j] - separatorSpace;
        line += output[j].padStart(width, ' ');
      } else {
        line += output[j];
      }
      grouped.push(line);
    }
    if (ctx.maxArrayLength < output.length) grouped.push(output[outputLength]);
    output = grouped;
  }
  return output;
}

function reduceToSingleString(ctx, output, base, braces, extrasType, recurseTimes, value) {
  if (ctx.compact !== true) {
    if (typeof ctx.compact === 'number' && ctx.compact >= 1) {
      const entries = output.length;
      if (extrasType === ARRAY_EXTRAS && entries > 6) {
        output = groupArrayElements(ctx, output, value);
      }
      // Only objects that do not nest more than `compact` levels deep (as
      // seen from the most recently formatted object) may share a line.
      if (ctx.currentDepth - recurseTimes < ctx.compact && entries === output.length) {
        const start = output.length + ctx.indentationLvl + braces[0].length + base.length + 10;
        if (fitsOnOneLine(ctx, output, start, base)) {
          const joined = output.join(', ');
          if (!joined.includes('\n')) {
            return `${base ? `${base} ` : ''}${braces[0]} ${joined} ${braces[1]}`;
          }
        }
      }
    }
    const indentation = `\n${' '.repeat(ctx.indentationLvl)}`;
    return `${base ? `${base} ` : ''}${braces[0]}${indentation}  ${
      output.join(`,${indentation}  `)}${indentation}${braces[1]}`;
  }
  // compact: true
  if (fitsOnOneLine(ctx, output, 0, base)) {
    return `${braces[0]}${base ? ` ${base}` : ''} ${output.join(', ')} ${braces[1]}`;
  }
  const indentation = ' '.repeat(ctx.indentationLvl);
  const lineStart = base === '' && braces[0].length === 1 ?
    ' ' : `${base ? ` ${base}` : ''}\n${indentation}  `;
  return `${braces[0]}${lineStart}${output.join(`,\n${indentation}  `)} ${braces[1]}`;
}

// ---------------------------------------------------------------------------
// Display width (terminal columns) of a string.

// eslint-disable-next-line no-control-regex
const ANSI_PATTERN = /[\u001b\u009b](?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)|[@-Z\\-_])/g;

function stripVTControlCharacters(str) {
  return str.replace(ANSI_PATTERN, '');
}

function isFullWidthCodePoint(code) {
  return code >= 0x1100 && (
    code <= 0x115f ||
    code === 0x2329 || code === 0x232a ||
    (code >= 0x231a && code <= 0x231b) ||
    (code >= 0x23e9 && code <= 0x23ec) || code === 0x23f0 || code === 0x23f3 ||
    (code >= 0x25fd && code <= 0x25fe) ||
    (code >= 0x2614 && code <= 0x2615) ||
    (code >= 0x2648 && code <= 0x2653) ||
    code === 0x267f || code === 0x2693 || code === 0x26a1 ||
    (code >= 0x26aa && code <= 0x26ab) ||
    (code >= 0x26bd && code <= 0x26be) ||
    (code >= 0x26c4 && code <= 0x26c5) ||
    code === 0x26ce || code === 0x26d4 || code === 0x26ea ||
    (code >= 0x26f2 && code <= 0x26f3) || code === 0x26f5 || code === 0x26fa ||
    code === 0x26fd || code === 0x2705 ||
    (code >= 0x270a && code <= 0x270b) || code === 0x2728 || code === 0x274c ||
    code === 0x274e || (code >= 0x2753 && code <= 0x2755) || code === 0x2757 ||
    (code >= 0x2795 && code <= 0x2797) || code === 0x27b0 || code === 0x27bf ||
    (code >= 0x2b1b && code <= 0x2b1c) || code === 0x2b50 || code === 0x2b55 ||
    (code >= 0x2e80 && code <= 0x3247 && code !== 0x303f) ||
    (code >= 0x3250 && code <= 0x4dbf) ||
    (code >= 0x4e00 && code <= 0xa4c6) ||
    (code >= 0xa960 && code <= 0xa97c) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe10 && code <= 0xfe19) ||
    (code >= 0xfe30 && code <= 0xfe6b) ||
    (code >= 0xff01 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x16fe0 && code <= 0x18cd5) ||
    (code >= 0x1b000 && code <= 0x1b2fb) ||
    code === 0x1f004 || code === 0x1f0cf || code === 0x1f18e ||
    (code >= 0x1f191 && code <= 0x1f19a) ||
    (code >= 0x1f200 && code <= 0x1f251) ||
    (code >= 0x1f300 && code <= 0x1f64f && !(code >= 0x1f321 && code <= 0x1f32c) &&
      !(code >= 0x1f336 && code <= 0x1f336) && !(code >= 0x1f37d && code <= 0x1f37d) &&
      !(code >= 0x1f394 && code <= 0x1f39f) && !(code >= 0x1f3cb && code <= 0x1f3ce) &&
      !(code >= 0x1f3d4 && code <= 0x1f3df) && !(code >= 0x1f3f1 && code <= 0x1f3f3) &&
      !(code >= 0x1f3f5 && code <= 0x1f3f7) && !(code >= 0x1f43f && code <= 0x1f43f) &&
      !(code >= 0x1f441 && code <= 0x1f441) && !(code >= 0x1f4fd && code <= 0x1f4fe) &&
      !(code >= 0x1f53e && code <= 0x1f54a) && !(code >= 0x1f54f && code <= 0x1f54f) &&
      !(code >= 0x1f568 && code <= 0x1f579) && !(code >= 0x1f57b && code <= 0x1f594) &&
      !(code >= 0x1f597 && code <= 0x1f5a3) && !(code >= 0x1f5a5 && code <= 0x1f5fa)) ||
    (code >= 0x1f680 && code <= 0x1f6ff && code !== 0x1f6c6) ||
    (code >= 0x1f7e0 && code <= 0x1f7eb) ||
    (code >= 0x1f90c && code <= 0x1f9ff) ||
    (code >= 0x1fa70 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  );
}

function isZeroWidthCodePoint(code) {
  return code <= 0x1f ||
    (code >= 0x7f && code <= 0x9f) ||
    (code >= 0x300 && code <= 0x36f) ||
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x20d0 && code <= 0x20ff) ||
    (code >= 0xfe00 && code <= 0xfe0f) ||
    (code >= 0xfe20 && code <= 0xfe2f) ||
    (code >= 0xe0100 && code <= 0xe01ef);
}

function getStringWidth(str, removeControlChars = true) {
  if (removeControlChars) str = stripVTControlCharacters(str);
  str = str.normalize('NFC');
  // Fast path: printable ASCII only.
  if (/^[\x20-\x7e]*$/.test(str)) return str.length;
  let width = 0;
  for (const char of str) {
    const code = char.codePointAt(0);
    if (isFullWidthCodePoint(code)) {
      width += 2;
    } else if (!isZeroWidthCodePoint(code)) {
      width++;
    }
  }
  return width;
}

// ---------------------------------------------------------------------------
// printf-style formatting (console.log's first argument).

let circularJSONMessage;

function firstLine(err) {
  const message = StringCtor(err && err.message);
  const nl = message.indexOf('\n');
  return nl === -1 ? message : message.slice(0, nl);
}

function tryStringify(arg) {
  try {
    return JSONStringify(arg);
  } catch (err) {
    if (circularJSONMessage === undefined) {
      try {
        const a = {};
        a.a = a;
        JSONStringify(a);
      } catch (circularError) {
        circularJSONMessage = firstLine(circularError);
      }
    }
    if (err && err.name === 'TypeError' && firstLine(err) === circularJSONMessage) {
      return '[Circular]';
    }
    throw err;
  }
}

// Objects whose `toString` is the one of a built-in class are inspected by
// `%s`; objects with their own `toString` are converted with String().
function hasBuiltInToString(value) {
  const target = proxyTargetOf(value);
  if (target !== undefined) {
    if (target === null) return true;
    value = target;
  }
  // A user-defined Symbol.toPrimitive wins over everything else.
  if (typeof value[SymbolToPrimitive] === 'function' &&
      (hasOwnProperty(value, SymbolToPrimitive) ||
       !ownerIsBuiltIn(value, SymbolToPrimitive))) {
    return false;
  }
  if (typeof value.toString !== 'function') return true;
  if (hasOwnProperty(value, 'toString')) return false;
  return ownerIsBuiltIn(value, 'toString');
}

// Is the prototype that defines `key` for `value` the prototype of a
// built-in class?
function ownerIsBuiltIn(value, key) {
  let pointer = value;
  do {
    pointer = ObjectGetPrototypeOf(pointer);
  } while (pointer !== null && !hasOwnProperty(pointer, key));
  if (pointer === null) return true;
  const desc = ObjectGetOwnPropertyDescriptor(pointer, 'constructor');
  return desc !== undefined && typeof desc.value === 'function' &&
    builtInObjects.has(desc.value.name);
}

// %d and %i: a bigint prints as one, a symbol as NaN, anything else through
// toNumber (Number for %d, parseInt for %i).
function formatIntegerArg(arg, toNumber) {
  if (typeof arg === 'bigint') return formatBigInt(stylizeNoColor, arg, false);
  if (typeof arg === 'symbol') return 'NaN';
  return formatNumber(stylizeNoColor, toNumber(arg), false);
}

function formatWithOptions(inspectOptions, ...args) {
  return formatArgs(inspectOptions, args);
}

function formatArgs(inspectOptions, args) {
  const first = args[0];
  let used = 0; // index of the last argument consumed by the format string
  let str = '';
  let join = '';

  if (typeof first === 'string') {
    if (args.length === 1) return first;
    let lastPos = 0;
    for (let i = 0; i < first.length - 1; i++) {
      if (first.charCodeAt(i) !== 37) continue; // '%'
      const spec = first.charCodeAt(++i);
      if (used + 1 !== args.length) {
        let piece;
        switch (spec) {
          case 115: { // 's'
            const arg = args[++used];
            if (typeof arg === 'number') {
              piece = formatNumber(stylizeNoColor, arg, false);
            } else if (typeof arg === 'bigint') {
              piece = formatBigInt(stylizeNoColor, arg, false);
            } else if (typeof arg !== 'object' || arg === null || !hasBuiltInToString(arg)) {
              piece = StringCtor(arg);
            } else {
              piece = inspect(arg, { ...inspectOptions, depth: 0, colors: false, compact: 3 });
            }
            break;
          }
          case 106: // 'j'
            piece = tryStringify(args[++used]);
            break;
          case 100: // 'd'
            piece = formatIntegerArg(args[++used], Number);
            break;
          case 79: // 'O'
            piece = inspect(args[++used], inspectOptions);
            break;
          case 111: // 'o'
            piece = inspect(args[++used], {
              ...inspectOptions, showHidden: true, showProxy: true, depth: 4,
            });
            break;
          case 105: // 'i'
            piece = formatIntegerArg(args[++used], NumberParseInt);
            break;
          case 102: { // 'f'
            const arg = args[++used];
            piece = typeof arg === 'symbol' ?
              'NaN' : formatNumber(stylizeNoColor, NumberParseFloat(arg), false);
            break;
          }
          case 99: // 'c': CSS is consumed and ignored
            used += 1;
            piece = '';
            break;
          case 37: // '%%'
            str += first.slice(lastPos, i);
            lastPos = i + 1;
            continue;
          default: // unknown: leave the text as it is
            continue;
        }
        if (lastPos !== i - 1) str += first.slice(lastPos, i - 1);
        str += piece;
        lastPos = i + 1;
      } else if (spec === 37) {
        str += first.slice(lastPos, i);
        lastPos = i + 1;
      }
    }
    if (lastPos !== 0) {
      used++;
      join = ' ';
      if (lastPos < first.length) str += first.slice(lastPos);
    }
  }

  while (used < args.length) {
    const value = args[used];
    str += join;
    str += typeof value !== 'string' ? inspect(value, inspectOptions) : value;
    join = ' ';
    used++;
  }
  return str;
}

function format(...args) {
  return formatArgs(undefined, args);
}

internals.inspect = inspect;
// internals.typedArrayName(value) -> 'Uint8Array', ... from the internal slot
// (%TypedArray%.prototype[@@toStringTag]); undefined for anything else.
internals.typedArrayName = typedArrayName;
internals.format = format;
internals.formatWithOptions = formatWithOptions;
// internals.formatArgs(inspectOptions, argsArray) -> string: format() over an
// array (no spread through the user-replaceable array iterator).
internals.formatArgs = formatArgs;
internals.getStringWidth = getStringWidth;
