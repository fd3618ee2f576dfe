// J3 for BroadcastChannel: a listening channel keeps its runtime alive while
// another runtime lives (which may post to it). The worker has nothing but a
// listening channel, so only that keeps it alive until main posts 200 ms
// later; it answers and closes, and ends; main prints the answer and ends.
// A listening channel alone in the process keeps nothing alive: once the
// worker is gone, `lonely` does not hold main.
const lonely = new BroadcastChannel('nobody else');
lonely.onmessage = () => {};

const channel = new BroadcastChannel('late');
channel.onmessage = (event) => {
  console.log(event.data);
  channel.close();
};
new Worker(new URL('./fixtures/workers/broadcast_late.mjs', import.meta.url), { type: 'module' });
setTimeout(() => channel.postMessage('ping'), 200);
