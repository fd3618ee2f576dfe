// timeout: 30
//
// Spec test for contract J3 (liveness): a listening port received from a
// worker stops keeping this runtime alive once its partner closes, however
// the close and this runtime's look at the port interleave. Twenty workers
// close their ends at about the same time; before the close told the
// partner after disentangling, this program hung in 9 runs out of 10.
let received = 0;
for (let i = 0; i < 20; i++) {
  const worker = new Worker(new URL('./fixtures/workers/port_then_close.mjs', import.meta.url), { type: 'module' });
  worker.onmessage = (event) => {
    event.data.onmessage = () => {};
    if (++received === 20) console.log('J3 port partner closes: 20 ports received');
    worker.onmessage = null;
  };
}
