// differential: node
// hostloop-flags: --v8-flags=--expose-gc
// timeout: 60
//
// Spec test for HTML "ports and garbage collection": a MessagePort is not
// collected while a task that dispatches an event on it is queued
// https://html.spec.whatwg.org/multipage/web-messaging.html#ports-and-garbage-collection
// Every channel here is unreachable from script once it is set up: only the
// messages in flight keep it going. Collections run in the middle (gc(), and
// the young-generation collections a long chain makes on its own). Before
// the fix, the ports were collected with a message queued for them, closed,
// the message was dropped, and the program ended early (exit 0) with nothing
// printed. Node prints the same. Expected: messaging_port_gc_in_flight.stdout.

const results = [];
const finished = [];

// A ping-pong between the two ends of one channel, 200k messages.
finished.push(new Promise((resolve) => {
  const { port1, port2 } = new MessageChannel();
  let n = 0;
  const handler = (port) => () => {
    if (++n === 200000) {
      results.push(`ping-pong: ${n}`);
      port.close();
      resolve();
      return;
    }
    if (n % 50000 === 0) globalThis.gc?.();
    port.postMessage(n);
  };
  port1.onmessage = handler(port1);
  port2.onmessage = handler(port2);
  port1.postMessage(0);
}));

// A one-way chain: the receiver's handler posts the next message through
// the sender, which has no listener.
finished.push(new Promise((resolve) => {
  const { port1, port2 } = new MessageChannel();
  let n = 0;
  port1.onmessage = () => {
    if (++n === 100000) {
      results.push(`one-way: ${n}`);
      port1.close();
      resolve();
      return;
    }
    if (n % 25000 === 0) globalThis.gc?.();
    port2.postMessage(n);
  };
  port2.postMessage(0);
}));

// A burst posted at once, then a collection before any of it is delivered.
finished.push(new Promise((resolve) => {
  const { port1, port2 } = new MessageChannel();
  let n = 0;
  port1.onmessage = (event) => {
    if (++n === 1000) {
      results.push(`burst: ${n}, last ${event.data}`);
      port1.close();
      resolve();
    }
  };
  for (let i = 0; i < 1000; i++) port2.postMessage(i);
}));
globalThis.gc?.();

// Messages queued before start(): delivered once it is started, with a
// collection in between.
finished.push(new Promise((resolve) => {
  const { port1, port2 } = new MessageChannel();
  let n = 0;
  port1.addEventListener('message', (event) => {
    if (++n === 10) {
      results.push(`started late: ${n}, last ${event.data}`);
      port1.close();
      resolve();
    }
  });
  for (let i = 0; i < 10; i++) port2.postMessage(i);
  globalThis.gc?.();
  port1.start();
}));
globalThis.gc?.();

await Promise.all(finished);
console.log(results.sort().join('\n'));
