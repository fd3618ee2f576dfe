// Spec tests for AbortController and AbortSignal
// (https://dom.spec.whatwg.org/#aborting-ongoing-activities), including the
// onabort event handler attribute
// (https://html.spec.whatwg.org/multipage/webappapis.html#event-handler-attributes).
//
// Runs under hostloop, under plain node and under
// tests/tools/run_events_in_vm.mjs (hostloop's src/runtime/js/events.js in a
// node:vm context). Node deviations are guarded with `!NODE`.

import { test, assert, assertEquals, assertThrows, delay, waitFor } from './lib/assert.mjs';

// True under plain node only (hostloop and the vm harness have no `process`).
const NODE = typeof process === 'object' && process !== null && typeof process.versions?.node === 'string';

// Resolves with the signal's abort event. A pending timer keeps the process
// alive meanwhile: node's AbortSignal.timeout timers do not (and hostloop's
// need not either).
async function abortEventOnce(signal) {
  const keepAlive = setTimeout(() => {}, 30000);
  try {
    return await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
  } finally {
    clearTimeout(keepAlive);
  }
}

// ---------------------------------------------------------------------------
// Shape
// ---------------------------------------------------------------------------

await test('AbortSignal and AbortController: WebIDL shape', () => {
  assertThrows(() => new AbortSignal(), TypeError);
  assertThrows(() => AbortSignal(), TypeError);
  assertThrows(() => AbortController(), TypeError);
  assertEquals(Object.getPrototypeOf(AbortSignal), EventTarget);
  assertEquals(Object.getPrototypeOf(AbortSignal.prototype), EventTarget.prototype);
  assertEquals(AbortController.length, 0);
  assertEquals(AbortSignal.abort.length, 0);
  assertEquals(AbortSignal.timeout.length, 1);
  assertEquals(AbortSignal.any.length, 1);
  assertEquals(AbortController.prototype.abort.length, 0);
  const signal = new AbortController().signal;
  assert(signal instanceof AbortSignal && signal instanceof EventTarget, 'instanceof');
  assertEquals(Object.prototype.toString.call(signal), '[object AbortSignal]');
  assertEquals(Object.prototype.toString.call(new AbortController()), '[object AbortController]');
  const keys = Object.keys(AbortSignal.prototype);
  // node's `reason` and `throwIfAborted` are not enumerable.
  for (const name of NODE ? ['aborted', 'onabort'] : ['aborted', 'reason', 'throwIfAborted', 'onabort']) {
    assert(keys.includes(name), `AbortSignal.prototype.${name} is enumerable`);
  }
  assertEquals(Object.keys(AbortController.prototype).sort(), ['abort', 'signal']);
  // node's static operations are not enumerable.
  if (!NODE) assertEquals(Object.keys(AbortSignal).sort(), ['abort', 'any', 'timeout']);
  // node keeps its state in symbol-keyed own properties.
  if (!NODE) {
    assertEquals(Reflect.ownKeys(signal), []);
    assertEquals(Reflect.ownKeys(new AbortController()), []);
  }
});

await test('AbortSignal: getters check their receiver', () => {
  const aborted = Object.getOwnPropertyDescriptor(AbortSignal.prototype, 'aborted').get;
  assertThrows(() => aborted.call({}), TypeError);
  assertThrows(() => aborted.call(new EventTarget()), TypeError);
  assertThrows(() => AbortSignal.prototype.throwIfAborted.call({}), TypeError);
  const signal = Object.getOwnPropertyDescriptor(AbortController.prototype, 'signal').get;
  assertThrows(() => signal.call({}), TypeError);
  assertThrows(() => AbortController.prototype.abort.call({}), TypeError);
  const onabort = Object.getOwnPropertyDescriptor(AbortSignal.prototype, 'onabort');
  assertEquals([onabort.enumerable, onabort.configurable], [true, true]);
  // node's event handler accessors do no brand check.
  if (!NODE) assertThrows(() => onabort.get.call(new EventTarget()), TypeError);
});

