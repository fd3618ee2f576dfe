// timeout: 60
//
// Spec test for contracts L4 and L5 with same-thread MessagePort chains
// (the chain's script goes on with the next delivery without returning to
// the loop, host.nextPortMessage; the loop hands it over only when it would
// run that delivery next anyway): while a long chain runs (a ping-pong of a
// million messages, each posted by the last one's handler; a batch of
// 200,000 posted at once), the rest of the program is still served, long
// before the chain ends:
//  - a setTimeout(..., 1) set in the middle of the ping-pong (ordered lane:
//    its later messages are posted after the deadline);
//  - messages from a Worker (internal lane, from another thread);
//  - the resolutions of Atomics.waitAsync calls that the worker notifies (V8
//    foreground tasks on the internal lane; their promise reactions run in
//    the checkpoint after them, L5);
//  - a hostloop:fs readFile completion (internal lane, from a pool thread).
// Each records the chain's counter when it runs; asserted: it ran before
// the chain's end, at a counter well below it (generous bounds; nothing
// about time). Stricter, and still no timing, in several rounds: the worker
// raises a flag in shared memory right after its postMessage() and after
// its notify() returned; the handler that first sees a flag knows that the
// work is queued on the internal lane, and the lane runs it in the same pass
// of the loop as that message (a ping-pong: one message a pass) or, for the
// batch, within the ordered lane's budget of 1024 entries a pass; the bounds
// below allow 16 and 4096 messages after the flag was seen.

import { test, assert } from './lib/assert.mjs';
import { readFile } from 'hostloop:fs';

import { keep } from './lib/keep_channels.mjs';

const worker = new Worker(`data:text/javascript,${encodeURIComponent(`
  // Round r: post a message, then raise flag 0; notify the parent's
  // waitAsync on cell 1, then raise flag 2 (the number woken in cell 3).
  onmessage = ({ data: { ints, round } }) => {
    postMessage(round);
    Atomics.store(ints, 0, round);  // the message is queued at the parent
    Atomics.store(ints, 1, round);
    Atomics.store(ints, 3, Atomics.notify(ints, 1));
    Atomics.store(ints, 2, round);  // the waitAsync's task is queued
  };
  postMessage('ready');
`)}`, { type: 'module' });
const ready = new Promise((resolve) => {
  worker.onmessage = (event) => {
    if (event.data === 'ready') resolve();
  };
});
await ready;

const path = new URL(import.meta.url).pathname;

// Runs a chain of `total` messages: `pingPong`, each posted by the last
// one's handler, alternating between the two ends of a channel; else all
// posted at once, before the first runs. At message `from`, well into the
// chain (its first messages may still find the loop with other work due),
// sets the timer (unless `timer` is false), starts the read, and starts the
// first of `rounds` rounds with the worker: a waitAsync, then a request for
// a message and a notify; each next round starts `gap` messages after the
// last one started, once both came (so that most find the chain going at
// full speed, not slowed by code that runs for the first time). Resolves
// with the counters: when each ran, and for each round, the messages between
// the first handler that saw a flag and the work that flag announced.
function runChain({ total, from, rounds, gap, pingPong, timer }) {
  const ints = new Int32Array(new SharedArrayBuffer(16));
  const at = { from, timer: -1, readFile: -1, rounds: [] };
  let counter = 0;
  let round = null;
  const channel = keep(new MessageChannel());
  const { port1, port2 } = channel;
  return new Promise((resolve, reject) => {
    const startRound = () => {
      round = { number: at.rounds.length + 1, start: counter, message: -1, waitAsync: -1, messageFlag: -1, notifyFlag: -1 };
      at.rounds.push(round);
      const current = round;
      Atomics.store(ints, 1, 0);
      Atomics.waitAsync(ints, 1, 0).value.then((result) => {
        current.waitAsync = counter;
        current.result = result;
      });
      worker.postMessage({ ints, round: current.number });
    };
    worker.onmessage = (event) => {
      if (round !== null && event.data === round.number) round.message = counter;
    };
    const handler = (port) => () => {
      const n = counter++;
      if (round !== null) {
        if (round.messageFlag < 0 && Atomics.load(ints, 0) === round.number) round.messageFlag = n;
        if (round.notifyFlag < 0 && Atomics.load(ints, 2) === round.number) {
          round.notifyFlag = n;
          round.woken = Atomics.load(ints, 3);
        }
        if (round.message >= 0 && round.waitAsync >= 0 && round.number < rounds && n >= round.start + gap) startRound();
      }
      if (n === from) {
        if (timer) setTimeout(() => { at.timer = counter; }, 1);
        readFile(path).then((bytes) => {
          at.readFile = counter;
          at.bytes = bytes.byteLength;
        }, reject);
        startRound();
      }
      if (counter === total) {
        port1.close();
        port2.close();
        resolve(at);
        return;
      }
      if (pingPong) port.postMessage(n);
    };
    port1.onmessage = handler(port1);
    port2.onmessage = handler(port2);
    if (pingPong) port1.postMessage(0);
    else for (let i = 0; i < total; i++) port1.postMessage(i);
  });
}

function check(at, total, rounds, strict) {
  const report = JSON.stringify(at);
  const ranAt = [['readFile', at.readFile]];
  if (at.timer !== -1) ranAt.push(['timer', at.timer]);
  for (const r of at.rounds) ranAt.push([`round ${r.number} message`, r.message], [`round ${r.number} waitAsync`, r.waitAsync]);
  for (const [what, value] of ranAt) {
    assert(value >= 0, `${what} did not run before the chain of ${total} ended: ${report}`);
    assert(value >= at.from, `${what} ran at message ${value}, before it was started: ${report}`);
    assert(value < total / 2, `${what} ran only at message ${value} of ${total}: ${report}`);
  }
  assert(at.rounds.length === rounds, `${at.rounds.length} rounds of ${rounds} ran: ${report}`);
  assert(at.bytes > 0, `readFile read ${at.bytes} bytes: ${report}`);
  for (const r of at.rounds) {
    assert(r.messageFlag >= 0 && r.notifyFlag >= 0, `round ${r.number}: the worker's flags were not seen: ${report}`);
    assert(r.woken === 1 && r.result === 'ok', `round ${r.number}: the notify woke ${r.woken}, waitAsync gave ${r.result}: ${report}`);
    // Queued before the handler that saw the flag: served within `strict`
    // messages of it.
    assert(r.message - r.messageFlag <= strict,
      `round ${r.number}: the worker's message came ${r.message - r.messageFlag} messages after it was queued: ${report}`);
    assert(r.waitAsync - r.notifyFlag <= strict,
      `round ${r.number}: the waitAsync resolution came ${r.waitAsync - r.notifyFlag} messages after it was queued: ${report}`);
  }
}

await test('L4 a ping-pong chain of a million messages lets a timer, a worker, waitAsync and readFile in', async () => {
  const total = 1000000;
  const at = await runChain({ total, from: 100000, rounds: 12, gap: 5000, pingPong: true, timer: true });
  assert(at.timer >= 0, `the timer did not run before the chain of ${total} ended: ${JSON.stringify(at)}`);
  check(at, total, 12, 16);
});

await test('L4 a batch of messages posted at once lets a worker, waitAsync and readFile in', async () => {
  // (A timer set meanwhile runs after them all: they were posted before
  // its deadline, L3.)
  const total = 200000;
  const at = await runChain({ total, from: 20000, rounds: 6, gap: 5000, pingPong: false, timer: false });
  check(at, total, 6, 4096);
});

worker.terminate();
