// HTML "resolve a module specifier" parses relative specifiers with the URL
// parser, and the module map is keyed by the resulting URL: spellings of one
// URL are one module instance, evaluated once. Before hostloop resolved
// specifiers as the WHATWG URL parser does, '.%2e' segments, backslashes,
// "//localhost" and unencoded query characters each made a second instance.
// import.meta.resolve() and the global URL (whatwg-url) must agree.
// Fixture: tests/js/fixtures/identity/counted.mjs.

import { test, assert, assertEquals, assertThrows } from './lib/assert.mjs';
import { instance } from './fixtures/identity/counted.mjs';
import { instance as viaDotDot } from './fixtures/identity/x/.%2e/counted.mjs';
import { instance as viaUpperDotDot } from './fixtures/identity/x/%2E%2E/counted.mjs';
import { instance as viaBackslash } from './fixtures\\identity\\counted.mjs';
import { instance as viaDot } from './fixtures/%2e/identity/counted.mjs';

test('static imports of one URL spelled differently share one instance', () => {
  assert(viaDotDot === instance, '.%2e');
  assert(viaUpperDotDot === instance, '%2E%2E');
  assert(viaBackslash === instance, 'backslashes');
  assert(viaDot === instance, '%2e');
});

test('dynamic imports of one URL spelled differently share one instance', async () => {
  const here = new URL('./fixtures/identity/counted.mjs', import.meta.url);
  const spellings = [
    './fixtures/identity/counted.mjs',
    './fixtures/identity/./counted.mjs',
    './fixtures/identity\\.%2E\\identity/counted.mjs',
    here.href,
    here.href.replace('file:///', 'file://localhost/'),
    here.href.replace('file:', 'FILE:'),
    '//localhost' + here.pathname,
    './fixtures/identity/counted.mjs\n\t',
  ];
  for (const spelling of spellings) {
    const module = await import(spelling);
    assert(module.instance === instance, JSON.stringify(spelling));
  }
  // Query strings name other instances, but their characters are encoded
  // first, so these two are one URL.
  const a = await import('./fixtures/identity/counted.mjs?a b');
  const b = await import('./fixtures/identity/counted.mjs?a%20b');
  assert(a.instance === b.instance, 'query encoded');
  assert(a.instance !== instance, 'a query is another URL');
  assertEquals(globalThis.countedEvaluations, 2);
});

test('import.meta.resolve agrees with the URL parser', () => {
  const specifiers = [
    './a.mjs', '../a.mjs', '/abs/a.mjs', './a/.%2e/b.mjs', './a/%2e/b.mjs', './a\\b.mjs',
    './a/..', './.', './x y.mjs', './x^{}`.mjs', './é.mjs', './q.mjs?a b\'c"<>#d e`"<>',
    '//localhost/a.mjs', 'file:///a/../b.mjs', 'FILE:///b.mjs', 'file:c.mjs', './%41.mjs',
    './tab\there.mjs', '../../../../../../up.mjs',
  ];
  for (const specifier of specifiers) {
    // HTML: only "/", "./" and "../" specifiers are parsed against the
    // importer; a URL-like one ('file:c.mjs') is parsed with no base.
    const relative = /^(\/|\.\/|\.\.\/)/.test(specifier);
    const expected = relative ? new URL(specifier, import.meta.url) : new URL(specifier);
    assertEquals(import.meta.resolve(specifier), expected.href, JSON.stringify(specifier));
  }
});

test('specifiers that are not relative or absolute URLs are errors', async () => {
  for (const specifier of ['.', '..', '.\\x.mjs', ' ./x.mjs', 'lodash', 'https://example.com/x.mjs']) {
    assertThrows(() => import.meta.resolve(specifier), TypeError, undefined, JSON.stringify(specifier));
  }
  // A file: URL naming another host cannot be loaded.
  assertThrows(() => import.meta.resolve('//server/x.mjs'), TypeError);
  let error;
  try {
    await import('//server/x.mjs');
  } catch (e) {
    error = e;
  }
  assert(error instanceof TypeError, String(error));
  assert(/remote host 'server'/.test(error.message), error.message);
});
