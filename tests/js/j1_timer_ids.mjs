// timeout: 10
//
// Spec test for contract J1's id rules:
//  - clearTimeout takes a WebIDL `long`: a fractional id is truncated, so
//    clearTimeout(id + 0.5) clears that timer.
//  - AbortSignal.timeout's timer is not in the map of timer ids (DOM: "run
//    steps after a timeout" without an id for script): no clearTimeout call
//    can stop it, whichever number it is given.
// Expected: j1_timer_ids.stdout.

const signal = AbortSignal.timeout(10);
for (let id = 1; id <= 10; id++) clearTimeout(id);

const fractional = setTimeout(() => console.log('J1 must not run: cleared as id + 0.5'), 5);
clearTimeout(fractional + 0.5);

setTimeout(() => console.log(`J1 ids: AbortSignal.timeout aborted: ${signal.aborted}`), 100);
