// HARNESS-ONLY spec tests for the `internals` that src/runtime/js/events.js
// exports to the rest of the runtime (markTrusted, reportException,
// defineEventHandler, abort algorithms, ...).
//
// Only tests/tools/run_events_in_vm.mjs can run this file: it exposes the
// realm's `internals` object as `globalThis.__internals` and harness helpers
// as `globalThis.__harness`. Neither node nor hostloop expose them.
//
//   node --experimental-vm-modules tests/tools/run_events_in_vm.mjs tests/js/events_internals_vm.mjs

import { test, assert, assertEquals, assertThrows, delay, waitFor } from './lib/assert.mjs';

const internals = globalThis.__internals;
const harness = globalThis.__harness;
if (internals === undefined || harness === undefined) {
  throw new Error('events_internals_vm.mjs needs tests/tools/run_events_in_vm.mjs (no __internals here)');
}

// Collects what internals.reportException receives while `fn` runs.
async function withReported(fn) {
  const reported = [];
  const saved = internals.reportException;
  internals.reportException = (error) => reported.push(error);
  try {
    await fn(reported);
  } finally {
    internals.reportException = saved;
  }
  return reported;
}

// ---------------------------------------------------------------------------
// isTrusted
// ---------------------------------------------------------------------------

await test('markTrusted: isTrusted becomes true; dispatchEvent() resets it', () => {
  const event = new Event('x');
  assertEquals(internals.markTrusted(event), event);
  assertEquals(event.isTrusted, true);
  const target = new EventTarget();
  let seen = null;
  target.addEventListener('x', (e) => { seen = e.isTrusted; });
  target.dispatchEvent(event);
  assertEquals(seen, false, 'dispatchEvent step 2 sets isTrusted to false');
  assertEquals(event.isTrusted, false);
  assertThrows(() => internals.markTrusted({}), TypeError);
});

await test('dispatchEvent (internal) keeps a trusted event trusted', () => {
  const target = new EventTarget();
  let seen = null;
  target.addEventListener('x', (e) => {
    seen = e.isTrusted;
    e.preventDefault();
  });
  const event = internals.markTrusted(new Event('x', { cancelable: true }));
  assertEquals(internals.dispatchEvent(target, event), false);
  assertEquals(seen, true);
  assertEquals(event.isTrusted, true);
  assertThrows(() => internals.dispatchEvent({}, new Event('x')), TypeError);
  assertThrows(() => internals.dispatchEvent(target, {}), TypeError);
});

await test('fireEvent creates a trusted event of the given interface', () => {
  const target = new EventTarget();
  let seen = null;
  target.addEventListener('message', (e) => {
    seen = [e instanceof MessageEvent, e.isTrusted, e.data, e.cancelable];
  });
  assertEquals(internals.fireEvent(target, 'message', MessageEvent, { data: 42 }), true);
  assertEquals(seen, [true, true, 42, false]);
  let plain = null;
  target.addEventListener('ping', (e) => { plain = [Object.getPrototypeOf(e) === Event.prototype, e.isTrusted]; });
  internals.fireEvent(target, 'ping');
  assertEquals(plain, [true, true]);
});

await test('internal dispatch of an event being dispatched throws InvalidStateError', () => {
  const target = new EventTarget();
  const event = new Event('x');
  let error = null;
  target.addEventListener('x', () => {
    try {
      internals.dispatchEvent(target, event);
    } catch (e) {
      error = e;
    }
  });
  target.dispatchEvent(event);
  assertEquals(error?.name, 'InvalidStateError');
  assert(error instanceof DOMException, 'a DOMException');
});

// ---------------------------------------------------------------------------
// Exceptions in listeners
// ---------------------------------------------------------------------------

await test('a throwing listener is reported and does not stop the others', async () => {
  const target = new EventTarget();
  const order = [];
  const boom = new Error('boom');
  target.addEventListener('x', () => {
    order.push('first');
    throw boom;
  });
  target.addEventListener('x', () => order.push('second'));
  target.addEventListener('x', () => {
    order.push('third');
    throw 'not an Error';
  }, true);
  let result;
  const reported = await withReported(() => {
    result = target.dispatchEvent(new Event('x', { cancelable: true }));
  });
  assertEquals(result, true);
  assertEquals(order, ['third', 'first', 'second']);
  assertEquals(reported.length, 2);
  assertEquals(reported[0], 'not an Error');
  assert(reported[1] === boom, 'the very error object is reported');
});

