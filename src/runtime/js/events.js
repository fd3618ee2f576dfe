'use strict';
// events.js: hostloop's web event globals, written in JavaScript.
//
//   DOMException                      https://webidl.spec.whatwg.org/#idl-DOMException
//   Event, CustomEvent, EventTarget   https://dom.spec.whatwg.org/#events
//   AbortController, AbortSignal      https://dom.spec.whatwg.org/#aborting-ongoing-activities
//   ErrorEvent, PromiseRejectionEvent https://html.spec.whatwg.org/multipage/webappapis.html
//   MessageEvent                      https://html.spec.whatwg.org/multipage/comms.html#messageevent
//   event handler IDL attributes      https://html.spec.whatwg.org/multipage/webappapis.html#event-handlers
//
// This file is the BODY of `function (host, internals, global) { ... }`, evaluated
// once per realm at startup. `host.now()` is the only host service used (and
// `host.entryStartNow()` for delivered messages, see newMessageEvent). Private
// state lives in private fields (added by newPrivateSlot() to objects that no
// class of ours constructed), so nothing is visible as own properties.
//
// Exported on `internals` (signatures at the end of the file):
//   markTrusted, dispatchEvent, dispatchMessage, fireEvent, defineEventHandler, initEventTarget,
//   isEventTarget, isEvent, isDOMException, isAbortSignal, hasEventListeners,
//   watchEventListeners, createAbortSignal, createDependentAbortSignal, signalAbort,
//   addAbortAlgorithm, removeAbortAlgorithm.
// Optional hooks read from `internals` at call time (others may set them):
//   reportException(error)                  reports listener exceptions; without
//                                           it they are rethrown in a microtask
//   onEventHandlerSet(target, name, value)  after every on<name> assignment
//   isMessagePort(value) -> boolean         MessageEvent source/ports checks
//   setUnrefTimeout(callback, ms)           AbortSignal.timeout's timer, instead
//                                           of the global setTimeout
//
// Where the host has no node tree, "get the parent" of every EventTarget returns
// null, so an event path is always the single target (see dispatch() below).

// ---------------------------------------------------------------------------
// Primordials: captured before any user code runs, so later patching of the
// built-in prototypes cannot change what these algorithms do.
// ---------------------------------------------------------------------------

const uncurryThis = Function.prototype.bind.bind(Function.prototype.call);

const ReflectApply = Reflect.apply;
// callFunction(fn, thisArg, ...args): fn.call(thisArg, ...args) that script
// cannot intercept, without the argument array of ReflectApply.
const callFunction = Function.prototype.call.bind(Function.prototype.call);
const ReflectOwnKeys = Reflect.ownKeys;
const ObjectDefineProperty = Object.defineProperty;
const ObjectGetOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
const ObjectSetPrototypeOf = Object.setPrototypeOf;
const ObjectCreate = Object.create;
const ObjectGetPrototypeOf = Object.getPrototypeOf;
const ArrayPrototypeIncludes = uncurryThis(Array.prototype.includes);
const NumberIsInteger = Number.isInteger;
const ObjectFreeze = Object.freeze;
const MathTrunc = Math.trunc;
const SymbolIterator = Symbol.iterator;
const SymbolToStringTag = Symbol.toStringTag;
const TypeErrorCtor = TypeError;
const ErrorPrototype = Error.prototype;
const ErrorCaptureStackTrace = typeof Error.captureStackTrace === 'function' ? Error.captureStackTrace : undefined;
const StringPrototypeCharCodeAt = uncurryThis(String.prototype.charCodeAt);
const StringPrototypeToWellFormed =
  typeof String.prototype.toWellFormed === 'function' ? uncurryThis(String.prototype.toWellFormed) : undefined;
const StringFromCharCode = String.fromCharCode;

const WeakMapCtor = WeakMap;
const WeakMapPrototypeGet = uncurryThis(WeakMap.prototype.get);
const WeakMapPrototypeSet = uncurryThis(WeakMap.prototype.set);
const WeakMapPrototypeHas = uncurryThis(WeakMap.prototype.has);
const MapCtor = Map;
const MapPrototypeGet = uncurryThis(Map.prototype.get);
const MapPrototypeSet = uncurryThis(Map.prototype.set);
const MapPrototypeDelete = uncurryThis(Map.prototype.delete);
const SetCtor = Set;
const SetPrototypeAdd = uncurryThis(Set.prototype.add);
const SetPrototypeHas = uncurryThis(Set.prototype.has);
const SetPrototypeDelete = uncurryThis(Set.prototype.delete);
const SetPrototypeForEach = uncurryThis(Set.prototype.forEach);
const SetPrototypeGetSize = uncurryThis(ObjectGetOwnPropertyDescriptor(Set.prototype, 'size').get);

const WeakRefCtor = typeof WeakRef === 'function' ? WeakRef : undefined;
const WeakRefPrototypeDeref = WeakRefCtor !== undefined ? uncurryThis(WeakRef.prototype.deref) : undefined;
const FinalizationRegistryCtor = typeof FinalizationRegistry === 'function' ? FinalizationRegistry : undefined;
const FinalizationRegistryPrototypeRegister =
  FinalizationRegistryCtor !== undefined ? uncurryThis(FinalizationRegistry.prototype.register) : undefined;

const PromiseResolve = Promise.resolve.bind(Promise);
const PromisePrototypeThen = uncurryThis(Promise.prototype.then);

// ---------------------------------------------------------------------------
// WebIDL helpers
// ---------------------------------------------------------------------------

function isObject(value) {
  return (typeof value === 'object' && value !== null) || typeof value === 'function';
}

// Private state on any object, also one that no constructor of ours made (the
// global object, a MessagePort made in C++, a signal made with ObjectCreate):
// a base constructor that returns its argument lets the derived class add its
// private field to that object. V8 reads and adds a private field as fast as
// an ordinary property; keeping the state in a WeakMap instead made creating
// an EventTarget ~10x and an AbortController ~1000x slower than in node
// (ephemeron tables: rehashing, identity hashes, scavenges that copy both).
class ReturnArgument {
  constructor(object) {
    return object;
  }
}

