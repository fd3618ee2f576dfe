// Spec tests for the URL and URLSearchParams globals
// (https://url.spec.whatwg.org/#api): construction and relative resolution,
// file: URLs, setters, failures, the statics, serialization, the live link
// between a URL and its searchParams, and URLSearchParams itself.
// tests/js/url_wpt.mjs runs WPT's parsing data.
//
// Runs under plain node too (another implementation); node 20 has no
// URL.parse, and its console shows a URL its own way: those checks are
// guarded with `!NODE`.

import { test, assert, assertEquals, assertThrows, passedCount } from './lib/assert.mjs';
import { url as oddNameURL } from './fixtures/odd name %231.mjs';

// True under plain node only (hostloop has no `process`).
const NODE = typeof process === 'object' && process !== null && typeof process.versions?.node === 'string';

await test('URL and URLSearchParams: WebIDL shape', () => {
  for (const name of ['URL', 'URLSearchParams']) {
    const d = Object.getOwnPropertyDescriptor(globalThis, name);
    assert(d !== undefined, `${name} is a global`);
    assertEquals([d.writable, d.enumerable, d.configurable], [true, false, true], `${name}'s descriptor`);
    assertEquals(typeof d.value, 'function');
    assertEquals(d.value.name, name);
  }
  assertEquals(URL.length, 1);
  assertEquals(URLSearchParams.length, 0);
  assertThrows(() => URL('http://a/'), TypeError);
  assertThrows(() => URLSearchParams(), TypeError);
  assertThrows(() => new URL(), TypeError);
  assertEquals(Object.prototype.toString.call(new URL('http://a/')), '[object URL]');
  assertEquals(Object.prototype.toString.call(new URLSearchParams()), '[object URLSearchParams]');
  assertEquals(URL.prototype[Symbol.toStringTag], 'URL');
  assertEquals(URLSearchParams.prototype[Symbol.toStringTag], 'URLSearchParams');
  const href = Object.getOwnPropertyDescriptor(URL.prototype, 'href');
  assertEquals([typeof href.get, typeof href.set, href.enumerable, href.configurable], ['function', 'function', true, true]);
  assertEquals(typeof Object.getOwnPropertyDescriptor(URL.prototype, 'origin').set, 'undefined');
  assertEquals(Object.keys(new URL('http://a/')), [], 'no own enumerable properties');
  assertEquals(typeof URL.canParse, 'function');
  assertEquals(URL.canParse.length, 1);
  if (!NODE) {
    assertEquals(typeof URL.parse, 'function');
    assertEquals(URL.parse.length, 1);
  }
  // A subclass works, as for any WebIDL interface.
  class MyURL extends URL {}
  const mine = new MyURL('http://a/b');
  assert(mine instanceof MyURL && mine instanceof URL);
  assertEquals(mine.pathname, '/b');
  // Getters check their receiver.
  assertThrows(() => Object.getOwnPropertyDescriptor(URL.prototype, 'href').get.call({}), TypeError);
  assertThrows(() => URLSearchParams.prototype.get.call({}, 'a'), TypeError);
});

await test('URL: components of an absolute URL', () => {
  const url = new URL('https://user:pa%20ss@EXAMPLE.com:8080/a/b/../c/./d.html?q=1&r=%20#frag');
  assertEquals(url.href, 'https://user:pa%20ss@example.com:8080/a/c/d.html?q=1&r=%20#frag');
  assertEquals(url.origin, 'https://example.com:8080');
  assertEquals(url.protocol, 'https:');
  assertEquals(url.username, 'user');
  assertEquals(url.password, 'pa%20ss');
  assertEquals(url.host, 'example.com:8080');
  assertEquals(url.hostname, 'example.com');
  assertEquals(url.port, '8080');
  assertEquals(url.pathname, '/a/c/d.html');
  assertEquals(url.search, '?q=1&r=%20');
  assertEquals(url.hash, '#frag');
  // The default port is dropped; special schemes get a path.
  assertEquals(new URL('http://example.com:80').href, 'http://example.com/');
  assertEquals(new URL('wss://h:443/x').port, '');
  assertEquals(new URL('ftp://h:21/').host, 'h');
  // Non-special schemes keep what they are given.
  const mail = new URL('mailto:Someone@Example.com?subject=Hi%21');
  assertEquals([mail.protocol, mail.host, mail.pathname, mail.search], ['mailto:', '', 'Someone@Example.com', '?subject=Hi%21']);
  assertEquals(new URL('foo://Host/p').host, 'Host');
  assertEquals(new URL('blob:https://a.example/uuid').origin, 'https://a.example');
  assertEquals(new URL('data:text/plain,hi').origin, 'null');
});

