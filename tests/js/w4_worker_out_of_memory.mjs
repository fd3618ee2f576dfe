// timeout: 60
// hostloop-flags: --v8-flags=--max-old-space-size=48
//
// A worker that runs out of JavaScript heap ends on its own, with an `error`
// event (a RangeError's message) on its Worker object, and the parent runs
// on; as node does (ERR_WORKER_OUT_OF_MEMORY). V8's fatal out-of-memory
// error took the whole process down (exit 133). The 48 MB limit applies to
// every isolate; main stays far below it. (Found by an exploratory run.)
// Expected: w4_worker_out_of_memory.stdout.

const source = 'const keep = []; for (;;) keep.push(new Array(10000).fill(Math.random()));';
const worker = new Worker('data:text/javascript,' + encodeURIComponent(source), { type: 'module' });
const message = await new Promise((resolve) => {
  worker.onerror = (event) => {
    event.preventDefault();
    resolve(event.message);
  };
});
console.log(message.includes('RangeError') && message.includes('ran out of memory'));
// Main keeps working, and allocates some more itself.
const kept = [];
for (let i = 0; i < 100; i++) kept.push(new Array(1000).fill(i));
await new Promise((resolve) => setTimeout(resolve, 10));
console.log('main still running', kept.length);
