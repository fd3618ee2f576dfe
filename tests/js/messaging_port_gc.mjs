// hostloop-flags: --v8-flags=--expose-gc
// timeout: 30
//
// Spec test for HTML "ports and garbage collection": an entangled port is
// kept alive as if its partner held it, so a message posted on the partner
// reaches the port's listener even when nothing in script refers to the port
// any more and collections run in between.
//  - The partner is in a worker: the port must survive gc() here (before the
//    fix it was collected, and closed, and the process then waited forever).
//  - The partner is in this runtime but was moved by structuredClone's
//    transfer (not a MessageChannel's own pair).
// https://html.spec.whatwg.org/multipage/web-messaging.html#ports-and-garbage-collection
// Expected: messaging_port_gc.stdout.

const worker = new Worker(new URL('./fixtures/workers/post_later_on_port.mjs', import.meta.url), { type: 'module' });
const fromWorker = new Promise((resolve) => {
  const { port1, port2 } = new MessageChannel();
  port1.onmessage = (event) => {
    console.log('port gc: remote partner:', event.data);
    port1.close();
    resolve();
  };
  worker.postMessage(null, [port2]);
});

const local = new MessageChannel();
const fromLocal = new Promise((resolve) => {
  const moved = structuredClone(local.port2, { transfer: [local.port2] });
  moved.onmessage = (event) => {
    console.log('port gc: local partner:', event.data);
    moved.close();
    resolve();
  };
});

setTimeout(() => {
  gc();
  gc();
  local.port1.postMessage('posted after gc');
}, 50);
await Promise.all([fromWorker, fromLocal]);
worker.terminate();
console.log('port gc: end of module');
