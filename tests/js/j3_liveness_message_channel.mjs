// timeout: 10
//
// Spec test for contract J3 (liveness): a MessageChannel with both ends in
// this runtime keeps nothing alive, even with started ports and message
// listeners: once nothing else can run, no message can ever arrive, so the
// process exits with code 0 (as in HTML, where such ports are garbage once
// unreachable). Messages already posted are still delivered first.
// Expected output: j3_liveness_message_channel.stdout.

const a = new MessageChannel();
a.port1.onmessage = (event) => console.log('J3 channel: port1 got', event.data);
a.port2.onmessage = (event) => {
  console.log('J3 channel: port2 got', event.data);
  a.port2.postMessage('reply');
};
a.port1.postMessage('hello');

// Started through addEventListener + start().
const b = new MessageChannel();
b.port2.addEventListener('message', (event) => console.log('J3 channel: b.port2 got', event.data));
b.port2.start();
b.port1.start();
b.port1.postMessage('once');

// Listeners, never a message.
const c = new MessageChannel();
c.port1.onmessage = () => console.log('J3 channel: unexpected');
c.port2.onmessage = () => console.log('J3 channel: unexpected');

// Kept reachable from the global: reachability does not keep the loop alive.
globalThis.j3Channels = [a, b, c];
console.log('J3 channel: end of module');
