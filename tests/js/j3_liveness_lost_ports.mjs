// timeout: 30
//
// Spec test for contract J3 (liveness): a listening port whose partner is
// lost for good stops keeping its runtime alive, so this program exits.
//  - Posting the partner through the port itself: HTML's "doomed" message
//    (message port post message steps 3-6): the partner is transferred into
//    a message that is dropped, and the channel is lost. A warning goes to
//    stderr, as the steps allow.
//  - The partner transferred to a worker that closed itself before it could
//    take the message: the message, and the port in it, are dropped.
//  - The partner transferred to a worker still in its top-level await, which
//    is terminated: the queued message is dropped with the worker.
// Each port here listens and would keep the process alive until the runner's
// timeout if its runtime never learnt that the partner is gone.
// Expected: j3_liveness_lost_ports.stdout and .stderr.

const doomed = new MessageChannel();
doomed.port1.onmessage = (event) => console.log('J3 lost ports: unexpected', event.data);
doomed.port2.onmessage = (event) => console.log('J3 lost ports: unexpected', event.data);
doomed.port1.postMessage('doomed', [doomed.port2]);
console.log('J3 lost ports: doomed message posted');

const closing = new Worker(new URL('./fixtures/workers/close_at_top.mjs', import.meta.url), { type: 'module' });
const toClosed = new MessageChannel();
toClosed.port1.onmessage = (event) => console.log('J3 lost ports: unexpected', event.data);
closing.postMessage(null, [toClosed.port2]);

const slow = new Worker(new URL('./fixtures/workers/tla_then_listen.mjs', import.meta.url), { type: 'module' });
const toTerminated = new MessageChannel();
toTerminated.port1.onmessage = (event) => console.log('J3 lost ports: unexpected', event.data);
slow.postMessage(null, [toTerminated.port2]);  // queued: the inbound queue opens after 50 ms
setTimeout(() => {
  slow.terminate();
  console.log('J3 lost ports: terminated');
}, 10);
console.log('J3 lost ports: end of module');
