// Worker plumbing shared by the worker rows (worker_pingpong, waitasync_pingpong,
// worker_flood), so that one script runs under hostloop, deno and bun (web
// `Worker`, `self.postMessage`, `onmessage` with MessageEvents) and under node
// 20 (no global Worker: `node:worker_threads`, EventEmitter `message` events
// carrying the data itself). Each side gets the same small interface:
//
//   main:   const w = await startWorker(url);  w.post(data); w.onData(fn);
//           await w.terminate();
//   worker: const p = await parentPort();       p.post(data); p.onData(fn);
//
// fn receives the message's data. The web path is used wherever a global
// Worker exists (node:worker_threads is imported only when it does not).

export async function startWorker(url) {
  if (typeof Worker !== 'undefined') {
    const w = new Worker(url, { type: 'module' });
    w.onerror = (e) => {
      console.error('worker error:', e.message ?? e);
      throw e.error ?? new Error(String(e.message));
    };
    return {
      post: (data) => w.postMessage(data),
      onData: (fn) => {
        w.onmessage = (e) => fn(e.data);
      },
      terminate: async () => {
        w.terminate();
      },
    };
  }
  const { Worker: NodeWorker } = await import('node:worker_threads');
  const w = new NodeWorker(url);
  w.on('error', (e) => {
    throw e;
  });
  return {
    post: (data) => w.postMessage(data),
    onData: (fn) => {
      w.removeAllListeners('message');
      w.on('message', fn);
    },
    terminate: () => w.terminate(),
  };
}

export async function parentPort() {
  if (typeof self !== 'undefined' && typeof self.postMessage === 'function') {
    return {
      post: (data) => self.postMessage(data),
      onData: (fn) => {
        self.onmessage = (e) => fn(e.data);
      },
    };
  }
  const { parentPort: port } = await import('node:worker_threads');
  return {
    post: (data) => port.postMessage(data),
    onData: (fn) => {
      port.removeAllListeners('message');
      port.on('message', fn);
    },
  };
}
