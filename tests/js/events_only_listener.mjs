// A dispatch to a target whose only listener for the event's type is a
// plain one (not capture, once or passive) takes a shorter path in
// events.js (dispatchToOnlyListener). Every scenario here runs twice: with
// that listener alone (the short path), and with a do-nothing capture
// listener added (two listeners: the general passes). The listener under
// test must see the same in both, and what it sees is checked against the
// DOM standard too (https://dom.spec.whatwg.org/#concept-event-dispatch).
// (Not for plain node: its EventTarget calls a listener added during a
// dispatch in that same dispatch, and calls listeners of an event whose
// propagation was stopped before it was dispatched.)

import { test, assertEquals } from './lib/assert.mjs';

// Runs `scenario(target, addExtra)` with and without the extra capture
// listener; returns both logs after checking they are equal.
async function bothPaths(scenario) {
  const logs = [];
  for (const extra of [false, true]) {
    const target = new EventTarget();
    const log = [];
    const addExtra = (type) => {
      if (extra) target.addEventListener(type, () => {}, { capture: true });
    };
    await scenario(target, addExtra, log);
    logs.push(log);
  }
  assertEquals(logs[0], logs[1], 'the only listener sees what it sees among others');
  return logs[0];
}

await test('the only listener: phase, targets, this, path and flags during and after', async () => {
  const log = await bothPaths((target, addExtra, log) => {
    let seen;
    target.addEventListener('x', function (event) {
      seen = event;
      log.push(event.eventPhase, event.target === target, event.currentTarget === target,
        this === target, event.composedPath().length, event.composedPath()[0] === target,
        event.isTrusted, event.cancelBubble, event.defaultPrevented);
    });
    addExtra('x');
    log.push(target.dispatchEvent(new Event('x')));
    log.push(seen.eventPhase, seen.currentTarget, seen.target === target, seen.composedPath().length);
  });
  assertEquals(log, [Event.AT_TARGET, true, true, true, 1, true, false, false, false,
    true, Event.NONE, null, true, 0]);
});

await test('the only listener: stopPropagation() before the dispatch means no call', async () => {
  const log = await bothPaths((target, addExtra, log) => {
    target.addEventListener('x', () => log.push('called'));
    addExtra('x');
    const event = new Event('x');
    event.stopPropagation();
    log.push(target.dispatchEvent(event), event.eventPhase, event.currentTarget, event.cancelBubble);
  });
  assertEquals(log, [true, Event.NONE, null, false]);
});

await test('the only listener: preventDefault() cancels; stopImmediatePropagation() changes nothing else', async () => {
  const log = await bothPaths((target, addExtra, log) => {
    target.addEventListener('x', (event) => {
      event.stopImmediatePropagation();
      event.preventDefault();
      log.push(event.defaultPrevented);
    });
    addExtra('x');
    const cancelable = new Event('x', { cancelable: true });
    log.push(target.dispatchEvent(cancelable), cancelable.defaultPrevented);
    const plain = new Event('x');
    log.push(target.dispatchEvent(plain), plain.defaultPrevented);
  });
  assertEquals(log, [true, false, true, false, true, false]);
});

await test('the only listener: the event cannot be dispatched again from inside', async () => {
  const log = await bothPaths((target, addExtra, log) => {
    target.addEventListener('x', (event) => {
      try {
        target.dispatchEvent(event);
        log.push('no throw');
      } catch (error) {
        log.push(error.name);
      }
    });
    addExtra('x');
    log.push(target.dispatchEvent(new Event('x')));
  });
  assertEquals(log, ['InvalidStateError', true]);
});

await test('the only listener: handleEvent objects, and listeners added or removed inside', async () => {
  const log = await bothPaths((target, addExtra, log) => {
    const object = {
      handleEvent(event) {
        log.push(this === object, event.type);
        // Added during the dispatch: called from the next one on.
        target.addEventListener('x', function added() {
          log.push('added');
          target.removeEventListener('x', added);
        });
        target.removeEventListener('x', object);
      },
    };
    target.addEventListener('x', object);
    addExtra('x');
    target.dispatchEvent(new Event('x'));
    log.push('second');
    target.dispatchEvent(new Event('x'));
    log.push('third');
    target.dispatchEvent(new Event('x'));
  });
  assertEquals(log, [true, 'x', 'second', 'added', 'third']);
});

await test('the only listener: an exception is reported and the dispatch goes on', async () => {
  const reported = [];
  const onError = (event) => {
    reported.push(event.error?.message);
    event.preventDefault();
  };
  globalThis.addEventListener('error', onError);
  try {
    const log = await bothPaths((target, addExtra, log) => {
      target.addEventListener('x', () => {
        throw new Error('from the listener');
      });
      addExtra('x');
      log.push(target.dispatchEvent(new Event('x', { cancelable: true })));
    });
    assertEquals(log, [true]);
    assertEquals(reported, ['from the listener', 'from the listener']);
  } finally {
    globalThis.removeEventListener('error', onError);
  }
});

await test('onmessage as the only listener: a trusted event at the port, a task per message', async () => {
  const logs = [];
  for (const extra of [false, true]) {
    const { port1, port2 } = new MessageChannel();
    const log = [];
    await new Promise((resolve) => {
      port1.onmessage = function (event) {
        log.push(event.data, event.eventPhase, event.currentTarget === port1, this === port1,
          event.isTrusted, event.cancelable);
        // A microtask from this task runs before the next message's task.
        queueMicrotask(() => log.push(`microtask ${event.data}`));
        if (event.data === 2) resolve();
      };
      if (extra) port1.addEventListener('message', () => {}, { capture: true });
      port2.postMessage(1);
      port2.postMessage(2);
    });
    await null;
    port1.close();
    logs.push(log);
  }
  assertEquals(logs[0], logs[1]);
  assertEquals(logs[0], [1, Event.AT_TARGET, true, true, true, false, 'microtask 1',
    2, Event.AT_TARGET, true, true, true, false, 'microtask 2']);
});
