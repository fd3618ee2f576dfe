// Row "timer_order": do timers fire in the order HTML requires?
//
// Schedules 200,000 timers with pseudo-random delays 0-99 ms (a seeded PRNG,
// so every runtime gets the same delays). Each records its index when it
// fires. Afterwards counts ordering violations exactly: a pair (A, B) where
// B was scheduled after A with delay_B >= delay_A (so B is due no earlier
// than A) and B fired before A. Prints one line of JSON:
//   {"violations": N, "ms": wall time from the first setTimeout to the last fire}
//
// Counting is O(n log n log D) (D = 100 delay values), not O(n^2): a bottom-up
// merge sort over schedule order, merging blocks by fire position
// (descending). Every pair of timers meets exactly once, when the block
// holding A (earlier) merges with the block holding B (later); while merging,
// a Fenwick tree over delay values counts the A's already taken (they fired
// after B) whose delay is <= delay_B.
//
// Web-standard APIs only (setTimeout, clearTimeout, performance, console).
// If not every timer fires once within 60 s the script throws, and the
// harness reports n/a.

const N = 200_000;
const MAX_DELAY = 99;
const WATCHDOG_MS = 60_000;

// mulberry32: small, fast, and the same in every engine.
function mulberry32(seed) {
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Counts pairs (a, b) with a < b, delay[a] <= delay[b] and pos[a] > pos[b],
// where pos[i] is the fire position of the timer scheduled i-th.
function countViolations(delay, pos, maxDelay = MAX_DELAY) {
  const n = pos.length;
  let P = Int32Array.from(pos);
  let D = Uint8Array.from(delay);
  let P2 = new Int32Array(n);
  let D2 = new Uint8Array(n);
  const size = maxDelay + 1; // Fenwick index = delay + 1
  const fw = new Int32Array(size + 1);
  let total = 0;
  for (let w = 1; w < n; w *= 2) {
    for (let lo = 0; lo < n; lo += 2 * w) {
      const mid = Math.min(lo + w, n);
      const hi = Math.min(lo + 2 * w, n);
      let i = lo, j = mid, k = lo;
      if (mid === hi) {
        for (; i < mid; i++, k++) { P2[k] = P[i]; D2[k] = D[i]; }
        continue;
      }
      // Both halves are sorted by fire position, descending.
      while (i < mid && j < hi) {
        if (P[i] > P[j]) {
          // A (earlier scheduled) fired after every B still to come.
          for (let x = D[i] + 1; x <= size; x += x & -x) fw[x]++;
          P2[k] = P[i]; D2[k++] = D[i++];
        } else {
          let s = 0;
          for (let x = D[j] + 1; x > 0; x -= x & -x) s += fw[x];
          total += s;
          P2[k] = P[j]; D2[k++] = D[j++];
        }
      }
      const taken = i; // left elements [lo, taken) went into the tree
      for (; j < hi; j++, k++) {
        let s = 0;
        for (let x = D[j] + 1; x > 0; x -= x & -x) s += fw[x];
        total += s;
        P2[k] = P[j]; D2[k] = D[j];
      }
      for (; i < mid; i++, k++) { P2[k] = P[i]; D2[k] = D[i]; }
      // Empty the tree again (P and D still hold this pass's input).
      for (let t = lo; t < taken; t++) {
        for (let x = D[t] + 1; x <= size; x += x & -x) fw[x]--;
      }
    }
    [P, P2] = [P2, P];
    [D, D2] = [D2, D];
  }
  return total;
}

function main() {
  const rand = mulberry32(0x5eed1234);
  const delay = new Uint8Array(N);
  for (let i = 0; i < N; i++) delay[i] = Math.floor(rand() * (MAX_DELAY + 1));

  const order = new Int32Array(N);
  let fired = 0;
  let t0 = 0;
  let watchdog;

  function finish() {
    const ms = performance.now() - t0;
    clearTimeout(watchdog);
    const pos = new Int32Array(N).fill(-1);
    for (let k = 0; k < N; k++) {
      const i = order[k];
      if (pos[i] !== -1) throw new Error(`timer ${i} fired twice`);
      pos[i] = k;
    }
    const violations = countViolations(delay, pos);
    console.log(JSON.stringify({ violations, ms: +ms.toFixed(1) }));
  }

  t0 = performance.now();
  for (let i = 0; i < N; i++) {
    setTimeout(() => {
      if (fired >= N) throw new Error(`more than ${N} timer callbacks ran`);
      order[fired++] = i;
      if (fired === N) finish();
    }, delay[i]);
  }
  watchdog = setTimeout(() => {
    throw new Error(`only ${fired} of ${N} timers fired within ${WATCHDOG_MS} ms`);
  }, WATCHDOG_MS);
}

main();