await test('URL: relative resolution against a base', () => {
  const base = 'http://example.com/dir/sub/page.html?x=1#top';
  const cases = [
    ['other.html', 'http://example.com/dir/sub/other.html'],
    ['./other.html', 'http://example.com/dir/sub/other.html'],
    ['../up.html', 'http://example.com/dir/up.html'],
    ['../../../../too-far', 'http://example.com/too-far'],
    ['/root', 'http://example.com/root'],
    ['//other.example/p', 'http://other.example/p'],
    ['?y=2', 'http://example.com/dir/sub/page.html?y=2'],
    ['#bottom', 'http://example.com/dir/sub/page.html?x=1#bottom'],
    ['', 'http://example.com/dir/sub/page.html?x=1'],
    ['https://abs.example/', 'https://abs.example/'],
    ['http:rel', 'http://example.com/dir/sub/rel'],
    ['  spaced name  ', 'http://example.com/dir/sub/spaced%20name'],
    ['a\tb\nc', 'http://example.com/dir/sub/abc'],
    ['..', 'http://example.com/dir/'],
    ['.', 'http://example.com/dir/sub/'],
    ['%2e%2E/x', 'http://example.com/dir/x'],
    ['\\back\\slash', 'http://example.com/back/slash'],
  ];
  for (const [input, expected] of cases) {
    assertEquals(new URL(input, base).href, expected, `new URL(${JSON.stringify(input)}, base)`);
  }
  // The base may be a URL object.
  assertEquals(new URL('x', new URL(base)).href, 'http://example.com/dir/sub/x');
  // An undefined base is no base.
  assertEquals(new URL('http://a/', undefined).href, 'http://a/');
});

await test('URL: file: URLs with spaces, # and other odd characters', () => {
  const url = new URL('file:///tmp/odd%20name%20%231.mjs');
  assertEquals(url.protocol, 'file:');
  assertEquals(url.host, '');
  assertEquals(url.origin, 'null');
  assertEquals(url.pathname, '/tmp/odd%20name%20%231.mjs');
  assertEquals(url.hash, '');
  assertEquals(decodeURIComponent(url.pathname), '/tmp/odd name #1.mjs');
  // An unescaped space is encoded; an unescaped # starts the fragment.
  const raw = new URL('file:///tmp/odd name #1.mjs');
  assertEquals(raw.pathname, '/tmp/odd%20name%20');
  assertEquals(raw.hash, '#1.mjs');
  // Setting the pathname encodes a space, '#' and '?'.
  const built = new URL('file:///');
  built.pathname = '/home/me/a b/c#d?e.txt';
  assertEquals(built.href, 'file:///home/me/a%20b/c%23d%3Fe.txt');
  // Relative resolution, and '..' stopping at a drive letter.
  assertEquals(new URL('sibling.mjs', 'file:///tmp/odd%20name%20%231.mjs').href, 'file:///tmp/sibling.mjs');
  assertEquals(new URL('../../..', 'file:///C:/a/b').href, 'file:///C:/');
  assertEquals(new URL('file://localhost/etc/hosts').href, 'file:///etc/hosts');
  assertEquals(new URL('file://server/share/x').host, 'server');
  assertEquals(new URL('file:///tmp/%C3%A9t%C3%A9').pathname, '/tmp/%C3%A9t%C3%A9');
  assertEquals(new URL('file:///tmp/été').pathname, '/tmp/%C3%A9t%C3%A9');
  // hostloop's own file URLs (import.meta.url) parse as themselves.
  const meta = new URL(oddNameURL);
  assertEquals(meta.href, oddNameURL);
  assertEquals(meta.hash, '');
  assert(decodeURIComponent(meta.pathname).endsWith('/fixtures/odd name #1.mjs'), meta.pathname);
  assertEquals(new URL('./lib/assert.mjs', import.meta.url).href.endsWith('/tests/js/lib/assert.mjs'), true);
});

