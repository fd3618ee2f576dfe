'use strict';
// The last internal file: makes the global object the realm's EventTarget
// (`self`), with its event handler attributes, and adds the small globals
// that need no file of their own.

Object.defineProperty(global, 'self', {
  get() { return global; },
  set(value) { Object.defineProperty(global, 'self', { value, writable: true, configurable: true, enumerable: true }); },
  configurable: true,
  enumerable: true,
});

// The global's event handler IDL attributes. `onerror` has HTML's special
// signature (message, filename, lineno, colno, error); `return true` cancels.
const globalPrototype = Object.getPrototypeOf(global);
internals.defineEventHandler(global, 'error', { errorSignature: true });
internals.defineEventHandler(global, 'unhandledrejection');
internals.defineEventHandler(global, 'rejectionhandled');
void globalPrototype;

// https://html.spec.whatwg.org/multipage/timers-and-user-prompts.html#microtask-queuing
function queueMicrotask(callback) {
  if (arguments.length < 1) {
    throw new TypeError("Failed to execute 'queueMicrotask': 1 argument required, but only 0 present.");
  }
  if (typeof callback !== 'function') {
    throw new TypeError("Failed to execute 'queueMicrotask': parameter 1 is not of type 'Function'.");
  }
  // An exception in the callback is reported (J4), not turned into a rejection.
  host.enqueueMicrotask(() => {
    try {
      callback();
    } catch (error) {
      internals.reportException(error);
    }
  });
}
Object.defineProperty(global, 'queueMicrotask', {
  value: queueMicrotask, writable: true, configurable: true, enumerable: true,
});

// hostloop's own namespace: program arguments, the exit code, and versions.
// The arguments are per run (the realm may come from a snapshot), so they
// are read lazily.
let args;
// An exit status: an integer from 0 to 255 (no wrapping modulo 256 as a
// process.exit(300) does in node: a code that cannot be exited with is an
// error, not a different code).
function checkExitCode(value, what) {
  if (typeof value !== 'number') {
    throw new TypeError(`${what}: the exit code must be an integer from 0 to 255, not ${value === null ? 'null' : `a ${typeof value}`}`);
  }
  if (!Number.isInteger(value) || value < 0 || value > 255) {
    throw new RangeError(`${what}: the exit code must be an integer from 0 to 255, not ${value}`);
  }
  return value;
}
const hostloopNamespace = {
  get args() {
    if (args === undefined) args = Object.freeze(host.args.slice());
    return args;
  },
  // hostloop.exit(code = hostloop.exitCode): ends the program now with
  // `code` (in a worker, ends that worker). Nothing after it runs: not the
  // rest of the caller, not a pending timer, microtask or message.
  exit(code = undefined) {
    host.exit(code === undefined ? host.exitCode() : checkExitCode(code, 'hostloop.exit'));
  },
  // The code the program exits with when it ends by itself (0 unless set;
  // an uncaught error still exits 1, and an unsettled top-level await 13).
  get exitCode() {
    return host.exitCode();
  },
  set exitCode(code) {
    host.setExitCode(checkExitCode(code, 'hostloop.exitCode'));
  },
  version: host.version,
  versions: Object.freeze({ hostloop: host.version, v8: host.v8Version }),
};
Object.defineProperty(global, 'hostloop', {
  value: Object.freeze(hostloopNamespace),
  writable: true,
  configurable: true,
  enumerable: false,
});

// https://html.spec.whatwg.org/multipage/system-state.html#the-navigator-object
// The members a program reads to size a worker pool or to identify the
// runtime: hardwareConcurrency (the CPUs this process may run on), userAgent,
// language(s) and platform. In a worker the interface is WorkerNavigator.
const IntlDateTimeFormat = global.Intl?.DateTimeFormat;
let languageList;
function languages() {
  if (languageList === undefined) {
    let locale;
    try {
      locale = IntlDateTimeFormat === undefined ? undefined : new IntlDateTimeFormat().resolvedOptions().locale;
    } catch {
      locale = undefined;
    }
    languageList = Object.freeze([locale || 'en-US']);
  }
  return languageList;
}
class Navigator {
  constructor() {
    throw new TypeError('Illegal constructor');
  }
  get hardwareConcurrency() {
    checkNavigator(this, 'hardwareConcurrency');
    return host.hardwareConcurrency();
  }
  get userAgent() {
    checkNavigator(this, 'userAgent');
    return `hostloop/${host.version}`;
  }
  get language() {
    checkNavigator(this, 'language');
    return languages()[0];
  }
  get languages() {
    checkNavigator(this, 'languages');
    return languages();
  }
  get platform() {
    checkNavigator(this, 'platform');
    return host.platform();
  }
}
internals.exposeInterface(Navigator, 'Navigator');
internals.defineInspect(Navigator, ['hardwareConcurrency', 'language', 'languages', 'platform', 'userAgent']);
const navigator = Object.create(Navigator.prototype);
function checkNavigator(value, member) {
  if (value !== navigator) {
    throw new TypeError(`Failed to read the '${member}' property from '${Navigator.prototype[Symbol.toStringTag]}': Illegal invocation`);
  }
}
Object.defineProperty(global, 'navigator', {
  get() { return navigator; },
  configurable: true,
  enumerable: true,
});

