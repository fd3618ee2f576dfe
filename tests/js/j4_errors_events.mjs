// Spec tests for contract J4 (errors): an exception escaping a callback
// dispatches a cancelable ErrorEvent at the global
// (https://html.spec.whatwg.org/multipage/webappapis.html#report-an-exception);
// canceling it (preventDefault, or an onerror handler returning true) keeps
// the program running. Every test here cancels its errors, so the process
// exits 0; an uncanceled one would end it with code 1. (Exceptions from
// MessagePort listeners: j6_macrotasks.mjs.)

import { test, assert, assertEquals, assertThrows, collectErrors, delay, waitFor } from './lib/assert.mjs';

// The line and column of the first frame of an Error's stack.
function locationOf(error) {
  const match = /:(\d+):(\d+)\)?\s*(\n|$)/.exec(error.stack.split('\n').find((l) => l.includes(import.meta.url)));
  return { line: Number(match[1]), column: Number(match[2]) };
}

await test('J4 the global is an EventTarget with addEventListener and onerror', () => {
  assert(globalThis instanceof EventTarget, 'globalThis instanceof EventTarget');
  assertEquals(typeof addEventListener, 'function');
  assertEquals(typeof removeEventListener, 'function');
  assertEquals(typeof dispatchEvent, 'function');
  assertEquals(onerror, null);
  assertEquals(onunhandledrejection, null);
});

await test('J4 an exception escaping a timer dispatches a cancelable, trusted ErrorEvent at the global', async () => {
  let thrown;
  let laterRan = false;
  const events = await collectErrors(async (events) => {
    setTimeout(() => {
      thrown = new Error('J4 boom');
      throw thrown;
    }, 0);
    setTimeout(() => { laterRan = true; }, 5);
    await waitFor(() => events.length === 1 && laterRan, 5000, 'the error event and the later timer');
  });
  const event = events[0];
  assert(event instanceof ErrorEvent, 'an ErrorEvent');
  assertEquals(event.type, 'error');
  assertEquals(event.cancelable, true);
  assertEquals(event.isTrusted, true);
  assertEquals(event.defaultPrevented, true);
  assert(event.target === globalThis, 'dispatched at the global');
  assert(event.error === thrown, 'event.error is the thrown value');
  assert(event.message.includes('J4 boom'), `message ${JSON.stringify(event.message)}`);
  assertEquals(event.filename, import.meta.url);
  assertEquals(event.lineno, locationOf(thrown).line);
  assert(Number.isInteger(event.colno) && event.colno > 0, `colno ${event.colno}`);
});

await test('J4 an exception from a queueMicrotask callback is reported too', async () => {
  const events = await collectErrors(async (events) => {
    queueMicrotask(() => { throw new Error('from queueMicrotask'); });
    await waitFor(() => events.length === 1, 5000, 'the error event');
  });
  assertEquals(events[0].error.message, 'from queueMicrotask');
  assertEquals(events[0].filename, import.meta.url);
});

await test('J4 a listener exception during dispatchEvent is reported and the next listener still runs', async () => {
  const log = [];
  const events = await collectErrors(async () => {
    const target = new EventTarget();
    target.addEventListener('ping', () => { throw new Error('listener 1 failed'); });
    target.addEventListener('ping', () => log.push('listener 2'));
    const result = target.dispatchEvent(new Event('ping'));
    log.push(`dispatchEvent returned ${result}`);
  });
  // Reported synchronously, inside dispatchEvent.
  assertEquals(events.length, 1);
  assertEquals(events[0].error.message, 'listener 1 failed');
  assertEquals(log, ['listener 2', 'dispatchEvent returned true']);
});

await test('J4 onerror = (message, filename, lineno, colno, error) => true cancels the event', async () => {
  let args = null;
  let observedDefaultPrevented = null;
  let thrown;
  // The observer is added after the handler, so it sees the handler's verdict.
  onerror = (...handlerArgs) => {
    args = handlerArgs;
    return true;
  };
  const observer = (event) => {
    observedDefaultPrevented = event.defaultPrevented;
    event.preventDefault();
  };
  addEventListener('error', observer);
  try {
    setTimeout(() => {
      thrown = new TypeError('J4 for onerror');
      throw thrown;
    }, 0);
    await waitFor(() => args !== null);
  } finally {
    onerror = null;
    removeEventListener('error', observer);
  }
  assertEquals(args.length, 5);
  assert(typeof args[0] === 'string' && args[0].includes('J4 for onerror'), `message ${args[0]}`);
  assertEquals(args[1], import.meta.url);
  assertEquals(args[2], locationOf(thrown).line);
  assert(Number.isInteger(args[3]) && args[3] > 0);
  assert(args[4] === thrown, 'the fifth argument is the error');
  assertEquals(observedDefaultPrevented, true, 'returning true from onerror cancels');
});

await test('J4 onerror returning anything but true does not cancel', async () => {
  const verdicts = [];
  for (const value of [false, undefined, 1, 'true']) {
    let handled = false;
    onerror = () => {
      handled = true;
      return value;
    };
    const observer = (event) => {
      verdicts.push(event.defaultPrevented);
      event.preventDefault();
    };
    addEventListener('error', observer);
    try {
      setTimeout(() => { throw new Error('J4 not canceled by onerror'); }, 0);
      await waitFor(() => handled);
      await delay(0);
    } finally {
      onerror = null;
      removeEventListener('error', observer);
    }
  }
  assertEquals(verdicts, [false, false, false, false]);
});

await test('J4 reportError(e) dispatches the error event synchronously and does not throw', async () => {
  const log = [];
  const error = new RangeError('J4 reported');
  const events = await collectErrors(() => {
    reportError(error);
    log.push('after reportError');
    reportError('a string');
  });
  assertEquals(events.length, 2);
  assert(events[0].error === error, 'event.error is the reported value');
  assert(events[0] instanceof ErrorEvent);
  assertEquals(events[0].cancelable, true);
  assert(events[0].message.includes('J4 reported'), events[0].message);
  assertEquals(events[1].error, 'a string');
  assertEquals(log, ['after reportError']);
  assertThrows(() => reportError(), TypeError);
});

await test('J4 an error listener that throws is not called again for its own error', async () => {
  // The listener's exception is reported to the console only ("in error
  // reporting mode"); with the default policy that ends the process, so
  // this is checked in j4_errors_listener_throws*.mjs. Here: the global's
  // own listeners see each original error exactly once.
  const seen = [];
  const events = await collectErrors(async (events) => {
    const inner = (event) => seen.push(event.error.message);
    addEventListener('error', inner);
    try {
      setTimeout(() => { throw new Error('one'); }, 0);
      setTimeout(() => { throw new Error('two'); }, 0);
      await waitFor(() => events.length === 2);
    } finally {
      removeEventListener('error', inner);
    }
  });
  assertEquals(seen, ['one', 'two']);
  assertEquals(events.length, 2);
});

// Last, so the tests above run even while it fails.
await test('J4 a non-Error value thrown by a timer is reported with the program\'s location, not hostloop\'s', async () => {
  const events = await collectErrors(async (events) => {
    setTimeout(() => {
      throw 42;
    }, 0);
    await waitFor(() => events.length === 1);
  });
  assertEquals(events[0].error, 42);
  assert(events[0].message.includes('42'), events[0].message);
  // The value was thrown in this file; hostloop's internal scripts are no
  // place a program can look at.
  assertEquals(events[0].filename, import.meta.url);
});