await test('URL: IDNA, IPv4 and IPv6 hosts', () => {
  assertEquals(new URL('http://münchen.de/').host, 'xn--mnchen-3ya.de');
  assertEquals(new URL('http://MÜNCHEN.de/').hostname, 'xn--mnchen-3ya.de');
  assertEquals(new URL('http://xn--mnchen-3ya.de/').host, 'xn--mnchen-3ya.de');
  assertEquals(new URL('https://faß.example/').host, 'xn--fa-hia.example');
  assertEquals(new URL('http://例え.テスト/').host, 'xn--r8jz45g.xn--zckzah');
  assertEquals(new URL('http://EXAMPLE。com/').host, 'example.com');
  assertEquals(new URL('http://0x7f.1/').host, '127.0.0.1');
  assertEquals(new URL('http://2130706433/').host, '127.0.0.1');
  assertEquals(new URL('http://[::1]:8080/').host, '[::1]:8080');
  assertEquals(new URL('http://[0:0:0:0:0:ffff:7f00:1]/').hostname, '[::ffff:7f00:1]');
  assertThrows(() => new URL('http://xn--a.com/'), TypeError);
  assertThrows(() => new URL('http://a b/'), TypeError);
  assertThrows(() => new URL('http://1.2.3.4.5/'), TypeError);
});

await test('URL: UTF-8 percent-encoding', () => {
  const url = new URL('http://h/€/😀?€=😀#€');
  assertEquals(url.pathname, '/%E2%82%AC/%F0%9F%98%80');
  assertEquals(url.search, '?%E2%82%AC=%F0%9F%98%80');
  assertEquals(url.hash, '#%E2%82%AC');
  assertEquals(url.searchParams.get('€'), '😀');
  // A lone surrogate becomes U+FFFD (USVString), encoded as EF BF BD.
  assertEquals(new URL('http://h/\uD800').pathname, '/%EF%BF%BD');
  // Special-scheme queries encode ', non-special ones do not.
  assertEquals(new URL("http://h/?'").search, '?%27');
  assertEquals(new URL("foo://h/?'").search, "?'");
});

await test('URL: invalid input throws a TypeError', () => {
  for (const input of ['', 'not a url', '/path', '//host', 'http://', 'http://[::1', 'http://h:99999/',
    'http://h:port/', 'https://exa mple.com', 'http://%zz/', '\u0000']) {
    assertThrows(() => new URL(input), TypeError, undefined, `new URL(${JSON.stringify(input)})`);
  }
  assertThrows(() => new URL('x', 'not a base'), TypeError);
  assertThrows(() => new URL('x', ''), TypeError);
  assertThrows(() => new URL('/x', 'mailto:a@b'), TypeError, undefined, 'an opaque-path base');
  assertThrows(() => new URL(Symbol('s')), TypeError);
  const error = assertThrows(() => new URL('nope'), TypeError);
  assert(typeof error.message === 'string' && error.message.length > 0, 'the error has a message');
  // Objects are stringified.
  assertEquals(new URL({ toString: () => 'http://obj/' }).href, 'http://obj/');
});

