// hostloop-flags: --v8-flags=--expose-gc
// timeout: 30
//
// HTML "ports and garbage collection", the other half of
// messaging_port_gc_in_flight.mjs: a port is held only while a delivery to
// it is queued. Once a chain of messages has ended (its last handler posted
// nothing), its ports are collected like any other unreachable object. The
// deliveries of a chain are dispatched by the chain's script itself
// (js/messaging.js deliverChainedPortMessage): each port it handed an event to is
// let go once the event is dispatched and nothing more is queued for it.
// (WeakRefs, not a FinalizationRegistry: whether and when V8 schedules the
// registry's cleanup is not what this is about.)
// Expected: messaging_port_gc_after_chain.stdout.

const refs = [];

function chain(length, pingPong) {
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    refs.push(new WeakRef(port1), new WeakRef(port2));
    let n = 0;
    const handler = (port, other) => () => {
      if (++n === length) {
        resolve();
        return;
      }
      (pingPong ? port : other).postMessage(n);
    };
    port1.onmessage = handler(port1, port2);
    port2.onmessage = handler(port2, port1);
    port1.postMessage(0);
  });
}

for (let i = 0; i < 100; i++) await chain(1 + (i % 7), i % 2 === 0);
// A later task: the chains' tasks are over.
await new Promise((resolve) => setTimeout(resolve, 0));
gc();
await new Promise((resolve) => setTimeout(resolve, 0));
const alive = refs.filter((ref) => ref.deref() !== undefined).length;
console.log(`ports still alive: ${alive} of ${refs.length}`);
