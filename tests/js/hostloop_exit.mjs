// expect-exit: 3
// timeout: 20
//
// hostloop.exit(code) ends the program at once with `code`: the rest of the
// calling task does not run, nor any pending microtask, timer, scheduler task
// or message, and a running worker does not keep it going (README: exit
// codes). Expected: hostloop_exit.stdout, and exit code 3.

// A worker that spins in its entry script forever.
const worker = new Worker(new URL('./fixtures/workers/spin_forever.mjs', import.meta.url),
  { type: 'module', name: 'top-level' });
worker.onmessage = () => {};
const { port1, port2 } = new MessageChannel();
port1.onmessage = () => console.log('exit: a message ran after exit()');

setTimeout(() => {
  console.log('exit: the timer runs');
  queueMicrotask(() => console.log('exit: a microtask ran after exit()'));
  Promise.resolve().then(() => console.log('exit: a reaction ran after exit()'));
  scheduler.postTask(() => console.log('exit: a postTask ran after exit()'));
  setTimeout(() => console.log('exit: a timer ran after exit()'), 0);
  port2.postMessage('late');
  hostloop.exit(3);
  console.log('exit: the caller went on after exit()');
}, 10);
setInterval(() => {}, 1000);
console.log('exit: exitCode before', hostloop.exitCode);