await test('URL.canParse and URL.parse', () => {
  assertEquals(URL.canParse('http://a/'), true);
  assertEquals(URL.canParse('nope'), false);
  assertEquals(URL.canParse('/path', 'http://a/'), true);
  assertEquals(URL.canParse('/path', 'nope'), false);
  assertEquals(URL.canParse('/path', undefined), false);
  assertThrows(() => URL.canParse(), TypeError);
  if (NODE) return;
  const parsed = URL.parse('../x?y#z', 'http://h/a/b/c');
  assert(parsed instanceof URL, 'URL.parse returns a URL');
  assertEquals(parsed.href, 'http://h/a/x?y#z');
  assertEquals(parsed.searchParams.get('y'), '');
  assertEquals(URL.parse('nope'), null);
  assertEquals(URL.parse('/path', 'nope'), null);
  assertEquals(URL.parse('http://[::1'), null);
  assertThrows(() => URL.parse(), TypeError);
  assertThrows(() => URL.parse(Symbol('s')), TypeError);
  class MyURL extends URL {}
  assertEquals(Object.getPrototypeOf(MyURL.parse('http://a/')), URL.prototype);
});

await test('URL: href, toString and toJSON', () => {
  const url = new URL('HTTP://Example.COM/%7Efoo/../bar?a=b#c');
  assertEquals(url.href, 'http://example.com/bar?a=b#c');
  assertEquals(url.toString(), url.href);
  assertEquals(String(url), url.href);
  assertEquals(`${url}`, url.href);
  assertEquals(url.toJSON(), url.href);
  assertEquals(JSON.stringify({ url }), '{"url":"http://example.com/bar?a=b#c"}');
  assertThrows(() => URL.prototype.toString.call({}), TypeError);
  assertThrows(() => URL.prototype.toJSON.call({}), TypeError);
});

await test('URL: setters', () => {
  const url = new URL('http://user:pw@example.com:8080/p?q#h');
  url.protocol = 'https';
  assertEquals(url.href, 'https://user:pw@example.com:8080/p?q#h');
  url.protocol = 'mailto';  // special to non-special: ignored
  assertEquals(url.protocol, 'https:');
  url.username = 'me@home';
  url.password = 'p:w';
  assertEquals(url.href, 'https://me%40home:p%3Aw@example.com:8080/p?q#h');
  url.username = '';
  url.password = '';
  url.host = 'other.example:9090';
  assertEquals(url.host, 'other.example:9090');
  url.hostname = 'third.example';
  assertEquals(url.host, 'third.example:9090');
  url.port = '443';  // the default for https: dropped
  assertEquals(url.port, '');
  url.port = '8443abc';  // leading digits are taken
  assertEquals(url.port, '8443');
  url.port = 'abc';  // no digits: unchanged
  assertEquals(url.port, '8443');
  url.port = '70000';  // out of range: unchanged
  assertEquals(url.port, '8443');
  url.port = '';
  assertEquals(url.port, '');
  url.pathname = 'no/leading slash';
  assertEquals(url.pathname, '/no/leading%20slash');
  url.search = 'a=1';
  assertEquals(url.search, '?a=1');
  url.search = '';
  assertEquals([url.search, url.href.includes('?')], ['', false]);
  url.hash = 'frag ment';
  assertEquals(url.hash, '#frag%20ment');
  url.hash = '';
  assertEquals(url.href, 'https://third.example/no/leading%20slash');
  url.href = 'ftp://files.example/dir/';
  assertEquals([url.protocol, url.host, url.pathname], ['ftp:', 'files.example', '/dir/']);
  assertThrows(() => {
    url.href = 'not a url';
  }, TypeError);
  assertEquals(url.href, 'ftp://files.example/dir/', 'a failed href set changes nothing');
  // A file: URL has no credentials or port.
  const file = new URL('file:///x');
  file.username = 'u';
  file.port = '12';
  assertEquals(file.href, 'file:///x');
  // origin is read-only.
  const before = url.origin;
  try {
    url.origin = 'http://evil.example';
  } catch {
    // strict-mode modules throw on assignment to a getter-only accessor
  }
  assertEquals(url.origin, before);
});

