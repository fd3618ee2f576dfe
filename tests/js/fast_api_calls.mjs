// timeout: 30
// hostloop-flags: --v8-flags=--allow-natives-syntax
//
// host.now, host.timerStart, host.portPostNumber and host.postSchedulerToken
// have V8 fast API calls (HostFunction::fast): TurboFan-optimized code calls
// their C++ directly instead of through an API callback. This runs
// setTimeout, clearTimeout, performance.now, MessagePort's postMessage of a
// number and scheduler.postTask from functions forced into optimized code and
// checks that they behave exactly as from the interpreter: ids, firing order,
// cancellation (also with a full cancel buffer flushed from optimized code:
// the process exits at once, with no cleared timer left pending), a clock
// that never goes back and keeps up with Date.now(), every number arriving
// as it was sent and in order, nothing delivered from a closed port, and
// postTask's order and delays. (A fast call that returned a wrong id fails
// the first two tests.)

import { test, assert, assertEquals } from './lib/assert.mjs';

// Runs fn(...warm) to collect feedback, then forces TurboFan on fn and runs
// fn(...args); returns that result and checks that the optimized code is what
// ran and that it is still there (no deoptimization on the way).
function optimized(fn, warm, args) {
  %PrepareFunctionForOptimization(fn);
  fn(...warm);
  %OptimizeFunctionOnNextCall(fn);
  const result = fn(...args);
  const kOptimized = 1 << 4;  // V8's OptimizationStatus bit
  const status = %GetOptimizationStatus(fn);
  assert((status & kOptimized) !== 0, `${fn.name} is not optimized (status ${status.toString(2)})`);
  return result;
}

await test('setTimeout from optimized code: distinct ids, fires in (deadline, order)', async () => {
  const fired = [];
  function schedule(tag, count) {
    const ids = [];
    for (let i = 0; i < count; i++) {
      ids.push(setTimeout(() => fired.push(`${tag}${i}`), (count - i) % 3));
    }
    return ids;
  }
  const ids = optimized(schedule, ['warm', 1], ['x', 6]);
  const warmFired = fired.length;
  assertEquals(new Set(ids).size, 6);
  for (const id of ids) assert(Number.isInteger(id) && id > 0, `bad id ${id}`);
  await new Promise((resolve) => setTimeout(resolve, 20));
  // Delays 0,2,1,0,2,1 for x0..x5: by deadline, then in scheduling order.
  // (warm0 fired too, when depends on how long optimizing took.)
  assertEquals(warmFired, 0);
  assertEquals(fired.filter((tag) => tag !== 'warm0'), ['x0', 'x3', 'x2', 'x5', 'x1', 'x4']);
  assert(fired.includes('warm0'), 'warm0 did not fire');
});

await test('clearTimeout from optimized code cancels, also across a buffer flush', async () => {
  let ran = 0;
  function scheduleAndClear(count) {
    const ids = [];
    // Even ones wait a minute and are cleared: one left pending in the loop
    // would keep this process alive past its timeout.
    for (let i = 0; i < count; i++) ids.push(setTimeout(() => ++ran, i % 2 === 0 ? 60000 : 1));
    // More clears than the cancel buffer holds, so clearTimeout flushes it
    // (host.timerFlushCancels) from optimized code.
    for (let i = 0; i < count; i += 2) clearTimeout(ids[i]);
    return ids;
  }
  const ids = optimized(scheduleAndClear, [2], [20000]);
  assertEquals(ids.length, 20000);
  await new Promise((resolve) => setTimeout(resolve, 30));
  // The uncleared timers: 1 of the warm-up call's, 10,000 of the second's.
  assertEquals(ran, 10001);
});

await test('performance.now from optimized code is monotonic and keeps up with Date.now', () => {
  function sample(count) {
    const times = new Float64Array(count);
    for (let i = 0; i < count; i++) times[i] = performance.now();
    return times;
  }
  const wallBefore = Date.now();
  const before = performance.now();
  const times = optimized(sample, [10], [100000]);
  const after = performance.now();
  const wallAfter = Date.now();
  for (let i = 1; i < times.length; i++) {
    assert(times[i] >= times[i - 1], `went back at ${i}: ${times[i - 1]} -> ${times[i]}`);
  }
  assert(times[0] >= before && times[times.length - 1] <= after, 'outside the surrounding readings');
  // Same clock as the interpreter's calls: the span it measured fits in the
  // wall-clock span around it (1 ms of Date.now() rounding each side).
  assert(after - before <= wallAfter - wallBefore + 2, `${after - before} ms vs ${wallAfter - wallBefore} ms`);
});

