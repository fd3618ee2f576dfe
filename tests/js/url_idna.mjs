// Hosts that are not plain ASCII, or that have an "xn--" label, go through
// UTS #46 (tr46) in the URL parser; the plain ASCII ones take the shortcut
// (url_ascii_domain.mjs). Both kinds in one program, in either order.
import { test, assertEquals, assertThrows } from './lib/assert.mjs';

const hostname = (host) => new URL(`http://${host}/`).hostname;

await test('ASCII domains are lowercased', () => {
  assertEquals(hostname('WWW.Example.COM'), 'www.example.com');
  assertEquals(hostname('a-b_c~d'), 'a-b_c~d');
  assertEquals(hostname('%41%42.c'), 'ab.c');
});

await test('non-ASCII domains are mapped and punycoded', () => {
  assertEquals(hostname('Bücher.de'), 'xn--bcher-kva.de');
  assertEquals(hostname('ＥＸＡＭＰＬＥ．com'), 'example.com');
  assertEquals(hostname('faß.de'), 'xn--fa-hia.de');
  assertEquals(hostname('a\u00ADb.c'), 'ab.c');
});

await test('xn-- labels are validated as punycode', () => {
  assertEquals(hostname('XN--NXASMQ6B.COM'), 'xn--nxasmq6b.com');
  assertEquals(hostname('xn--bcher-kva.de'), 'xn--bcher-kva.de');
  assertThrows(() => hostname('xn--a.com'), TypeError);
  assertThrows(() => hostname('xn--bcher-kva-.de'), TypeError);
  assertThrows(() => hostname('a.xn--'), TypeError);
});

await test('forbidden domain code points still fail on the shortcut', () => {
  for (const host of ['a b', 'a<b', 'a^b', 'a|b', 'a%00b', 'a%25b', 'a\x7fb']) {
    assertThrows(() => hostname(host), TypeError, undefined, host);
  }
});
