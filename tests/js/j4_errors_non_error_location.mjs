// timeout: 20
//
// J4: a module whose evaluation throws (or whose top-level await rejects
// with) a value that is not an Error: the ErrorEvent names the module, at an
// unknown line (0), never hostloop's internal code (it named
// hostloop:internal/bootstrap.js, line 229, the helper that saw the module's
// promise settle). A classic script's throw keeps its exact place.
// Expected: j4_errors_non_error_location.stdout.

const cases = [
  ['module', 'throw "str"'],
  ['module', 'throw Symbol("s")'],
  ['module', 'await null; throw { not: "an Error" }'],
  ['module', 'await Promise.reject(42)'],
  ['classic', 'throw "str"'],
];
for (const [type, source] of cases) {
  const url = `data:text/javascript,${encodeURIComponent(source)}`;
  await new Promise((resolve) => {
    const worker = new Worker(url, { type });
    worker.onerror = (e) => {
      e.preventDefault();
      const where = e.filename === url ? 'the script' : e.filename;
      console.log(`${type} ${source}: ${e.message} | ${where} ${e.lineno}:${e.colno}`);
      resolve();
    };
  });
}
