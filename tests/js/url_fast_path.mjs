// The URL constructor's fast path (Ada's parser, js_deps/url_entry.js
// adaParse, and buildURLRecord when the record is first read) must give the
// same href (read first, before the record exists) and build the same URL
// record as whatwg-url's own parser.
// For every WPT parsing case whose input the fast path takes (446 of
// urltestdata.json's 888), and for extra cases of every host kind and path
// kind: `fast` is new URL(input, base) (the fast path), `slow` a URL whose
// href setter parsed the same input (the href setter always runs
// whatwg-url's parser). Their getters must agree, and so must the hrefs after each of a
// set of setters applied to both: setters work on the record (its host as a
// number, an array of IPv6 pieces or a string, its path as a list or an
// opaque string), so a record of another shape shows there. `slow` parses the
// input itself (no base), or WPT's expected href (with a base: the setter
// takes none), never what the fast path made.
//
// Runs under plain node too (whose constructor and setter are both Ada).

import data from './fixtures/urltestdata.json' with { type: 'json' };

const fastPathInput = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]*$/;
const takes = (s) => s === null || (fastPathInput.test(s) && !/xn--/i.test(s));

const extra = [
  ['http://a/b', null], ['http://1.2.3.4:81/x', null], ['http://0x7f.1/', null], ['http://[::1]/', null],
  ['http://[1:0::]/', null], ['http://[::ffff:1.2.3.4]/', null], ['http://[1:2:3:4:5:6:7:8]/', null],
  ['sc://1.2.3.4/', null], ['sc://[::2]/p', null], ['sc:opaque?q#f', null], ['sc:', null], ['sc:/', null],
  ['sc://', null], ['sc:/.//p', null], ['web+demo:/.//not-a-host/', null], ['sc://h', null],
  ['file:///C:/x/../y', null], ['file://host/share', null], ['file:x', 'file:///a/b', 'file:///a/x'],
  ['http://u:p@h:8/p?q#f', null], ['http://:p@h/', null], ['http://u@h', null], ['http://u:@h/', null],
  ['https://user@www.Example.com:8080/some/path/x.html?q=1&r=2#frag', null], ['?x', 'http://h/p?q', 'http://h/p?x'],
  ['#y', 'sc:opaque', 'sc:opaque#y'], ['..', 'sc://h/a/b/c', 'sc://h/a/'], ['//other/p', 'https://h/', 'https://other/p'],
  ['mailto:a@b', null],
  ['http://h/%2e%2E/a', null], ['http://%41.com/', null], ['javascript:alert(1)', null],
];

const getters = ['href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname', 'port',
  'pathname', 'search', 'hash'];
const setters = [
  ['protocol', 'https'], ['protocol', 'sc'], ['protocol', 'file'], ['username', 'me'], ['password', 'pw'],
  ['host', 'example.org:99'], ['hostname', '10.0.0.1'], ['hostname', '[::5]'], ['hostname', ''], ['port', '8080'],
  ['port', ''], ['pathname', 'a/b/../c'], ['pathname', ''], ['search', 'k=v'], ['search', ''],
  ['hash', 'h'], ['hash', ''],
];

let compared = 0;
let failed = 0;
function fail(message) {
  failed++;
  console.log(`FAIL ${message}`);
}

function make(input, base) {
  return base === null ? new URL(input) : new URL(input, base);
}

// `href`: what whatwg-url must make of input against base (WPT's expected
// href; unused without a base).
function compare(input, base, href) {
  let fast;
  try {
    fast = make(input, base);
  } catch {
    return;  // a failure: whatwg-url's own path throws (url_wpt.mjs checks it)
  }
  const reference = base === null ? input : href;
  const slow = new URL('http://placeholder/');
  slow.href = reference;
  const name = `new URL(${JSON.stringify(input)}${base === null ? '' : `, ${JSON.stringify(base)}`})`;
  for (const getter of getters) {
    if (fast[getter] !== slow[getter]) fail(`${name}.${getter}: ${JSON.stringify(fast[getter])} vs ${JSON.stringify(slow[getter])}`);
  }
  if (fast.searchParams.toString() !== slow.searchParams.toString()) fail(`${name}.searchParams`);
  {
    // A fast URL whose record is first reached through searchParams.
    const a = make(input, base);
    const b = new URL('http://placeholder/');
    b.href = reference;
    a.searchParams.append('k', 'v w');
    b.searchParams.append('k', 'v w');
    if (a.href !== b.href) fail(`${name}, then searchParams.append: ${a.href} vs ${b.href}`);
  }
  for (const [setter, value] of setters) {
    const a = make(input, base);
    const b = new URL('http://placeholder/');
    b.href = reference;
    a[setter] = value;
    b[setter] = value;
    if (a.href !== b.href) fail(`${name}, then .${setter} = ${JSON.stringify(value)}: ${a.href} vs ${b.href}`);
  }
  compared++;
}

let wpt = 0;
for (const test of data) {
  if (typeof test !== 'object' || test.failure || !takes(test.input) || !takes(test.base)) continue;
  wpt++;
  compare(test.input, test.base, test.href);
}
for (const [input, base, href] of extra) compare(input, base, href);

console.log(`${compared} URLs compared (${wpt} from WPT), ${failed} failed`);
if (wpt < 400 || compared < wpt) throw new Error(`url_fast_path: too few cases (${wpt} WPT, ${compared} compared)`);
if (failed > 0) throw new Error(`url_fast_path: ${failed} mismatches`);
