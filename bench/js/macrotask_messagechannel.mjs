// Row "macrotask_messagechannel": the cost of one macrotask delivered through a
// MessageChannel.
//
// A chain of self-reposting tasks: port1.onmessage posts the next message
// through port2, so exactly one message is in flight at a time and every task
// goes through the runtime's task queue (no batching of queued messages).
// A warm-up chain of 20,000 runs first (JIT, queue growth), then the measured
// chain of 200,000. Prints {"ns_per_task": ...}: wall time of the measured
// chain per task, from performance.now().
//
// Web-standard APIs only (MessageChannel, performance, console): runs
// unchanged under hostloop, node, deno and bun.

const WARMUP = 20_000;
const N = 200_000;

function chain(n) {
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    let left = n;
    port1.onmessage = () => {
      if (--left > 0) {
        port2.postMessage(0);
      } else {
        port1.close();
        port2.close();
        resolve();
      }
    };
    port2.postMessage(0);
  });
}

await chain(WARMUP);
const t0 = performance.now();
await chain(N);
const t1 = performance.now();

console.log(JSON.stringify({ ns_per_task: +(((t1 - t0) * 1e6) / N).toFixed(1) }));
