// timeout: 30
//
// Contract J4, a worker that cannot be loaded: a syntax error deep in the
// worker's module graph fires a plain `error` Event at the Worker object
// (HTML "run a worker"), and the developer's report on stderr names the
// module and line it is in, as the same error in the main module's graph
// does (it gave only the token: "Unexpected token ';'").
// Expected: workers_j4_load_failure_location.stdout and .stderr.

const worker = new Worker(new URL('./fixtures/workers/syntax_error_deep_a.mjs', import.meta.url),
  { type: 'module' });
worker.onerror = (event) => {
  console.log(`the Worker object saw a plain ${event.constructor.name} (${event.type})`);
};
