// waitasync_pingpong's worker. Receives {sab}; then, in a loop that blocks
// this thread, waits with Atomics.wait on slot 1 of the Int32Array over it
// until main writes a new value there, copies that value to slot 0 and
// notifies slot 0 (where main waits with Atomics.waitAsync). A negative value
// in slot 1 ends the loop.
import { parentPort } from './compat.mjs';

const port = await parentPort();
port.onData(({ sab }) => {
  const i32 = new Int32Array(sab);
  port.post('ready');
  let last = 0; // slot 1 starts at 0; main may have written round 1 already
  for (;;) {
    Atomics.wait(i32, 1, last);
    const v = Atomics.load(i32, 1);
    if (v === last) continue; // spurious wakeup
    if (v < 0) break;
    last = v;
    Atomics.store(i32, 0, v);
    Atomics.notify(i32, 0);
  }
  port.post('bye');
});