// ---------------------------------------------------------------------------
// AbortController
// ---------------------------------------------------------------------------

await test('AbortController: signal is the same object and starts not aborted', () => {
  const controller = new AbortController();
  assertEquals(controller.signal, controller.signal);
  assert(controller.signal === controller.signal, '[SameObject]');
  assertEquals(controller.signal.aborted, false);
  assertEquals(controller.signal.reason, undefined);
  controller.signal.throwIfAborted();
  assertEquals(controller.signal.onabort, null);
});

await test('AbortController: abort() with no reason gives an AbortError DOMException', () => {
  const controller = new AbortController();
  controller.abort();
  const { signal } = controller;
  assertEquals(signal.aborted, true);
  assert(signal.reason instanceof DOMException, 'reason is a DOMException');
  assertEquals([signal.reason.name, signal.reason.code], ['AbortError', 20]);
  const thrown = assertThrows(() => signal.throwIfAborted(), 'AbortError');
  assertEquals(thrown, signal.reason);
  const other = new AbortController();
  other.abort(undefined);
  assertEquals(other.signal.reason.name, 'AbortError');
});

await test('AbortController: abort(reason) keeps any reason, and only the first', () => {
  const controller = new AbortController();
  const reason = new Error('stop');
  controller.abort(reason);
  assertEquals(controller.signal.reason, reason);
  controller.abort('second');
  assertEquals(controller.signal.reason, reason);
  const nullReason = new AbortController();
  nullReason.abort(null);
  assertEquals([nullReason.signal.aborted, nullReason.signal.reason], [true, null]);
  let thrown;
  try {
    nullReason.signal.throwIfAborted();
  } catch (error) {
    thrown = error;
  }
  assertEquals(thrown, null);
  const stringReason = new AbortController();
  stringReason.abort('why');
  try {
    stringReason.signal.throwIfAborted();
    assert(false, 'throwIfAborted threw');
  } catch (error) {
    assertEquals(error, 'why');
  }
});

await test('AbortController: the abort event fires once, trusted', () => {
  const controller = new AbortController();
  const { signal } = controller;
  const events = [];
  signal.addEventListener('abort', (event) => {
    events.push({
      type: event.type,
      bubbles: event.bubbles,
      cancelable: event.cancelable,
      isTrusted: event.isTrusted,
      target: event.target === signal,
      aborted: signal.aborted,
      plainEvent: Object.getPrototypeOf(event) === Event.prototype,
    });
  });
  controller.abort();
  controller.abort();
  assertEquals(events, [{
    type: 'abort', bubbles: false, cancelable: false, isTrusted: true, target: true, aborted: true, plainEvent: true,
  }]);
  // Listeners added after the abort never run.
  let late = 0;
  signal.addEventListener('abort', () => late++);
  controller.abort();
  assertEquals(late, 0);
});

await test('AbortSignal: onabort', () => {
  const controller = new AbortController();
  const { signal } = controller;
  let self = null;
  let event = null;
  const handler = function (e) {
    self = this;
    event = e;
  };
  signal.onabort = handler;
  assertEquals(signal.onabort, handler);
  controller.abort();
  assertEquals(self, signal);
  assertEquals(event.type, 'abort');
  signal.onabort = null;
  assertEquals(signal.onabort, null);
});

await test('AbortSignal: onabort keeps its place among the listeners', () => {
  const controller = new AbortController();
  const { signal } = controller;
  const order = [];
  signal.addEventListener('abort', () => order.push('A'));
  signal.onabort = () => order.push('H1');
  signal.addEventListener('abort', () => order.push('B'));
  // Replacing the value keeps the position of the first assignment.
  signal.onabort = () => order.push('H2');
  signal.addEventListener('abort', () => order.push('C'));
  controller.abort();
  assertEquals(order, ['A', 'H2', 'B', 'C']);
});