await test('a throwing once listener is still removed', async () => {
  const target = new EventTarget();
  let calls = 0;
  const reported = await withReported(() => {
    target.addEventListener('x', () => {
      calls++;
      throw new Error('once');
    }, { once: true });
    target.dispatchEvent(new Event('x'));
    target.dispatchEvent(new Event('x'));
  });
  assertEquals(calls, 1);
  assertEquals(reported.length, 1);
});

await test('handleEvent problems are reported', async () => {
  const target = new EventTarget();
  let after = 0;
  const reported = await withReported(() => {
    target.addEventListener('x', { handleEvent: 'not callable' });
    target.addEventListener('x', { get handleEvent() { throw new RangeError('getter'); } });
    target.addEventListener('x', {});
    target.addEventListener('x', () => after++);
    target.dispatchEvent(new Event('x'));
  });
  assertEquals(after, 1);
  assertEquals(reported.length, 3);
  assert(reported[0] instanceof TypeError, 'non-callable handleEvent: TypeError');
  assert(reported[1] instanceof RangeError, 'the getter error itself');
  assert(reported[2] instanceof TypeError, 'missing handleEvent: TypeError');
});

await test('a throwing event handler attribute is reported', async () => {
  const controller = new AbortController();
  let after = false;
  const reported = await withReported(() => {
    controller.signal.onabort = () => {
      throw new Error('handler');
    };
    controller.signal.addEventListener('abort', () => { after = true; });
    controller.abort();
  });
  assertEquals(after, true);
  assertEquals(reported.map((e) => e.message), ['handler']);
});

await test('the event state is restored when a listener throws', async () => {
  const target = new EventTarget();
  const event = new Event('x');
  await withReported(() => {
    target.addEventListener('x', () => {
      throw new Error('x');
    });
    target.dispatchEvent(event);
  });
  assertEquals([event.eventPhase, event.currentTarget, event.composedPath()], [0, null, []]);
  // Not stuck in the "being dispatched" state.
  await withReported(() => target.dispatchEvent(event));
});

await test('without internals.reportException the error is rethrown in a microtask', async () => {
  const saved = internals.reportException;
  delete internals.reportException;
  harness.captureUncaught = true;
  harness.uncaught.length = 0;
  try {
    const target = new EventTarget();
    let second = false;
    target.addEventListener('x', () => {
      throw new Error('async rethrow');
    });
    target.addEventListener('x', () => { second = true; });
    target.dispatchEvent(new Event('x'));
    assertEquals(second, true);
    assertEquals(harness.uncaught.length, 0, 'not thrown synchronously');
    await waitFor(() => harness.uncaught.length === 1, 5000, 'the rethrown error');
    assertEquals(harness.uncaught[0].message, 'async rethrow');
  } finally {
    harness.captureUncaught = false;
    if (saved !== undefined) internals.reportException = saved;
  }
});

await test('a throwing reportException falls back to the microtask rethrow', async () => {
  internals.reportException = () => {
    throw new Error('reporter broke');
  };
  harness.captureUncaught = true;
  harness.uncaught.length = 0;
  try {
    const target = new EventTarget();
    target.addEventListener('x', () => {
      throw new Error('original');
    });
    target.dispatchEvent(new Event('x'));
    await waitFor(() => harness.uncaught.length === 1, 5000, 'the rethrown error');
    assertEquals(harness.uncaught[0].message, 'original');
  } finally {
    harness.captureUncaught = false;
    delete internals.reportException;
  }
});

// ---------------------------------------------------------------------------
// defineEventHandler
// ---------------------------------------------------------------------------

class Pinger extends EventTarget {}
internals.defineEventHandler(Pinger.prototype, 'ping');

await test('defineEventHandler: accessor shape', () => {
  const descriptor = Object.getOwnPropertyDescriptor(Pinger.prototype, 'onping');
  assertEquals([descriptor.enumerable, descriptor.configurable], [true, true]);
  assertEquals(descriptor.get.name, 'get onping');
  assertEquals(descriptor.set.name, 'set onping');
  assertEquals(new Pinger().onping, null);
  assertThrows(() => descriptor.get.call({}), TypeError);
  assertThrows(() => descriptor.set.call({}, () => {}), TypeError);
  assertThrows(() => Pinger.prototype.onping, TypeError);
  // A plain EventTarget passes the default brand check.
  assertEquals(descriptor.get.call(new EventTarget()), null);
});

