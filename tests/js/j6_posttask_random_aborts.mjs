// timeout: 60
//
// Spec test for contract J6 (https://wicg.github.io/scheduling-apis/): many
// scheduler.postTask tasks with random priorities, delays and signals, while
// timers abort signals and change TaskController priorities, and some tasks
// yield. Every waiting task owns one token in the ordered lane, handed on
// when another task runs at its turn and left ownerless by an abort; this
// checks what must hold whatever the interleaving:
//  - every task either runs once (its promise fulfils) or is aborted before
//    it runs (its promise rejects with AbortError, its callback never runs);
//  - tasks posted with a fixed priority (an explicit one or the default, no
//    signal) and no delay run in posting order within their priority;
//  - every yield() continuation resumes once;
//  - nothing is left pending: every promise settles and the process exits
//    (a displaced task that lost its turn left the top-level await
//    unsettled: exit 13, checked by breaking the hand-over on purpose).
// Seeded, so a failure repeats.

import { assert, assertEquals, test } from './lib/assert.mjs';

// A small linear congruential generator: the same sequence for a seed.
function generator(seed) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const kPriorities = ['user-blocking', 'user-visible', 'background'];

async function run(seed) {
  const random = generator(seed);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const controllers = Array.from({ length: 8 }, () => new TaskController({ priority: pick(kPriorities) }));
  const tasks = [];
  const settled = [];
  const ranInOrder = new Map(kPriorities.map((priority) => [priority, []]));
  let continuations = 0;
  let resumed = 0;

  const post = () => {
    const task = { index: tasks.length, runs: 0, outcome: undefined, fixed: undefined };
    tasks.push(task);
    const options = {};
    if (random() < 0.5) options.priority = pick(kPriorities);
    if (random() < 0.2) options.delay = 1 + Math.floor(random() * 3);
    if (random() < 0.4) options.signal = pick(controllers).signal;
    // Posting order within a fixed priority is checked for these.
    if (options.signal === undefined && options.delay === undefined) {
      task.fixed = options.priority ?? 'user-visible';
    }
    const yields = options.signal === undefined && random() < 0.1;
    if (yields) continuations++;
    settled.push(scheduler.postTask(async () => {
      task.runs++;
      if (task.fixed !== undefined) ranInOrder.get(task.fixed).push(task.index);
      if (yields) {
        await scheduler.yield();
        resumed++;
      }
    }, options).then(
      () => { task.outcome = 'ran'; },
      (error) => { task.outcome = `rejected ${error.name}`; },
    ));
  };

  // Timers that abort a signal or change a controller's priority, and post
  // more tasks, while the tasks run.
  const disturb = () => {
    const controller = pick(controllers);
    const roll = random();
    if (roll < 0.3) {
      controller.abort();
      controllers[controllers.indexOf(controller)] = new TaskController({ priority: pick(kPriorities) });
    } else if (roll < 0.7) {
      controller.setPriority(pick(kPriorities));
    }
    for (let i = Math.floor(random() * 20); i > 0; i--) post();
  };

  for (let batch = 0; batch < 40; batch++) {
    for (let i = 0; i < 50; i++) {
      post();
      if (random() < 0.05) disturb();
    }
    for (let i = 0; i < 3; i++) setTimeout(disturb, Math.floor(random() * 3));
    await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 2)));
  }
  // Tasks posted by the last timers settle too.
  for (let count = -1; count !== settled.length;) {
    count = settled.length;
    await Promise.all(settled);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }

  let aborted = 0;
  for (const task of tasks) {
    if (task.outcome === 'ran') {
      assertEquals(task.runs, 1, `task ${task.index} ran ${task.runs} times`);
    } else {
      assertEquals(task.outcome, 'rejected AbortError', `task ${task.index}`);
      assertEquals(task.runs, 0, `aborted task ${task.index} ran`);
      aborted++;
    }
  }
  for (const [priority, order] of ranInOrder) {
    for (let i = 1; i < order.length; i++) {
      assert(order[i - 1] < order[i], `${priority}: task ${order[i]} ran after task ${order[i - 1]}, posted later`);
    }
  }
  assertEquals(resumed, continuations, 'yield() continuations resumed');
  // (The mix really has both outcomes.)
  assert(aborted > 0 && aborted < tasks.length, `${aborted} of ${tasks.length} aborted`);
}

for (const seed of [1, 2, 3, 4]) {
  await test(`seed ${seed}: each task runs once or is aborted, fixed priorities in order`, () => run(seed));
}
