// differential: node
// The URL parser's host step for ASCII domains. hostloop maps an ASCII domain
// without "xn--" labels to its ASCII lowercase without running UTS #46
// (js_deps/url_entry.js; the URL Standard's domain to ASCII allows it).
// Each line is an input and the hostname it parses to (or "failure"); the
// run under node (its own URL parser, ada) must print the same lines.
// Labels starting with "xn--" are left out: they take the tr46 path, where
// node 20's ada accepts invalid punycode that the current standard rejects
// (url_idna.mjs checks that path).
let seed = 12345;
function random(n) {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return (seed >>> 8) % n;
}
const pieces = ['a', 'B', 'z', 'Q', '0', '9', '-', '.', '_', '~', 'xn-', 'n--', 'XN-', '%41', '%2e', '%zz', '!', '$', '&', "'", '(', ')', '*', '+', ',', ';', '=', '"', '`', '{', '}', '|',
  '^', '<', '>', '[', ']', ' ', '%00', '\x7f', '0x7f', '1', '255', '256', '4294967295', 'ab-cd', 'localhost'];
const hosts = new Set(['a', 'A', 'EXAMPLE.com', '1.2.3.4', '0x7F.1', '1.2.3.4.', '999999999999', 'a..b', '.', '..', 'xn-', '-xn--a', 'axn--b', 'a.b-.c',
  '-a.b', 'a.-b']);
while (hosts.size < 3000) {
  let host = '';
  const n = 1 + random(6);
  for (let i = 0; i < n; i++) host += pieces[random(pieces.length)];
  if (!/(?:^|\.)xn--/i.test(host)) hosts.add(host);
}
for (const host of hosts) {
  for (const scheme of ['http', 'ws']) {
    let result;
    try {
      result = new URL(`${scheme}://${host}/p`).hostname;
    } catch {
      result = 'failure';
    }
    console.log(JSON.stringify([scheme, host, result]));
  }
}
