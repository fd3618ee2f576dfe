// timeout: 30
//
// Spec test for contract J6 with same-thread MessagePort chains (the chain's
// script takes the next delivery from the loop itself, host.nextPortMessage;
// a delivery whose port was closed or moved meanwhile dispatches nothing and
// the chain looks for the next one): closing or moving ports from inside a
// chain. Expected: j6_port_chain_close.stdout (exact).
//  1. A handler closes its own port mid-chain: the messages still queued at
//     it are dropped (as Blink and WebKit do; src/runtime/message_port.h,
//     PortCore::Close; whatwg/html#5765 is open on it), so are later posts
//     to it, while another channel's messages in the same chain go on.
//  2. A handler closes the sending end: what it posted before the close is
//     still delivered (WPT webmessaging/message-channels/close.html,
//     "Inflight messages should be delivered even when sending port is
//     closed afterwards").
//  3. A microtask of a handler closes the port: it runs before the next
//     message would, which is then dropped with the rest.
//  4. A microtask of a handler transfers the port away (postMessage(x,
//     [port]) over another channel): the old object gets nothing more; the
//     rest of the queue, in order, moves to the new object, delivered once
//     it is started. Also with structuredClone(port, { transfer }) from the
//     handler itself.
//  5. A handler of one port closes another port whose messages alternate
//     with its own in the chain.

import { keep } from './lib/keep_channels.mjs';

const lines = [];
const log = (line) => lines.push(line);
function section(title) {
  console.log(`${title}\n  ${lines.join('\n  ')}`);
  lines.length = 0;
}
// Resolves after six timer turns: a timeout runs after everything posted
// before it was set (L3), so whatever the posts of the posts of what is
// queued now deliver (to a depth of five) has been delivered by then.
async function settle() {
  for (let i = 0; i < 6; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}

// 1.
{
  const { port1, port2 } = keep(new MessageChannel());
  const other = keep(new MessageChannel());
  port2.onmessage = (event) => {
    log(`port2 got ${event.data}`);
    queueMicrotask(() => log(`  microtask ${event.data}`));
    if (event.data === 3) {
      port2.close();
      log('  port2 closed');
      port1.postMessage('posted after the close');
    }
  };
  other.port2.onmessage = (event) => log(`other got ${event.data}`);
  for (let i = 0; i < 7; i++) {
    port1.postMessage(i);
    other.port1.postMessage(i);
  }
  await settle();
  port1.postMessage('posted later still');
  await settle();
  other.port2.close();
  section('1. a handler closes its own port');
}

// 2.
{
  const { port1, port2 } = keep(new MessageChannel());
  port2.onmessage = (event) => {
    log(`port2 got ${event.data}`);
    if (event.data === 1) {
      port1.close();
      log('  port1 (the sender) closed');
    }
  };
  for (let i = 0; i < 5; i++) port1.postMessage(i);
  await settle();
  port2.close();
  section('2. a handler closes the sending end');
}

// 3.
{
  const { port1, port2 } = keep(new MessageChannel());
  port2.onmessage = (event) => {
    log(`port2 got ${event.data}`);
    if (event.data === 2) {
      queueMicrotask(() => {
        port2.close();
        log('  a microtask closed port2');
      });
    }
    queueMicrotask(() => log(`  microtask ${event.data}`));
  };
  for (let i = 0; i < 6; i++) port1.postMessage(i);
  await settle();
  section('3. a microtask closes the port');
}

// 4.
{
  const { port1, port2 } = keep(new MessageChannel());
  const carrier = keep(new MessageChannel());
  let moved = null;
  port2.onmessage = (event) => {
    log(`old object got ${event.data}`);
    if (event.data === 2) {
      queueMicrotask(() => {
        carrier.port1.postMessage('the port', [port2]);
        log('  a microtask transferred port2');
      });
    }
  };
  carrier.port2.onmessage = (event) => {
    log(`carrier got ${event.data}`);
    moved = event.ports[0];
    moved.onmessage = (e) => {
      log(`new object got ${e.data}`);
      queueMicrotask(() => log(`  new object microtask ${e.data}`));
    };
    port1.postMessage('posted once it arrived');
  };
  for (let i = 0; i < 6; i++) port1.postMessage(i);
  await settle();
  moved.close();
  carrier.port2.close();
  section('4a. a microtask transfers the port away');

  const channel = keep(new MessageChannel());
  let clone = null;
  channel.port2.onmessage = (event) => {
    log(`old object got ${event.data}`);
    if (event.data === 1) {
      clone = structuredClone(channel.port2, { transfer: [channel.port2] });
      log(`  moved by structuredClone: a new object ${clone !== channel.port2}`);
      clone.onmessage = (e) => log(`new object got ${e.data}`);
    }
  };
  for (let i = 0; i < 5; i++) channel.port1.postMessage(i);
  await settle();
  clone.close();
  section('4b. a handler moves its port with structuredClone');
}

// 5.
{
  const a = keep(new MessageChannel());
  const b = keep(new MessageChannel());
  a.port2.onmessage = (event) => {
    log(`a got ${event.data}`);
    if (event.data === 2) {
      b.port2.close();
      log('  a closed b');
    }
  };
  b.port2.onmessage = (event) => log(`b got ${event.data}`);
  for (let i = 0; i < 5; i++) {
    a.port1.postMessage(i);
    b.port1.postMessage(i);
  }
  await settle();
  a.port2.close();
  section('5. a handler closes the other port of the chain');
}
