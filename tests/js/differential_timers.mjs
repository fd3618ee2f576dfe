// differential: node
//
// Differential ordering script (contracts J1, L5): timers and the microtask
// checkpoint after every timer callback; nested timers; equal timeouts in
// schedule order; timers with clearly different delays in delay order;
// clearTimeout/clearInterval. Node and HTML agree on everything here (no
// mixing of 0 and 1 ms timeouts, which node treats alike; no
// MessageChannel), so hostloop's stdout must equal node's. No assertions.

const log = (...parts) => console.log(parts.join(' '));

log('sync: start');

// 1. Microtasks of the module body run before any timer.
setTimeout(() => log('1 timer'), 0);
Promise.resolve().then(() => log('1 promise'));
queueMicrotask(() => log('1 microtask'));

// 2. A checkpoint after every timer callback: microtasks queued by timer A
//    run before timer B, even when both are due.
setTimeout(() => {
  log('2 timer A');
  Promise.resolve().then(() => log('2 A promise')).then(() => log('2 A promise 2'));
  queueMicrotask(() => log('2 A microtask'));
}, 0);
setTimeout(() => log('2 timer B'), 0);

// 3. Equal timeouts fire in schedule order.
for (let i = 0; i < 5; i++) setTimeout(() => log(`3 equal timeout #${i}`), 5);

// 4. Nested timers: two interleaved chains keep alternating.
function chain(name, depth) {
  if (depth === 0) return;
  setTimeout(() => {
    log(`4 chain ${name} depth ${depth}`);
    chain(name, depth - 1);
  }, 0);
}
setTimeout(() => {
  chain('X', 8);
  chain('Y', 8);
}, 100);

// 5. Clearly different delays, scheduled in reverse: delay order.
setTimeout(() => log('5 delay 360'), 360);
setTimeout(() => log('5 delay 330'), 330);
setTimeout(() => log('5 delay 300'), 300);

// 6. Clearing: a timer cleared before it fires, one cleared by an earlier
//    timer due at the same time, an interval cleared after three ticks.
const cleared = setTimeout(() => log('6 never: cleared'), 10);
clearTimeout(cleared);
let victim;
setTimeout(() => {
  log('6 first of two equal timers clears the second');
  clearTimeout(victim);
}, 400);
victim = setTimeout(() => log('6 never: cleared by an earlier timer'), 400);
setTimeout(() => {
  let ticks = 0;
  const id = setInterval(() => {
    ticks++;
    log(`6 interval tick ${ticks}`);
    if (ticks === 3) {
      clearInterval(id);
      setTimeout(() => log('6 after the interval'), 50);
    }
  }, 20);
}, 420);

// 7. Arguments and async callbacks.
setTimeout((a, b) => log(`7 arguments ${a} ${b}`), 800, 'one', 'two');
setTimeout(async () => {
  log('7 async timer start');
  await null;
  log('7 async timer after await');
}, 820);
setTimeout(() => log('7 after the async timer'), 820);

log('sync: end');
