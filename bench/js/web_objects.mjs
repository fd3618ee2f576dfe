// Row "web_objects": the cost of creating the web platform objects programs
// make in bulk: an EventTarget, an Event, a CustomEvent, an AbortController
// (with its signal), and a URL parsed from a short and from a long string.
//
// Each is created 100,000 times in a loop (after one untimed warm-up pass of
// the same loop, so the JIT has compiled it). The last 1024 stay referenced
// from an array, so that no engine can drop the allocation, and the rest die
// young, as most such objects do. Prints one line of JSON:
// the mean wall time per object in nanoseconds for each, from
// performance.now().
//
// Web-standard APIs only, so it runs unchanged under hostloop, node, deno
// and bun.

const N = 100_000;
const keep = new Array(1024);

function measure(make) {
  for (let pass = 0; pass < 2; pass++) {
    const t0 = performance.now();
    for (let i = 0; i < N; i++) keep[i & 1023] = make();
    const t1 = performance.now();
    if (pass === 1) return +(((t1 - t0) * 1e6) / N).toFixed(1);
  }
}

const result = {
  eventtarget_ns: measure(() => new EventTarget()),
  event_ns: measure(() => new Event('x')),
  customevent_ns: measure(() => new CustomEvent('x', { detail: 1 })),
  abortcontroller_ns: measure(() => new AbortController()),
  url_short_ns: measure(() => new URL('http://a/b')),
  url_long_ns: measure(() => new URL('https://user@www.Example.com:8080/some/path/x.html?q=1&r=2#frag')),
};
console.log(JSON.stringify(result));