await test('defineEventHandler: position, replacement, removal', () => {
  const target = new Pinger();
  const order = [];
  target.addEventListener('ping', () => order.push('A'));
  target.onping = () => order.push('H1');
  target.addEventListener('ping', () => order.push('B'));
  target.dispatchEvent(new Event('ping'));
  assertEquals(order, ['A', 'H1', 'B']);
  order.length = 0;
  const h2 = () => order.push('H2');
  target.onping = h2;
  assertEquals(target.onping, h2);
  target.dispatchEvent(new Event('ping'));
  assertEquals(order, ['A', 'H2', 'B'], 'replacing keeps the position');
  order.length = 0;
  target.onping = null;
  assertEquals(target.onping, null);
  target.dispatchEvent(new Event('ping'));
  assertEquals(order, ['A', 'B'], 'null removes the handler');
  order.length = 0;
  target.onping = h2;
  target.dispatchEvent(new Event('ping'));
  assertEquals(order, ['A', 'B', 'H2'], 'set again after null: appended at the end');
  // The handler is invisible to removeEventListener.
  order.length = 0;
  target.removeEventListener('ping', h2);
  target.dispatchEvent(new Event('ping'));
  assertEquals(order, ['A', 'B', 'H2']);
});

await test('defineEventHandler: a null first assignment takes no position', () => {
  const target = new Pinger();
  const order = [];
  target.onping = null;
  target.addEventListener('ping', () => order.push('A'));
  target.onping = () => order.push('H');
  target.dispatchEvent(new Event('ping'));
  assertEquals(order, ['A', 'H']);
});

await test('defineEventHandler: handler changed during dispatch', () => {
  const target = new Pinger();
  const order = [];
  target.addEventListener('ping', () => {
    order.push('A');
    target.onping = () => order.push('H2');
  });
  target.onping = () => order.push('H1');
  target.dispatchEvent(new Event('ping'));
  assertEquals(order, ['A', 'H2'], 'the current value is read when the handler runs');
});

await test('defineEventHandler: conversion ([LegacyTreatNonObjectAsNull])', () => {
  const target = new Pinger();
  for (const value of [1, 'string', true, Symbol('s'), undefined, 10n]) {
    target.onping = () => {};
    target.onping = value;
    assertEquals(target.onping, null, `non-object ${String(value)} is null`);
  }
  const object = { handleEvent() { throw new Error('never called'); } };
  target.onping = object;
  assertEquals(target.onping, object, 'non-callable objects are kept');
  assertEquals(target.dispatchEvent(new Event('ping', { cancelable: true })), true, 'and do nothing');
});

await test('defineEventHandler: this, argument, and return value', () => {
  const target = new Pinger();
  let seen = null;
  target.onping = function (...args) {
    seen = [this === target, args.length, args[0].type];
    return false;
  };
  const cancelable = new Event('ping', { cancelable: true });
  assertEquals(target.dispatchEvent(cancelable), false, 'return false cancels');
  assertEquals(seen, [true, 1, 'ping']);
  assertEquals(cancelable.defaultPrevented, true);
  // HTML sets the canceled flag directly, even for a non-cancelable event
  // (https://html.spec.whatwg.org/multipage/webappapis.html#the-event-handler-processing-algorithm step 5).
  const plain = new Event('ping');
  assertEquals(target.dispatchEvent(plain), false);
  assertEquals(plain.defaultPrevented, true);
  target.onping = () => true;
  assertEquals(target.dispatchEvent(new Event('ping', { cancelable: true })), true, 'true does not cancel');
  target.onping = () => undefined;
  assertEquals(target.dispatchEvent(new Event('ping', { cancelable: true })), true);
  target.onping = () => 0;
  assertEquals(target.dispatchEvent(new Event('ping', { cancelable: true })), true, 'only the value false');
});

class FakeGlobal extends EventTarget {}
internals.defineEventHandler(FakeGlobal.prototype, 'error', { errorSignature: true });
class NotGlobal extends EventTarget {}
internals.defineEventHandler(NotGlobal.prototype, 'error');

