// timeout: 20
//
// A delivered MessageEvent's timeStamp is the time it was created, on the
// receiver's performance.now() time line: after the post, no later than
// the handler's own reading. Checked for a MessageChannel (same-thread
// delivery) and for a worker's message (cross-thread batch delivery), over
// many messages so that optimized code (where the JS side reads the clock
// through a fast API call) is covered too.

import { test, assert } from './lib/assert.mjs';

function checkStamp(event, postedAt, label) {
  const now = performance.now();
  assert(typeof event.timeStamp === 'number', `${label}: timeStamp ${event.timeStamp}`);
  assert(event.timeStamp >= postedAt, `${label}: stamped ${event.timeStamp} before the post at ${postedAt}`);
  assert(event.timeStamp <= now, `${label}: stamped ${event.timeStamp} after the handler's ${now}`);
}

await test('MessageChannel deliveries are stamped between post and handler', async () => {
  const { port1, port2 } = new MessageChannel();
  const count = 20000;
  let received = 0;
  let postedAt = performance.now();
  await new Promise((resolve, reject) => {
    port1.onmessage = (event) => {
      try {
        checkStamp(event, postedAt, `message ${received}`);
      } catch (error) {
        reject(error);
        return;
      }
      if (++received === count) {
        port1.close();
        resolve();
        return;
      }
      postedAt = performance.now();
      port2.postMessage(received);
    };
    port2.postMessage(0);
  });
});

await test("a worker's messages are stamped after the post that sent them", async () => {
  const worker = new Worker(new URL('./fixtures/workers/echo.mjs', import.meta.url), { type: 'module' });
  const count = 2000;
  const postedAt = [];
  let received = 0;
  await new Promise((resolve, reject) => {
    worker.onmessage = (event) => {
      try {
        checkStamp(event, postedAt[event.data], `echo ${event.data}`);
      } catch (error) {
        reject(error);
        return;
      }
      if (++received === count) resolve();
    };
    for (let i = 0; i < count; i++) {
      postedAt.push(performance.now());
      worker.postMessage(i);
    }
  });
  worker.terminate();
});
