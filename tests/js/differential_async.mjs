// differential: node
//
// Differential ordering script (contracts J1, L5, J3): top-level await on
// timers, async functions awaiting timers concurrently, promise chains that
// span timers, and a timer scheduled from a microtask. Node and HTML agree
// here (distinct delays, no 0-vs-1 ms mixing), so hostloop's stdout must
// equal node's. No assertions.

const log = (...parts) => console.log(parts.join(' '));
const sleep = (ms, value) => new Promise((resolve) => setTimeout(() => resolve(value), ms));

log('start');

// 1. Top-level await on a timer; module-body microtasks first.
Promise.resolve().then(() => log('1 microtask before the first await'));
const first = await sleep(10, 'slept 10');
log(`1 ${first}`);

// 2. Concurrent async functions awaiting different delays.
async function worker(name, delays) {
  for (const ms of delays) {
    await sleep(ms);
    log(`2 ${name} woke after ${ms}`);
  }
  return name;
}
const results = await Promise.all([worker('fast', [5, 5, 5]), worker('slow', [120, 40])]);
log(`2 all done: ${results.join(', ')}`);

// 3. Promise.race between timers.
const winner = await Promise.race([sleep(80, 'slow'), sleep(20, 'quick')]);
log(`3 race won by ${winner}`);

// 4. A timer scheduled from a microtask, and microtasks from a timer.
await new Promise((resolve) => {
  queueMicrotask(() => {
    log('4 microtask schedules a timer');
    setTimeout(() => {
      log('4 timer from a microtask');
      Promise.resolve().then(() => {
        log('4 microtask from that timer');
        resolve();
      });
    }, 0);
  });
});
log('4 resumed');

// 5. A chain that alternates timers and promise jobs.
let value = 0;
let p = Promise.resolve();
for (let i = 0; i < 3; i++) {
  p = p.then(() => sleep(5)).then(() => {
    value += 1;
    log(`5 step ${i}, value ${value}`);
  });
}
await p;

// 6. for await over timer-backed promises.
async function* ticks() {
  for (let i = 0; i < 3; i++) yield sleep(5, `tick ${i}`);
}
for await (const t of ticks()) log(`6 ${t}`);

log('end');
