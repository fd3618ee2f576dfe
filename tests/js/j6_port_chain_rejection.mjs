// timeout: 30
//
// Spec test for contracts J5, L3 and L5 with same-thread MessagePort chains
// (the chain's script ends each message's task in host.nextPortMessage,
// which runs the checkpoint and the rejection processing after it): a
// promise rejected without a handler in a chained message's handler.
// What HTML fixes, asserted: `unhandledrejection` fires once, after all the
// microtasks of the task that rejected it (HTML "notify about rejected
// promises" at the end of the checkpoint), in a task of its own (its
// listener's microtasks run before anything else), and not at all when the
// promise gets a handler before that task runs; one that gets a handler
// after it fires `rejectionhandled`.
// What hostloop adds (L3: that task is posted to the ordered lane when the
// checkpoint ends): it runs after the messages queued before it, before those
// posted after it. The order must be the same when the messages are not
// chained (a timer posted between every two posts splits the chain).
// Expected: j6_port_chain_rejection.stdout (exact).

import { assert, assertEquals } from './lib/assert.mjs';

import { keep } from './lib/keep_channels.mjs';

const lines = [];
const log = (line) => lines.push(line);
let pending = null;
addEventListener('unhandledrejection', (event) => {
  event.preventDefault();
  log(`unhandledrejection ${event.reason}`);
  queueMicrotask(() => log('  unhandledrejection listener microtask'));
  if (pending) pending.resolve();
});
addEventListener('rejectionhandled', (event) => {
  log(`rejectionhandled ${event.reason}`);
  if (pending) pending.resolve();
});
function deferred() {
  let resolve;
  const promise = new Promise((r) => { resolve = r; });
  return { promise, resolve };
}
async function turns(count = 6) {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}

// Pre-posted messages 0..5; message 2 rejects a promise nobody handles.
// `split`: a timer between every two posts, so no two deliveries are next
// to each other in the lane.
async function prePosted(split) {
  const { port1, port2 } = keep(new MessageChannel());
  pending = deferred();
  port2.onmessage = (event) => {
    const n = event.data;
    log(`message ${n}`);
    if (n === 2) {
      Promise.reject(`rejected by message ${n}`);
      queueMicrotask(() => log(`  microtask ${n}`));
      Promise.resolve().then(() => log(`  reaction ${n}`)).then(() => log(`  second reaction ${n}`));
    }
  };
  for (let i = 0; i < 6; i++) {
    port1.postMessage(i);
    if (split) setTimeout(() => {}, 0);
  }
  await pending.promise;
  await turns();
  port2.close();
  const result = lines.splice(0);
  // HTML: after the rejecting task's microtasks, in a task of its own.
  const at = result.indexOf('unhandledrejection rejected by message 2');
  assert(at > result.indexOf('  second reaction 2'), 'after the microtasks of message 2');
  assertEquals(result[at + 1], '  unhandledrejection listener microtask', 'a task of its own');
  assertEquals(result.filter((line) => line.startsWith('unhandledrejection')).length, 1, 'once');
  return result;
}

const chained = await prePosted(false);
const split = await prePosted(true);
assertEquals(split, chained, 'a chain split by timers gives the same order');
console.log(`pre-posted messages (the same with a timer between every two)\n  ${chained.join('\n  ')}`);

// A ping-pong: each message posted by the last one's handler.
{
  const { port1, port2 } = keep(new MessageChannel());
  pending = deferred();
  const handler = (port) => (event) => {
    const n = event.data;
    log(`message ${n}`);
    if (n === 2) {
      Promise.reject(`rejected by message ${n}`);
      queueMicrotask(() => log(`  microtask ${n}`));
    }
    if (n < 6) port.postMessage(n + 1);
  };
  port1.onmessage = handler(port1);
  port2.onmessage = handler(port2);
  port1.postMessage(0);
  await pending.promise;
  await turns();
  port1.close();
  port2.close();
  console.log(`a ping-pong\n  ${lines.splice(0).join('\n  ')}`);
}

// Handled by a later message of the chain, before the notification's task
// runs: no event at all. Then one handled after its unhandledrejection.
{
  const { port1, port2 } = keep(new MessageChannel());
  let promise = null;
  port2.onmessage = (event) => {
    const n = event.data;
    log(`message ${n}`);
    if (n === 1 || n === 'late') promise = Promise.reject(`rejected by message ${n}`);
    if (n === 3) promise.catch(() => log(`  caught by message ${n}`));
    if (n === 'handle it') promise.catch(() => log(`  caught by message ${n}`));
  };
  for (let i = 0; i < 5; i++) port1.postMessage(i);
  await turns();
  pending = deferred();
  port1.postMessage('late');
  await pending.promise;
  pending = deferred();
  port1.postMessage('handle it');
  await pending.promise;
  await turns();
  port2.close();
  console.log(`handled by a later message\n  ${lines.splice(0).join('\n  ')}`);
}