await test('URL: searchParams is live and the same object', () => {
  const url = new URL('http://h/p?a=1&b=2#frag');
  const params = url.searchParams;
  assertEquals(url.searchParams, params, '[SameObject]');
  assert(params instanceof URLSearchParams);
  assertEquals(params.get('a'), '1');
  params.append('c', 'x y');
  assertEquals(url.search, '?a=1&b=2&c=x+y');
  assertEquals(url.href, 'http://h/p?a=1&b=2&c=x+y#frag');
  params.delete('a');
  params.set('b', 'é');
  assertEquals(url.search, '?b=%C3%A9&c=x+y');
  params.sort();
  assertEquals(url.search, '?b=%C3%A9&c=x+y');
  // Setting the URL's search or href updates the same params object.
  url.search = '?z=26&y=25';
  assertEquals([...params], [['z', '26'], ['y', '25']]);
  url.href = 'http://h/?only=1';
  assertEquals(url.searchParams, params);
  assertEquals(params.get('only'), '1');
  assertEquals(params.size, 1);
  // Removing every parameter removes the '?'.
  params.delete('only');
  assertEquals(url.href, 'http://h/');
  url.search = '?';
  assertEquals([url.search, params.size], ['', 0]);
});

await test('URLSearchParams: construction from a string, a record and an iterable', () => {
  assertEquals([...new URLSearchParams('?a=1&b=2&a=3')], [['a', '1'], ['b', '2'], ['a', '3']]);
  assertEquals([...new URLSearchParams('a=b=c&&=x&y=&z')], [['a', 'b=c'], ['', 'x'], ['y', ''], ['z', '']]);
  assertEquals([...new URLSearchParams('q=a+b%20c%2B&%E2%82%AC=%F0%9F%98%80')], [['q', 'a b c+'], ['€', '😀']]);
  assertEquals(new URLSearchParams('bad=%FF%zz').get('bad'), '\uFFFD%zz');
  assertEquals([...new URLSearchParams({ a: '1', b: 2, c: null })], [['a', '1'], ['b', '2'], ['c', 'null']]);
  assertEquals([...new URLSearchParams([['x', '1'], ['x', '2']])], [['x', '1'], ['x', '2']]);
  assertEquals([...new URLSearchParams(new Map([['m', 'v']]))], [['m', 'v']]);
  function* pairs() {
    yield ['g', '1'];
    yield new Set(['s', 't']);
  }
  assertEquals([...new URLSearchParams(pairs())], [['g', '1'], ['s', 't']]);
  const copy = new URLSearchParams(new URLSearchParams('k=v'));
  assertEquals(copy.toString(), 'k=v');
  assertThrows(() => new URLSearchParams([['only-one']]), TypeError);
  assertThrows(() => new URLSearchParams([['a', 'b', 'c']]), TypeError);
  assertThrows(() => new URLSearchParams([1]), TypeError);
  assertEquals(new URLSearchParams().toString(), '');
  assertEquals(new URLSearchParams(undefined).size, 0);
  assertEquals(new URLSearchParams('').size, 0);
});

await test('URLSearchParams: get, getAll, has, set, delete, toString', () => {
  const params = new URLSearchParams('a=1&b=2&a=3');
  assertEquals(params.get('a'), '1');
  assertEquals(params.get('missing'), null);
  assertEquals(params.getAll('a'), ['1', '3']);
  assertEquals(params.getAll('missing'), []);
  assertEquals(params.has('b'), true);
  assertEquals(params.has('a', '3'), true);
  assertEquals(params.has('a', '2'), false);
  params.set('a', 'x');
  assertEquals(params.toString(), 'a=x&b=2');
  params.append('c', '1');
  params.append('c', '2');
  params.delete('c', '1');
  assertEquals(params.toString(), 'a=x&b=2&c=2');
  params.delete('c');
  assertEquals(params.toString(), 'a=x&b=2');
  const encoded = new URLSearchParams({ 'a b': 'c&d=e', '*-._': '~!\'()', '€': '+' });
  assertEquals(encoded.toString(), 'a+b=c%26d%3De&*-._=%7E%21%27%28%29&%E2%82%AC=%2B');
  assertThrows(() => params.get(), TypeError);
  assertThrows(() => params.append('only-name'), TypeError);
});

