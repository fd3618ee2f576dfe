// differential: node
//
// Differential ordering script (contract L5, ECMAScript job queues): promise
// jobs, queueMicrotask, await (of promises, thenables and non-promises),
// async functions and the promise combinators, all within microtask
// checkpoints. Node and HTML agree on all of these, so hostloop's stdout
// must equal node's. Prints one line per event; no assertions.

const log = (...parts) => console.log(parts.join(' '));

log('sync: start');

// 1. Promise reactions vs queueMicrotask: FIFO in one queue.
Promise.resolve().then(() => log('1 promise a'));
queueMicrotask(() => log('1 queueMicrotask b'));
Promise.resolve().then(() => log('1 promise c')).then(() => log('1 promise c2'));
queueMicrotask(() => {
  log('1 queueMicrotask d');
  queueMicrotask(() => log('1 queueMicrotask d nested'));
  Promise.resolve().then(() => log('1 promise from d'));
});

// 2. async functions: the synchronous part runs at the call.
async function asyncA() {
  log('2 asyncA sync part');
  await undefined;
  log('2 asyncA after await 1');
  await null;
  log('2 asyncA after await 2');
  return 'A';
}
async function asyncB() {
  log('2 asyncB sync part');
  await Promise.resolve();
  log('2 asyncB after await 1');
  const value = await asyncA();
  log(`2 asyncB got ${value}`);
}
asyncB().then(() => log('2 asyncB settled'));
log('sync: after asyncB()');

// 3. Resolving with a promise or a thenable costs extra ticks.
new Promise((resolve) => resolve(Promise.resolve('p'))).then((v) => log(`3 resolved with a promise: ${v}`));
new Promise((resolve) => resolve('plain')).then((v) => log(`3 resolved with a value: ${v}`));
new Promise((resolve) => resolve({ then(r) { log('3 thenable.then called'); r('t'); } }))
  .then((v) => log(`3 resolved with a thenable: ${v}`));
(async () => {
  const v = await { then(r) { r('awaited thenable'); } };
  log(`3 ${v}`);
})();

// 4. Combinators.
Promise.all([1, Promise.resolve(2), new Promise((r) => queueMicrotask(() => r(3)))])
  .then((v) => log(`4 all ${v.join(',')}`));
Promise.race([new Promise(() => {}), Promise.resolve('race winner')]).then((v) => log(`4 race ${v}`));
Promise.allSettled([Promise.reject(new Error('x')), 1])
  .then((r) => log(`4 allSettled ${r.map((e) => e.status).join(',')}`));
Promise.any([Promise.reject(1), Promise.resolve('any winner')]).then((v) => log(`4 any ${v}`));

// 5. Rejections handled in the same checkpoint, with catch and finally.
Promise.reject(new Error('r'))
  .catch((e) => { log(`5 caught ${e.message}`); return 'recovered'; })
  .finally(() => log('5 finally'))
  .then((v) => log(`5 then ${v}`));
(async () => {
  try {
    await Promise.reject(new Error('awaited rejection'));
  } catch (e) {
    log(`5 async caught ${e.message}`);
  }
})();

// 6. Async generators and for await.
async function* numbers() {
  for (let i = 0; i < 3; i++) {
    log(`6 generator yields ${i}`);
    yield i;
  }
}
(async () => {
  for await (const n of numbers()) log(`6 for await got ${n}`);
  log('6 for await done');
})();

// 7. A long chain interleaved with another one.
let chainA = Promise.resolve();
let chainB = Promise.resolve();
for (let i = 0; i < 4; i++) {
  chainA = chainA.then(() => log(`7 chain A step ${i}`));
  chainB = chainB.then(() => log(`7 chain B step ${i}`));
}

log('sync: end');
