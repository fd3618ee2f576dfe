// BroadcastChannel: every other open channel of the same name, in this
// runtime and in workers, gets what one posts, as a task of its own; close()
// stops both sending and receiving.
// https://html.spec.whatwg.org/multipage/web-messaging.html#broadcasting-to-other-browsing-contexts
import { test, assert, assertEquals, assertThrows, assertDataCloneError } from './lib/assert.mjs';
import { nextMessage, within } from './fixtures/workers/harness.mjs';

const nextOn = (channel, ms = 10000) => within(new Promise((resolve) => {
  channel.addEventListener('message', (event) => resolve(event), { once: true });
}), ms, 'a BroadcastChannel message');

await test('channels of one name get the message, the sender and other names do not', async () => {
  const sender = new BroadcastChannel('news');
  const first = new BroadcastChannel('news');
  const second = new BroadcastChannel('news');
  const other = new BroadcastChannel('sports');
  const log = [];
  sender.onmessage = () => log.push('sender');
  first.onmessage = (event) => log.push(['first', event.data, event instanceof MessageEvent, event.target === first]);
  second.onmessage = (event) => log.push(['second', event.data]);
  other.onmessage = () => log.push('other');
  const data = { items: [1, 2], when: new Date(5) };
  sender.postMessage(data);
  sender.postMessage('again');
  // Tasks, not a synchronous dispatch.
  assertEquals(log, []);
  await new Promise((resolve) => setTimeout(resolve, 20));
  assertEquals(log, [['first', data, true, true], ['second', data], ['first', 'again', true, true], ['second', 'again']]);
  for (const channel of [sender, first, second, other]) channel.close();
});

await test('each delivery is a task: microtasks queued by one handler run before the next', async () => {
  const a = new BroadcastChannel('tasks');
  const b = new BroadcastChannel('tasks');
  const log = [];
  b.onmessage = (event) => {
    log.push(`message ${event.data}`);
    queueMicrotask(() => log.push(`microtask ${event.data}`));
  };
  a.postMessage(1);
  a.postMessage(2);
  await new Promise((resolve) => setTimeout(resolve, 20));
  assertEquals(log, ['message 1', 'microtask 1', 'message 2', 'microtask 2']);
  a.close();
  b.close();
});

await test('close(): no more sending (InvalidStateError), and queued messages are dropped', async () => {
  const a = new BroadcastChannel('closing');
  const b = new BroadcastChannel('closing');
  let got = 0;
  b.onmessage = () => got++;
  a.postMessage('queued');
  b.close();  // before the queued task runs
  b.close();  // idempotent
  await new Promise((resolve) => setTimeout(resolve, 20));
  assertEquals(got, 0, 'a closed channel receives nothing, even what was queued');
  a.close();
  const error = assertThrows(() => a.postMessage('x'), DOMException, 'Channel is closed');
  assertEquals(error.name, 'InvalidStateError');
});

await test('arguments, brand checks and what cannot be cloned', () => {
  const channel = new BroadcastChannel(12);
  assertEquals(channel.name, '12');
  assertEquals(Object.prototype.toString.call(channel), '[object BroadcastChannel]');
  assert(channel instanceof EventTarget, 'an EventTarget');
  assertThrows(() => new BroadcastChannel(), TypeError, '1 argument required');
  assertThrows(() => channel.postMessage(), TypeError, '1 argument required');
  assertThrows(() => BroadcastChannel.prototype.postMessage.call({}, 1), TypeError, 'Illegal invocation');
  assertThrows(() => Reflect.get(BroadcastChannel.prototype, 'name', {}), TypeError, 'Illegal invocation');
  assertDataCloneError(() => channel.postMessage(() => 1), 'a function');
  assertDataCloneError(() => channel.postMessage(Symbol('s')), 'a symbol');
  assertEquals(channel.onmessage, null);
  channel.close();
});

await test('workers: messages cross threads both ways, in order, to every member', async () => {
  const workers = ['w1', 'w2'].map((name) =>
    new Worker(new URL('./fixtures/workers/broadcast_member.mjs', import.meta.url), { type: 'module', name }));
  try {
    for (const worker of workers) {
      worker.postMessage('crowd');
      assertEquals(await nextMessage(worker), 'joined');
    }
    const channel = new BroadcastChannel('crowd');
    const replies = [];
    const done = new Promise((resolve) => {
      channel.onmessage = (event) => {
        replies.push(event.data);
        if (replies.length === 20) resolve();
      };
    });
    for (let i = 0; i < 10; i++) channel.postMessage({ ask: i });
    await within(done, 10000, '20 replies');
    for (const name of ['w1', 'w2']) {
      assertEquals(replies.filter((r) => r.from === name).map((r) => r.echo), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], name);
    }
    // Shared memory stays shared.
    const shared = new Int32Array(new SharedArrayBuffer(4));
    channel.onmessage = null;
    const wrote = nextOn(channel);
    channel.postMessage({ sab: shared.buffer });
    assertEquals((await wrote).data, 'wrote');
    assertEquals(Atomics.load(shared, 0), 7, 'written by a worker through the broadcast SharedArrayBuffer');
    // A member that closes gets nothing more.
    const closed = nextMessage(workers[0]);
    const closedToo = nextMessage(workers[1]);
    channel.postMessage('close');
    assertEquals([await closed, await closedToo], ['closed', 'closed']);
    channel.close();
  } finally {
    for (const worker of workers) worker.terminate();
  }
});
