// timeout: 60
// hostloop-flags: --v8-flags=--expose-gc
//
// Contract J3 and HTML "ports and garbage collection": a port with a message
// listener whose partner is in transit (just posted to a worker) must not be
// collected, so the worker's answer to it arrives. The common request/reply
// pattern: a channel per request, port2 sent to the worker, the reply read
// on port1, which nothing else references. A major GC in the same task used
// to collect port1 (it turned strong only when a task posted by the transfer
// ran), and the replies were dropped: this file then timed out.
// Expected: j3_liveness_port_in_transit_gc.stdout.

const worker = new Worker(
  'data:text/javascript,' + encodeURIComponent('onmessage = (e) => e.ports[0].postMessage(e.data * 2);'),
);

function request(value) {
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = (e) => {
      port1.close();
      resolve(e.data);
    };
    worker.postMessage(value, [port2]);
  });
}

// A GC right after the transfer, in the same task.
const first = request(21);
gc();
console.log('after a gc in the same task:', await first);

// Many requests in one task, with collections between them.
const replies = [];
for (let i = 0; i < 200; i++) {
  replies.push(request(i));
  if (i % 20 === 0) gc();
}
const answers = await Promise.all(replies);
console.log('answers:', answers.length, answers.every((answer, i) => answer === i * 2));
worker.terminate();
