// timeout: 60
//
// Spec test for contract J6: running n queued scheduler.postTask tasks (and
// n scheduler.yield continuations) takes time linear in n, not O(n^2). Each
// priority's queue was an array consumed from its front with
// Array.prototype.shift, which copies a large array every time: 200,000
// tasks took 45 s on a busy 2-core machine, 1.9 s now, and 500,000 would
// take over 6 times as long as 200,000 did. The test's timeout is the
// bound, not a timing assert. The queues keep their order through what else touches them: tasks posted
// by running tasks, aborts of queued tasks, setPriority moving queued tasks
// between queues.
// https://wicg.github.io/scheduling-apis/#scheduler-task-queues

import { assertEquals, test } from './lib/assert.mjs';

const N = 500_000;

await test('500,000 queued tasks run, in posting order', async () => {
  const ran = [];
  let last;
  for (let i = 0; i < N; i++) last = scheduler.postTask(() => ran.push(i));
  await last;
  assertEquals(ran.length, N);
  assertEquals(ran.every((value, i) => value === i), true, 'posting order');
});

await test('20,000 queued tasks of each priority, by priority then posting order', async () => {
  const M = 20_000;
  const ran = [];
  const posts = [];
  for (let i = 0; i < M; i++) {
    for (const priority of ['background', 'user-visible', 'user-blocking']) {
      posts.push(scheduler.postTask(() => ran.push(`${priority} ${i}`), { priority }));
    }
  }
  await Promise.all(posts);
  assertEquals(ran.length, 3 * M);
  let k = 0;
  for (const priority of ['user-blocking', 'user-visible', 'background']) {
    for (let i = 0; i < M; i++, k++) {
      if (ran[k] !== `${priority} ${i}`) assertEquals(ran[k], `${priority} ${i}`, `entry ${k}`);
    }
  }
});

await test('300,000 scheduler.yield continuations resume in order', async () => {
  const resumed = [];
  const waits = [];
  for (let i = 0; i < 300_000; i++) waits.push(scheduler.yield().then(() => resumed.push(i)));
  await Promise.all(waits);
  assertEquals(resumed.length, 300_000);
  assertEquals(resumed.every((value, i) => value === i), true, 'yield order');
});

await test('tasks posted by running tasks join the back of a long queue', async () => {
  const ran = [];
  let pending = 0;
  let finish;
  const finished = new Promise((resolve) => { finish = resolve; });
  const post = (i) => {
    pending++;
    scheduler.postTask(() => {
      ran.push(i);
      if (i < 40_000) post(i + 10_000);
      if (--pending === 0) finish();
    });
  };
  for (let i = 0; i < 10_000; i++) post(i);
  await finished;
  assertEquals(ran.length, 50_000);
  assertEquals(ran.every((value, i) => value === i), true, 'posting order');
});

await test('aborts and setPriority in a long queue whose front has run', async () => {
  const ran = [];
  const rejected = [];
  const controllers = [];
  const moving = new TaskController({ priority: 'background' });
  const posts = [];
  for (let i = 0; i < 5_000; i++) {
    const controller = new TaskController();
    controllers.push(controller);
    posts.push(scheduler.postTask(() => {
      ran.push(i);
      if (i === 3_000) {
        // The tasks 3,500 to 3,599 leave the queue; the background ones move
        // to user-visible.
        for (let j = 3_500; j < 3_600; j++) controllers[j].abort();
        controllers[1_000].abort();  // ran already: nothing happens
        moving.setPriority('user-visible');
      }
    }, { signal: controller.signal }).catch(() => rejected.push(i)));
    if (i % 1_000 === 0) posts.push(scheduler.postTask(() => ran.push(`moved ${i}`), { signal: moving.signal }));
  }
  await Promise.all(posts);
  // The moved tasks keep their enqueue order in user-visible: the first four
  // were enqueued before task 3,001, the last one between 4,000 and 4,001.
  const expected = [];
  for (let i = 0; i < 5_000; i++) {
    if (i < 3_500 || i >= 3_600) expected.push(i);
    if (i === 3_000) expected.push('moved 0', 'moved 1000', 'moved 2000', 'moved 3000');
    if (i === 4_000) expected.push('moved 4000');
  }
  assertEquals(rejected, Array.from({ length: 100 }, (_, i) => 3_500 + i));
  assertEquals(ran, expected);
});
