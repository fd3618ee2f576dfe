// timeout: 30
//
// The runtime's own promise plumbing never runs a program's
// Promise.prototype.constructor getter: `await` reads a promise's
// `constructor` (PromiseResolve), and the runtime awaited V8's promises of
// Atomics.waitAsync and WebAssembly.compile/instantiate. A getter that threw
// then ended a pending waitAsync's liveness (the process exited at once
// instead of 300 ms later, J3) and rejected a valid WebAssembly.compile with
// the getter's error; a counting getter saw reads node does not make. (Found
// by an exploratory run.) The test itself awaits nothing: its own reactions
// are attached while the getter is removed.
// Expected: j2_promise_constructor_not_read.stdout.

const original = Object.getOwnPropertyDescriptor(Promise.prototype, 'constructor');
let reads = 0;
const install = () => Object.defineProperty(Promise.prototype, 'constructor', {
  configurable: true,
  get() {
    reads++;
    throw new Error('constructor getter');
  },
});
const restore = () => Object.defineProperty(Promise.prototype, 'constructor', original);

const bytes = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]);
const t0 = performance.now();
install();
const waited = Atomics.waitAsync(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
const compiled = WebAssembly.compile(bytes);
const instantiated = WebAssembly.instantiate(bytes);
restore();
console.log(`J2 constructor reads during the calls: ${reads}`);

// The runtime waits for all three with the getter installed again.
install();
setTimeout(() => {
  restore();
  Promise.allSettled([compiled, instantiated]).then((outcomes) => {
    console.log(`J2 compile and instantiate: ${outcomes.map((o) => o.status).join(', ')}; ` +
                `a Module: ${outcomes[0].value instanceof WebAssembly.Module}`);
    console.log(`J2 constructor reads while the runtime waited: ${reads}`);
  });
  waited.value.then((value) => {
    // Installed again after this point: the process must still wait for
    // the 300 ms timeout (J3).
    console.log(`J3 waitAsync: ${value} after >= 250 ms: ${performance.now() - t0 >= 250}`);
  });
  install();
}, 100);