await test('AbortSignal: setting onabort to null removes it; setting it again appends it', () => {
  // node keeps the handler's original position after null.
  if (NODE) return;
  const controller = new AbortController();
  const { signal } = controller;
  const order = [];
  signal.addEventListener('abort', () => order.push('A'));
  signal.onabort = () => order.push('H1');
  signal.addEventListener('abort', () => order.push('B'));
  signal.onabort = null;
  signal.onabort = () => order.push('H2');
  signal.addEventListener('abort', () => order.push('C'));
  controller.abort();
  assertEquals(order, ['A', 'B', 'H2', 'C']);
});

await test('AbortSignal: onabort conversion ([LegacyTreatNonObjectAsNull])', () => {
  const { signal } = new AbortController();
  const object = {};
  signal.onabort = object;
  assertEquals(signal.onabort, object, 'a non-callable object is kept');
  // node keeps non-object values instead of treating them as null.
  if (!NODE) {
    signal.onabort = 5;
    assertEquals(signal.onabort, null);
    signal.onabort = () => {};
    signal.onabort = 'code';
    assertEquals(signal.onabort, null);
  }
});

await test('AbortSignal: a non-callable onabort is not called and does not throw', () => {
  const controller = new AbortController();
  controller.signal.onabort = { handleEvent() { throw new Error('must not be called'); } };
  let after = false;
  controller.signal.addEventListener('abort', () => { after = true; });
  controller.abort();
  assertEquals(after, true);
});

await test('AbortSignal: onabort returning false cancels (cancelable events only matter here)', () => {
  // node ignores the return value of event handlers.
  if (NODE) return;
  const target = new AbortController().signal;
  target.onabort = () => false;
  const event = new Event('abort', { cancelable: true });
  assertEquals(target.dispatchEvent(event), false);
  assertEquals(event.defaultPrevented, true);
  target.onabort = () => true;
  const other = new Event('abort', { cancelable: true });
  assertEquals(target.dispatchEvent(other), true);
  target.onabort = () => 0;
  assertEquals(target.dispatchEvent(new Event('abort', { cancelable: true })), true, 'only false cancels');
});

// ---------------------------------------------------------------------------
// AbortSignal.abort
// ---------------------------------------------------------------------------

await test('AbortSignal.abort()', () => {
  const signal = AbortSignal.abort();
  assert(signal instanceof AbortSignal, 'an AbortSignal');
  assertEquals(signal.aborted, true);
  assertEquals(signal.reason.name, 'AbortError');
  assert(signal.reason instanceof DOMException, 'reason is a DOMException');
  assertEquals(AbortSignal.abort(undefined).reason.name, 'AbortError');
  assertEquals(AbortSignal.abort('why').reason, 'why');
  assertEquals(AbortSignal.abort(null).reason, null);
  assert(AbortSignal.abort() !== AbortSignal.abort(), '[NewObject]');
  assert(AbortSignal.abort().reason !== AbortSignal.abort().reason, 'a new AbortError each time');
  let fired = 0;
  signal.addEventListener('abort', () => fired++);
  assertEquals(fired, 0);
});

// ---------------------------------------------------------------------------
// AbortSignal.timeout
// ---------------------------------------------------------------------------

await test('AbortSignal.timeout: aborts with a TimeoutError DOMException', async () => {
  const signal = AbortSignal.timeout(10);
  assertEquals(signal.aborted, false);
  const event = await abortEventOnce(signal);
  assertEquals(event.isTrusted, true);
  assertEquals(signal.aborted, true);
  assert(signal.reason instanceof DOMException, 'reason is a DOMException');
  assertEquals([signal.reason.name, signal.reason.code], ['TimeoutError', 23]);
  assertThrows(() => signal.throwIfAborted(), 'TimeoutError');
});

