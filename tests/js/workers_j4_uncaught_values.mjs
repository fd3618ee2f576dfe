// hostloop-flags: --uncaught-errors=warn
// timeout: 30
//
// Spec test for contract J4: what a worker throws that is not an Error is
// reported by the parent as that value, as the same throw on the main thread
// is (`Uncaught 'text'`, `Uncaught 10n`); it was reported as an Error that
// nobody threw (`Uncaught Error: text`, the BigInt's `n` lost, a Proxy's
// message empty). An object that is not an Error is named as V8 names it
// without running its code; a TypeError stays a TypeError (it was
// `Error [TypeError]`). With --uncaught-errors=warn the parent reports each
// and runs on.
// Expected: workers_j4_uncaught_values.stdout and .stderr.

const thrown = ['"text"', 'undefined', 'null', '10n', '42', 'Symbol("s")', '({ a: 1 })',
  'new Proxy({}, {})', 'new TypeError("J4 type error")'];
for (const value of thrown) {
  const source = `throw ${value};`;
  const worker = new Worker(`data:text/javascript,${encodeURIComponent(`setTimeout(() => { ${source} }, 1)`)}`,
    { type: 'module' });
  await new Promise((resolve) => {
    worker.onerror = (event) => {
      console.log(`the Worker object saw: ${event.message}`);
      setTimeout(resolve, 10);
    };
  });
  worker.terminate();
}
console.log('J4 worker values: the parent ran on');
