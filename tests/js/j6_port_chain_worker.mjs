// timeout: 60
//
// Spec test for contracts J6, L3, L4 and W4 with same-thread MessagePort
// chains on a worker's loop (fixtures/workers/j6_port_chain_worker.mjs; the
// chain's script goes on with the next delivery without returning to the
// loop, host.nextPortMessage):
//  - order: a worker's chain keeps posting order across two channels, with
//    a timer and a task posted between them, and each handler's microtasks
//    before the next handler (L3, L5);
//  - fairness: a message from the parent reaches a worker busy with a
//    ping-pong chain of half a million messages long before its end (L4;
//    generous bound, nothing about time);
//  - worker.terminate() stops a worker whose chain never ends (W4): the
//    program ends;
//  - self.close() in a chained handler: the rest of that task (its posts,
//    its microtasks) still happens, nothing after it: not the next message
//    of the chain, not a timer (W4).
// Expected: j6_port_chain_worker.stdout (exact).

import { assert } from './lib/assert.mjs';

import { keep } from './lib/keep_channels.mjs';

const url = new URL('./fixtures/workers/j6_port_chain_worker.mjs', import.meta.url);
const start = (op) => {
  const worker = new Worker(url, { type: 'module' });
  worker.postMessage(op);
  return worker;
};
const nextMessage = (worker) => new Promise((resolve) => { worker.onmessage = (event) => resolve(event.data); });

{
  const worker = start('order');
  const log = await nextMessage(worker);
  console.log(`order in a worker\n  ${log.join('\n  ')}`);
  worker.terminate();
}

{
  const total = 500000;
  const worker = start({ fairness: total });
  assert((await nextMessage(worker)) === 'started', 'the chain started');
  worker.postMessage('poke');
  const { pokedAt } = await nextMessage(worker);
  assert(pokedAt >= 0, `the poke did not arrive before the chain of ${total} ended`);
  assert(pokedAt < total / 4, `the poke arrived only at message ${pokedAt} of ${total}`);
  console.log('fairness in a worker: the poke arrived well before the end');
  worker.terminate();
}

{
  const worker = start('endless');
  assert((await nextMessage(worker)) === 'running', 'the endless chain runs');
  // (A worker that went on would keep the program from ending.)
  worker.terminate();
  console.log('terminate() stops an endless chain');
}

// Last: what the worker sends is printed as it comes, and the program ends
// when the worker has ended (a worker keeps its parent alive until then),
// so anything it sent after the closing task would be printed too.
{
  const worker = new Worker(url, { type: 'module' });
  console.log('self.close() in a chained handler');
  worker.onmessage = (event) => console.log(`  ${event.data}`);
  worker.postMessage('close');
}