await test('defineEventHandler errorSignature: onerror gets (message, filename, lineno, colno, error)', () => {
  const target = new FakeGlobal();
  const error = new Error('bad');
  let seen = null;
  target.onerror = function (...args) {
    seen = [this === target, ...args];
    return true;
  };
  const event = new ErrorEvent('error', {
    message: 'msg', filename: 'f.js', lineno: 1, colno: 2, error, cancelable: true,
  });
  assertEquals(target.dispatchEvent(event), false, 'return true cancels');
  assertEquals(seen, [true, 'msg', 'f.js', 1, 2, error]);
  target.onerror = () => false;
  const second = new ErrorEvent('error', { cancelable: true });
  assertEquals(target.dispatchEvent(second), true, 'return false does not cancel');
});

await test('defineEventHandler errorSignature: non-ErrorEvent error events get the event', () => {
  const target = new FakeGlobal();
  let seen = null;
  target.onerror = (...args) => {
    seen = args;
    return false;
  };
  const event = new Event('error', { cancelable: true });
  assertEquals(target.dispatchEvent(event), false, 'ordinary rule: false cancels');
  assertEquals(seen.length, 1);
  assertEquals(seen[0], event);
});

await test('defineEventHandler without errorSignature: onerror is an ordinary handler', () => {
  const target = new NotGlobal();
  let seen = null;
  target.onerror = (...args) => {
    seen = args;
    return true;
  };
  const event = new ErrorEvent('error', { message: 'm', cancelable: true });
  assertEquals(target.dispatchEvent(event), true, 'true does not cancel');
  assertEquals(seen, [event]);
});

await test('defineEventHandler: brandCheck option', () => {
  class Special extends EventTarget {}
  const specials = new WeakSet();
  internals.defineEventHandler(Special.prototype, 'special', { brandCheck: (value) => specials.has(value) });
  const descriptor = Object.getOwnPropertyDescriptor(Special.prototype, 'onspecial');
  const unbranded = new Special();
  assertThrows(() => unbranded.onspecial, TypeError);
  const branded = new Special();
  specials.add(branded);
  assertEquals(branded.onspecial, null);
  assertThrows(() => descriptor.get.call(new EventTarget()), TypeError);
});

await test('onEventHandlerSet hook and onSet option', () => {
  const calls = [];
  internals.onEventHandlerSet = (target, name, value) => calls.push(['hook', target, name, value]);
  class Port extends EventTarget {}
  internals.defineEventHandler(Port.prototype, 'message', {
    onSet: (target, value) => calls.push(['onSet', target, value]),
  });
  try {
    const port = new Port();
    const handler = () => {};
    port.onmessage = handler;
    port.onmessage = 5;
    assertEquals(calls, [
      ['onSet', port, handler],
      ['hook', port, 'message', handler],
      ['onSet', port, null],
      ['hook', port, 'message', null],
    ]);
    // The hook sees every event handler attribute, onabort included.
    calls.length = 0;
    const { signal } = new AbortController();
    signal.onabort = handler;
    assertEquals(calls, [['hook', signal, 'abort', handler]]);
  } finally {
    delete internals.onEventHandlerSet;
  }
});

// ---------------------------------------------------------------------------
// EventTarget internals
// ---------------------------------------------------------------------------

await test('initEventTarget makes any object an EventTarget; null `this` means the global', () => {
  const object = {};
  assertEquals(internals.isEventTarget(object), false);
  assertEquals(internals.initEventTarget(object), object);
  assertEquals(internals.isEventTarget(object), true);
  let called = 0;
  EventTarget.prototype.addEventListener.call(object, 'x', () => called++);
  EventTarget.prototype.dispatchEvent.call(object, new Event('x'));
  assertEquals(called, 1);

  // WebIDL: a null or undefined `this` is the global object.
  const addEventListener = EventTarget.prototype.addEventListener;
  assertThrows(() => addEventListener('x', () => {}), TypeError, 'Illegal invocation');
  internals.initEventTarget(globalThis);
  let globalCalls = 0;
  addEventListener('global-test', function () {
    globalCalls++;
    assert(this === globalThis, 'this is the global');
  });
  EventTarget.prototype.dispatchEvent.call(globalThis, new Event('global-test'));
  assertEquals(globalCalls, 1);
  // Event handlers defined on the global's prototype chain work too.
  Object.setPrototypeOf(globalThis, FakeGlobal.prototype);
  let errorArgs = null;
  globalThis.onerror = (...args) => {
    errorArgs = args;
    return true;
  };
  const event = internals.markTrusted(new ErrorEvent('error', { message: 'global', cancelable: true }));
  assertEquals(internals.dispatchEvent(globalThis, event), false);
  assertEquals(errorArgs[0], 'global');
  globalThis.onerror = null;
});

