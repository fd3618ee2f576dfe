// worker_pingpong's worker: sends every message straight back.
import { parentPort } from './compat.mjs';

const port = await parentPort();
port.onData((data) => port.post(data));
