// Spec tests for contracts L4 and W4 at the receiving end of a port whose
// messages come from another thread: they are delivered in batches (several
// per loop entry, one task each), and a handler that closes or transfers the
// port in the middle of a batch ends the batch there. After a close nothing
// more arrives; after a transfer the new owner gets the rest, in order, none
// lost and none delivered to the old port object.
//
// The flooding worker (fixtures/workers/port_flood.mjs) posts all N messages
// while main blocks in Atomics.wait, so every one is queued before the first
// batch is taken and the handler acts with most of the batch undelivered.

import { test, assert, assertEquals, delay } from './lib/assert.mjs';
import { fixture, nextMessage, within } from './fixtures/workers/harness.mjs';

const N = 600;      // more than one batch (256)
const CUT = 100;    // the handler acts on this message, inside the first batch

// Makes `worker` post 0 .. N-1 to the returned port, all queued on return.
function flood(worker) {
  const { port1, port2 } = new MessageChannel();
  const flag = new Int32Array(new SharedArrayBuffer(4));
  worker.postMessage({ op: 'flood', port: port2, flag, n: N }, [port2]);
  const result = Atomics.wait(flag, 0, 0, 10000);
  assert(result !== 'timed-out', 'the worker did not flood within 10 s');
  return port1;
}

const all = Array.from({ length: N }, (_, i) => i);

await test('W4 closing a port in the middle of a batch: nothing after the close is delivered', async () => {
  const worker = new Worker(fixture('port_flood.mjs'), { type: 'module' });
  try {
    const port = flood(worker);
    const received = [];
    let closed;
    const done = new Promise((resolve) => { closed = resolve; });
    port.onmessage = (event) => {
      received.push(event.data);
      if (event.data === CUT) {
        port.close();
        closed();
      }
    };
    await within(done, 10000, 'the message that closes the port');
    // The rest of the batch would have been delivered in the same loop
    // entry; give later entries a few turns as well.
    for (let i = 0; i < 5; i++) await delay(0);
    assertEquals(received, all.slice(0, CUT + 1));
  } finally {
    worker.terminate();
  }
});

await test('W4 transferring a port in the middle of a batch within the thread: the new owner gets the rest in order', async () => {
  const worker = new Worker(fixture('port_flood.mjs'), { type: 'module' });
  try {
    const port = flood(worker);
    const before = [];
    const after = [];
    const channel = new MessageChannel();
    const rest = new Promise((resolve) => {
      channel.port2.onmessage = (event) => {
        const moved = event.ports[0];
        moved.onmessage = (message) => {
          after.push(message.data);
          if (after.length === N - CUT - 1) resolve();
        };
      };
    });
    port.onmessage = (event) => {
      before.push(event.data);
      if (event.data === CUT) channel.port1.postMessage(null, [port]);
    };
    await within(rest, 10000, 'the rest of the flood at the transferred port');
    assertEquals(before, all.slice(0, CUT + 1), 'the old port object got messages after its transfer');
    assertEquals(after, all.slice(CUT + 1));
    channel.port1.close();
  } finally {
    worker.terminate();
  }
});

await test('W4 transferring a port in the middle of a batch to another worker: it gets the rest in order', async () => {
  const source = new Worker(fixture('port_flood.mjs'), { type: 'module', name: 'source' });
  const sink = new Worker(fixture('port_flood.mjs'), { type: 'module', name: 'sink' });
  try {
    // Several rounds: the sink may start the port before or after the rest
    // of the interrupted batch is back in its queue.
    for (let round = 0; round < 5; round++) {
      const port = flood(source);
      const before = [];
      port.onmessage = (event) => {
        before.push(event.data);
        if (event.data === CUT) sink.postMessage({ op: 'collect', port, n: N - CUT - 1 }, [port]);
      };
      const after = await nextMessage(sink, 10000);
      assertEquals(before, all.slice(0, CUT + 1), `round ${round}: the old port object got messages after its transfer`);
      assertEquals(after, all.slice(CUT + 1), `round ${round}`);
    }
  } finally {
    source.terminate();
    sink.terminate();
  }
});