await test('hasEventListeners, isEvent, isDOMException, isAbortSignal', () => {
  const target = new Pinger();
  assertEquals(internals.hasEventListeners(target, 'ping'), false);
  const listener = () => {};
  target.addEventListener('ping', listener);
  assertEquals(internals.hasEventListeners(target, 'ping'), true);
  target.removeEventListener('ping', listener);
  assertEquals(internals.hasEventListeners(target, 'ping'), false);
  target.onping = listener;
  assertEquals(internals.hasEventListeners(target, 'ping'), true, 'event handlers count');
  target.onping = null;
  assertEquals(internals.hasEventListeners(target, 'ping'), false);
  assertEquals(internals.hasEventListeners({}, 'ping'), false);
  assertEquals([internals.isEvent(new CustomEvent('x')), internals.isEvent({})], [true, false]);
  assertEquals([internals.isDOMException(new DOMException()), internals.isDOMException(new Error())], [true, false]);
  assertEquals([internals.isAbortSignal(AbortSignal.abort()), internals.isAbortSignal(new EventTarget())], [true, false]);
});

await test('MessageEvent source and ports use internals.isMessagePort once registered', () => {
  const ports = new WeakSet();
  const port = {};
  ports.add(port);
  internals.isMessagePort = (value) => ports.has(value);
  try {
    const event = new MessageEvent('message', { source: port, ports: [port] });
    assertEquals(event.source, port);
    assertEquals(event.ports, [port]);
    assertThrows(() => new MessageEvent('message', { source: {} }), TypeError);
    assertThrows(() => new MessageEvent('message', { ports: [{}] }), TypeError);
    assertThrows(() => event.initMessageEvent('m', false, false, null, '', '', {}), TypeError);
  } finally {
    delete internals.isMessagePort;
  }
  // Without the hook, any object passes, non-objects do not.
  assertThrows(() => new MessageEvent('message', { source: 5 }), TypeError);
  assertThrows(() => new MessageEvent('message', { ports: [5] }), TypeError);
});

await test('error messages follow one wording', () => {
  const target = new EventTarget();
  assertThrows(() => target.addEventListener('x'), TypeError,
    "Failed to execute 'addEventListener' on 'EventTarget': 2 arguments required, but only 1 present.");
  assertThrows(() => target.removeEventListener(), TypeError,
    "Failed to execute 'removeEventListener' on 'EventTarget': 2 arguments required, but only 0 present.");
  assertThrows(() => new PromiseRejectionEvent('x'), TypeError,
    "Failed to construct 'PromiseRejectionEvent': 2 arguments required, but only 1 present.");
  assertThrows(() => new AbortSignal(), TypeError, 'Illegal constructor');
  assertThrows(() => Event.prototype.preventDefault.call({}), TypeError, 'Illegal invocation');
  assertThrows(() => AbortSignal.timeout(-1), TypeError, "Failed to execute 'timeout' on 'AbortSignal'");
});

// ---------------------------------------------------------------------------
// Abort internals
// ---------------------------------------------------------------------------

await test('createAbortSignal and signalAbort', () => {
  const signal = internals.createAbortSignal();
  assert(signal instanceof AbortSignal, 'an AbortSignal');
  assertEquals(signal.aborted, false);
  let events = 0;
  signal.onabort = (e) => {
    events++;
    assertEquals(e.isTrusted, true);
  };
  internals.signalAbort(signal, undefined);
  assertEquals(signal.reason.name, 'AbortError');
  internals.signalAbort(signal, 'again');
  assertEquals(events, 1);
  const withReason = internals.createAbortSignal();
  internals.signalAbort(withReason, 'why');
  assertEquals(withReason.reason, 'why');
  assertThrows(() => internals.signalAbort({}, 'x'), TypeError);
});

