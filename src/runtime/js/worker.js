'use strict';
// Web Workers: the Worker interface (in every realm: workers can create
// workers) and the dedicated worker global scope (in a worker's realm).
// https://html.spec.whatwg.org/multipage/workers.html
// The natives (host.worker*) are registered by src/worker.

const TypeError = global.TypeError;
const ReflectApply = Reflect.apply;
const ObjectDefineProperty = Object.defineProperty;
const ObjectSetPrototypeOf = Object.setPrototypeOf;
const EventTarget = global.EventTarget;
const ErrorEvent = global.ErrorEvent;
const DOMExceptionCtor = global.DOMException;
const URLCtor = global.URL;

const kTypes = ['classic', 'module'];

// https://html.spec.whatwg.org/multipage/workers.html#dedicated-workers-and-the-worker-interface
class Worker extends EventTarget {
  #id;
  constructor(scriptURL, options = undefined) {
    super();
    if (arguments.length < 1) {
      throw new TypeError("Failed to construct 'Worker': 1 argument required, but only 0 present.");
    }
    // WebIDL string conversions (a Symbol is a TypeError, not "Symbol()").
    const url = `${scriptURL}`;
    let type = 'classic';
    let name = '';
    if (options !== undefined && options !== null) {
      if (typeof options !== 'object') {
        throw new TypeError("Failed to construct 'Worker': The provided value is not of type 'WorkerOptions'.");
      }
      // WorkerOptions' members in WebIDL order: name, then type.
      const nameOption = options.name;
      if (nameOption !== undefined) name = `${nameOption}`;
      const typeOption = options.type;
      if (typeOption !== undefined) type = `${typeOption}`;
    }
    if (!kTypes.includes(type)) {
      throw new TypeError(`Failed to construct 'Worker': The provided value '${type}' is not a valid enum value of type WorkerType.`);
    }
    this.#id = host.workerCreate(this, url, type, name);
  }
  postMessage(message, transferOrOptions = undefined) {
    if (!(#id in this)) throw new TypeError('Illegal invocation');
    if (arguments.length < 1) {
      throw new TypeError("Failed to execute 'postMessage' on 'Worker': 1 argument required, but only 0 present.");
    }
    host.workerPostMessage(this.#id, message, internals.transferList(transferOrOptions, 'postMessage'));
  }
  terminate() {
    if (!(#id in this)) throw new TypeError('Illegal invocation');
    host.workerTerminate(this.#id);
  }
}
ObjectDefineProperty(Worker.prototype, Symbol.toStringTag, { value: 'Worker', configurable: true });
for (const name of ['postMessage', 'terminate']) {
  const descriptor = Object.getOwnPropertyDescriptor(Worker.prototype, name);
  descriptor.enumerable = true;
  ObjectDefineProperty(Worker.prototype, name, descriptor);
}
for (const name of ['message', 'messageerror', 'error']) {
  internals.defineEventHandler(Worker.prototype, name);
}
ObjectDefineProperty(global, 'Worker', { value: Worker, writable: true, configurable: true, enumerable: false });

// A worker's uncaught error, at the Worker object: a cancelable ErrorEvent
// whose `error` is null (HTML "runtime script errors in workers": the error
// value stays in the worker). Returns true when nobody canceled it (the
// parent then reports it itself).
internals.dispatchWorkerError = function dispatchWorkerError(worker, message, filename, lineno, colno) {
  const event = new ErrorEvent('error', { message, filename, lineno, colno, error: null, cancelable: true });
  internals.markTrusted(event);
  return internals.dispatchEvent(worker, event);
};

// A worker whose script could not be fetched or parsed: a plain `error`
// event (HTML "run a worker"), not an ErrorEvent, and no further reporting.
internals.fireWorkerLoadError = function fireWorkerLoadError(worker) {
  internals.fireEvent(worker, 'error');
};

// The worker side: called from realmStarted in a worker's realm.
// https://html.spec.whatwg.org/multipage/workers.html#dedicatedworkerglobalscope
internals.setupWorkerGlobal = function setupWorkerGlobal(info) {
  const methods = {
    postMessage(message, transferOrOptions = undefined) {
      if (arguments.length < 1) {
        throw new TypeError("Failed to execute 'postMessage' on 'DedicatedWorkerGlobalScope': 1 argument required, but only 0 present.");
      }
      host.workerGlobalPostMessage(message, internals.transferList(transferOrOptions, 'postMessage'));
    },
    close() {
      host.workerClose();
    },
  };
  for (const name of ['postMessage', 'close']) {
    ObjectDefineProperty(global, name, { value: methods[name], writable: true, configurable: true, enumerable: true });
  }
  ObjectDefineProperty(global, 'name', {
    get() { return info.name; }, configurable: true, enumerable: true,
  });
  // Every worker global has importScripts; a module worker's throws
  // (HTML: "If this's type is 'module', throw a TypeError").
  const importScripts = function importScripts(...urls) {
    if (info.type !== 'classic') {
      throw new TypeError("Failed to execute 'importScripts' on 'WorkerGlobalScope': Module scripts don't support importScripts().");
    }
    const strings = urls.map((url) => `${url}`);
    // HTML: a URL that does not parse is a SyntaxError, before any script
    // runs; one that parses but cannot be fetched (another scheme, a
    // missing file) is a NetworkError from the native side.
    for (const url of strings) {
      try {
        new URLCtor(url, info.url);
      } catch {
        throw new DOMExceptionCtor(
          `Failed to execute 'importScripts' on 'WorkerGlobalScope': The URL '${url}' is invalid.`,
          'SyntaxError');
      }
    }
    host.importScripts(...strings);
  };
  ObjectDefineProperty(global, 'importScripts', { value: importScripts, writable: true, configurable: true, enumerable: true });

  // A worker with a `message` listener on its global stays alive: its parent
  // may still send it work (J3). However the listener comes or goes (`once`,
  // an aborted `signal`, onmessage, EventTarget.prototype's methods).
  internals.watchEventListeners(global, (target, type, present) => {
    if (type === 'message') host.workerKeepAlive(present);
  });
  internals.defineEventHandler(global, 'message');
  internals.defineEventHandler(global, 'messageerror');

  // The interfaces of the global (`self instanceof WorkerGlobalScope` is how
  // libraries tell a worker) and self.location.
  const location = new WorkerLocation(kConstructLocation, info.url);
  class WorkerGlobalScope extends EventTarget {
    constructor() {
      throw new TypeError('Illegal constructor');
    }
    get location() {
      return location;
    }
  }
  class DedicatedWorkerGlobalScope extends WorkerGlobalScope {
    constructor() {
      throw new TypeError('Illegal constructor');
    }
  }
  ObjectDefineProperty(WorkerGlobalScope.prototype, 'location', { enumerable: true });
  ObjectSetPrototypeOf(global, DedicatedWorkerGlobalScope.prototype);
  for (const [name, value] of [['WorkerGlobalScope', WorkerGlobalScope],
    ['DedicatedWorkerGlobalScope', DedicatedWorkerGlobalScope], ['WorkerLocation', WorkerLocation]]) {
    ObjectDefineProperty(value.prototype, Symbol.toStringTag, { value: name, configurable: true });
    ObjectDefineProperty(global, name, { value, writable: true, configurable: true, enumerable: false });
  }
};

// https://html.spec.whatwg.org/multipage/workers.html#worker-locations: the
// worker script's URL, read only.
const kConstructLocation = Symbol('WorkerLocation');
class WorkerLocation {
  #url;
  constructor(key, url) {
    if (key !== kConstructLocation) throw new TypeError('Illegal constructor');
    this.#url = new URLCtor(url);
  }
  static #urlOf(location) {
    if (!(#url in location)) throw new TypeError('Illegal invocation');
    return location.#url;
  }
  get href() { return WorkerLocation.#urlOf(this).href; }
  get origin() { return WorkerLocation.#urlOf(this).origin; }
  get protocol() { return WorkerLocation.#urlOf(this).protocol; }
  get host() { return WorkerLocation.#urlOf(this).host; }
  get hostname() { return WorkerLocation.#urlOf(this).hostname; }
  get port() { return WorkerLocation.#urlOf(this).port; }
  get pathname() { return WorkerLocation.#urlOf(this).pathname; }
  get search() { return WorkerLocation.#urlOf(this).search; }
  get hash() { return WorkerLocation.#urlOf(this).hash; }
  toString() { return WorkerLocation.#urlOf(this).href; }
}
for (const name of ['href', 'origin', 'protocol', 'host', 'hostname', 'port', 'pathname', 'search', 'hash', 'toString']) {
  ObjectDefineProperty(WorkerLocation.prototype, name, { enumerable: true });
}
