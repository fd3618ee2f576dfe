// timeout: 20
//
// Contract W3 (a worker's messages wait until its top-level await has
// settled) with J3 (liveness): a worker whose top-level await waits for a
// message from its parent can never go on. Its `message` listener does not
// keep it alive before the queue opens, so it ends, saying why, and the
// parent ends too (exit 0); both hung for good before.
// Expected: w3_worker_tla_never_settles.stdout and .stderr.

const source = `
  const first = await new Promise((resolve) => { onmessage = (event) => resolve(event.data); });
  postMessage('never: ' + first);`;
const worker = new Worker('data:text/javascript,' + encodeURIComponent(source), { type: 'module', name: 'w3' });
worker.onmessage = (event) => console.log('unexpected message:', event.data);
worker.onerror = (event) => console.log('unexpected error event:', event.message);
worker.postMessage('the set-up');
console.log('W3: posted the set-up message');
