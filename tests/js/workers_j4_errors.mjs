// Spec tests for contract J4 in workers: an exception escaping a worker's
// callback dispatches a cancelable `error` event on the worker's global
// first (canceling it stops the chain), then an ErrorEvent (message,
// filename, lineno, colno) on the Worker object in the parent (canceling it
// stops the chain), then the parent's own uncaught-error handling (here its
// global `error` event; the exit-1 end of the chain is
// workers_j4_uncaught.mjs). A bad URL throws a SyntaxError DOMException at
// construction; a script that cannot be loaded gives an `error` event on the
// Worker object, never a crash.
// https://html.spec.whatwg.org/multipage/workers.html#runtime-script-errors-2
// https://html.spec.whatwg.org/multipage/webappapis.html#report-the-exception
// https://html.spec.whatwg.org/multipage/workers.html#dom-worker (step: parse the URL, SyntaxError)
// https://html.spec.whatwg.org/multipage/workers.html#run-a-worker (load failure: an event named error)

import { test, assert, assertEquals, AssertionError } from './lib/assert.mjs';
import { fixture, nextEvent, nextMessage, settle } from './fixtures/workers/harness.mjs';

const throwsUrl = fixture('throws.mjs').href;

// Counts (and cancels, so this file keeps running) the workers' errors that
// reach main's global: the last link of the chain. Anything else (a failing
// test's rejection) is left alone, so that it fails the run.
const globalErrors = [];
globalThis.addEventListener('error', (event) => {
  if (event.error instanceof AssertionError || !String(event.message).includes('from a worker')) return;
  globalErrors.push({ message: event.message, filename: event.filename, lineno: event.lineno, colno: event.colno });
  event.preventDefault();
});

function describeEvent(event) {
  return {
    type: event.type,
    isErrorEvent: event instanceof ErrorEvent,
    cancelable: event.cancelable,
    message: event.message,
    filename: event.filename,
    lineno: event.lineno,
    colno: event.colno,
    error: event.error,
  };
}

// Starts a throws.mjs worker for `op`; resolves with what the worker global
// saw, what the Worker object saw (if anything) and whether the worker global
// saw it first.
async function throwIn(op, { cancelInWorker = false, cancelAtWorker = true } = {}) {
  const ints = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(throwsUrl, { type: 'module' });
  const atWorkerObject = [];
  worker.addEventListener('error', (event) => {
    atWorkerObject.push({ ...describeEvent(event), globalFirst: Atomics.load(ints, 0) === 1 });
    if (cancelAtWorker) event.preventDefault();
  });
  const messages = [];
  const after = new Promise((resolve) => {
    worker.addEventListener('message', (event) => {
      messages.push(event.data);
      if (event.data === 'after') resolve();
    });
  });
  worker.postMessage({ op, ints, cancel: cancelInWorker });
  await after;
  await settle(30); // an error event would have arrived by now
  worker.terminate();
  const workerSaw = messages.find((m) => m && m.workerSaw)?.workerSaw;
  return { workerSaw, atWorkerObject };
}

await test('J4 an uncaught error in a worker timer: error on the worker global first, then an ErrorEvent on the Worker object', async () => {
  const before = globalErrors.length;
  const { workerSaw, atWorkerObject } = await throwIn('timer');
  assert(workerSaw, 'the worker global saw an error event');
  assertEquals(workerSaw.type, 'error');
  assertEquals(workerSaw.isErrorEvent, true);
  assertEquals(workerSaw.cancelable, true);
  assert(workerSaw.message.includes('J4 boom from a worker timer'), `message: ${workerSaw.message}`);
  assertEquals(workerSaw.error, 'J4 boom from a worker timer', 'event.error is the thrown value');
  assertEquals([workerSaw.filename, workerSaw.lineno, workerSaw.colno], [throwsUrl, 30, 13]);
  assertEquals(atWorkerObject.length, 1, 'one error event at the Worker object');
  const [event] = atWorkerObject;
  assertEquals(event.globalFirst, true, 'the worker global saw it before the Worker object');
  assertEquals([event.type, event.isErrorEvent, event.cancelable], ['error', true, true]);
  // HTML "runtime script errors in workers": the Worker object's ErrorEvent
  // has error null (the value stays in the worker); it was undefined.
  assertEquals(event.error, null, 'error is null at the Worker object');
  assertEquals([event.message, event.filename, event.lineno, event.colno],
    [workerSaw.message, workerSaw.filename, workerSaw.lineno, workerSaw.colno],
    'the Worker object sees the same message and location');
  assertEquals(globalErrors.length, before, 'canceled at the Worker object: main\'s global never sees it');
});

await test('J4 an uncaught error in a worker message handler reaches the Worker object with its location', async () => {
  const { workerSaw, atWorkerObject } = await throwIn('handler');
  assert(workerSaw.message.includes('TypeError: J4 boom from a worker handler'), `message: ${workerSaw.message}`);
  assertEquals(atWorkerObject.length, 1);
  assertEquals([atWorkerObject[0].filename, atWorkerObject[0].lineno, atWorkerObject[0].colno], [throwsUrl, 33, 11]);
  assertEquals(atWorkerObject[0].globalFirst, true);
});