await test('abort algorithms run before the abort event and are not listeners', () => {
  const controller = new AbortController();
  const { signal } = controller;
  const order = [];
  signal.addEventListener('abort', () => order.push('listener'));
  const algorithm = () => order.push(`algorithm ${signal.aborted}`);
  internals.addAbortAlgorithm(signal, algorithm);
  internals.addAbortAlgorithm(signal, algorithm);
  const removed = () => order.push('removed');
  internals.addAbortAlgorithm(signal, removed);
  internals.removeAbortAlgorithm(signal, removed);
  assertEquals(internals.hasEventListeners(signal, 'abort'), true);
  controller.abort();
  assertEquals(order, ['algorithm true', 'listener'], 'once (a set), before the event');
  // Adding to an aborted signal does nothing.
  let late = 0;
  internals.addAbortAlgorithm(signal, () => late++);
  internals.signalAbort(signal);
  assertEquals(late, 0);
  const fresh = new AbortController();
  internals.addAbortAlgorithm(fresh.signal, () => {});
  assertEquals(internals.hasEventListeners(fresh.signal, 'abort'), false, 'invisible as a listener');
});

await test('a throwing abort algorithm is reported; the rest still runs', async () => {
  const controller = new AbortController();
  const order = [];
  const reported = await withReported(() => {
    internals.addAbortAlgorithm(controller.signal, () => {
      throw new Error('algorithm');
    });
    internals.addAbortAlgorithm(controller.signal, () => order.push('second'));
    controller.signal.addEventListener('abort', () => order.push('event'));
    controller.abort();
  });
  assertEquals(order, ['second', 'event']);
  assertEquals(reported.map((e) => e.message), ['algorithm']);
});

await test('dependent signals run their abort algorithms after the source', () => {
  const controller = new AbortController();
  const dependent = AbortSignal.any([controller.signal]);
  const order = [];
  internals.addAbortAlgorithm(dependent, () => order.push('dependent algorithm'));
  internals.addAbortAlgorithm(controller.signal, () => order.push(`source algorithm ${dependent.aborted}`));
  dependent.addEventListener('abort', () => order.push('dependent event'));
  controller.signal.addEventListener('abort', () => order.push('source event'));
  controller.abort();
  assertEquals(order, ['source algorithm true', 'source event', 'dependent algorithm', 'dependent event']);
});

await test('createDependentAbortSignal', () => {
  const a = new AbortController();
  const dependent = internals.createDependentAbortSignal([a.signal]);
  a.abort('r');
  assertEquals(dependent.reason, 'r');
});

await test('AbortSignal.timeout uses setTimeout from the global at call time, in 2^31-1 ms chunks', () => {
  const saved = globalThis.setTimeout;
  const calls = [];
  globalThis.setTimeout = (callback, ms) => {
    calls.push({ callback, ms });
    return calls.length;
  };
  try {
    const signal = AbortSignal.timeout(2 ** 31 + 5);
    assertEquals(calls.map((c) => c.ms), [2 ** 31 - 1]);
    calls[0].callback();
    assertEquals(signal.aborted, false);
    assertEquals(calls.map((c) => c.ms), [2 ** 31 - 1, 6]);
    calls[1].callback();
    assertEquals(signal.aborted, true);
    assertEquals(signal.reason.name, 'TimeoutError');
    const max = AbortSignal.timeout(Number.MAX_SAFE_INTEGER);
    assertEquals(calls[2].ms, 2 ** 31 - 1);
    assertEquals(max.aborted, false);
  } finally {
    globalThis.setTimeout = saved;
  }
});

await test('AbortSignal.timeout prefers internals.setUnrefTimeout', () => {
  const calls = [];
  internals.setUnrefTimeout = (callback, ms) => calls.push({ callback, ms });
  try {
    const signal = AbortSignal.timeout(7);
    assertEquals(calls.map((c) => c.ms), [7]);
    calls[0].callback();
    assertEquals(signal.reason.name, 'TimeoutError');
  } finally {
    delete internals.setUnrefTimeout;
  }
});

// ---------------------------------------------------------------------------
// Garbage collection of dependent signals
// https://dom.spec.whatwg.org/#abort-signal-garbage-collection
// ---------------------------------------------------------------------------

async function collectGarbage() {
  for (let i = 0; i < 3; i++) {
    await delay(0);
    harness.gc();
  }
  await delay(0);
}

await test('GC: a dependent signal with an abort listener survives while its source lives', async () => {
  if (typeof harness.gc !== 'function') return;
  const controller = new AbortController();
  let fired = 0;
  (() => {
    const dependent = AbortSignal.any([controller.signal]);
    dependent.addEventListener('abort', () => fired++);
  })();
  await collectGarbage();
  controller.abort();
  assertEquals(fired, 1);
});

