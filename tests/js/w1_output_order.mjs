// timeout: 60
//
// Console output follows the order of events across threads: a line main
// logs before posting a message comes before the line the worker logs when
// it gets the message, even while main is still busy in the same task; and a
// line the worker logs before answering comes before the line main logs on
// the answer. (Output was buffered until the end of each task, so the
// worker's line came first while main was busy, every time.)
// Expected: w1_output_order.stdout.

const source = `
onmessage = (e) => {
  console.log('2 worker: got ' + e.data);
  postMessage('answer');
};`;
const worker = new Worker('data:text/javascript,' + encodeURIComponent(source));
const answered = new Promise((resolve) => {
  worker.onmessage = (e) => {
    console.log('3 main: got the ' + e.data);
    resolve();
  };
});
console.log('1 main: posting');
worker.postMessage('the question');
// Still in the same task: the worker gets the message and logs meanwhile.
const end = performance.now() + 200;
while (performance.now() < end) {}
await answered;
worker.terminate();