await test('MessagePort postMessage(number) from optimized code: every value, in order', async () => {
  const { port1, port2 } = new MessageChannel();
  const received = [];
  port1.onmessage = (event) => received.push(event.data);
  function post(port, values) {
    for (let i = 0; i < values.length; i++) port.postMessage(values[i]);
    return values.length;
  }
  const values = [0, -0, 1.5, -7, NaN, Infinity, -Infinity, 2 ** 53, 2 ** 31, -(2 ** 31) - 1, Number.MIN_VALUE];
  optimized(post, [port2, [1, 2.5, -0]], [port2, values]);
  // (A message posted after the others arrives after them.)
  port2.postMessage('end');
  await new Promise((resolve) => setTimeout(resolve, 20));
  const expected = [1, 2.5, -0, ...values, 'end'];
  assertEquals(received.length, expected.length);
  for (let i = 0; i < expected.length; i++) {
    assert(Object.is(received[i], expected[i]), `message ${i}: ${received[i]} instead of ${expected[i]}`);
  }
  port1.close();
});

await test('MessagePort postMessage(number) from optimized code: a closed channel delivers nothing', async () => {
  const { port1, port2 } = new MessageChannel();
  let received = 0;
  port1.onmessage = () => ++received;
  function post(port, count) {
    for (let i = 0; i < count; i++) port.postMessage(i);
    return count;
  }
  port1.close();
  optimized(post, [port2, 2], [port2, 100]);
  await new Promise((resolve) => setTimeout(resolve, 20));
  assertEquals(received, 0);
});

await test('MessagePort postMessage(number) on anything but a port throws the WebIDL TypeError, optimized or not', async () => {
  // host.portPostNumber is the brand check of this path: false for a
  // non-port, and postMessage then throws as for any other message.
  const { port1, port2 } = new MessageChannel();
  const received = [];
  port1.onmessage = (event) => received.push(event.data);
  const postMessage = MessagePort.prototype.postMessage;
  function post(target, value) {
    try {
      postMessage.call(target, value);
      return 'posted';
    } catch (error) {
      return `${error.constructor.name}: ${error.message}`;
    }
  }
  const kIllegal = "TypeError: Failed to execute 'postMessage' on 'MessagePort': Illegal invocation";
  // Objects with embedder fields (an ArrayBuffer, a view) and without.
  const others = [{}, new ArrayBuffer(8), new Uint8Array(4), port1.onmessage, globalThis];
  for (const other of others) assertEquals(post(other, 7), kIllegal, 'from the interpreter');
  // (Feedback from both kinds first, or the optimized code deoptimizes at
  // the first non-port.)
  %PrepareFunctionForOptimization(post);
  assertEquals(post({}, 7), kIllegal);
  assertEquals(optimized(post, [port2, 1], [{}, 2]), kIllegal);
  for (const other of others) assertEquals(post(other, 7), kIllegal, 'from optimized code');
  assertEquals(post(port2, 3), 'posted');
  await new Promise((resolve) => setTimeout(resolve, 20));
  assertEquals(received, [1, 3]);
  port1.close();
});

await test('scheduler.postTask from optimized code: FIFO with setTimeout(0), delays kept', async () => {
  const log = [];
  function post(tag, delay) {
    setTimeout(() => log.push(`${tag} timeout`), 0);
    const promise = scheduler.postTask(() => log.push(`${tag} task`));
    scheduler.postTask(() => log.push(`${tag} delayed`), { delay });
    return promise;
  }
  // (From a task that is not a timer's: the earlier tests' timers nest, and
  // past level 5 a setTimeout(0) waits 4 ms, HTML's clamp.)
  await scheduler.postTask(() => {});
  await optimized(post, ['warm', 1], ['x', 5]);
  await new Promise((resolve) => setTimeout(resolve, 30));
  // Each post's undelayed task runs after its setTimeout(0), and the
  // delayed ones after both.
  const x = log.filter((entry) => entry.startsWith('x '));
  assertEquals(x, ['x timeout', 'x task', 'x delayed']);
  assert(log.includes('warm delayed'), 'the warm-up call\'s delayed task did not run');
});