await test('URLSearchParams: sort and size', () => {
  const params = new URLSearchParams('z=1&a=2&m=3&a=1&\uFFFD=x&\u{1F600}=y');
  assertEquals(params.size, 6);
  params.sort();
  // Stable, by UTF-16 code units: U+1F600 (D83D DE00) sorts before U+FFFD.
  assertEquals([...params.keys()], ['a', 'a', 'm', 'z', '\u{1F600}', '\uFFFD']);
  assertEquals(params.getAll('a'), ['2', '1']);
  params.append('b', '');
  assertEquals(params.size, 7);
  params.delete('a');
  assertEquals(params.size, 5);
  const size = Object.getOwnPropertyDescriptor(URLSearchParams.prototype, 'size');
  assertEquals([typeof size.get, size.set, size.enumerable], ['function', undefined, true]);
});

await test('URLSearchParams: iteration', () => {
  const params = new URLSearchParams('a=1&b=2&c=3');
  assertEquals(URLSearchParams.prototype[Symbol.iterator], URLSearchParams.prototype.entries);
  assertEquals([...params.keys()], ['a', 'b', 'c']);
  assertEquals([...params.values()], ['1', '2', '3']);
  assertEquals([...params.entries()], [['a', '1'], ['b', '2'], ['c', '3']]);
  assertEquals(Object.fromEntries(params), { a: '1', b: '2', c: '3' });
  const iterator = params[Symbol.iterator]();
  assertEquals(Object.prototype.toString.call(iterator), '[object URLSearchParams Iterator]');
  assertEquals(iterator[Symbol.iterator](), iterator);
  assertEquals(iterator.next(), { value: ['a', '1'], done: false });
  // The iterator is live: an append while iterating is seen.
  params.append('d', '4');
  assertEquals([...iterator], [['b', '2'], ['c', '3'], ['d', '4']]);
  assertEquals(iterator.next(), { value: undefined, done: true });
  const seen = [];
  params.forEach(function (value, key, object) {
    seen.push([key, value, object === params, this]);
  }, 'thisArg');
  assertEquals(seen.map((s) => s.slice(0, 3)), [['a', '1', true], ['b', '2', true], ['c', '3', true], ['d', '4', true]]);
  assertEquals(String(seen[0][3]), 'thisArg');
  assertThrows(() => params.forEach(), TypeError);
});

await test('URL and URLSearchParams: console inspection hooks', () => {
  if (NODE) return;
  // hostloop's console (like node's util.inspect) calls this symbol: a URL
  // shows its parts and URLSearchParams its entries, not an empty object.
  const custom = Symbol.for('nodejs.util.inspect.custom');
  const d = Object.getOwnPropertyDescriptor(URL.prototype, custom);
  assertEquals([typeof d.value, d.enumerable], ['function', false]);
  const inspect = (value) => JSON.stringify(value);
  const params = new URLSearchParams('a=1&b=x');
  assertEquals(params[custom](2, {}, inspect), 'URLSearchParams { "a" => "1", "b" => "x" }');
  assertEquals(new URLSearchParams()[custom](2, {}, inspect), 'URLSearchParams {}');
  const shown = new URL('http://h/p?q=1')[custom](2, {}, inspect);
  assert(shown.startsWith('URL {"href":"http://h/p?q=1","origin":"http://h"'), shown);
});

console.log(`url_basics: ${passedCount()} passed, 0 failed`);
