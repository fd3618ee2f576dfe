// Spec tests for contract J5 (rejections) and its events
// (https://html.spec.whatwg.org/multipage/webappapis.html#unhandled-promise-rejections):
// after a microtask checkpoint, promises rejected without a handler dispatch a
// cancelable `unhandledrejection` PromiseRejectionEvent at the global;
// canceled, they are not reported (so this file exits 0). A handler attached
// before the checkpoint ends means no event at all; one attached after the
// report fires `rejectionhandled`.

import { test, assert, assertEquals, delay, waitFor } from './lib/assert.mjs';

// Records unhandledrejection (canceled) and rejectionhandled events.
async function recordRejections(fn) {
  const log = [];
  const onUnhandled = (event) => {
    event.preventDefault();
    log.push({ type: event.type, event });
  };
  const onHandled = (event) => log.push({ type: event.type, event });
  addEventListener('unhandledrejection', onUnhandled);
  addEventListener('rejectionhandled', onHandled);
  try {
    await fn(log);
  } finally {
    removeEventListener('unhandledrejection', onUnhandled);
    removeEventListener('rejectionhandled', onHandled);
  }
  return log;
}

await test('J5 an unhandled rejection dispatches a cancelable PromiseRejectionEvent with promise and reason', async () => {
  const reason = new Error('J5 unhandled');
  let promise;
  const log = await recordRejections(async (log) => {
    setTimeout(() => { promise = Promise.reject(reason); }, 0);
    await waitFor(() => log.length === 1);
  });
  const { event } = log[0];
  assertEquals(log[0].type, 'unhandledrejection');
  assert(event instanceof PromiseRejectionEvent, 'a PromiseRejectionEvent');
  assert(event.promise === promise, 'event.promise is the rejected promise');
  assert(event.reason === reason, 'event.reason is the rejection reason');
  assertEquals(event.cancelable, true);
  assertEquals(event.isTrusted, true);
  assert(event.target === globalThis, 'dispatched at the global');
});

await test('J5 a rejection handled later in the same turn (before the checkpoint ends) is never reported', async () => {
  const log = await recordRejections(async () => {
    setTimeout(() => {
      const p1 = Promise.reject(new Error('handled in a microtask'));
      queueMicrotask(() => p1.catch(() => {}));
      // Handled after twenty microtask hops: still the same checkpoint.
      const p2 = Promise.reject(new Error('handled after 20 hops'));
      let chain = Promise.resolve();
      for (let i = 0; i < 20; i++) chain = chain.then(() => {});
      chain.then(() => p2.catch(() => {}));
      // A rejected async function awaited by a caught caller.
      (async () => {
        try {
          await (async () => { throw new Error('caught by the caller'); })();
        } catch { /* handled */ }
      })();
    }, 0);
    await delay(20);
  });
  assertEquals(log.map((entry) => entry.type), []);
});

await test('J5 rejectionhandled fires, as a later task, when a reported rejection gets a handler', async () => {
  const reason = new Error('J5 handled late');
  const order = [];
  let promise;
  const log = await recordRejections(async (log) => {
    promise = Promise.reject(reason);
    await waitFor(() => log.length === 1, 5000, 'the unhandledrejection event');
    promise.catch(() => {});
    order.push(`after catch(): ${log.length} events`);
    await waitFor(() => log.length === 2, 5000, 'the rejectionhandled event');
  });
  assertEquals(log.map((entry) => entry.type), ['unhandledrejection', 'rejectionhandled']);
  const handled = log[1].event;
  assert(handled instanceof PromiseRejectionEvent);
  assert(handled.promise === promise, 'rejectionhandled names the same promise');
  assert(handled.reason === reason, 'and the same reason');
  assertEquals(handled.cancelable, false);
  // Not dispatched synchronously from inside catch().
  assertEquals(order, ['after catch(): 1 events']);
});

await test('J5 no rejectionhandled for a rejection that was never reported', async () => {
  const log = await recordRejections(async () => {
    const p = Promise.reject(new Error('quiet'));
    p.catch(() => {});
    setTimeout(() => p.catch(() => {}), 0);
    await delay(20);
  });
  assertEquals(log.length, 0);
});

await test('J5 onunhandledrejection handler attribute receives the event and can cancel it', async () => {
  let received = null;
  onunhandledrejection = (event) => {
    received = event;
    event.preventDefault();
  };
  try {
    Promise.reject('via the handler attribute');
    await waitFor(() => received !== null);
  } finally {
    onunhandledrejection = null;
  }
  assertEquals(received.reason, 'via the handler attribute');
  assertEquals(received.defaultPrevented, true);
});

await test('J5 several unhandled rejections are reported in rejection order, one event each', async () => {
  const log = await recordRejections(async (log) => {
    setTimeout(() => {
      Promise.reject(1);
      Promise.reject(2);
      Promise.resolve().then(() => Promise.reject(3));
    }, 0);
    await waitFor(() => log.length >= 3);
    await delay(10);
  });
  // The .then(() => Promise.reject(3)) derived promise rejects too (with 3).
  const reasons = log.map((entry) => entry.event.reason);
  assertEquals(reasons.slice(0, 2), [1, 2]);
  assert(reasons.every((r) => r === 1 || r === 2 || r === 3), `reasons ${reasons}`);
  assertEquals(log.filter((entry) => entry.event.reason === 1).length, 1, 'one event per promise');
});

await test('J5 a handler attached by the unhandledrejection listener itself stops the report', async () => {
  // The listener does not call preventDefault but handles the promise: then
  // the rejection counts as handled and the policy does not end the program
  // (hostloop's reading of J5, as in node; HTML leaves console reporting
  // optional). No rejectionhandled follows: the promise was never added to
  // the outstanding rejected promises set.
  let fired = 0;
  const listener = (event) => {
    fired++;
    event.promise.catch(() => {});
  };
  let handledEvents = 0;
  const onHandled = () => handledEvents++;
  addEventListener('unhandledrejection', listener);
  addEventListener('rejectionhandled', onHandled);
  try {
    Promise.reject(new Error('handled by the listener'));
    await waitFor(() => fired === 1);
    await delay(10);
  } finally {
    removeEventListener('unhandledrejection', listener);
    removeEventListener('rejectionhandled', onHandled);
  }
  // Still running: the rejection was not reported as uncaught.
  assertEquals(fired, 1);
  assertEquals(handledEvents, 0);
});