await test('AbortSignal.timeout(0) aborts on a later task, not synchronously', async () => {
  const signal = AbortSignal.timeout(0);
  assertEquals(signal.aborted, false);
  await Promise.resolve();
  assertEquals(signal.aborted, false, 'not in a microtask either');
  await waitFor(() => signal.aborted, 5000, 'the timeout signal to abort');
  assertEquals(signal.reason.name, 'TimeoutError');
});

await test('AbortSignal.timeout: onabort fires too', async () => {
  const signal = AbortSignal.timeout(1);
  let called = 0;
  signal.onabort = () => called++;
  await waitFor(() => called === 1, 5000, 'onabort');
  await delay(5);
  assertEquals(called, 1);
});

await test('AbortSignal.timeout: [EnforceRange] unsigned long long', () => {
  assertThrows(() => AbortSignal.timeout(), TypeError);
  // node throws a RangeError for out-of-range values where WebIDL says TypeError.
  const RangeErrorOrTypeError = NODE ? RangeError : TypeError;
  assertThrows(() => AbortSignal.timeout(-1), RangeErrorOrTypeError);
  assertThrows(() => AbortSignal.timeout(Infinity), RangeErrorOrTypeError);
  assertThrows(() => AbortSignal.timeout(-Infinity), RangeErrorOrTypeError);
  assertThrows(() => AbortSignal.timeout(2 ** 53), RangeErrorOrTypeError);
  assertThrows(() => AbortSignal.timeout(Symbol('s')), TypeError);
  if (!NODE) {
    assertThrows(() => AbortSignal.timeout(NaN), TypeError);
    assertThrows(() => AbortSignal.timeout('abc'), TypeError);
    assertThrows(() => AbortSignal.timeout(10n), TypeError);
    // In range: truncation toward zero, numeric strings, -0.5 -> 0, 2^53 - 1.
    assertEquals(AbortSignal.timeout('5').aborted, false);
    assertEquals(AbortSignal.timeout(1.9).aborted, false);
    assertEquals(AbortSignal.timeout(-0.5).aborted, false);
  }
});

// ---------------------------------------------------------------------------
// AbortSignal.any
// ---------------------------------------------------------------------------

await test('AbortSignal.any: no signals, never aborts', () => {
  const signal = AbortSignal.any([]);
  assert(signal instanceof AbortSignal, 'an AbortSignal');
  assertEquals(signal.aborted, false);
});

await test('AbortSignal.any: already-aborted sources', () => {
  const first = AbortSignal.abort('first');
  const second = AbortSignal.abort('second');
  const live = new AbortController().signal;
  const signal = AbortSignal.any([live, first, second]);
  assertEquals(signal.aborted, true);
  assertEquals(signal.reason, 'first', "the first aborted source's reason");
  let fired = 0;
  signal.addEventListener('abort', () => fired++);
  assertEquals(fired, 0, 'no abort event for a signal created aborted');
});

await test('AbortSignal.any: follows the first source to abort', () => {
  const a = new AbortController();
  const b = new AbortController();
  const signal = AbortSignal.any([a.signal, b.signal]);
  const events = [];
  signal.addEventListener('abort', (event) => events.push([event.isTrusted, signal.reason]));
  b.abort('b');
  assertEquals(signal.aborted, true);
  assertEquals(signal.reason, 'b');
  a.abort('a');
  assertEquals(signal.reason, 'b');
  assertEquals(events, [[true, 'b']]);
});

await test('AbortSignal.any: the source fires before its dependents', () => {
  const controller = new AbortController();
  const dependent = AbortSignal.any([controller.signal]);
  const order = [];
  let dependentAbortedInSourceListener = null;
  controller.signal.addEventListener('abort', () => {
    order.push('source');
    dependentAbortedInSourceListener = dependent.aborted;
  });
  dependent.addEventListener('abort', () => order.push('dependent'));
  controller.abort();
  assertEquals(order, ['source', 'dependent']);
  // https://dom.spec.whatwg.org/#abortsignal-signal-abort step 4 sets the
  // dependents' reasons before step 5 runs the source's abort steps; node
  // sets them later.
  if (!NODE) assertEquals(dependentAbortedInSourceListener, true);
});