// https://w3c.github.io/webcrypto/#crypto-interface: getRandomValues and
// randomUUID (there is no crypto.subtle).
const kIntegerArrays = new Set(['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array',
  'Uint16Array', 'Int32Array', 'Uint32Array', 'BigInt64Array', 'BigUint64Array']);
const isArrayBufferView = ArrayBuffer.isView;
class Crypto {
  constructor() {
    throw new TypeError('Illegal constructor');
  }
  getRandomValues(array) {
    checkCrypto(this, 'getRandomValues');
    if (arguments.length < 1) {
      throw new TypeError("Failed to execute 'getRandomValues' on 'Crypto': 1 argument required, but only 0 present.");
    }
    if (!isArrayBufferView(array)) {
      throw new TypeError("Failed to execute 'getRandomValues' on 'Crypto': parameter 1 is not of type 'ArrayBufferView'.");
    }
    // The type from the internal slot (a DataView has none).
    const type = internals.typedArrayName(array) ?? 'DataView';
    if (!kIntegerArrays.has(type)) {
      throw new DOMException(
        `Failed to execute 'getRandomValues' on 'Crypto': The provided ArrayBufferView is of type '${type}', which is not an integer array type.`,
        'TypeMismatchError');
    }
    const byteLength = host.fillRandom(array, 65536);
    if (byteLength > 65536) {
      throw new DOMException(
        `Failed to execute 'getRandomValues' on 'Crypto': The ArrayBufferView's byte length (${byteLength}) exceeds the number of bytes of entropy available via this API (65536).`,
        'QuotaExceededError');
    }
    return array;
  }
  randomUUID() {
    checkCrypto(this, 'randomUUID');
    // https://wicg.github.io/uuid/: a version 4 UUID, from 16 random bytes.
    const bytes = new Uint8Array(16);
    host.fillRandom(bytes, 16);
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    let hex = '';
    for (let i = 0; i < 16; i++) {
      if (i === 4 || i === 6 || i === 8 || i === 10) hex += '-';
      hex += (bytes[i] < 16 ? '0' : '') + bytes[i].toString(16);
    }
    return hex;
  }
}
internals.exposeInterface(Crypto, 'Crypto');
const crypto = Object.create(Crypto.prototype);
function checkCrypto(value, member) {
  if (value !== crypto) {
    throw new TypeError(`Failed to execute '${member}' on 'Crypto': Illegal invocation`);
  }
}
Object.defineProperty(global, 'crypto', {
  get() { return crypto; },
  configurable: true,
  enumerable: true,
});

