// timeout: 20
//
// L5 with HTML "clean up after running a callback": between two listeners
// of an event the host dispatches (no script on the stack), a microtask
// checkpoint runs, so what the first listener queued runs before the second
// listener, as in browsers: a MessagePort's and a Worker's message, a
// BroadcastChannel's message, AbortSignal.timeout's abort, the global error
// event of an uncaught error, unhandledrejection. An event that script
// dispatches (dispatchEvent(), controller.abort(), reportError()) runs all
// its listeners first: the microtasks wait for that script to end. The
// microtasks run inside the earlier listener's call, so the next listener
// sees what they did (stopImmediatePropagation(), removeEventListener()).
// Expected: l5_checkpoint_between_listeners.stdout.

const log = [];
function listenTwice(target, type, label, cancel = false) {
  for (const n of [1, 2]) {
    target.addEventListener(type, (e) => {
      if (cancel) e.preventDefault();
      log.push(`${label}: listener ${n}`);
      queueMicrotask(() => log.push(`${label}: microtask ${n}`));
      Promise.resolve().then(() => log.push(`${label}: reaction ${n}`));
    });
  }
}
async function step(label, action) {
  log.length = 0;
  await action();
  console.log(`${label}\n  ${log.join('\n  ')}`);
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

await step('a MessagePort message', async () => {
  const { port1, port2 } = new MessageChannel();
  listenTwice(port2, 'message', 'port');
  port2.start();
  port1.postMessage('go');
  await sleep(20);
  port2.close();
});

await step('a Worker message', async () => {
  const worker = new Worker('data:text/javascript,postMessage("hi")', { type: 'module' });
  listenTwice(worker, 'message', 'worker');
  await sleep(200);
  worker.terminate();
});

await step('a BroadcastChannel message', async () => {
  const a = new BroadcastChannel('l5');
  const b = new BroadcastChannel('l5');
  listenTwice(b, 'message', 'channel');
  a.postMessage('go');
  await sleep(20);
  a.close();
  b.close();
});

await step("AbortSignal.timeout's abort", async () => {
  listenTwice(AbortSignal.timeout(5), 'abort', 'timeout');
  await sleep(30);
});

await step('the error event of an error thrown by a timer', async () => {
  listenTwice(globalThis, 'error', 'error', true);
  setTimeout(() => { throw new Error('boom'); }, 0);
  await sleep(20);
});

await step('unhandledrejection', async () => {
  listenTwice(globalThis, 'unhandledrejection', 'rejection', true);
  Promise.reject(new Error('nobody handles this'));
  await sleep(20);
});

await step("a listener's microtasks act before the next listener runs", async () => {
  // They run inside the previous listener's call (HTML), so the next one
  // sees what they did: stopImmediatePropagation(), a removed listener.
  const { port1, port2 } = new MessageChannel();
  port2.addEventListener('message', (e) => {
    log.push('stopper: listener');
    queueMicrotask(() => e.stopImmediatePropagation());
  });
  port2.addEventListener('message', () => log.push('stopper: must not run'));
  const channel = new MessageChannel();
  const removed = () => log.push('remover: must not run');
  channel.port2.addEventListener('message', () => {
    log.push('remover: listener');
    queueMicrotask(() => channel.port2.removeEventListener('message', removed));
  });
  channel.port2.addEventListener('message', removed);
  port2.start();
  channel.port2.start();
  port1.postMessage('go');
  channel.port1.postMessage('go');
  await sleep(20);
  port2.close();
  channel.port2.close();
});

await step('events dispatched by script', async () => {
  const target = new EventTarget();
  listenTwice(target, 'x', 'dispatchEvent');
  target.dispatchEvent(new Event('x'));
  log.push('dispatchEvent returned');
  const controller = new AbortController();
  listenTwice(controller.signal, 'abort', 'abort()');
  controller.abort();
  log.push('abort() returned');
  reportError(new Error('reported'));
  log.push('reportError returned');
  await sleep(0);
});