await test('AbortSignal.any: dependent of a dependent (source flattening)', () => {
  const controller = new AbortController();
  const middle = AbortSignal.any([controller.signal]);
  const outer = AbortSignal.any([middle]);
  const order = [];
  middle.addEventListener('abort', () => order.push('middle'));
  outer.addEventListener('abort', () => order.push('outer'));
  controller.abort('r');
  assertEquals([outer.aborted, outer.reason, middle.reason], [true, 'r', 'r']);
  assertEquals(order, ['middle', 'outer']);
  // With flattening, aborting `middle` itself is impossible from script, so
  // the outer signal only follows the controller.
});

await test('AbortSignal.any: an aborted dependent passed to any()', () => {
  const controller = new AbortController();
  const dependent = AbortSignal.any([controller.signal]);
  controller.abort('done');
  const signal = AbortSignal.any([dependent]);
  assertEquals([signal.aborted, signal.reason], [true, 'done']);
});

await test('AbortSignal.any: the same source twice, and timeouts as sources', async () => {
  const controller = new AbortController();
  const signal = AbortSignal.any([controller.signal, controller.signal]);
  let fired = 0;
  signal.addEventListener('abort', () => fired++);
  controller.abort();
  assertEquals(fired, 1);
  const timed = AbortSignal.any([new AbortController().signal, AbortSignal.timeout(5)]);
  await abortEventOnce(timed);
  assertEquals(timed.reason.name, 'TimeoutError');
});

await test('AbortSignal.any: argument conversion', () => {
  assertThrows(() => AbortSignal.any(), TypeError);
  assertThrows(() => AbortSignal.any(5), TypeError);
  assertThrows(() => AbortSignal.any([{}]), TypeError);
  assertThrows(() => AbortSignal.any([new AbortController().signal, null]), TypeError);
  // node only accepts arrays; WebIDL sequences are any iterable.
  if (!NODE) {
    const controller = new AbortController();
    const fromSet = AbortSignal.any(new Set([controller.signal]));
    function* generate() {
      yield controller.signal;
    }
    const fromGenerator = AbortSignal.any(generate());
    controller.abort('x');
    assertEquals([fromSet.reason, fromGenerator.reason], ['x', 'x']);
    assertThrows(() => AbortSignal.any('abc'), TypeError);
  }
});

// ---------------------------------------------------------------------------
// Signals and event listeners
// ---------------------------------------------------------------------------

await test('signal option: a listener with the signal it listens to is removed before the event', () => {
  const controller = new AbortController();
  let called = 0;
  controller.signal.addEventListener('abort', () => called++, { signal: controller.signal });
  controller.abort();
  assertEquals(called, 0);
});

await test('signal option: one signal removes listeners on several targets', () => {
  const controller = new AbortController();
  const targets = [new EventTarget(), new EventTarget(), new EventTarget()];
  let count = 0;
  for (const target of targets) {
    target.addEventListener('x', () => count++, { signal: controller.signal });
    target.addEventListener('y', { handleEvent: () => count++ }, { signal: controller.signal, capture: true });
  }
  for (const target of targets) {
    target.dispatchEvent(new Event('x'));
    target.dispatchEvent(new Event('y'));
  }
  assertEquals(count, 6);
  controller.abort();
  for (const target of targets) {
    target.dispatchEvent(new Event('x'));
    target.dispatchEvent(new Event('y'));
  }
  assertEquals(count, 6);
});

await test('signal option: with a dependent signal', () => {
  const controller = new AbortController();
  const target = new EventTarget();
  let count = 0;
  target.addEventListener('x', () => count++, { signal: AbortSignal.any([controller.signal]) });
  target.dispatchEvent(new Event('x'));
  controller.abort();
  target.dispatchEvent(new Event('x'));
  assertEquals(count, 1);
});
