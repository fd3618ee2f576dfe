// A URL's searchParams object is made when first read (js_deps/bundle_url.mjs
// makes it lazily, ~350 ns a URL saved); whatever happened to the URL before,
// it must show the URL's query then, stay the same object, and stay linked
// both ways afterwards. https://url.spec.whatwg.org/#dom-url-searchparams
import { test, assertEquals } from './lib/assert.mjs';

await test('made after setters: shows the current query', () => {
  const url = new URL('http://x/?a=1');
  url.search = '?b=2';
  assertEquals([...url.searchParams], [['b', '2']]);
  const other = new URL('http://x/?a=1');
  other.href = 'http://y/?c=3&d';
  assertEquals([...other.searchParams], [['c', '3'], ['d', '']]);
  const cleared = new URL('http://x/?a=1');
  cleared.search = '';
  assertEquals([...cleared.searchParams], []);
  const hashed = new URL('http://x/?a=1');
  hashed.hash = 'h';
  hashed.pathname = '/p';
  assertEquals([...hashed.searchParams], [['a', '1']]);
});

await test('one object, linked both ways', () => {
  const url = new URL('http://x/p?a=1#f');
  const params = url.searchParams;
  assertEquals(url.searchParams === params, true);
  params.append('b', 'x y');
  assertEquals(url.href, 'http://x/p?a=1&b=x+y#f');
  url.search = 'c=3';
  assertEquals([...params], [['c', '3']]);
  url.href = 'http://z/?d=4';
  assertEquals([...params], [['d', '4']]);
  assertEquals(url.searchParams === params, true);
  params.delete('d');
  assertEquals(url.href, 'http://z/');
});

await test('URLs made by each parser, and by URL.parse', () => {
  for (const input of ['http://x/?q=1', 'http://x/ ?q=1', 'sc:opaque?q=1', 'http://ä/?q=1']) {
    const url = new URL(input);
    assertEquals(url.searchParams.get('q'), '1', input);
    url.searchParams.set('q', '2');
    assertEquals(url.search, '?q=2', input);
  }
  if (typeof URL.parse === 'function') assertEquals(URL.parse('http://x/?k=v').searchParams.get('k'), 'v');
});

await test('URL and URLSearchParams objects have no own properties, and check their brand', () => {
  // (whatwg-url kept the impl in an own Symbol(impl) property; browsers and
  // node show none.)
  const url = new URL('http://x/?a=1');
  assertEquals(Reflect.ownKeys(url), []);
  assertEquals(Reflect.ownKeys(url.searchParams), []);
  assertEquals(Reflect.ownKeys(new URLSearchParams('b=2')), []);
  let error;
  try {
    Object.getOwnPropertyDescriptor(URL.prototype, 'href').get.call(Object.create(URL.prototype));
  } catch (caught) {
    error = caught;
  }
  assertEquals(error instanceof TypeError, true);
  class Sub extends URLSearchParams {}
  assertEquals(new Sub('c=3').get('c'), '3');
});
