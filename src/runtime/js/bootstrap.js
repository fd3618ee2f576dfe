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

// hostloop's own namespace: program arguments and versions. The arguments
// are per run (the realm may come from a snapshot), so they are read lazily.
let args;
const hostloopNamespace = {
  get args() {
    if (args === undefined) args = Object.freeze(host.args.slice());
    return args;
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
}
internals.exposeInterface(Performance, 'Performance');
const performance = internals.initEventTarget(Object.create(Performance.prototype));
Object.defineProperty(global, 'performance', {
  get() { return performance; },
  set(value) { Object.defineProperty(global, 'performance', { value, writable: true, configurable: true, enumerable: true }); },
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
  if (host.workerInfo !== undefined) internals.setupWorkerGlobal(host.workerInfo);
  // J3: a pending Atomics.waitAsync keeps the runtime alive until its promise
  // settles. V8 does not tell the platform when it cancels the delayed task
  // behind a waitAsync timeout (LESSONS 3), so the reference is held here, at
  // the JS level, from the call until the promise settles.
  const originalWaitAsync = Atomics.waitAsync;
  if (typeof originalWaitAsync === 'function') {
    const ReflectApply = Reflect.apply;
    const PromisePrototypeThen = Promise.prototype.then;
    const release = () => host.unrefLoop();
    const methods = {
      waitAsync(typedArray, index, value, timeout) {
        const result = ReflectApply(originalWaitAsync, Atomics, arguments);
        if (result.async) {
          host.refLoop();
          ReflectApply(PromisePrototypeThen, result.value, [release, release]);
        }
        return result;
      },
    };
    Object.defineProperty(Atomics, 'waitAsync', {
      value: methods.waitAsync, writable: true, configurable: true, enumerable: false,
    });
  }

  // J3: a pending async WebAssembly compile keeps the runtime alive: V8 compiles
  // on its worker threads and finishes with a foreground task, which the loop
  // must still be running to receive.
  if (typeof WebAssembly === 'object') {
    const ReflectApply = Reflect.apply;
    const PromisePrototypeThen = Promise.prototype.then;
    const release = () => host.unrefLoop();
    for (const name of ['compile', 'instantiate']) {
      const original = WebAssembly[name];
      if (typeof original !== 'function') continue;
      const methods = {
        [name](...args) {
          const promise = ReflectApply(original, WebAssembly, args);
          host.refLoop();
          // The derived promise is what the caller gets, so a rejection the
          // caller ignores is still reported as unhandled (J5).
          return ReflectApply(PromisePrototypeThen, promise, [
            (value) => { release(); return value; },
            (reason) => { release(); throw reason; },
          ]);
        },
      };
      Object.defineProperty(methods[name], 'length', { value: original.length });
      Object.defineProperty(WebAssembly, name, {
        value: methods[name], writable: true, configurable: true, enumerable: false,
      });
    }
  }
};