await test('J4 preventDefault on the worker global stops the chain: nothing reaches the Worker object', async () => {
  const before = globalErrors.length;
  const { workerSaw, atWorkerObject } = await throwIn('timer', { cancelInWorker: true });
  assert(workerSaw, 'the worker global saw it');
  assertEquals(atWorkerObject, [], 'no error event at the Worker object');
  assertEquals(globalErrors.length, before, 'nothing at main\'s global');
});

await test('J4 not canceled at the Worker object, the error goes on to the parent\'s own error handling', async () => {
  const before = globalErrors.length;
  const { atWorkerObject } = await throwIn('timer', { cancelAtWorker: false });
  assertEquals(atWorkerObject.length, 1);
  assertEquals(globalErrors.length, before + 1, 'main\'s global error event fired once');
  assert(globalErrors.at(-1).message.includes('J4 boom from a worker timer'), `message: ${globalErrors.at(-1).message}`);
});

await test('J4 an error thrown by the entry script while it evaluates reaches the Worker object', async () => {
  const worker = new Worker(fixture('throw_at_top.mjs'), { type: 'module' });
  worker.addEventListener('error', (event) => event.preventDefault());
  const error = nextEvent(worker, 'error');
  assertEquals(await nextMessage(worker), 'evaluating');
  const event = await error;
  assertEquals(event.defaultPrevented, true);
  assert(event instanceof ErrorEvent);
  assert(event.message.includes('RangeError: J4 boom at the top level'), `message: ${event.message}`);
  assertEquals([event.filename, event.lineno], [fixture('throw_at_top.mjs').href, 3]);
  worker.terminate();
});

await test('J4 an error reported while a module worker evaluates (reportError, a throwing listener) is an ErrorEvent; the script goes on', async () => {
  // It was taken for a failure to load: a plain Event, "could not be
  // loaded" on stderr, while the script ran on.
  for (const [source, expected] of [
    ['reportError(new Error("J4 reported")); postMessage("after");', 'Error: J4 reported'],
    ['const t = new EventTarget(); t.addEventListener("x", () => { throw new RangeError("J4 from a listener"); });' +
      ' t.dispatchEvent(new Event("x")); postMessage("after");', 'RangeError: J4 from a listener'],
  ]) {
    const worker = new Worker('data:text/javascript,' + encodeURIComponent(source), { type: 'module' });
    worker.addEventListener('error', (event) => event.preventDefault());
    const error = nextEvent(worker, 'error');
    assertEquals(await nextMessage(worker), 'after');
    const event = await error;
    assert(event instanceof ErrorEvent, `an ErrorEvent, not ${JSON.stringify(describeEvent(event))}`);
    assert(event.message.includes(expected), `message: ${event.message}`);
    worker.terminate();
  }
});

await test('J4 a bad URL throws a SyntaxError DOMException at construction', () => {
  for (const url of ['http://example.com/x.js', 'https://example.com/x.mjs', 'http://[::1', 'https://']) {
    let caught = null;
    try {
      new Worker(url, { type: url.endsWith('.mjs') ? 'module' : 'classic' });
    } catch (error) {
      caught = error;
    }
    assert(caught instanceof DOMException, `${url}: expected a DOMException, got ${caught}`);
    assertEquals(caught.name, 'SyntaxError', url);
    assertEquals(caught.code, DOMException.SYNTAX_ERR, url);
  }
});

for (const [what, name, type] of [
  ['a missing module file', 'no_such_worker.mjs', 'module'],
  ['a module with a syntax error', 'syntax_error.mjs', 'module'],
  ['a module whose import is missing', 'imports_missing.mjs', 'module'],
  ['a missing classic script', 'no_such_worker.js', 'classic'],
  ['a classic script with a syntax error', 'syntax_error_classic.js', 'classic'],
]) {
  await test(`J4 ${what} gives an error event on the Worker object, not a crash`, async () => {
    const worker = new Worker(fixture(name), { type });
    const messages = [];
    worker.onmessage = (event) => messages.push(event.data);
    worker.onerror = (event) => event.preventDefault();
    const event = await nextEvent(worker, 'error');
    assertEquals(event.type, 'error');
    assert(event.target === worker, 'dispatched at the Worker object');
    await settle(20);
    assertEquals(messages, [], 'the script never ran');
    worker.terminate();
  });
}

await test('J4 main keeps working after all of the above', async () => {
  const worker = new Worker(fixture('echo.mjs'), { type: 'module' });
  worker.postMessage('ok');
  assertEquals(await nextMessage(worker), 'ok');
  worker.terminate();
});

// Last, so that a failure here does not hide the tests above. (A load
// failure nobody handles: workers_j4_load_failure_unhandled.mjs.)
await test('J4 the parent\'s global ErrorEvent repeats the worker error\'s message and location', async () => {
  // HTML: if not canceled at the Worker object, "act as if the uncaught
  // runtime script error had occurred in the global scope that the Worker
  // object is in, thus repeating the entire runtime script error reporting
  // process one level up" (same message, filename, lineno, colno).
  const before = globalErrors.length;
  const { atWorkerObject } = await throwIn('timer', { cancelAtWorker: false });
  assertEquals(globalErrors.length, before + 1);
  const [atWorker] = atWorkerObject;
  assertEquals(globalErrors.at(-1),
    { message: atWorker.message, filename: atWorker.filename, lineno: atWorker.lineno, colno: atWorker.colno });
});