// Globals V8 installs only when a context starts (after a snapshot is
// deserialized), such as Atomics and WebAssembly, are adjusted here; the
// runtime calls internals.realmStarted() once per run.
internals.realmStarted = function realmStarted() {
  // The global object is an EventTarget (self.addEventListener). This runs
  // per start, not in the snapshot: deserializing a context gives the global
  // proxy a new identity hash, so a WeakMap entry keyed by it from snapshot
  // time would no longer be found.
  internals.initEventTarget(global);
  if (!(global instanceof EventTarget)) {
    Object.setPrototypeOf(global, Object.create(EventTarget.prototype, {
      [Symbol.toStringTag]: { value: 'GlobalScope', configurable: true },
    }));
  }
  internals.inspectRealmStarted();
  internals.timersRealmStarted();
  // The prototype of DOMExceptions made by deserializing (serializer.cc).
  host.setDOMExceptionPrototype(DOMException.prototype);
  if (host.workerInfo !== undefined) {
    internals.setupWorkerGlobal(host.workerInfo);
    // A worker's navigator is a WorkerNavigator (the same members).
    delete global.Navigator;
    Object.defineProperty(Navigator, 'name', { value: 'WorkerNavigator' });
    Object.defineProperty(Navigator.prototype, Symbol.toStringTag, { value: 'WorkerNavigator' });
    Object.defineProperty(global, 'WorkerNavigator', {
      value: Navigator, writable: true, enumerable: false, configurable: true,
    });
  }
  // whenSettled(promise, onFulfilled, onRejected, token): calls one of them
  // when `promise` settles, with the value or reason and `token` (what the
  // caller needs to finish its bookkeeping: one reaction serves many calls),
  // as promise.then(onFulfilled, onRejected) would, but
  // without Promise.prototype.then, which looks up Promise[Symbol.species]:
  // a program may replace it (with a getter that throws, even), and the
  // runtime's own bookkeeping must neither run its code nor fail with it.
  // `await` takes a native promise's result directly; it reads the
  // promise's `constructor` first (PromiseResolve), so for the call the
  // promise gets an own data property that answers it: a getter a program
  // put on Promise.prototype.constructor is not run (it ended waitAsync's
  // liveness, or rejected a valid WebAssembly.compile, when it threw). The
  // property is gone before any other code runs.
  const ObjectDefineProperty = Object.defineProperty;
  const ObjectGetOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
  const ObjectIsExtensible = Object.isExtensible;
  const PromiseCtor = Promise;
  const settle = async (promise, onFulfilled, onRejected, token) => {
    let value;
    try {
      value = await promise;
    } catch (reason) {
      onRejected(reason, token);
      return;
    }
    onFulfilled(value, token);
  };
  const whenSettled = (promise, onFulfilled, onRejected, token) => {
    if (ObjectGetOwnPropertyDescriptor(promise, 'constructor') !== undefined ||
        !ObjectIsExtensible(promise)) {
      settle(promise, onFulfilled, onRejected, token);
      return;
    }
    ObjectDefineProperty(promise, 'constructor',
      { __proto__: null, value: PromiseCtor, writable: true, configurable: true });
    try {
      settle(promise, onFulfilled, onRejected, token);
    } finally {
      delete promise.constructor;
    }
  };
  internals.whenSettled = whenSettled;

  // internals.resizableRange(value, kind, shared) -> [byteOffset, byteLength]
  // | undefined: for a resizable ArrayBuffer, a growable SharedArrayBuffer or
  // a view on one (--v8-flags=--harmony-rab-gsab), the bytes it sees now, as
  // the builtin getters say ([0, 0] when a resize left a view out of
  // bounds); undefined for anything else. V8 10.2's C++ API predates these
  // buffers: for a view on one it reports the length the view had when made
  // (0 when it tracks its buffer's length), and a Uint8Array made over one
  // fails a CHECK inside V8, so the natives ask here (view_contents.cc).
  // Defined only when the realm has such buffers. `kind`: 0 a typed array,
  // 1 a DataView, 2 the buffer itself; `shared`: the memory is shared.
  const getter = (object, name) => ObjectGetOwnPropertyDescriptor(object, name)?.get;
  const resizable = getter(ArrayBuffer.prototype, 'resizable');
  if (resizable !== undefined) {
    const ReflectApply = Reflect.apply;
    const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
    const viewGetters = [TypedArrayPrototype, DataView.prototype].map((prototype) =>
      [getter(prototype, 'buffer'), getter(prototype, 'byteOffset'), getter(prototype, 'byteLength')]);
    const bufferGetters = [[resizable, getter(ArrayBuffer.prototype, 'byteLength')]];
    const growable = typeof SharedArrayBuffer === 'function' ?
      getter(SharedArrayBuffer.prototype, 'growable') : undefined;
    if (growable !== undefined) {
      bufferGetters.push([growable, getter(SharedArrayBuffer.prototype, 'byteLength')]);
    }
    // (Indexing, not destructuring: that would run a program's
    // Array.prototype[Symbol.iterator].)
    internals.resizableRange = (value, kind, shared) => {
      const getters = bufferGetters[shared ? 1 : 0];
      if (getters === undefined) return undefined;
      const buffer = kind === 2 ? value : ReflectApply(viewGetters[kind][0], value, []);
      if (!ReflectApply(getters[0], buffer, [])) return undefined;
      if (kind === 2) return [0, ReflectApply(getters[1], buffer, [])];
      const view = viewGetters[kind];
      try {
        return [ReflectApply(view[1], value, []), ReflectApply(view[2], value, [])];
      } catch {
        return [0, 0];  // (A DataView out of bounds, or detached: no bytes.)
      }
    };
    // V8 10.2's %TypedArray%.prototype[@@toStringTag] answers undefined for a
    // typed array on a resizable buffer, so the type checks of encodeInto
    // and getRandomValues refused it; V8's API knows its type.
    const typedArrayTag = internals.typedArrayName;
    internals.typedArrayName = (value) => typedArrayTag(value) ?? host.typedArrayName(value);
  }
};