// -> { set(object, value), peek(value) -> value | undefined }: set adds the
// slot to `object` (an object) or changes its value. For state off the hot
// paths: the slots it makes share one set of inline caches (see TargetSlot).
function newPrivateSlot() {
  class Slot extends ReturnArgument {
    #value;
    constructor(object, value) {
      super(object);
      this.#value = value;
    }

    static set(object, value) {
      if (#value in object) object.#value = value;
      else new Slot(object, value);  // eslint-disable-line no-new
    }

    static peek(value) {
      return isObject(value) && #value in value ? value.#value : undefined;
    }
  }
  return { set: Slot.set, peek: Slot.peek };
}

// Error messages follow Blink's wording throughout.
function executePrefix(operation, iface) {
  return `Failed to execute '${operation}' on '${iface}'`;
}

function constructPrefix(iface) {
  return `Failed to construct '${iface}'`;
}

function argumentCountError(prefix, required, present) {
  return new TypeErrorCtor(
    `${prefix}: ${required} argument${required === 1 ? '' : 's'} required, but only ${present} present.`,
  );
}

function illegalInvocation() {
  return new TypeErrorCtor('Illegal invocation');
}

// https://webidl.spec.whatwg.org/#js-DOMString: ToString, which throws on Symbols
// (a template literal performs exactly ToString).
function toDOMString(value) {
  return `${value}`;
}

// https://webidl.spec.whatwg.org/#js-USVString: lone surrogates become U+FFFD.
function toUSVString(value) {
  const string = toDOMString(value);
  if (StringPrototypeToWellFormed !== undefined) return StringPrototypeToWellFormed(string);
  let result = '';
  for (let i = 0; i < string.length; i++) {
    const c = StringPrototypeCharCodeAt(string, i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = i + 1 < string.length ? StringPrototypeCharCodeAt(string, i + 1) : 0;
      if (d >= 0xdc00 && d <= 0xdfff) {
        result += StringFromCharCode(c, d);
        i++;
        continue;
      }
      result += '\uFFFD';
    } else if (c >= 0xdc00 && c <= 0xdfff) {
      result += '\uFFFD';
    } else {
      result += StringFromCharCode(c);
    }
  }
  return result;
}

// https://webidl.spec.whatwg.org/#js-boolean
function toBoolean(value) {
  return !!value;
}

// https://webidl.spec.whatwg.org/#js-unsigned-long (ConvertToInt, 32 bits, no
// extended attributes): ToNumber (which throws on Symbol and BigInt), then
// NaN/infinities to 0, truncation and modulo 2^32, which is what ToUint32 does.
function toUnsignedLong(value) {
  return +value >>> 0;
}

// https://webidl.spec.whatwg.org/#abstract-opdef-converttoint with
// bitLength 64, unsigned, [EnforceRange].
function toEnforceRangeUnsignedLongLong(value, prefix) {
  // Step 1-2 (ToNumber; unary plus throws on Symbol and BigInt like ToNumber).
  let x = +value;
  // Step 5 ([EnforceRange]): non-finite values throw.
  if (x !== x || x === Infinity || x === -Infinity) {
    throw new TypeErrorCtor(`${prefix}: Value is not a finite number.`);
  }
  // Step 5.2: IntegerPart.
  x = MathTrunc(x);
  // Step 5.3: range check against [0, 2^53 - 1].
  if (x < 0 || x > 9007199254740991) {
    throw new TypeErrorCtor(`${prefix}: Value is outside the 'unsigned long long' value range.`);
  }
  // Step 4: -0 becomes +0.
  return x === 0 ? 0 : x;
}

// https://webidl.spec.whatwg.org/#js-dictionary step 1: a dictionary value must
// be undefined, null or an object.
function checkDictionary(value, prefix, dictionaryName) {
  if (value !== undefined && value !== null && !isObject(value)) {
    throw new TypeErrorCtor(`${prefix}: The provided value is not of type '${dictionaryName}'.`);
  }
}

// A dictionary member (https://webidl.spec.whatwg.org/#js-dictionary step
// 4.1.3: Get on the dictionary object, undefined when the dictionary is
// missing) is read as `dictionary?.name` at each site, not through a shared
// helper: a helper's one keyed load sees every member name and goes
// megamorphic (a generic lookup per member), while each site's named load
// sees one name and one dictionary shape. (1M constructions after 1M of
// another kind, optimized: new CustomEvent('x', {detail}) 126 -> 53 ns,
// new Event('x') 113 -> 82 ns.)

// https://webidl.spec.whatwg.org/#create-sequence-from-iterable, with the
// element conversion given as `convert(value)`.
function toSequence(value, prefix, convert) {
  const notSequence = () => new TypeErrorCtor(`${prefix}: The provided value cannot be converted to a sequence.`);
  if (!isObject(value)) throw notSequence();
  const method = value[SymbolIterator];
  if (typeof method !== 'function') throw notSequence();
  return sequenceFromIterable(value, method, prefix, convert);
}

// The same, once the caller has read the @@iterator `method` (WebIDL
// overload resolution reads it before it knows a sequence is wanted).
function sequenceFromIterable(value, method, prefix, convert) {
  const iterator = ReflectApply(method, value, []);
  if (!isObject(iterator)) throw new TypeErrorCtor(`${prefix}: The iterator is not an object.`);
  const next = iterator.next;
  const result = [];
  for (;;) {
    const step = ReflectApply(next, iterator, []);
    if (!isObject(step)) throw new TypeErrorCtor(`${prefix}: The iterator result is not an object.`);
    if (step.done) return result;
    result[result.length] = convert(step.value);
  }
}

// Gives a class the shape of a WebIDL interface
// (https://webidl.spec.whatwg.org/#es-interfaces):
// - attributes and operations on the prototype are enumerable
//   (https://webidl.spec.whatwg.org/#es-attributes, #es-operations), and so are
//   static operations on the interface object;
// - constants are {enumerable, non-writable, non-configurable} on both the
//   interface object and the prototype (https://webidl.spec.whatwg.org/#es-constants);
// - the prototype's @@toStringTag is the interface name
//   (https://webidl.spec.whatwg.org/#interface-prototype-object);
// - the interface object is a non-enumerable, writable, configurable property of
//   the global (https://webidl.spec.whatwg.org/#es-interfaces).
function exposeInterface(ctor, name, constants) {
  const prototype = ctor.prototype;
  const protoKeys = ReflectOwnKeys(prototype);
  for (let i = 0; i < protoKeys.length; i++) {
    const key = protoKeys[i];
    if (key === 'constructor') continue;
    ObjectDefineProperty(prototype, key, { enumerable: true });
  }
  const staticKeys = ReflectOwnKeys(ctor);
  for (let i = 0; i < staticKeys.length; i++) {
    const key = staticKeys[i];
    if (key === 'length' || key === 'name' || key === 'prototype') continue;
    ObjectDefineProperty(ctor, key, { enumerable: true });
  }
  if (constants !== undefined) {
    for (let i = 0; i < constants.length; i++) {
      const descriptor = { value: constants[i][1], writable: false, enumerable: true, configurable: false };
      ObjectDefineProperty(ctor, constants[i][0], descriptor);
      ObjectDefineProperty(prototype, constants[i][0], descriptor);
    }
  }
  ObjectDefineProperty(prototype, SymbolToStringTag, {
    value: name,
    writable: false,
    enumerable: false,
    configurable: true,
  });
  ObjectDefineProperty(global, name, { value: ctor, writable: true, enumerable: false, configurable: true });
}

// How console.log shows an instance of a web interface, as node does for
// its own: `Name { field: value, ... }`, the fields read through the
// interface's getters as they were at startup (`omitIfUndefined` fields only
// when set). Anything that is not such an instance (the prototype itself, a
// forgery) is formatted as a plain object.
const customInspectSymbol = Symbol.for('nodejs.util.inspect.custom');
function defineInspect(ctor, fieldNames, omitIfUndefined = []) {
  const getters = [];
  for (let i = 0; i < fieldNames.length; i++) {
    let holder = ctor.prototype;
    let descriptor;
    while (holder !== null && (descriptor = ObjectGetOwnPropertyDescriptor(holder, fieldNames[i])) === undefined) {
      holder = ObjectGetPrototypeOf(holder);
    }
    getters[i] = descriptor.get;
  }
  const inspectInstance = function (depth, options, inspect) {
    const record = {};
    try {
      for (let i = 0; i < getters.length; i++) {
        const value = ReflectApply(getters[i], this, []);
        if (value === undefined && ArrayPrototypeIncludes(omitIfUndefined, fieldNames[i])) continue;
        ObjectDefineProperty(record, fieldNames[i], { value, writable: true, enumerable: true, configurable: true });
      }
    } catch {
      return this;
    }
    let name = ctor.name;
    try {
      const own = this.constructor;
      if (typeof own === 'function' && typeof own.name === 'string' && own.name !== '') name = own.name;
    } catch {
      // the interface's name
    }
    if (depth < 0) return name;
    const nested = { ...options, depth: NumberIsInteger(options.depth) ? options.depth - 1 : options.depth };
    return `${name} ${inspect(record, nested)}`;
  };
  ObjectDefineProperty(ctor.prototype, customInspectSymbol, {
    value: inspectInstance, writable: true, enumerable: false, configurable: true,
  });
}
internals.defineInspect = defineInspect;
// internals.sequenceFromIterable(iterable, method, prefix, convert) -> array.
internals.sequenceFromIterable = sequenceFromIterable;

function setFunctionName(fn, name) {
  ObjectDefineProperty(fn, 'name', { value: name, writable: false, enumerable: false, configurable: true });
  return fn;
}

// ---------------------------------------------------------------------------
// Reporting exceptions thrown by listeners
// ---------------------------------------------------------------------------

// "report an exception" (https://html.spec.whatwg.org/multipage/webappapis.html#report-an-exception)
// belongs to the host: it installs `internals.reportException(error)`, which
// fires the global `error` event and so on. Until it does, the error is
// rethrown asynchronously so it is not lost.
function reportException(error) {
  const report = internals.reportException;
  if (typeof report === 'function') {
    try {
      ReflectApply(report, internals, [error]);
      return;
    } catch {
      // The reporter itself failed: fall back to rethrowing the original error.
    }
  }
  const rethrow = () => {
    throw error;
  };
  const queue = global.queueMicrotask;
  if (typeof queue === 'function') {
    ReflectApply(queue, global, [rethrow]);
  } else {
    PromisePrototypeThen(PromiseResolve(), rethrow);
  }
}

// ---------------------------------------------------------------------------
// DOMException: https://webidl.spec.whatwg.org/#idl-DOMException
// ---------------------------------------------------------------------------

// https://webidl.spec.whatwg.org/#dfn-error-names-table: the names with a
// legacy code, and the constant naming each code (codes 2, 6 and 16 have a
// constant but no name in use any more).
const legacyErrorCodes = [
  ['IndexSizeError', 'INDEX_SIZE_ERR', 1],
  [undefined, 'DOMSTRING_SIZE_ERR', 2],
  ['HierarchyRequestError', 'HIERARCHY_REQUEST_ERR', 3],
  ['WrongDocumentError', 'WRONG_DOCUMENT_ERR', 4],
  ['InvalidCharacterError', 'INVALID_CHARACTER_ERR', 5],
  [undefined, 'NO_DATA_ALLOWED_ERR', 6],
  ['NoModificationAllowedError', 'NO_MODIFICATION_ALLOWED_ERR', 7],
  ['NotFoundError', 'NOT_FOUND_ERR', 8],
  ['NotSupportedError', 'NOT_SUPPORTED_ERR', 9],
  ['InUseAttributeError', 'INUSE_ATTRIBUTE_ERR', 10],
  ['InvalidStateError', 'INVALID_STATE_ERR', 11],
  ['SyntaxError', 'SYNTAX_ERR', 12],
  ['InvalidModificationError', 'INVALID_MODIFICATION_ERR', 13],
  ['NamespaceError', 'NAMESPACE_ERR', 14],
  ['InvalidAccessError', 'INVALID_ACCESS_ERR', 15],
  [undefined, 'VALIDATION_ERR', 16],
  ['TypeMismatchError', 'TYPE_MISMATCH_ERR', 17],
  ['SecurityError', 'SECURITY_ERR', 18],
  ['NetworkError', 'NETWORK_ERR', 19],
  ['AbortError', 'ABORT_ERR', 20],
  ['URLMismatchError', 'URL_MISMATCH_ERR', 21],
  // Newer WebIDL moved QuotaExceededError to its own interface, which keeps
  // code 22; as a DOMException name it keeps its code here, as in browsers.
  ['QuotaExceededError', 'QUOTA_EXCEEDED_ERR', 22],
  ['TimeoutError', 'TIMEOUT_ERR', 23],
  ['InvalidNodeTypeError', 'INVALID_NODE_TYPE_ERR', 24],
  ['DataCloneError', 'DATA_CLONE_ERR', 25],
];

const legacyCodeByName = new MapCtor();
const domExceptionConstants = [];
for (let i = 0; i < legacyErrorCodes.length; i++) {
  const [name, constant, code] = legacyErrorCodes[i];
  if (name !== undefined) MapPrototypeSet(legacyCodeByName, name, code);
  domExceptionConstants[domExceptionConstants.length] = [constant, code];
}

const domExceptionStates = new WeakMapCtor();

// The state of a DOMException, or undefined. One made by deserializing
// (serializer.cc, where no JS may run) gets its state here, on first use,
// from the name and message its API object holds.
function peekDOMExceptionState(value) {
  let state = WeakMapPrototypeGet(domExceptionStates, value);
  if (state === undefined && typeof value === 'object' && value !== null) {
    const parts = host.serializableDOMExceptionParts(value);
    if (parts !== undefined) {
      state = { name: parts[0], message: parts[1] };
      WeakMapPrototypeSet(domExceptionStates, value, state);
    }
  }
  return state;
}

function domExceptionState(value) {
  const state = peekDOMExceptionState(value);
  if (state === undefined) throw illegalInvocation();
  return state;
}

class DOMException {
  // https://webidl.spec.whatwg.org/#dom-domexception-domexception
  constructor(message = undefined, name = undefined) {
    message = message === undefined ? '' : toDOMString(message);
    name = name === undefined ? 'Error' : toDOMString(name);
    // DOMException is [Serializable]: the object is an API object holding
    // its name and message, which V8's serializer hands to the host
    // (src/runtime/serializer.cc), so structuredClone and postMessage copy
    // it as a DOMException (a plain JS object came out as {}).
    const object = host.newSerializableDOMException(name, message);
    ObjectSetPrototypeOf(object, new.target.prototype);
    // Steps 1-2: set this's name and message.
    WeakMapPrototypeSet(domExceptionStates, object, { name, message });
    // Not in WebIDL, but what every engine does: a `stack` like Error's.
    if (ErrorCaptureStackTrace !== undefined) ErrorCaptureStackTrace(object, new.target);
    return object;
  }

  // https://webidl.spec.whatwg.org/#dom-domexception-name
  get name() {
    return domExceptionState(this).name;
  }

  // https://webidl.spec.whatwg.org/#dom-domexception-message
  get message() {
    return domExceptionState(this).message;
  }

  // https://webidl.spec.whatwg.org/#dom-domexception-code: the legacy code of
  // this's name in the error names table, or 0.
  get code() {
    const code = MapPrototypeGet(legacyCodeByName, domExceptionState(this).name);
    return code === undefined ? 0 : code;
  }
}

// https://webidl.spec.whatwg.org/#es-DOMException-specialness: the
// [[Prototype]] of DOMException.prototype is %Error.prototype%.
ObjectSetPrototypeOf(DOMException.prototype, ErrorPrototype);
exposeInterface(DOMException, 'DOMException', domExceptionConstants);

function newDOMException(message, name) {
  return new DOMException(message, name);
}

// ---------------------------------------------------------------------------
// Event: https://dom.spec.whatwg.org/#interface-event
// ---------------------------------------------------------------------------

const NONE = 0;
const CAPTURING_PHASE = 1;
const AT_TARGET = 2;
const BUBBLING_PHASE = 3;

// Event state (https://dom.spec.whatwg.org/#concept-event): the flags and
// associated values of the spec, in a private field of every event (a
// WeakMap made creating an event ~20x slower in V8 10.2: ephemeron tables).
// Event's static block fills in these accessors.
let peekEventState;  // (value) -> state | undefined
let setEventState;   // (event, state)

function eventState(value) {
  const state = peekEventState(value);
  if (state === undefined) throw illegalInvocation();
  return state;
}

// https://dom.spec.whatwg.org/#concept-event-constructor, steps 2-5 (step 1,
// creating the object, is the class construction itself).
function initializeEventState(event, type, eventInitDict) {
  // EventInit members, in WebIDL dictionary order (lexicographic).
  const bubbles = toBoolean(eventInitDict?.bubbles);
  const cancelable = toBoolean(eventInitDict?.cancelable);
  const composed = toBoolean(eventInitDict?.composed);
  // Step 5: the current high resolution time.
  setEventState(event, newEventState(type, bubbles, cancelable, composed, host.now()));
}

// The state of a new, initialized event (every event's state has this shape).
function newEventState(type, bubbles, cancelable, composed, timeStamp) {
  return {
    type,
    bubbles,
    cancelable,
    composed,
    target: null,
    relatedTarget: null,
    currentTarget: null,
    eventPhase: NONE,
    path: null,
    stopPropagation: false,
    stopImmediatePropagation: false,
    // During a dispatch: 0 for one started by script (dispatchEvent()), else
    // what "clean up after running a callback" does (cleanUpAfterCallback),
    // and whether the last listener's is still to run.
    cleanup: 0,
    cleanupPending: false,
    canceled: false,
    inPassiveListener: false,
    // Step 2: set the initialized flag.
    initialized: true,
    dispatch: false,
    isTrusted: false,
    timeStamp,
  };
}

// Set around `new MessageEvent` by newMessageEvent: the constructors then
// skip the WebIDL conversions (there is no init dictionary), take these
// values and make the event trusted.
let creatingInternally = false;
let internalTimeStamp = 0;
let internalData;
let internalPorts;
// The state of the event made while creatingInternally (trusted already),
// for newMessageEvent's caller: no lookups of what it just made.
let internalState = null;

// https://dom.spec.whatwg.org/#set-the-canceled-flag
function setTheCanceledFlag(state) {
  if (state.cancelable && !state.inPassiveListener) state.canceled = true;
}

// https://dom.spec.whatwg.org/#concept-event-initialize
function initializeEvent(state, type, bubbles, cancelable) {
  // Step 1.
  state.initialized = true;
  // Step 2.
  state.stopPropagation = false;
  state.stopImmediatePropagation = false;
  state.canceled = false;
  // Step 3.
  state.isTrusted = false;
  // Step 4.
  state.target = null;
  // Steps 5-7.
  state.type = type;
  state.bubbles = bubbles;
  state.cancelable = cancelable;
}

// (Made once: a template literal per construction cost a string each time.)
const kEventConstructPrefix = constructPrefix('Event');
const kCustomEventConstructPrefix = constructPrefix('CustomEvent');

class Event {
  #state;

  constructor(type, eventInitDict = undefined) {
    if (creatingInternally) {
      const state = newEventState(type, false, false, false, internalTimeStamp);
      state.isTrusted = true;
      internalState = state;
      setEventState(this, state);
      return;
    }
    if (arguments.length < 1) throw argumentCountError(kEventConstructPrefix, 1, arguments.length);
    if (typeof type !== 'string') type = toDOMString(type);
    if (eventInitDict === undefined) {
      // initializeEventState with every EventInit member at its default,
      // written out: the common `new Event(type)` then makes no other call
      // before V8 optimizes it.
      setEventState(this, newEventState(type, false, false, false, host.now()));
      return;
    }
    checkDictionary(eventInitDict, kEventConstructPrefix, 'EventInit');
    initializeEventState(this, type, eventInitDict);
  }

  static {
    peekEventState = (value) =>
      ((typeof value === 'object' && value !== null) && #state in value ? value.#state : undefined);
    setEventState = (event, state) => {
      event.#state = state;
    };
  }

  // isTrusted is [LegacyUnforgeable] in WebIDL, an own accessor of every
  // event; like node, hostloop puts it on Event.prototype instead: defining
  // an accessor on each instance cost ~400 ns per event in V8 10.2, and only
  // code that replaces the prototype's getter can tell the difference.
  get isTrusted() {
    return eventState(this).isTrusted;
  }

  // https://dom.spec.whatwg.org/#dom-event-type
  get type() {
    return eventState(this).type;
  }

  // https://dom.spec.whatwg.org/#dom-event-target
  get target() {
    return eventState(this).target;
  }

  // https://dom.spec.whatwg.org/#dom-event-srcelement (legacy alias of target)
  get srcElement() {
    return eventState(this).target;
  }

  // https://dom.spec.whatwg.org/#dom-event-currenttarget
  get currentTarget() {
    return eventState(this).currentTarget;
  }

  // https://dom.spec.whatwg.org/#dom-event-composedpath
  // With no shadow trees, no path entry is ever hidden (steps 7-12 only skip
  // entries inside closed shadow roots), so the result is every struct's
  // invocation target in path order: for a single-target path, the target
  // while it is being dispatched and [] otherwise.
  composedPath() {
    const state = eventState(this);
    // Steps 1-3: an empty path gives an empty list.
    const path = state.path;
    const composedPath = [];
    if (path === null) return composedPath;
    for (let i = 0; i < path.length; i++) composedPath[i] = path[i].invocationTarget;
    return composedPath;
  }

  // https://dom.spec.whatwg.org/#dom-event-eventphase
  get eventPhase() {
    return eventState(this).eventPhase;
  }

  // https://dom.spec.whatwg.org/#dom-event-stoppropagation
  stopPropagation() {
    eventState(this).stopPropagation = true;
  }

  // https://dom.spec.whatwg.org/#dom-event-cancelbubble
  get cancelBubble() {
    return eventState(this).stopPropagation;
  }

  set cancelBubble(value) {
    const state = eventState(this);
    if (toBoolean(value)) state.stopPropagation = true;
  }

  // https://dom.spec.whatwg.org/#dom-event-stopimmediatepropagation
  stopImmediatePropagation() {
    const state = eventState(this);
    state.stopPropagation = true;
    state.stopImmediatePropagation = true;
  }

  // https://dom.spec.whatwg.org/#dom-event-bubbles
  get bubbles() {
    return eventState(this).bubbles;
  }

  // https://dom.spec.whatwg.org/#dom-event-cancelable
  get cancelable() {
    return eventState(this).cancelable;
  }

  // https://dom.spec.whatwg.org/#dom-event-returnvalue
  get returnValue() {
    return !eventState(this).canceled;
  }

  set returnValue(value) {
    const state = eventState(this);
    if (!toBoolean(value)) setTheCanceledFlag(state);
  }

  // https://dom.spec.whatwg.org/#dom-event-preventdefault
  preventDefault() {
    setTheCanceledFlag(eventState(this));
  }

  // https://dom.spec.whatwg.org/#dom-event-defaultprevented
  get defaultPrevented() {
    return eventState(this).canceled;
  }

  // https://dom.spec.whatwg.org/#dom-event-composed
  get composed() {
    return eventState(this).composed;
  }

  // https://dom.spec.whatwg.org/#dom-event-timestamp
  get timeStamp() {
    return eventState(this).timeStamp;
  }

  // https://dom.spec.whatwg.org/#dom-event-initevent
  initEvent(type, bubbles = false, cancelable = false) {
    const state = eventState(this);
    if (arguments.length < 1) throw argumentCountError(executePrefix('initEvent', 'Event'), 1, arguments.length);
    type = toDOMString(type);
    bubbles = toBoolean(bubbles);
    cancelable = toBoolean(cancelable);
    // Step 1.
    if (state.dispatch) return;
    // Step 2.
    initializeEvent(state, type, bubbles, cancelable);
  }
}

const eventConstants = [
  ['NONE', NONE],
  ['CAPTURING_PHASE', CAPTURING_PHASE],
  ['AT_TARGET', AT_TARGET],
  ['BUBBLING_PHASE', BUBBLING_PHASE],
];
exposeInterface(Event, 'Event', eventConstants);
defineInspect(Event, ['type', 'defaultPrevented', 'cancelable', 'timeStamp']);

// ---------------------------------------------------------------------------
// CustomEvent: https://dom.spec.whatwg.org/#interface-customevent
// ---------------------------------------------------------------------------

let isCustomEvent;  // (value) -> whether value is a CustomEvent

function checkCustomEvent(value) {
  if (!isCustomEvent(value)) throw illegalInvocation();
}

class CustomEvent extends Event {
  // The detail is a field of its own, not an object: a CustomEvent costs
  // one allocation less.
  #detail;

  constructor(type, eventInitDict = undefined) {
    const prefix = kCustomEventConstructPrefix;
    if (arguments.length < 1) throw argumentCountError(prefix, 1, arguments.length);
    // WebIDL converts the arguments in order: type, then the dictionary.
    type = toDOMString(type);
    checkDictionary(eventInitDict, prefix, 'CustomEventInit');
    super(type, eventInitDict);
    // CustomEventInit: any detail = null.
    const detail = eventInitDict?.detail;
    this.#detail = detail === undefined ? null : detail;
  }

  static {
    isCustomEvent = (value) => isObject(value) && #detail in value;
  }

  // https://dom.spec.whatwg.org/#dom-customevent-detail
  get detail() {
    checkCustomEvent(this);
    return this.#detail;
  }

  // https://dom.spec.whatwg.org/#dom-customevent-initcustomevent
  initCustomEvent(type, bubbles = false, cancelable = false, detail = null) {
    checkCustomEvent(this);
    if (arguments.length < 1) {
      throw argumentCountError(executePrefix('initCustomEvent', 'CustomEvent'), 1, arguments.length);
    }
    type = toDOMString(type);
    bubbles = toBoolean(bubbles);
    cancelable = toBoolean(cancelable);
    const event = eventState(this);
    // Step 1.
    if (event.dispatch) return;
    // Step 2.
    initializeEvent(event, type, bubbles, cancelable);
    // Step 3.
    this.#detail = detail;
  }
}

exposeInterface(CustomEvent, 'CustomEvent');
defineInspect(CustomEvent, ['type', 'defaultPrevented', 'cancelable', 'timeStamp', 'detail']);

// ---------------------------------------------------------------------------
// ErrorEvent: https://html.spec.whatwg.org/multipage/webappapis.html#errorevent
// ---------------------------------------------------------------------------

let peekErrorEventState;  // (value) -> state | undefined

function errorEventState(value) {
  const state = peekErrorEventState(value);
  if (state === undefined) throw illegalInvocation();
  return state;
}

class ErrorEvent extends Event {
  #state;

  constructor(type, eventInitDict = undefined) {
    const prefix = constructPrefix('ErrorEvent');
    if (arguments.length < 1) throw argumentCountError(prefix, 1, arguments.length);
    // WebIDL converts the arguments in order: type, then the dictionary.
    type = toDOMString(type);
    checkDictionary(eventInitDict, prefix, 'ErrorEventInit');
    super(type, eventInitDict);
    // ErrorEventInit members in lexicographic order: colno, error, filename,
    // lineno, message, each converted as soon as it is read (WebIDL).
    // `any error;` has no default: it stays undefined.
    let value = eventInitDict?.colno;
    const colno = value === undefined ? 0 : toUnsignedLong(value);
    const error = eventInitDict?.error;
    value = eventInitDict?.filename;
    const filename = value === undefined ? '' : toUSVString(value);
    value = eventInitDict?.lineno;
    const lineno = value === undefined ? 0 : toUnsignedLong(value);
    value = eventInitDict?.message;
    const message = value === undefined ? '' : toDOMString(value);
    this.#state = { colno, error, filename, lineno, message };
  }

  static {
    peekErrorEventState = (value) => (isObject(value) && #state in value ? value.#state : undefined);
  }

  // https://html.spec.whatwg.org/multipage/webappapis.html#dom-errorevent-message
  get message() {
    return errorEventState(this).message;
  }

  // https://html.spec.whatwg.org/multipage/webappapis.html#dom-errorevent-filename
  get filename() {
    return errorEventState(this).filename;
  }

  // https://html.spec.whatwg.org/multipage/webappapis.html#dom-errorevent-lineno
  get lineno() {
    return errorEventState(this).lineno;
  }

  // https://html.spec.whatwg.org/multipage/webappapis.html#dom-errorevent-colno
  get colno() {
    return errorEventState(this).colno;
  }

  // https://html.spec.whatwg.org/multipage/webappapis.html#dom-errorevent-error
  get error() {
    return errorEventState(this).error;
  }
}

exposeInterface(ErrorEvent, 'ErrorEvent');
defineInspect(ErrorEvent, ['type', 'defaultPrevented', 'cancelable', 'timeStamp', 'message', 'filename', 'lineno', 'colno', 'error']);

// ---------------------------------------------------------------------------
// PromiseRejectionEvent:
// https://html.spec.whatwg.org/multipage/webappapis.html#promiserejectionevent
// ---------------------------------------------------------------------------

let peekPromiseRejectionEventState;  // (value) -> state | undefined

function promiseRejectionEventState(value) {
  const state = peekPromiseRejectionEventState(value);
  if (state === undefined) throw illegalInvocation();
  return state;
}

class PromiseRejectionEvent extends Event {
  #state;

  // constructor(DOMString type, PromiseRejectionEventInit eventInitDict): the
  // dictionary has a required member, so the argument is required too.
  constructor(type, eventInitDict) {
    const prefix = constructPrefix('PromiseRejectionEvent');
    if (arguments.length < 2) throw argumentCountError(prefix, 2, arguments.length);
    // WebIDL converts the arguments in order: type, then the dictionary.
    type = toDOMString(type);
    checkDictionary(eventInitDict, prefix, 'PromiseRejectionEventInit');
    super(type, eventInitDict);
    // PromiseRejectionEventInit: required object promise; any reason.
    const promise = eventInitDict?.promise;
    if (promise === undefined) {
      throw new TypeErrorCtor(
        `${prefix}: Failed to read the 'promise' property from 'PromiseRejectionEventInit': Required member is undefined.`,
      );
    }
    if (!isObject(promise)) {
      throw new TypeErrorCtor(
        `${prefix}: Failed to read the 'promise' property from 'PromiseRejectionEventInit': The provided value is not of type 'object'.`,
      );
    }
    const reason = eventInitDict?.reason;
    this.#state = { promise, reason };
  }

  static {
    peekPromiseRejectionEventState = (value) => (isObject(value) && #state in value ? value.#state : undefined);
  }

  // https://html.spec.whatwg.org/multipage/webappapis.html#dom-promiserejectionevent-promise
  get promise() {
    return promiseRejectionEventState(this).promise;
  }

  // https://html.spec.whatwg.org/multipage/webappapis.html#dom-promiserejectionevent-reason
  get reason() {
    return promiseRejectionEventState(this).reason;
  }
}

exposeInterface(PromiseRejectionEvent, 'PromiseRejectionEvent');
defineInspect(PromiseRejectionEvent, ['type', 'defaultPrevented', 'cancelable', 'timeStamp', 'promise', 'reason']);

// ---------------------------------------------------------------------------
// MessageEvent: https://html.spec.whatwg.org/multipage/comms.html#messageevent
// ---------------------------------------------------------------------------

// The `ports` of events without ports (one shared frozen empty array).
const kNoPorts = ObjectFreeze([]);

// A private field of every MessageEvent (see eventState for why).
let peekMessageEventState;

function messageEventState(value) {
  const state = peekMessageEventState(value);
  if (state === undefined) throw illegalInvocation();
  return state;
}

// MessageEventSource is (WindowProxy or MessagePort or ServiceWorker); the
// MessagePort interface lives elsewhere. When it registers
// `internals.isMessagePort(value)`, source and ports are checked against it;
// until then any object is accepted.
function isMessagePortLike(value) {
  const check = internals.isMessagePort;
  if (typeof check === 'function') return ReflectApply(check, internals, [value]) === true;
  return isObject(value);
}

function toMessageEventSource(value, prefix) {
  if (value === undefined || value === null) return null;
  if (!isMessagePortLike(value)) {
    throw new TypeErrorCtor(`${prefix}: The provided value is not of type '(MessagePort or ServiceWorker or WindowProxy)'.`);
  }
  return value;
}

// FrozenArray<MessagePort> (https://webidl.spec.whatwg.org/#js-frozen-array):
// a sequence, then a frozen array.
function toMessagePortFrozenArray(value, prefix) {
  const ports = toSequence(value, prefix, (port) => {
    if (!isMessagePortLike(port)) throw new TypeErrorCtor(`${prefix}: The provided value is not of type 'MessagePort'.`);
    return port;
  });
  return ObjectFreeze(ports);
}

class MessageEvent extends Event {
  #state;

  static {
    peekMessageEventState = (value) =>
      ((typeof value === 'object' && value !== null) && #state in value ? value.#state : undefined);
  }

  constructor(type, eventInitDict = undefined) {
    if (creatingInternally) {
      super(type);
      this.#state = { data: internalData, origin: '', lastEventId: '', source: null, ports: internalPorts };
      return;
    }
    const prefix = constructPrefix('MessageEvent');
    if (arguments.length < 1) throw argumentCountError(prefix, 1, arguments.length);
    // WebIDL converts the arguments in order: type, then the dictionary.
    type = toDOMString(type);
    checkDictionary(eventInitDict, prefix, 'MessageEventInit');
    super(type, eventInitDict);
    // MessageEventInit members in lexicographic order: data = null,
    // lastEventId = "", origin = "", ports = [], source = null.
    const data = eventInitDict?.data;
    const lastEventId = eventInitDict?.lastEventId;
    const lastEventIdString = lastEventId === undefined ? '' : toDOMString(lastEventId);
    const origin = eventInitDict?.origin;
    const originString = origin === undefined ? '' : toUSVString(origin);
    const ports = eventInitDict?.ports;
    const portsArray = ports === undefined ? kNoPorts : toMessagePortFrozenArray(ports, prefix);
    const source = toMessageEventSource(eventInitDict?.source, prefix);
    this.#state = {
      data: data === undefined ? null : data,
      origin: originString,
      lastEventId: lastEventIdString,
      source,
      ports: portsArray,
    };
  }

  // https://html.spec.whatwg.org/multipage/comms.html#dom-messageevent-data
  get data() {
    return messageEventState(this).data;
  }

  // https://html.spec.whatwg.org/multipage/comms.html#dom-messageevent-origin
  get origin() {
    return messageEventState(this).origin;
  }

  // https://html.spec.whatwg.org/multipage/comms.html#dom-messageevent-lasteventid
  get lastEventId() {
    return messageEventState(this).lastEventId;
  }

  // https://html.spec.whatwg.org/multipage/comms.html#dom-messageevent-source
  get source() {
    return messageEventState(this).source;
  }

  // https://html.spec.whatwg.org/multipage/comms.html#dom-messageevent-ports
  // The same frozen array every time, as long as the value is unchanged.
  get ports() {
    return messageEventState(this).ports;
  }

  // https://html.spec.whatwg.org/multipage/comms.html#dom-messageevent-initmessageevent
  initMessageEvent(
    type,
    bubbles = false,
    cancelable = false,
    data = null,
    origin = '',
    lastEventId = '',
    source = null,
    ports = undefined,
  ) {
    const state = messageEventState(this);
    const prefix = executePrefix('initMessageEvent', 'MessageEvent');
    if (arguments.length < 1) throw argumentCountError(prefix, 1, arguments.length);
    type = toDOMString(type);
    bubbles = toBoolean(bubbles);
    cancelable = toBoolean(cancelable);
    origin = toUSVString(origin);
    lastEventId = toDOMString(lastEventId);
    source = toMessageEventSource(source, prefix);
    const portsArray = ports === undefined ? kNoPorts : toMessagePortFrozenArray(ports, prefix);
    const event = eventState(this);
    // Step 1.
    if (event.dispatch) return;
    // Step 2.
    initializeEvent(event, type, bubbles, cancelable);
    // Step 3.
    state.data = data;
    state.origin = origin;
    state.lastEventId = lastEventId;
    state.source = source;
    state.ports = portsArray;
  }
}

exposeInterface(MessageEvent, 'MessageEvent');
defineInspect(MessageEvent, ['type', 'defaultPrevented', 'cancelable', 'timeStamp', 'data', 'origin', 'lastEventId', 'source', 'ports']);

// ---------------------------------------------------------------------------
// EventTarget: https://dom.spec.whatwg.org/#interface-eventtarget
// ---------------------------------------------------------------------------

// EventTarget state: its event listener list, split by type (the spec's list
// is one list, but every algorithm only looks at listeners of the event's
// type, so per-type lists keep all the observable orderings), and its event
// handler map (https://html.spec.whatwg.org/multipage/webappapis.html#event-handler-map).
//
// Each per-type list is copy-on-write: adding or removing a listener replaces
// the array, so the array a dispatch took IS the clone of "invoke" step 5.
//
// The slot is a class of its own, not a newPrivateSlot(): V8 keeps the
// inline caches of a function per source position, so every slot made by
// newPrivateSlot() shares the caches of its one `peek` and `set`, which see
// every kind of object of every slot and go megamorphic (a stub cache
// probe per access). A MessageChannel task took 6% less with this slot
// apart; the message path has a lookup of its own as well (peekMessageTarget).
class TargetSlot extends ReturnArgument {
  #state;
  constructor(object, state) {
    super(object);
    this.#state = state;
  }

  static set(object, state) {
    if (#state in object) object.#state = state;
    else new TargetSlot(object, state);  // eslint-disable-line no-new
  }

  static peek(value) {
    return isObject(value) && #state in value ? value.#state : undefined;
  }

  // peek() for internals.dispatchMessage only: its caches see the few kinds
  // of target a message goes to (ports, workers, a worker's global).
  static peekMessageTarget(value) {
    return isObject(value) && #state in value ? value.#state : undefined;
  }
}
const targetSlot = { set: TargetSlot.set, peek: TargetSlot.peek };

// The touch target list of every event path struct (never any here).
const kNoTouchTargets = ObjectFreeze([]);

// The listener map of every target that never had a listener (most
// AbortSignals): never changed; the first listener gets the target a map of
// its own.
const kNoListeners = new MapCtor();

function initEventTargetState(target) {
  // path: the event path of a dispatch to this target, made on the first.
  // cachedType/cachedList: the last type "invoke" looked up and its list (a
  // dispatch looks the same type up twice, capture then bubble, and a port
  // gets the same type over and over); reset whenever a list changes.
  // watch: null, or a function (target, type, present) told whenever a
  // type's listener list becomes non-empty or empty (internals.watchEventListeners).
  const state = {
    target, listeners: kNoListeners, handlers: null, path: null, cachedType: null, cachedList: undefined,
    watch: null, dispatching: 0, indexes: null,
  };
  targetSlot.set(target, state);
  return state;
}

// The brand check of every EventTarget operation and attribute: WebIDL uses
// the realm's global object when `this` is null or undefined
// (https://webidl.spec.whatwg.org/#dfn-create-operation-function step 2.1.2.2).
function targetState(thisValue) {
  const target = thisValue === undefined || thisValue === null ? global : thisValue;
  const state = targetSlot.peek(target);
  if (state === undefined) throw illegalInvocation();
  return state;
}

// https://webidl.spec.whatwg.org/#es-callback-interface conversion of the
// nullable `EventListener? callback` argument.
function toEventListener(value, prefix) {
  if (value === undefined || value === null) return null;
  if (!isObject(value)) throw new TypeErrorCtor(`${prefix}: parameter 2 is not of type 'Object'.`);
  return value;
}

// https://dom.spec.whatwg.org/#concept-flatten-options with the WebIDL union
// conversion of (EventListenerOptions or boolean): null, undefined and
// objects are dictionaries, everything else is converted to boolean.
function flattenOptions(options) {
  if (options === undefined || options === null) return false;
  if (isObject(options)) return toBoolean(options.capture);
  return toBoolean(options);
}

// https://dom.spec.whatwg.org/#event-flatten-more with the conversion of
// (AddEventListenerOptions or boolean); dictionary members are read in
// WebIDL order: capture, once, passive, signal.
function flattenMoreOptions(options, prefix) {
  // Step 1.
  const capture = flattenOptions(options);
  // Steps 2-3.
  let once = false;
  let passive = null;
  let signal = null;
  // Step 4.
  if (isObject(options)) {
    once = toBoolean(options.once);
    const passiveValue = options.passive;
    if (passiveValue !== undefined) passive = toBoolean(passiveValue);
    const signalValue = options.signal;
    if (signalValue !== undefined) {
      if (signalSlot.peek(signalValue) === undefined) {
        throw new TypeErrorCtor(
          `${prefix}: Failed to read the 'signal' property from 'AddEventListenerOptions': Failed to convert value to 'AbortSignal'.`,
        );
      }
      signal = signalValue;
    }
  }
  // Step 5.
  return { capture, passive, once, signal };
}

// A type's listener list is an array in state.listeners. Once it holds
// kIndexFrom listeners it also gets an index (state.indexes: type ->
// { byCallback: Map(callback -> [listener, capturing listener]), removed }),
// so finding a listener is a Map lookup, and removing one only marks it
// (`removed`, which dispatch skips anyway) until marked ones are half the
// array, which is then compacted. (A scan and a copy of the whole list per
// call made adding and removing n listeners O(n^2): 50,000 took minutes.)
const kIndexFrom = 64;

function listenerIndex(state, type) {
  return state.indexes === null ? undefined : MapPrototypeGet(state.indexes, type);
}

function indexListener(byCallback, listener) {
  let pair = MapPrototypeGet(byCallback, listener.callback);
  if (pair === undefined) {
    pair = [undefined, undefined];
    MapPrototypeSet(byCallback, listener.callback, pair);
  }
  pair[listener.capture ? 1 : 0] = listener;
}

function buildListenerIndex(state, type, list) {
  const byCallback = new MapCtor();
  for (let i = 0; i < list.length; i++) indexListener(byCallback, list[i]);
  const index = { byCallback, removed: 0 };
  if (state.indexes === null) state.indexes = new MapCtor();
  MapPrototypeSet(state.indexes, type, index);
  return index;
}

// The listener in `list` (the `type` list of `state`) with this callback and
// capture, or undefined.
function findListener(state, type, list, callback, capture) {
  if (list === undefined) return undefined;
  const index = listenerIndex(state, type);
  if (index !== undefined) {
    const pair = MapPrototypeGet(index.byCallback, callback);
    return pair === undefined ? undefined : pair[capture ? 1 : 0];
  }
  // (An unindexed list holds no removed listeners.)
  for (let i = 0; i < list.length; i++) {
    const listener = list[i];
    if (listener.callback === callback && listener.capture === capture) return listener;
  }
  return undefined;
}

// The listeners of `list` not marked removed, in a new array.
function liveListeners(list) {
  const live = [];
  for (let i = 0; i < list.length; i++) if (!list[i].removed) live[live.length] = list[i];
  return live;
}

// https://dom.spec.whatwg.org/#add-an-event-listener
function addAnEventListener(state, listener) {
  // Step 1 concerns ServiceWorkerGlobalScope only.
  // Step 2.
  if (listener.signal !== null && signalIsAborted(listener.signal)) return;
  // Step 3.
  if (listener.callback === null) return;
  // Step 4: the default passive value is false for every target here (only
  // Window and nodes default to true, for touch and wheel events).
  if (listener.passive === null) listener.passive = false;
  // Step 5: append unless a listener with the same type, callback and capture
  // is already in the list.
  const type = listener.type;
  let list = MapPrototypeGet(state.listeners, type);
  if (findListener(state, type, list, listener.callback, listener.capture) !== undefined) {
    // Step 6 would add abort steps removing `listener`, which is in no list:
    // they would do nothing, so they are not added.
    return;
  }
  if (list === undefined) {
    if (state.listeners === kNoListeners) state.listeners = new MapCtor();
    list = [listener];
    MapPrototypeSet(state.listeners, type, list);
  } else {
    let index = listenerIndex(state, type);
    if (state.dispatching > 0) {
      // A dispatch to this target may be walking `list` as its clone of the
      // listener list (invoke step 5): it gets a new one instead.
      list = liveListeners(list);
      if (index !== undefined) index.removed = 0;
      MapPrototypeSet(state.listeners, type, list);
    }
    list[list.length] = listener;
    if (index !== undefined) {
      indexListener(index.byCallback, listener);
    } else if (list.length >= kIndexFrom) {
      index = buildListenerIndex(state, type, list);
    }
  }
  state.cachedType = null;
  state.cachedList = undefined;  // (no removed listener stays reachable through it)
  if (list.length === 1 && state.watch !== null) state.watch(state.target, type, true);
  // Step 6.
  if (listener.signal !== null) {
    listener.abortAlgorithm = () => removeAnEventListener(state, listener);
    addAbortAlgorithm(listener.signal, listener.abortAlgorithm);
  }
  if (type === 'abort') abortListenersChanged(state.target);
}

// Takes `listener` out of `list`; returns how many listeners are left, or
// -1 if it was not there.
function takeOutListener(state, type, list, listener) {
  const index = listenerIndex(state, type);
  if (index !== undefined) {
    const pair = MapPrototypeGet(index.byCallback, listener.callback);
    const slot = listener.capture ? 1 : 0;
    if (pair === undefined || pair[slot] !== listener) return -1;
    pair[slot] = undefined;
    if (pair[0] === undefined && pair[1] === undefined) MapPrototypeDelete(index.byCallback, listener.callback);
    // Marked removed already: compacted once the marked are half the list.
    index.removed++;
    const left = list.length - index.removed;
    if (left > 0 && index.removed * 2 > list.length) {
      const live = liveListeners(list);
      if (state.dispatching > 0) {
        MapPrototypeSet(state.listeners, type, live);  // (see addAnEventListener)
      } else {
        for (let i = 0; i < live.length; i++) list[i] = live[i];
        list.length = live.length;
      }
      index.removed = 0;
    }
    return left;
  }
  let at = -1;
  for (let i = 0; i < list.length; i++) {
    if (list[i] === listener) {
      at = i;
      break;
    }
  }
  if (at === -1) return -1;
  const left = list.length - 1;
  if (left === 0) return 0;
  if (state.dispatching > 0) {
    const next = [];
    for (let i = 0; i < list.length; i++) if (i !== at) next[next.length] = list[i];
    MapPrototypeSet(state.listeners, type, next);
  } else {
    // (Not splice: it would look up Array[Symbol.species] for its result.)
    for (let i = at; i < left; i++) list[i] = list[i + 1];
    list.length = left;
  }
  return left;
}

// https://dom.spec.whatwg.org/#remove-an-event-listener
function removeAnEventListener(state, listener) {
  // Step 1 concerns ServiceWorkerGlobalScope only.
  // Step 2: set removed, then remove from the list.
  listener.removed = true;
  const type = listener.type;
  const list = MapPrototypeGet(state.listeners, type);
  if (list === undefined) return;
  const left = takeOutListener(state, type, list, listener);
  if (left === -1) return;
  if (left === 0) {
    MapPrototypeDelete(state.listeners, type);
    if (state.indexes !== null) MapPrototypeDelete(state.indexes, type);
  }
  state.cachedType = null;
  state.cachedList = undefined;
  if (left === 0 && state.watch !== null) state.watch(state.target, type, false);
  // Not in the spec, and unobservable: the signal's abort steps for this
  // listener would do nothing any more, so drop them (no leak through a
  // long-lived signal).
  if (listener.abortAlgorithm !== null) {
    removeAbortAlgorithm(listener.signal, listener.abortAlgorithm);
    listener.abortAlgorithm = null;
  }
  if (type === 'abort') abortListenersChanged(state.target);
}

// "Call a user object's operation" (https://webidl.spec.whatwg.org/#call-a-user-objects-operation)
// with opName "handleEvent" and « event »: a callable listener is called with
// the current target as `this`; otherwise its handleEvent is looked up now,
// at every call, and called on the listener object.
function callEventListener(callback, event, thisArg) {
  // Steps 8-10.
  let fn = callback;
  let thisValue = thisArg;
  if (typeof callback !== 'function') {
    fn = callback.handleEvent;
    if (typeof fn !== 'function') {
      throw new TypeErrorCtor("The 'handleEvent' property of the event listener is not callable.");
    }
    thisValue = callback;
  }
  // Steps 11-12.
  callFunction(fn, thisValue, event);
}

// HTML "clean up after running a callback"
// (https://html.spec.whatwg.org/multipage/webappapis.html#clean-up-after-running-a-callback),
// between two listeners of an event the host dispatches (internalDispatch: a
// message, a timeout's abort, an uncaught error's `error`): when no script is
// on the JavaScript execution context stack, a microtask checkpoint, so the
// microtasks a listener queued run before the next listener, as in browsers.
// An event script dispatches (dispatchEvent(), controller.abort(),
// reportError()) has script below it: its microtasks wait for that script.
// A listener's cleanup runs when the dispatch goes on (before the next
// listener, or the next phase, looks at the event's flags, which the
// microtasks may set), so the last listener's is left to the end of the task
// and an event with one listener costs nothing more. The stack is looked at
// once per dispatch; the native side runs the whole checkpoint (rejections
// included).
const kCleanupUnknown = 1;
const kCleanupCheckpoint = 2;
const kCleanupScriptBelow = 3;
function cleanUpAfterCallback(state) {
  state.cleanupPending = false;
  if (state.cleanup === kCleanupUnknown) {
    state.cleanup = host.scriptOnStack() ? kCleanupScriptBelow : kCleanupCheckpoint;
  }
  if (state.cleanup === kCleanupCheckpoint) host.checkpoint();
}

// https://dom.spec.whatwg.org/#concept-event-listener-inner-invoke
function innerInvoke(event, state, listeners, phase, struct) {
  // Step 1 (found) only matters for the legacy webkit-prefixed event types,
  // which no event here has.
  // Step 2: listeners is already the clone taken by "invoke" step 5.
  for (let i = 0; i < listeners.length; i++) {
    // The previous listener's call ends with "clean up after running a
    // callback" (its microtasks may remove this listener, or stop the
    // event: step 2.14 for that call).
    if (state.cleanupPending) {
      cleanUpAfterCallback(state);
      if (state.stopImmediatePropagation) break;
    }
    const listener = listeners[i];
    if (listener.removed) continue;
    // Step 2.1 (type check): the per-type list only holds this type.
    // Steps 2.3-2.4.
    if (phase === CAPTURING_PHASE && !listener.capture) continue;
    if (phase === BUBBLING_PHASE && listener.capture) continue;
    // Step 2.5.
    if (listener.once) removeAnEventListener(struct.state, listener);
    // Steps 2.6-2.8 (the Window's current event) do not apply: no Window.
    // Step 2.9.
    if (listener.passive) state.inPassiveListener = true;
    // Step 2.11: call the listener; an exception is reported, not propagated.
    try {
      callEventListener(listener.callback, event, state.currentTarget);
    } catch (error) {
      reportException(error);
    }
    if (state.cleanup !== 0 && state.cleanup !== kCleanupScriptBelow) state.cleanupPending = true;
    // Step 2.12.
    state.inPassiveListener = false;
    // Step 2.14.
    if (state.stopImmediatePropagation) break;
  }
}

// The target's listener list for `type` (undefined if none), through the
// one-entry cache that adding or removing a listener clears.
function cachedListeners(targetState, type) {
  if (targetState.cachedType === type) return targetState.cachedList;
  const listeners = MapPrototypeGet(targetState.listeners, type);
  targetState.cachedType = type;
  targetState.cachedList = listeners;
  return listeners;
}

// https://dom.spec.whatwg.org/#concept-event-listener-invoke. `phase` is
// CAPTURING_PHASE for "capturing" and BUBBLING_PHASE for "bubbling".
function invoke(struct, event, state, phase) {
  // Step 1: the last struct at or before this one with a shadow-adjusted
  // target; with a one-struct path it is this struct.
  state.target = struct.shadowAdjustedTarget;
  // Step 2: relatedTarget and touch targets (always null / empty here).
  state.relatedTarget = struct.relatedTarget;
  // (The last listener's cleanup, before this pass looks at the flags.)
  if (state.cleanupPending) cleanUpAfterCallback(state);
  // Step 3.
  if (state.stopPropagation) return;
  // Step 4.
  state.currentTarget = struct.invocationTarget;
  // Step 5: the listeners of the current target, cloned (copy-on-write lists).
  const targetState = struct.state;
  const listeners = cachedListeners(targetState, state.type);
  if (listeners === undefined) return;
  // Step 6. (Step 7, legacy type renaming for trusted animation/transition
  // events, is left out: no such events here.) While it walks `listeners`,
  // changes to the target's lists copy them instead of changing them.
  ++targetState.dispatching;
  try {
    innerInvoke(event, state, listeners, phase, struct);
  } finally {
    --targetState.dispatching;
  }
}

// The event path of a dispatch to a target with no parent (dispatch steps
// 2-3: targetOverride is target, relatedTarget retargets to null; step 5.3:
// append to an event path; step 5.6: "get the parent" of a plain
// EventTarget returns null): this one struct. It is the same for every
// dispatch to this target and nothing writes to it, so the target keeps
// one (an allocation less per event).
function targetPath(targetState) {
  let path = targetState.path;
  if (path === null) {
    const target = targetState.target;
    path = ObjectFreeze([
      ObjectFreeze({
        invocationTarget: target,
        invocationTargetInShadowTree: false,
        shadowAdjustedTarget: target,
        relatedTarget: null,
        touchTargets: kNoTouchTargets,
        rootOfClosedTree: false,
        slotInClosedTree: false,
        state: targetState,
      }),
    ]);
    targetState.path = path;
  }
  return path;
}

// Steps 6-9 of dispatch, after both passes.
function endDispatch(state) {
  state.cleanup = 0;
  state.cleanupPending = false;
  state.eventPhase = NONE;
  state.currentTarget = null;
  state.path = null;
  state.dispatch = false;
  state.stopPropagation = false;
  state.stopImmediatePropagation = false;
  // Step 10 (clearTargets) is false without shadow trees; step 11
  // (activation behavior) does not apply.
}

// The target's one listener for `type` when it has exactly one and that one
// is called in the bubbling pass only, as it is (not `capture`, `once` or
// `passive`): the common case of an event handler attribute such as
// onmessage, or of one addEventListener. Else undefined.
function onlyPlainListener(targetState, type) {
  const listeners = cachedListeners(targetState, type);
  if (listeners === undefined || listeners.length !== 1) return undefined;
  const listener = listeners[0];
  if (listener.capture || listener.once || listener.passive || listener.removed) return undefined;
  return listener;
}

// dispatch() for a target whose only listener for the event's type is
// `listener` (onlyPlainListener): the same observable steps, without the
// general passes (a MessageChannel task: ~14% less, bench/README.md). The
// capture pass would call no listener; the bubble pass calls `listener` at
// the target, unless the event's stop propagation flag was set before the
// dispatch. After the only listener there is nothing to clean up for: the
// caller's microtask checkpoint follows, as after the general passes.
function dispatchToOnlyListener(targetState, event, state, listener) {
  const target = targetState.target;
  // Step 1.
  state.dispatch = true;
  try {
    state.path = targetPath(targetState);
    state.eventPhase = AT_TARGET;
    // "invoke" steps 1-4 (the capture pass sets the same values).
    state.target = target;
    state.relatedTarget = null;
    if (state.stopPropagation) return !state.canceled;
    state.currentTarget = target;
    // "inner invoke" step 2.11: an exception is reported, not propagated.
    // (No walk over the listener list here, so listeners added or removed
    // meanwhile need not copy it: targetState.dispatching stays as it is.)
    try {
      callEventListener(listener.callback, event, target);
    } catch (error) {
      reportException(error);
    }
  } finally {
    endDispatch(state);
  }
  // Step 12.
  return !state.canceled;
}

// https://dom.spec.whatwg.org/#concept-event-dispatch for a target with no
// parent. Returns false if the event was canceled, true otherwise.
function dispatch(targetState, event, state) {
  const only = onlyPlainListener(targetState, state.type);
  if (only !== undefined) return dispatchToOnlyListener(targetState, event, state, only);
  // Step 1.
  state.dispatch = true;
  try {
    const path = targetPath(targetState);
    state.path = path;
    // Step 5.12: capture pass, path in reverse; a struct with a
    // shadow-adjusted target is AT_TARGET, others CAPTURING_PHASE.
    for (let i = path.length - 1; i >= 0; i--) {
      const struct = path[i];
      state.eventPhase = struct.shadowAdjustedTarget !== null ? AT_TARGET : CAPTURING_PHASE;
      invoke(struct, event, state, CAPTURING_PHASE);
    }
    // Step 5.13: bubble pass; structs without a shadow-adjusted target are
    // skipped when the event does not bubble.
    for (let i = 0; i < path.length; i++) {
      const struct = path[i];
      if (struct.shadowAdjustedTarget !== null) {
        state.eventPhase = AT_TARGET;
      } else {
        if (!state.bubbles) continue;
        state.eventPhase = BUBBLING_PHASE;
      }
      invoke(struct, event, state, BUBBLING_PHASE);
    }
  } finally {
    endDispatch(state);
  }
  // Step 12.
  return !state.canceled;
}

function checkDispatchable(state) {
  // https://dom.spec.whatwg.org/#dom-eventtarget-dispatchevent step 1.
  if (state.dispatch) {
    throw newDOMException('The event is already being dispatched.', 'InvalidStateError');
  }
  if (!state.initialized) {
    throw newDOMException('The event provided is uninitialized.', 'InvalidStateError');
  }
}

class EventTarget {
  // https://dom.spec.whatwg.org/#dom-eventtarget-eventtarget
  constructor() {
    initEventTargetState(this);
  }

  // https://dom.spec.whatwg.org/#dom-eventtarget-addeventlistener
  addEventListener(type, callback, options = undefined) {
    const state = targetState(this);
    const prefix = executePrefix('addEventListener', 'EventTarget');
    if (arguments.length < 2) throw argumentCountError(prefix, 2, arguments.length);
    type = toDOMString(type);
    callback = toEventListener(callback, prefix);
    // Step 1.
    const { capture, passive, once, signal } = flattenMoreOptions(options, prefix);
    // Step 2.
    addAnEventListener(state, {
      type,
      callback,
      capture,
      passive,
      once,
      signal,
      removed: false,
      abortAlgorithm: null,
    });
  }

  // https://dom.spec.whatwg.org/#dom-eventtarget-removeeventlistener
  removeEventListener(type, callback, options = undefined) {
    const state = targetState(this);
    const prefix = executePrefix('removeEventListener', 'EventTarget');
    if (arguments.length < 2) throw argumentCountError(prefix, 2, arguments.length);
    type = toDOMString(type);
    callback = toEventListener(callback, prefix);
    // Step 1.
    const capture = flattenOptions(options);
    // Step 2.
    const listener = findListener(state, type, MapPrototypeGet(state.listeners, type), callback, capture);
    if (listener !== undefined) removeAnEventListener(state, listener);
  }

  // https://dom.spec.whatwg.org/#dom-eventtarget-dispatchevent
  dispatchEvent(event) {
    const target = targetState(this);
    const prefix = executePrefix('dispatchEvent', 'EventTarget');
    if (arguments.length < 1) throw argumentCountError(prefix, 1, arguments.length);
    const state = peekEventState(event);
    if (state === undefined) throw new TypeErrorCtor(`${prefix}: parameter 1 is not of type 'Event'.`);
    // Step 1.
    checkDispatchable(state);
    // Step 2.
    state.isTrusted = false;
    // Step 3.
    return dispatch(target, event, state);
  }
}

exposeInterface(EventTarget, 'EventTarget');

// ---------------------------------------------------------------------------
// Event handlers: https://html.spec.whatwg.org/multipage/webappapis.html#event-handler-attributes
// ---------------------------------------------------------------------------

function handlerRecord(state, name) {
  if (state.handlers === null) state.handlers = new MapCtor();
  let record = MapPrototypeGet(state.handlers, name);
  if (record === undefined) {
    // An event handler: a value (null or a callback object) and a listener.
    record = { value: null, listener: null };
    MapPrototypeSet(state.handlers, name, record);
  }
  return record;
}

// https://html.spec.whatwg.org/multipage/webappapis.html#the-event-handler-processing-algorithm
function processEventHandler(record, errorSignature, event, currentTarget) {
  // Step 1: the current value of the event handler.
  const callback = record.value;
  // Step 2.
  if (callback === null) return;
  // Step 3: special error event handling is for ErrorEvent objects of type
  // "error" whose currentTarget is a global (WindowOrWorkerGlobalScope), which
  // is what `errorSignature` declares for the attribute's prototype.
  const special =
    errorSignature && eventState(event).type === 'error' && peekErrorEventState(event) !== undefined;
  // WebIDL "invoke a callback function" step 4: a non-callable object stored
  // through [LegacyTreatNonObjectAsNull] returns undefined without a call.
  if (typeof callback !== 'function') return;
  // Step 4: invoke with the current target as `this`; an exception propagates
  // to the dispatch, which reports it.
  let returnValue;
  if (special) {
    const error = errorEventState(event);
    returnValue = ReflectApply(callback, currentTarget, [
      error.message,
      error.filename,
      error.lineno,
      error.colno,
      error.error,
    ]);
  } else {
    returnValue = callFunction(callback, currentTarget, event);
  }
  // Step 5: process the return value. The spec sets the event's canceled
  // flag directly here (not "set the canceled flag", so even a
  // non-cancelable event is canceled); Blink goes through preventDefault().
  if (special ? returnValue === true : returnValue === false) eventState(event).canceled = true;
}

// https://html.spec.whatwg.org/multipage/webappapis.html#activate-an-event-handler
function activateEventHandler(state, name, errorSignature) {
  // Steps 1-2.
  const record = handlerRecord(state, name);
  // Step 3.
  if (record.listener !== null) return;
  // Step 4: the callback runs the event handler processing algorithm. (A
  // listener is called with the event's currentTarget as `this`, which the
  // algorithm needs: no lookup of the event's state for it.)
  const callback = function eventHandlerListener(event) {
    return processEventHandler(record, errorSignature, event, this);
  };
  // Step 5.
  const listener = {
    type: name,
    callback,
    capture: false,
    passive: null,
    once: false,
    signal: null,
    removed: false,
    abortAlgorithm: null,
  };
  // Step 6.
  addAnEventListener(state, listener);
  // Step 7.
  record.listener = listener;
}

// https://html.spec.whatwg.org/multipage/webappapis.html#deactivate-an-event-handler
function deactivateEventHandler(state, name) {
  // Steps 1-2.
  if (state.handlers === null) return;
  const record = MapPrototypeGet(state.handlers, name);
  if (record === undefined) return;
  // Step 3.
  record.value = null;
  // Steps 4-5.
  if (record.listener !== null) removeAnEventListener(state, record.listener);
  // Step 6.
  record.listener = null;
}

// Defines the `on<name>` event handler IDL attribute on `prototype`
// (https://html.spec.whatwg.org/multipage/webappapis.html#event-handler-idl-attributes).
// options.errorSignature: the attribute is on a global (WindowOrWorkerGlobalScope),
//   so `onerror` gets the OnErrorEventHandler treatment for ErrorEvents.
// options.brandCheck(value) -> boolean: the interface's brand check (the
//   accessors throw "Illegal invocation" when it is false); by default any
//   EventTarget passes.
// options.onSet(target, valueOrNull): called after every assignment.
function defineEventHandler(prototype, name, options = undefined) {
  name = toDOMString(name);
  const errorSignature = isObject(options) && options.errorSignature === true;
  const onSet = isObject(options) && typeof options.onSet === 'function' ? options.onSet : undefined;
  const brandCheck = isObject(options) && typeof options.brandCheck === 'function' ? options.brandCheck : undefined;
  const attribute = `on${name}`;
  const checkedTargetState = (thisValue) => {
    const state = targetState(thisValue);
    if (brandCheck !== undefined && !ReflectApply(brandCheck, undefined, [state.target])) throw illegalInvocation();
    return state;
  };
  const descriptor = {
    get() {
      const state = checkedTargetState(this);
      // "Getting the current value of the event handler": its value (there are
      // no uncompiled content attributes to compile here).
      if (state.handlers === null) return null;
      const record = MapPrototypeGet(state.handlers, name);
      return record === undefined ? null : record.value;
    },
    set(value) {
      const state = checkedTargetState(this);
      // EventHandler is a nullable callback function with
      // [LegacyTreatNonObjectAsNull] (https://webidl.spec.whatwg.org/#LegacyTreatNonObjectAsNull):
      // any non-object is null; a non-callable object is kept (and does
      // nothing when invoked).
      if (!isObject(value)) value = null;
      if (value === null) {
        // "If the given value is null, deactivate the event handler."
        deactivateEventHandler(state, name);
      } else {
        // "Otherwise: set the value, then activate the event handler."
        handlerRecord(state, name).value = value;
        activateEventHandler(state, name, errorSignature);
      }
      if (onSet !== undefined) ReflectApply(onSet, undefined, [state.target, value]);
      const hook = internals.onEventHandlerSet;
      if (typeof hook === 'function') ReflectApply(hook, internals, [state.target, name, value]);
    },
  };
  setFunctionName(descriptor.get, `get ${attribute}`);
  setFunctionName(descriptor.set, `set ${attribute}`);
  ObjectDefineProperty(prototype, attribute, {
    get: descriptor.get,
    set: descriptor.set,
    enumerable: true,
    configurable: true,
  });
}

// ---------------------------------------------------------------------------
// AbortSignal: https://dom.spec.whatwg.org/#interface-AbortSignal
// ---------------------------------------------------------------------------

// Signal state: abort reason (undefined while not aborted), abort algorithms
// (an ordered set), dependent flag, source signals and dependent signals
// (weak sets, held through WeakRefs when the engine has them).
const signalSlot = newPrivateSlot();

function signalState(value) {
  const state = signalSlot.peek(value);
  if (state === undefined) throw illegalInvocation();
  return state;
}

function signalIsAborted(signal) {
  return signalState(signal).reason !== undefined;
}

// WebIDL sequence<AbortSignal> (AbortSignal.any, TaskSignal.any).
function toAbortSignalSequence(value, prefix) {
  return toSequence(value, prefix, (element) => {
    if (signalSlot.peek(element) === undefined) {
      throw new TypeErrorCtor(`${prefix}: Failed to convert value to 'AbortSignal'.`);
    }
    return element;
  });
}

// A weak handle on a signal: a WeakRef, or the signal itself without WeakRef.
function weakHandle(signal, state) {
  if (WeakRefCtor === undefined) return signal;
  if (state.weakRef === null) state.weakRef = new WeakRefCtor(signal);
  return state.weakRef;
}

function derefHandle(handle) {
  return WeakRefCtor === undefined ? handle : WeakRefPrototypeDeref(handle);
}

// When a dependent signal is collected, forget its handle in its sources.
const dependentRegistry =
  FinalizationRegistryCtor !== undefined
    ? new FinalizationRegistryCtor((held) => {
        SetPrototypeForEach(held.sources, (sourceHandle) => {
          const source = derefHandle(sourceHandle);
          if (source === undefined) return;
          const sourceState = signalSlot.peek(source);
          if (sourceState !== undefined && sourceState.dependents !== null) {
            SetPrototypeDelete(sourceState.dependents, held.handle);
          }
        });
      })
    : undefined;

class AbortSignal extends EventTarget {
  // AbortSignal has no constructor: its interface object throws.
  constructor() {
    throw new TypeErrorCtor('Illegal constructor');
  }

  // https://dom.spec.whatwg.org/#dom-abortsignal-abort
  static abort(reason = undefined) {
    // Step 1.
    const signal = createAbortSignal();
    // Step 2.
    signalState(signal).reason = reason !== undefined ? reason : newAbortError();
    // Step 3.
    return signal;
  }

  // https://dom.spec.whatwg.org/#dom-abortsignal-timeout
  static timeout(milliseconds) {
    const prefix = executePrefix('timeout', 'AbortSignal');
    if (arguments.length < 1) throw argumentCountError(prefix, 1, arguments.length);
    milliseconds = toEnforceRangeUnsignedLongLong(milliseconds, prefix);
    // Steps 1-2.
    const signal = createAbortSignal();
    // Step 3: after the timeout, (as a task) signal abort with a TimeoutError.
    startTimeoutTimer(signal, milliseconds);
    // Step 4.
    return signal;
  }

  // https://dom.spec.whatwg.org/#dom-abortsignal-any
  static any(signals) {
    const prefix = executePrefix('any', 'AbortSignal');
    if (arguments.length < 1) throw argumentCountError(prefix, 1, arguments.length);
    return createDependentAbortSignal(toAbortSignalSequence(signals, prefix));
  }

  // https://dom.spec.whatwg.org/#dom-abortsignal-aborted
  get aborted() {
    return signalState(this).reason !== undefined;
  }

  // https://dom.spec.whatwg.org/#dom-abortsignal-reason
  get reason() {
    return signalState(this).reason;
  }

  // https://dom.spec.whatwg.org/#dom-abortsignal-throwifaborted
  throwIfAborted() {
    const state = signalState(this);
    if (state.reason !== undefined) throw state.reason;
  }
}

defineEventHandler(AbortSignal.prototype, 'abort', {
  brandCheck: (value) => signalSlot.peek(value) !== undefined,
});
exposeInterface(AbortSignal, 'AbortSignal');
defineInspect(AbortSignal, ['aborted', 'reason'], ['reason']);

const AbortSignalPrototype = AbortSignal.prototype;

function newAbortError() {
  return newDOMException('signal is aborted without reason', 'AbortError');
}

// Creates an AbortSignal without running its (illegal) constructor.
function createAbortSignal() {
  const signal = ObjectCreate(AbortSignalPrototype);
  initEventTargetState(signal);
  signalSlot.set(signal, {
    reason: undefined,
    algorithms: null,  // a Set once it has one (ordered, O(1) add and remove)
    dependent: false,
    sources: null,
    // A dependent's AbortSignal.timeout sources, held strongly: such a source
    // aborts by itself, so while the dependent lives its state (`aborted`)
    // can show that abort even with nobody listening (its sources are
    // otherwise held weakly, and its timer holds it weakly too).
    timeoutSources: null,
    dependents: null,
    // Dependent signals that must stay alive while this source is (they have
    // abort listeners or algorithms; see abortListenersChanged()).
    retainedDependents: null,
    retained: false,
    weakRef: null,
    // An AbortSignal.timeout signal whose timer has not fired.
    timeout: false,
  });
  return signal;
}

// "Run steps after a timeout" with the global's setTimeout, looked up now.
// setTimeout's delay is a 32-bit signed value in practice, so a longer timeout
// waits in chunks. A host may register `internals.setUnrefTimeout(fn, ms)` to
// use a timer that does not keep the event loop alive (as node and deno do
// for AbortSignal.timeout).
// Returns { entry }: the pending unref timer's entry (for
// internals.clearUnrefTimeout), 0 when there is none to clear.
const maxTimerDelay = 0x7fffffff;
function runStepsAfterTimeout(milliseconds, steps) {
  const unref = internals.setUnrefTimeout;
  const schedule = typeof unref === 'function' ? unref : global.setTimeout;
  const thisValue = typeof unref === 'function' ? internals : global;
  if (typeof schedule !== 'function') {
    throw new TypeErrorCtor('AbortSignal.timeout() needs setTimeout, which this realm does not have.');
  }
  const timer = { entry: 0 };
  const wait = (remaining) => {
    const chunk = remaining > maxTimerDelay ? maxTimerDelay : remaining;
    const entry = ReflectApply(schedule, thisValue, [
      () => {
        timer.entry = 0;
        if (remaining > chunk) wait(remaining - chunk);
        else steps();
      },
      chunk,
    ]);
    if (typeof unref === 'function') timer.entry = entry;
  };
  wait(milliseconds);
  return timer;
}

// AbortSignal.timeout signals whose abort someone could observe (it has abort
// listeners or abort algorithms, or dependents retained for theirs) are held
// here until they abort; the others only weakly, by their timer (DOM "abort
// signal garbage collection"; node and browsers collect them too).
const observedTimeoutSignals = new SetCtor();
const timeoutTimerRegistry =
  FinalizationRegistryCtor !== undefined
    ? new FinalizationRegistryCtor((timer) => {
        if (timer.entry !== 0 && typeof internals.clearUnrefTimeout === 'function') {
          internals.clearUnrefTimeout(timer.entry);
        }
      })
    : undefined;

// The timer holds the signal weakly: one nobody can observe aborting is
// collected, and its timer cleared, instead of living for the whole timeout.
// (A function of its own: a closure here that named `signal` would put it in
// the context every closure of the function shares, the timer's included.)
function startTimeoutTimer(signal, milliseconds) {
  const abortSteps = (target) => signalAbort(target, newDOMException('signal timed out', 'TimeoutError'));
  const state = signalState(signal);
  if (WeakRefCtor === undefined) {
    const strong = signal;
    runStepsAfterTimeout(milliseconds, () => abortSteps(strong));
    return;
  }
  state.timeout = true;
  const handle = weakHandle(signal, state);
  const timer = runStepsAfterTimeout(milliseconds, () => {
    const target = derefHandle(handle);
    if (target !== undefined) abortSteps(target);  // (signalAbort stops holding it)
  });
  if (timeoutTimerRegistry !== undefined) FinalizationRegistryPrototypeRegister(timeoutTimerRegistry, signal, timer);
}

function updateTimeoutRetention(signal, state) {
  if (!state.timeout) return;
  const needed = hasAbortObservers(signal, state) || (state.reason === undefined &&
    state.retainedDependents !== null && SetPrototypeGetSize(state.retainedDependents) !== 0);
  if (needed) {
    SetPrototypeAdd(observedTimeoutSignals, signal);
  } else {
    SetPrototypeDelete(observedTimeoutSignals, signal);
  }
}

// https://dom.spec.whatwg.org/#abortsignal-add
function addAbortAlgorithm(signal, algorithm) {
  const state = signalState(signal);
  // Step 1.
  if (state.reason !== undefined) return;
  // Step 2 (an ordered set: no duplicates). A Set: every postTask and every
  // listener added with {signal} adds one, and many may share one signal
  // (an array scanned on add and copied on remove made that O(n^2)).
  let algorithms = state.algorithms;
  if (algorithms === null) algorithms = state.algorithms = new SetCtor();
  if (SetPrototypeHas(algorithms, algorithm)) return;
  SetPrototypeAdd(algorithms, algorithm);
  if (SetPrototypeGetSize(algorithms) === 1) {
    observersChanged(signal, state);
  }
}

// https://dom.spec.whatwg.org/#abortsignal-remove
function removeAbortAlgorithm(signal, algorithm) {
  const state = signalState(signal);
  const algorithms = state.algorithms;
  if (algorithms === null || !SetPrototypeDelete(algorithms, algorithm)) return;
  if (SetPrototypeGetSize(algorithms) === 0) {
    observersChanged(signal, state);
  }
}

// https://dom.spec.whatwg.org/#abortsignal-signal-abort
function signalAbort(signal, reason) {
  const state = signalState(signal);
  // Step 1.
  if (state.reason !== undefined) return;
  // Step 2.
  state.reason = reason !== undefined ? reason : newAbortError();
  if (state.timeout) {
    state.timeout = false;
    SetPrototypeDelete(observedTimeoutSignals, signal);
  }
  // Steps 3-4.
  const dependentSignalsToAbort = [];
  if (state.dependents !== null) {
    SetPrototypeForEach(state.dependents, (handle) => {
      const dependent = derefHandle(handle);
      if (dependent === undefined) return;
      const dependentState = signalState(dependent);
      if (dependentState.reason === undefined) {
        dependentState.reason = state.reason;
        dependentSignalsToAbort[dependentSignalsToAbort.length] = dependent;
      }
    });
  }
  // An aborted signal never aborts again: its links to other signals are no
  // longer needed (unobservable clean-up, not in the spec).
  releaseSignalLinks(signal, state);
  for (let i = 0; i < dependentSignalsToAbort.length; i++) {
    const dependent = dependentSignalsToAbort[i];
    releaseSignalLinks(dependent, signalState(dependent));
  }
  // Step 5.
  runAbortSteps(signal, state);
  // Step 6.
  for (let i = 0; i < dependentSignalsToAbort.length; i++) {
    const dependent = dependentSignalsToAbort[i];
    runAbortSteps(dependent, signalState(dependent));
  }
}

function releaseSignalLinks(signal, state) {
  if (state.sources !== null) {
    const handle = weakHandle(signal, state);
    SetPrototypeForEach(state.sources, (sourceHandle) => {
      const source = derefHandle(sourceHandle);
      if (source === undefined) return;
      const sourceState = signalState(source);
      if (sourceState.dependents !== null) SetPrototypeDelete(sourceState.dependents, handle);
      if (sourceState.retainedDependents !== null) SetPrototypeDelete(sourceState.retainedDependents, signal);
      updateTimeoutRetention(source, sourceState);
    });
    state.sources = null;
  }
  state.timeoutSources = null;
  state.retained = false;
  state.dependents = null;
  state.retainedDependents = null;
}

// https://dom.spec.whatwg.org/#run-the-abort-steps
function runAbortSteps(signal, state) {
  // Steps 1-2: run, then empty, the abort algorithms.
  const algorithms = state.algorithms;
  state.algorithms = null;
  if (algorithms !== null) {
    SetPrototypeForEach(algorithms, (algorithm) => {
      try {
        algorithm();
      } catch (error) {
        reportException(error);
      }
    });
  }
  // Step 3.
  fireEvent(signal, 'abort');
}

// https://dom.spec.whatwg.org/#create-a-dependent-abort-signal (for the
// AbortSignal interface in this realm).
function createDependentAbortSignal(signals) {
  // Step 1.
  const resultSignal = createAbortSignal();
  const result = signalState(resultSignal);
  // Step 2.
  for (let i = 0; i < signals.length; i++) {
    const reason = signalState(signals[i]).reason;
    if (reason !== undefined) {
      result.reason = reason;
      return resultSignal;
    }
  }
  // Step 3.
  result.dependent = true;
  result.sources = new SetCtor();
  const resultHandle = weakHandle(resultSignal, result);
  const link = (source, sourceState) => {
    const sourceHandle = weakHandle(source, sourceState);
    if (SetPrototypeHas(result.sources, sourceHandle)) return;
    SetPrototypeAdd(result.sources, sourceHandle);
    if (sourceState.timeout) {
      if (result.timeoutSources === null) result.timeoutSources = [];
      result.timeoutSources[result.timeoutSources.length] = source;
    }
    if (sourceState.dependents === null) sourceState.dependents = new SetCtor();
    SetPrototypeAdd(sourceState.dependents, resultHandle);
  };
  // Step 4.
  for (let i = 0; i < signals.length; i++) {
    const signal = signals[i];
    const state = signalState(signal);
    if (!state.dependent) {
      // Step 4.1: append signal to resultSignal's source signals, and
      // resultSignal to signal's dependent signals.
      link(signal, state);
    } else if (state.sources !== null) {
      // Step 4.2: flatten: use signal's own (non-dependent, non-aborted) sources.
      SetPrototypeForEach(state.sources, (sourceHandle) => {
        const source = derefHandle(sourceHandle);
        if (source !== undefined) link(source, signalState(source));
      });
    }
  }
  if (dependentRegistry !== undefined) {
    FinalizationRegistryPrototypeRegister(dependentRegistry, resultSignal, {
      handle: resultHandle,
      sources: result.sources,
    });
  }
  // Step 5.
  return resultSignal;
}

// https://dom.spec.whatwg.org/#abort-signal-garbage-collection: "A non-aborted
// dependent AbortSignal object must not be garbage collected while its source
// signals list is non-empty and it has registered event listeners for its
// abort event or its abort algorithms list is non-empty." Sources hold their
// dependents weakly, so such a dependent is also put in each source's strong
// `retainedDependents` set, for as long as the condition holds.
function updateRetention(signal, state) {
  if (!state.dependent || state.sources === null || WeakRefCtor === undefined) return;
  const needed = hasAbortObservers(signal, state);
  if (needed === state.retained) return;
  state.retained = needed;
  SetPrototypeForEach(state.sources, (sourceHandle) => {
    const source = derefHandle(sourceHandle);
    if (source === undefined) return;
    const sourceState = signalState(source);
    if (needed) {
      if (sourceState.retainedDependents === null) sourceState.retainedDependents = new SetCtor();
      SetPrototypeAdd(sourceState.retainedDependents, signal);
    } else if (sourceState.retainedDependents !== null) {
      SetPrototypeDelete(sourceState.retainedDependents, signal);
    }
    updateTimeoutRetention(source, sourceState);
  });
}

// Whether a non-aborted signal's abort would be observed: it has abort
// algorithms or `abort` event listeners (event handlers included).
function hasAbortObservers(signal, state) {
  if (state.reason !== undefined) return false;
  if (state.algorithms !== null && SetPrototypeGetSize(state.algorithms) !== 0) return true;
  return MapPrototypeGet(targetSlot.peek(signal).listeners, 'abort') !== undefined;
}

// A signal's abort algorithms or abort listeners changed: what keeps it (a
// dependent, a timeout signal) alive may change.
function observersChanged(signal, state) {
  updateRetention(signal, state);
  updateTimeoutRetention(signal, state);
}

function abortListenersChanged(target) {
  const state = signalSlot.peek(target);
  if (state === undefined) return;
  observersChanged(target, state);
}

// ---------------------------------------------------------------------------
// AbortController: https://dom.spec.whatwg.org/#interface-abortcontroller
// ---------------------------------------------------------------------------

let controllerSignal;  // (value) -> AbortSignal, or throws Illegal invocation

class AbortController {
  // The controller's signal, made when first needed: by `signal` or by
  // abort() (nothing can tell it was not made in the constructor, and most
  // controllers' signals are never used).
  #signal = null;

  // https://dom.spec.whatwg.org/#dom-abortcontroller-abortcontroller
  constructor() {
    // Steps 1-2: see #signal.
  }

  static {
    controllerSignal = (value) => {
      if (!isObject(value) || !(#signal in value)) throw illegalInvocation();
      return (value.#signal ??= createAbortSignal());
    };
  }

  // https://dom.spec.whatwg.org/#dom-abortcontroller-signal
  get signal() {
    return controllerSignal(this);
  }

  // https://dom.spec.whatwg.org/#dom-abortcontroller-abort
  abort(reason = undefined) {
    signalAbort(controllerSignal(this), reason);
  }
}

exposeInterface(AbortController, 'AbortController');
defineInspect(AbortController, ['signal']);

// ---------------------------------------------------------------------------
// Firing events from the host
// ---------------------------------------------------------------------------

// Dispatch without dispatchEvent()'s step 2, so an event marked trusted stays
// trusted. Returns false if the event was canceled.
function internalDispatch(target, event) {
  const tstate = targetSlot.peek(target);
  if (tstate === undefined) throw new TypeErrorCtor('internals.dispatchEvent: target is not an EventTarget');
  const state = peekEventState(event);
  if (state === undefined) throw new TypeErrorCtor('internals.dispatchEvent: event is not an Event');
  checkDispatchable(state);
  state.cleanup = kCleanupUnknown;
  return dispatch(tstate, event, state);
}

// Sets the event's isTrusted to true; returns the event.
function markTrusted(event) {
  eventState(event).isTrusted = true;
  return event;
}

// https://dom.spec.whatwg.org/#concept-event-fire: create an event of
// `EventInterface` (default Event) with `init`, isTrusted true, dispatch it.
function fireEvent(target, type, EventInterface = Event, init = undefined) {
  // Steps 1-2 (the interface's constructor does the initialization); step 3:
  // isTrusted is true; step 5.
  return internalDispatch(target, markTrusted(new EventInterface(type, init)));
}

// ---------------------------------------------------------------------------
// Internals for the rest of the runtime (C++ and JS)
// ---------------------------------------------------------------------------

// internals.markTrusted(event) -> event: sets isTrusted to true.
internals.markTrusted = markTrusted;
// internals.exposeInterface(ctor, name, constants): WebIDL shape (enumerable
// members, @@toStringTag, constants) and a global binding for an interface.
internals.exposeInterface = exposeInterface;
// internals.dispatchEvent(target, event) -> boolean: dispatch, keeping isTrusted.
internals.dispatchEvent = internalDispatch;
// internals.fireEvent(target, type, EventInterface = Event, init) -> boolean.
internals.fireEvent = fireEvent;
// A trusted MessageEvent for a delivered message (internalState is its
// state until the caller takes it): `data` is the message as it is,
// undefined included (the MessageEventInit dictionary would turn undefined
// into its default, null). Called by the host at the start of the message's
// task, before any script of it: its time stamp may be the loop's reading
// from just before the task (host.entryStartNow()).
function newMessageEvent(type, data, ports, timeStamp) {
  internalTimeStamp = timeStamp === undefined ? host.entryStartNow() : timeStamp;
  internalData = data;
  internalPorts = ports === undefined ? kNoPorts : ObjectFreeze(ports);
  creatingInternally = true;
  try {
    return new MessageEvent(type);
  } finally {
    creatingInternally = false;
    internalData = undefined;
    internalPorts = undefined;
  }
}
// internals.dispatchMessage(target, data, ports, timeStamp) -> boolean: fires
// a trusted `message` MessageEvent (see newMessageEvent) at an EventTarget.
// (internalDispatch's steps, without its checks of the event: a new one
// cannot be in a dispatch, and it is initialized and trusted already.)
internals.dispatchMessage = (target, data, ports, timeStamp) => {
  const targetState = TargetSlot.peekMessageTarget(target);
  if (targetState === undefined) throw new TypeErrorCtor('internals.dispatchMessage: target is not an EventTarget');
  const event = newMessageEvent('message', data, ports, timeStamp);
  const state = internalState;
  internalState = null;
  state.cleanup = kCleanupUnknown;
  return dispatch(targetState, event, state);
};
// internals.defineEventHandler(prototype, name, { errorSignature, brandCheck, onSet }).
internals.defineEventHandler = defineEventHandler;
// internals.initEventTarget(object) -> object: makes any object (the global,
// say) an EventTarget for the brand checks.
internals.initEventTarget = (object) => {
  if (targetSlot.peek(object) === undefined) initEventTargetState(object);
  return object;
};
// internals.watchEventListeners(target, watch): from now on, watch(target,
// type, present) runs whenever one of the target's listener lists becomes
// non-empty (present true) or empty, however that happens: addEventListener,
// removeEventListener, a `once` listener's dispatch, an aborted `signal`, an
// event handler attribute. (Liveness hangs on `message` listeners, J3.)
internals.watchEventListeners = (target, watch) => {
  const state = targetSlot.peek(target) ?? initEventTargetState(target);
  state.watch = watch;
};
internals.isEventTarget = (value) => targetSlot.peek(value) !== undefined;
// internals.newPrivateSlot() -> { set(object, value), peek(value) }: a
// private field for state that any object can carry (see newPrivateSlot).
internals.newPrivateSlot = newPrivateSlot;
internals.isEvent = (value) => peekEventState(value) !== undefined;
internals.isDOMException = (value) => peekDOMExceptionState(value) !== undefined;
internals.isAbortSignal = (value) => signalSlot.peek(value) !== undefined;
// internals.abortReasonOf(signal): for an API's `signal` option: undefined
// when there is no signal or it is not aborted, else its reason; a value
// that is not an AbortSignal is a TypeError.
internals.abortReasonOf = (signal) => {
  if (signal === undefined) return undefined;
  const state = signalSlot.peek(signal);
  if (state === undefined) throw new TypeError('The "signal" option must be an AbortSignal');
  return state.reason;
};
// internals.hasEventListeners(target, type) -> boolean (event handlers included).
internals.hasEventListeners = (target, type) => {
  const state = targetSlot.peek(target);
  return state !== undefined && MapPrototypeGet(state.listeners, toDOMString(type)) !== undefined;
};
// internals.createAbortSignal() -> a new, non-aborted AbortSignal.
internals.createAbortSignal = createAbortSignal;
// internals.createDependentAbortSignal(arrayOfSignals) -> AbortSignal.any() without conversion.
internals.createDependentAbortSignal = createDependentAbortSignal;
// internals.toAbortSignalSequence(value, prefix) -> array: WebIDL sequence<AbortSignal>.
internals.toAbortSignalSequence = toAbortSignalSequence;
// internals.signalWeakHandle(signal) / derefSignalHandle(handle): the weak
// handle an AbortSignal's dependents hold it by (one per signal), and the
// signal back, or undefined once it was collected.
internals.signalWeakHandle = (signal) => weakHandle(signal, signalState(signal));
internals.derefSignalHandle = derefHandle;
// internals.signalAbort(signal, reason): reason undefined gives an AbortError.
internals.signalAbort = signalAbort;
// internals.addAbortAlgorithm(signal, fn) / removeAbortAlgorithm(signal, fn):
// run fn (before the abort event fires) when the signal aborts; invisible to script.
internals.addAbortAlgorithm = addAbortAlgorithm;
internals.removeAbortAlgorithm = removeAbortAlgorithm;
