// timeout: 30
//
// Spec test for contract J3 (liveness): a worker (or a port) keeps its runtime
// alive while it has a `message` listener, and stops when the last one goes,
// however it goes: a `once` listener after its dispatch, a listener whose
// AbortSignal aborted, one removed through EventTarget.prototype's own
// methods. Each worker here ends with no listener and nothing else to do, so
// it stops, and this program exits (a leaked keep-alive hangs it until the
// runner's timeout). A listener added through EventTarget.prototype's method
// also counts while it is there: the 'prototype' worker must still get the
// message posted 50 ms after it started.
// Expected: j3_liveness_listener_removal.stdout.

const fixture = (how) => new URL(`./fixtures/workers/listen_once.mjs?how=${how}`, import.meta.url);

function run(how, send) {
  return new Promise((resolve) => {
    const worker = new Worker(fixture(how), { type: 'module' });
    worker.onmessage = (event) => {
      console.log(event.data);
      if (!String(event.data).endsWith('listening')) resolve();
    };
    send(worker);
  });
}

await run('once', (worker) => worker.postMessage(1));
await run('signal', (worker) => worker.postMessage(2));
await run('prototype', (worker) => setTimeout(() => worker.postMessage(3), 50));
const { port1, port2 } = new MessageChannel();
const done = run('port-once', (worker) => worker.postMessage(null, [port2]));
setTimeout(() => port1.postMessage(4), 50);
await done;
console.log('J3 listener removal: end of module');
