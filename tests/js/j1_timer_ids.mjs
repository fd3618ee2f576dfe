// timeout: 10
//
// Spec test for contract J1's id rules:
//  - clearTimeout takes a WebIDL `long`: a fractional id is truncated, so
//    clearTimeout(id + 0.5) clears that timer; a string id is converted
//    (clearTimeout(String(id)) clears it); an object id is converted
//    once (its valueOf runs once), and clearInterval clears a timeout too.
//  - clearTimeout and clearInterval are two functions with their own names
//    and length 0 (WebIDL: one optional argument).
//  - AbortSignal.timeout's timer is not in the map of timer ids (DOM: "run
//    steps after a timeout" without an id for script): no clearTimeout call
//    can stop it, whichever number it is given.
// Expected: j1_timer_ids.stdout.

const signal = AbortSignal.timeout(10);
for (let id = 1; id <= 10; id++) clearTimeout(id);

const fractional = setTimeout(() => console.log('J1 must not run: cleared as id + 0.5'), 5);
clearTimeout(fractional + 0.5);

const stringy = setTimeout(() => console.log('J1 must not run: cleared as a string id'), 5);
clearTimeout(String(stringy));

let conversions = 0;
const boxed = setTimeout(() => console.log('J1 must not run: cleared through valueOf'), 5);
clearTimeout({ valueOf: () => (++conversions, boxed) });
const viaInterval = setTimeout(() => console.log('J1 must not run: cleared by clearInterval'), 5);
clearInterval(viaInterval);
const interval = setInterval(() => console.log('J1 must not run: interval cleared by clearTimeout'), 5);
clearTimeout(interval);
console.log(`J1 ids: valueOf calls ${conversions}; ${clearTimeout.name}/${clearTimeout.length} ` +
            `${clearInterval.name}/${clearInterval.length}; distinct ${clearTimeout !== clearInterval}`);

setTimeout(() => console.log(`J1 ids: AbortSignal.timeout aborted: ${signal.aborted}`), 100);
