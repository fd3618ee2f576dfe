// Spec tests for contract W1: `new Worker(url, {type, name})` runs the script
// on its own thread with its own runtime and loop; `self.postMessage`,
// `self.onmessage`, `self.name`; classic workers with importScripts; URL
// resolution; nested workers.
// https://html.spec.whatwg.org/multipage/workers.html#dedicated-workers-and-the-worker-interface
// https://html.spec.whatwg.org/multipage/workers.html#dom-worker
// https://html.spec.whatwg.org/multipage/workers.html#importing-scripts-and-libraries

import { test, assert, assertEquals, assertThrows } from './lib/assert.mjs';
import { readFile } from 'hostloop:fs';
import { fixture, nextMessage, request, collect, within, settle } from './fixtures/workers/harness.mjs';

await test('W1 a module worker from a URL object gets its name, self.postMessage and self.onmessage', async () => {
  const worker = new Worker(new URL('./fixtures/workers/echo.mjs', import.meta.url), { type: 'module', name: 'x' });
  try {
    assertEquals(Object.prototype.toString.call(worker), '[object Worker]');
    const info = await request(worker, { op: 'info' });
    assertEquals(info, {
      name: 'x',
      tag: '[object DedicatedWorkerGlobalScope]',
      selfIsGlobal: true,
      // HTML: a module worker's importScripts throws a TypeError.
      importScripts: 'function that throws TypeError',
      postMessage: 'function',
      close: 'function',
      url: fixture('echo.mjs').href,
    });
    assertEquals(await request(worker, 'hello'), 'hello');
  } finally {
    worker.terminate();
  }
});

await test('W1 the worker name defaults to the empty string', async () => {
  const worker = new Worker(fixture('echo.mjs'), { type: 'module' });
  try {
    assertEquals((await request(worker, { op: 'info' })).name, '');
  } finally {
    worker.terminate();
  }
});

await test('W1 the worker runs on another thread: its busy loop does not block the main timers', async () => {
  const flags = new Int32Array(new SharedArrayBuffer(8));
  const worker = new Worker(fixture('spin_until_released.mjs'), { type: 'module' });
  try {
    assertEquals(await request(worker, { flags }), 'spinning');
    // The worker now spins (counting in flags[1]) until flags[0] becomes 1.
    // Main's timers keep firing meanwhile, and between two of them the
    // worker's count moves on: both threads run at once. (On one thread
    // nothing could release the worker: the runner's timeout.)
    const seen = [];
    await within(new Promise((resolve) => {
      const interval = setInterval(() => {
        seen.push(Atomics.load(flags, 1));
        if (seen.length >= 3 && seen.at(-1) > seen[0]) {
          clearInterval(interval);
          resolve();
        }
      }, 1);
    }), 10000, 'main timer ticks while the worker spins');
    assertEquals(Atomics.load(flags, 0), 0, 'not released yet');
    const released = nextMessage(worker);
    Atomics.store(flags, 0, 1);
    assertEquals(await released, 'released');
  } finally {
    worker.terminate();
  }
});

await test('W1 a string URL is resolved against the main module', async () => {
  for (const url of ['./fixtures/workers/echo.mjs', 'fixtures/workers/echo.mjs', fixture('echo.mjs').href]) {
    const worker = new Worker(url, { type: 'module', name: url });
    try {
      const info = await request(worker, { op: 'info' });
      assertEquals(info.url, fixture('echo.mjs').href, `url of ${url}`);
      assertEquals(info.name, url);
    } finally {
      worker.terminate();
    }
  }
});

await test('W1 a classic worker (the default type) runs importScripts in order, in its global scope', async () => {
  const worker = new Worker('fixtures/workers/classic_echo.js', { name: 'classic' });
  try {
    const info = await request(worker, 'info');
    assertEquals(info, {
      name: 'classic',
      tag: '[object DedicatedWorkerGlobalScope]',
      thisIsSelf: true,
      importScripts: 'function',
      helperB: 'AB',
      loadOrder: ['a', 'b'],
      afterImport: 'string',
      importMeta: 'SyntaxError', // a classic script is not a module
    });
    assertEquals(await request(worker, [1, 'two']), [1, 'two']);
  } finally {
    worker.terminate();
  }
});