await test('GC: a dependent signal with an abort algorithm survives while its source lives', async () => {
  if (typeof harness.gc !== 'function') return;
  const controller = new AbortController();
  let ran = 0;
  (() => {
    const dependent = AbortSignal.any([controller.signal]);
    internals.addAbortAlgorithm(dependent, () => ran++);
  })();
  await collectGarbage();
  controller.abort();
  assertEquals(ran, 1);
});

await test('GC: dependent signals nobody observes are collected', async () => {
  if (typeof harness.gc !== 'function') return;
  const controller = new AbortController();
  let ref;
  let withRemovedListener;
  (() => {
    ref = new WeakRef(AbortSignal.any([controller.signal]));
    const dependent = AbortSignal.any([controller.signal]);
    const listener = () => {};
    dependent.addEventListener('abort', listener);
    dependent.removeEventListener('abort', listener);
    withRemovedListener = new WeakRef(dependent);
  })();
  await collectGarbage();
  assertEquals(ref.deref(), undefined, 'collected while its source lives');
  assertEquals(withRemovedListener.deref(), undefined, 'collected once its listener is gone');
  controller.abort();
});

await test('GC: a listener with a signal does not keep its target alive through the signal', async () => {
  if (typeof harness.gc !== 'function') return;
  const controller = new AbortController();
  let ref;
  (() => {
    const target = new EventTarget();
    target.addEventListener('x', () => {}, { signal: controller.signal });
    target.removeEventListener('x', () => {});
    ref = new WeakRef(target);
  })();
  await collectGarbage();
  // The listener is still registered, so the signal's abort algorithm holds
  // the target: this is what the spec's strong "abort steps" imply.
  assert(ref.deref() !== undefined, 'held by the abort algorithm while registered');
  controller.abort();
  await collectGarbage();
  assertEquals(ref.deref(), undefined, 'released after the abort removed the listener');
});

// ---------------------------------------------------------------------------
// Robustness: events.js captured the built-ins it uses at startup
// ---------------------------------------------------------------------------

await test('patched built-in prototypes do not change dispatch or aborting', () => {
  const defineProperty = Object.defineProperty;
  const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
  const saved = [];
  const patch = (object, key) => {
    saved[saved.length] = [object, key, getOwnPropertyDescriptor(object, key)];
    defineProperty(object, key, {
      value: () => {
        throw new Error('a patched built-in was called');
      },
      writable: true,
      configurable: true,
    });
  };
  const targets = [
    [Array.prototype, ['push', 'slice', 'indexOf', 'splice', 'map', 'filter']],
    [Map.prototype, ['get', 'set', 'has', 'delete']],
    [WeakMap.prototype, ['get', 'set', 'has', 'delete']],
    [Set.prototype, ['add', 'has', 'delete', 'forEach']],
    [Function.prototype, ['call', 'apply', 'bind']],
    [Reflect, ['apply']],
    [Object, ['defineProperty', 'freeze', 'create', 'setPrototypeOf']],
  ];
  const log = [];
  let failure = null;
  for (let i = 0; i < targets.length; i++) {
    for (let j = 0; j < targets[i][1].length; j++) patch(targets[i][0], targets[i][1][j]);
  }
  try {
    const target = new EventTarget();
    const controller = new AbortController();
    target.addEventListener('x', (e) => { log[log.length] = e.type; }, { signal: controller.signal });
    target.addEventListener('x', { handleEvent() { log[log.length] = 'capture'; } }, true);
    target.dispatchEvent(new CustomEvent('x', { detail: 1 }));
    const dependent = AbortSignal.any([controller.signal]);
    dependent.onabort = () => { log[log.length] = 'dependent'; };
    controller.abort();
    target.dispatchEvent(new Event('x'));
    log[log.length] = new MessageEvent('m', { ports: [] }).ports.length;
    log[log.length] = String(new DOMException('a', 'AbortError'));
  } catch (error) {
    failure = error;
  } finally {
    for (let i = saved.length - 1; i >= 0; i--) defineProperty(saved[i][0], saved[i][1], saved[i][2]);
  }
  assertEquals(failure, null);
  assertEquals(log, ['capture', 'x', 'dependent', 'capture', 0, 'AbortError: a']);
});
