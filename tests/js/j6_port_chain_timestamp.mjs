// timeout: 30
//
// Spec test for MessageEvent.timeStamp with same-thread MessagePort chains
// (a chained message's event is made by the chain's script after
// host.nextPortMessage ended the last task; its time stamp is the loop's
// reading from before the task, host.entryStartNow()): on every port the
// time stamps of successive messages never decrease, each is at or after a
// performance.now() read before the message was posted, and none is after
// the handler's own performance.now() (DOM: the time the event was created,
// on the global's performance timeline). Checked for a pre-posted batch
// (one pass of the loop), a ping-pong whose every message is posted by the
// last one's handler (the chain goes on across passes), and two ports whose
// messages alternate. Thousands of messages, so the lane's clock checks and
// optimized code are covered too.

import { test, assert } from './lib/assert.mjs';

import { keep } from './lib/keep_channels.mjs';

function checker(label) {
  let last = -Infinity;
  let count = 0;
  return (event, postedAt) => {
    const now = performance.now();
    const stamp = event.timeStamp;
    assert(typeof stamp === 'number' && Number.isFinite(stamp), `${label}: timeStamp ${stamp}`);
    assert(stamp >= last, `${label} ${count}: timeStamp ${stamp} before the last one's ${last}`);
    assert(stamp >= postedAt, `${label} ${count}: timeStamp ${stamp} before the post's performance.now() ${postedAt}`);
    assert(stamp <= now, `${label} ${count}: timeStamp ${stamp} after the handler's performance.now() ${now}`);
    last = stamp;
    count++;
  };
}

await test('a pre-posted batch', async () => {
  const { port1, port2 } = keep(new MessageChannel());
  const count = 5000;
  const check = checker('batch');
  const postedAt = [];
  let received = 0;
  await new Promise((resolve, reject) => {
    port2.onmessage = (event) => {
      try {
        check(event, postedAt[event.data]);
      } catch (error) {
        reject(error);
      }
      if (++received === count) resolve();
    };
    for (let i = 0; i < count; i++) {
      postedAt.push(performance.now());
      port1.postMessage(i);
    }
  });
  port2.close();
});

await test('a ping-pong between the two ends, each message posted by the last handler', async () => {
  const { port1, port2 } = keep(new MessageChannel());
  const count = 20000;
  const check = checker('ping-pong');
  let postedAt = 0;
  await new Promise((resolve, reject) => {
    const handler = (port) => (event) => {
      try {
        check(event, postedAt);
      } catch (error) {
        reject(error);
        return;
      }
      if (event.data === count) {
        resolve();
        return;
      }
      postedAt = performance.now();
      port.postMessage(event.data + 1);
    };
    port1.onmessage = handler(port1);
    port2.onmessage = handler(port2);
    postedAt = performance.now();
    port1.postMessage(0);
  });
  port1.close();
  port2.close();
});

await test('two ports whose messages alternate, a few posted ahead', async () => {
  const channels = [keep(new MessageChannel()), keep(new MessageChannel())];
  const count = 10000;
  const check = checker('two ports');
  const postedAt = new Map();
  let received = 0;
  let sent = 0;
  const post = (c) => {
    postedAt.set(`${c} ${sent}`, performance.now());
    channels[c].port1.postMessage(sent++);
  };
  await new Promise((resolve, reject) => {
    channels.forEach(({ port2 }, c) => {
      port2.onmessage = (event) => {
        try {
          check(event, postedAt.get(`${c} ${event.data}`));
        } catch (error) {
          reject(error);
          return;
        }
        postedAt.delete(`${c} ${event.data}`);
        if (++received === count) resolve();
        if (sent < count) post(1 - c);
      };
    });
    // Four messages in flight at any time.
    for (let i = 0; i < 4; i++) post(i % 2);
  });
  for (const { port2 } of channels) port2.close();
});
