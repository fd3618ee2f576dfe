// worker_flood's worker: on a message n, posts n small messages (the integers
// 0 .. n-1) to main in one synchronous loop, as fast as postMessage allows.
import { parentPort } from './compat.mjs';

const port = await parentPort();
port.onData((n) => {
  for (let i = 0; i < n; i++) port.post(i);
});