await test('W1 self is a DedicatedWorkerGlobalScope and WorkerGlobalScope; self.location is a WorkerLocation of the script URL', async () => {
  // A classic worker from a file (how Emscripten's output finds its
  // directory: self.location.href) and a module worker from a data: URL.
  const file = fixture('global_probe.js');
  const dataUrl = 'data:text/javascript,' + encodeURIComponent(await readFile(file.pathname, 'utf8'));
  const common = {
    chain: ['DedicatedWorkerGlobalScope', 'WorkerGlobalScope', 'EventTarget', 'Object'],
    isWorkerGlobalScope: true,
    isDedicated: true,
    interfacesHidden: true,
    illegal: ['TypeError', 'TypeError', 'TypeError'],
    locationGetter: 'function',
    locationSetter: 'undefined',
    sameLocation: true,
    tag: '[object WorkerLocation]',
    brand: 'TypeError',
  };
  for (const [url, type, parts] of [
    [`${file.href}?q=1#h`, 'classic', [`${file.href}?q=1#h`, `${file.href}?q=1#h`, 'null', 'file:', '', '', '', file.pathname, '?q=1', '#h']],
    [dataUrl, 'module', [dataUrl, dataUrl, 'null', 'data:', '', '', '', dataUrl.slice(5), '', '']],
  ]) {
    const worker = new Worker(url, { type });
    try {
      assertEquals(await nextMessage(worker), { ...common, parts }, `${type} worker`);
    } finally {
      worker.terminate();
    }
  }
});

await test('W1 importScripts of a missing script throws in the worker, which keeps running', async () => {
  const worker = new Worker(fixture('classic_echo.js'), { type: 'classic' });
  try {
    const reply = await request(worker, 'import-missing');
    // HTML: a script that cannot be fetched throws a "NetworkError" DOMException.
    assertEquals(reply, 'threw NetworkError DOMException', 'importScripts of a missing file');
    assertEquals(await request(worker, 'still alive'), 'still alive');
  } finally {
    worker.terminate();
  }
});

await test('W1 importScripts: SyntaxError for a URL that does not parse, NetworkError for one that cannot be fetched', async () => {
  const worker = new Worker(fixture('classic_echo.js'), { type: 'classic' });
  try {
    assertEquals(await request(worker, 'import-errors'), 'NetworkError SyntaxError no throw');
  } finally {
    worker.terminate();
  }
});

await test('W1 the Worker constructor validates its arguments', () => {
  assertThrows(() => new Worker(), TypeError);
  assertThrows(() => new Worker(fixture('echo.mjs'), { type: 'wasm' }), TypeError);
  assertThrows(() => Worker(fixture('echo.mjs')), TypeError, undefined, 'Worker needs new');
  assertThrows(() => Worker.prototype.postMessage.call({}, 1), TypeError);
  assertThrows(() => Worker.prototype.terminate.call({}), TypeError);
  // WebIDL string conversions: a Symbol throws (it became the file "Symbol()").
  assertThrows(() => new Worker(Symbol('url')), TypeError, 'Symbol');
  assertThrows(() => new Worker(fixture('echo.mjs'), { name: Symbol('name') }), TypeError, 'Symbol');
  assertThrows(() => new Worker(fixture('echo.mjs'), { type: Symbol('type') }), TypeError, 'Symbol');
  // Members are read in WebIDL order: name, then type.
  const read = [];
  assertThrows(() => new Worker(fixture('echo.mjs'), {
    get name() { read.push('name'); return 'n'; },
    get type() { read.push('type'); return 'wasm'; },
  }), TypeError, 'WorkerType');
  assertEquals(read, ['name', 'type']);
});

await test('W1 several workers run side by side, each with its own global', async () => {
  const workers = ['a', 'b', 'c'].map((name) => new Worker(fixture('echo.mjs'), { type: 'module', name }));
  try {
    const infos = await Promise.all(workers.map((worker) => request(worker, { op: 'info' })));
    assertEquals(infos.map((info) => info.name), ['a', 'b', 'c']);
  } finally {
    for (const worker of workers) worker.terminate();
  }
});

for (const how of ['url', 'string']) {
  await test(`W1 a nested worker (created by ${how === 'url' ? 'URL object' : 'string relative to the worker'}) replies through its parent worker`, async () => {
    const relay = new Worker(fixture('relay.mjs'), { type: 'module', name: 'relay' });
    try {
      assertEquals(await request(relay, { op: 'start', how, childName: 'child' }), { via: 'relay', started: true });
      const info = await request(relay, { op: 'info' });
      assertEquals(info.via, 'relay');
      assertEquals(info.reply.name, 'child');
      assertEquals(info.reply.url, fixture('echo.mjs').href);
      const replies = collect(relay, 3);
      for (const value of [1, 2, 3]) relay.postMessage(value);
      assertEquals((await replies).map((reply) => reply.reply), [1, 2, 3]);
      assertEquals(await request(relay, { op: 'stop' }), { via: 'relay', stopped: true });
    } finally {
      relay.terminate();
    }
  });
}

await test('W1 terminating a worker that has a live nested worker is clean (no message arrives after)', async () => {
  const relay = new Worker(fixture('relay.mjs'), { type: 'module', name: 'relay' });
  await request(relay, { op: 'start', how: 'url', childName: 'child' });
  assertEquals((await request(relay, 'ping')).reply, 'ping');
  let late = 0;
  relay.onmessage = () => late++;
  relay.postMessage('into the void');
  relay.terminate();
  await settle(50);
  assertEquals(late, 0);
});
