// timeout: 60
//
// Spec test for contract J6: aborting queued scheduler.postTask tasks and
// moving them between priorities (TaskController.setPriority) take time
// linear in the queue's length, and the tasks left run in enqueue order.
// Each abort shifted the rest of its queue down, and each moved task was
// inserted one at a time: on a busy 2-core machine one signal aborting
// 200,000 tasks took 110 s (0.4 s now) and moving 20,000 tasks into a queue
// of 100,000 took 12 s (0.04 s now). The test's timeout is the bound, not a
// timing assert.
// https://wicg.github.io/scheduling-apis/#scheduler-task-queues

import { assertEquals, test } from './lib/assert.mjs';

await test('200,000 queued tasks aborted by one signal, and random aborts, in linear time', async () => {
  // Each abort shifted the rest of its queue down: one TaskController
  // aborting 200,000 queued tasks took 110 s on a busy machine (0.4 s now).
  const shared = new TaskController();
  const posts = [];
  let sharedRejected = 0;
  for (let i = 0; i < 200_000; i++) {
    posts.push(scheduler.postTask(() => { throw new Error('aborted task ran'); }, { signal: shared.signal })
      .catch((error) => { if (error.name === 'AbortError') sharedRejected++; }));
  }
  // Among them, tasks whose controllers abort in a scattered order: the
  // others still run in posting order.
  const ran = [];
  const controllers = [];
  for (let i = 0; i < 20_000; i++) {
    const controller = new TaskController();
    controllers.push(controller);
    posts.push(scheduler.postTask(() => ran.push(i), { signal: controller.signal }).catch(() => {}));
  }
  shared.abort();
  const aborted = new Set();
  for (let k = 0; k < 10_000; k++) {
    const i = (k * 7_919) % 20_000;  // 7,919 is prime: every index once per 20,000 steps
    aborted.add(i);
    controllers[i].abort();
  }
  await Promise.all(posts);
  assertEquals(sharedRejected, 200_000);
  const expected = [];
  for (let i = 0; i < 20_000; i++) if (!aborted.has(i)) expected.push(i);
  assertEquals(ran.length, expected.length);
  assertEquals(ran.every((value, k) => value === expected[k]), true, 'posting order of the rest');
});

await test('setPriority moves 40,000 queued tasks into a queue of 160,000 in linear time', async () => {
  // The moved tasks were inserted one at a time, each walking back past the
  // later entries of the queue it joined: O(n * m).
  const controller = new TaskController({ priority: 'background' });
  const ran = [];
  const posts = [];
  for (let i = 0; i < 40_000; i++) posts.push(scheduler.postTask(() => ran.push(i), { signal: controller.signal }));
  for (let i = 40_000; i < 200_000; i++) posts.push(scheduler.postTask(() => ran.push(i)));
  controller.setPriority('user-visible');
  await Promise.all(posts);
  // Enqueue order decides within user-visible: the moved tasks were first.
  assertEquals(ran.length, 200_000);
  assertEquals(ran.every((value, i) => value === i), true, 'enqueue order');
});
