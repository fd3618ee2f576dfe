// Spec tests for import.meta (https://tc39.es/ecma262/#sec-meta-properties,
// https://html.spec.whatwg.org/multipage/webappapis.html#hostgetimportmetaproperties):
// url, resolve(), and the node-compatible filename and dirname, including
// file names that must be percent-encoded. URL may not exist in hostloop, so
// expected URLs are built with string operations only.
// Fixtures: tests/js/fixtures/meta/ and "tests/js/fixtures/odd name #1.mjs".

import { test, assert, assertEquals, assertThrows } from './lib/assert.mjs';
import { meta as probeMeta, resolvedSibling } from './fixtures/meta/probe.mjs';
import { meta as oddMeta, url as oddUrl } from './fixtures/odd%20name%20%231.mjs';
import { meta as percentMeta } from './fixtures/meta/100%25%20ü.mjs';

// The WHATWG path percent-encode set plus '%' (what node's pathToFileURL
// encodes), applied byte-wise to the UTF-8 encoding of a path.
function pathToFileUrl(path) {
  const special = ' "#%<>?`{}\\';
  let out = 'file://';
  for (const ch of path) {
    const code = ch.codePointAt(0);
    if (code >= 0x7f) {
      out += encodeURIComponent(ch); // %XX for each UTF-8 byte
    } else if (code < 0x21 || special.includes(ch)) {
      out += '%' + code.toString(16).toUpperCase().padStart(2, '0');
    } else {
      out += ch;
    }
  }
  return out;
}

const url = import.meta.url;
const filename = import.meta.filename;
const dirname = import.meta.dirname;
const dirUrl = url.slice(0, url.lastIndexOf('/'));

await test('import.meta is a null-prototype object, the same on every access', () => {
  assertEquals(typeof import.meta, 'object');
  assertEquals(Object.getPrototypeOf(import.meta), null);
  assert(import.meta === import.meta, 'import.meta is not stable');
  import.meta.custom = 1;
  assertEquals(import.meta.custom, 1);
  assert(probeMeta !== import.meta, 'two modules share import.meta');
});

await test("import.meta.url is this file's file: URL", () => {
  assertEquals(typeof url, 'string');
  assert(url.startsWith('file:///'), `not a file:/// URL: ${url}`);
  assert(url.endsWith('/tests/js/modules_import_meta.mjs'), `unexpected URL: ${url}`);
  assert(!url.includes('/./') && !url.includes('/../'), `not normalised: ${url}`);
});

await test('import.meta.filename and dirname are the decoded absolute path', () => {
  assertEquals(typeof filename, 'string');
  assert(filename.startsWith('/'), `not absolute: ${filename}`);
  assert(filename.endsWith('/tests/js/modules_import_meta.mjs'), `unexpected filename: ${filename}`);
  assertEquals(dirname, filename.slice(0, filename.lastIndexOf('/')));
  assertEquals(`${dirname}/modules_import_meta.mjs`, filename);
  assertEquals(url, pathToFileUrl(filename));
  assertEquals(decodeURIComponent(url.slice('file://'.length)), filename);
});

await test("another module's import.meta describes that module", () => {
  assertEquals(probeMeta.url, `${dirUrl}/fixtures/meta/probe.mjs`);
  assertEquals(probeMeta.filename, `${dirname}/fixtures/meta/probe.mjs`);
  assertEquals(probeMeta.dirname, `${dirname}/fixtures/meta`);
});

await test('a space and a "#" in a file name are percent-encoded in import.meta.url', () => {
  assertEquals(oddUrl, `${dirUrl}/fixtures/odd%20name%20%231.mjs`);
  assertEquals(oddMeta.url, oddUrl);
  assertEquals(oddMeta.filename, `${dirname}/fixtures/odd name #1.mjs`);
  assertEquals(oddMeta.dirname, `${dirname}/fixtures`);
  assertEquals(oddUrl, pathToFileUrl(oddMeta.filename));
});

await test('a "%" and a non-ASCII letter in a file name are percent-encoded (UTF-8)', () => {
  assertEquals(percentMeta.url, `${dirUrl}/fixtures/meta/100%25%20%C3%BC.mjs`);
  assertEquals(percentMeta.filename, `${dirname}/fixtures/meta/100% ü.mjs`);
});

await test('the odd file imported with another spelling of its URL is the same module', async () => {
  const spaces = await import('./fixtures/odd name %231.mjs');
  const absolute = await import(oddUrl);
  assert(spaces.meta === oddMeta, 'literal spaces gave another module instance');
  assert(absolute.meta === oddMeta, 'the absolute URL gave another module instance');
});

await test('a literal "#" in a specifier starts the fragment, it is not part of the file name', async () => {
  let error;
  try {
    await import('./fixtures/odd name #1.mjs');
  } catch (e) {
    error = e;
  }
  assert(error instanceof Error, 'the import did not fail');
  assert(error.message.includes(`${dirname}/fixtures/odd name `),
    `message does not name "odd name ": ${error.message}`);
});

await test('import.meta.resolve resolves relative specifiers against this module', () => {
  assertEquals(typeof import.meta.resolve, 'function');
  assertEquals(import.meta.resolve('./x.mjs'), `${dirUrl}/x.mjs`);
  assertEquals(import.meta.resolve('./fixtures/meta/probe.mjs'), probeMeta.url);
  const parentUrl = dirUrl.slice(0, dirUrl.lastIndexOf('/'));
  assertEquals(import.meta.resolve('../x.mjs'), `${parentUrl}/x.mjs`);
  assertEquals(import.meta.resolve('./a/../b/./c.mjs'), `${dirUrl}/b/c.mjs`);
});

await test('import.meta.resolve keeps the query and the fragment, and encodes spaces', () => {
  assertEquals(import.meta.resolve('./x.mjs?v=1#top'), `${dirUrl}/x.mjs?v=1#top`);
  assertEquals(import.meta.resolve('./with space.mjs'), `${dirUrl}/with%20space.mjs`);
});

await test('import.meta.resolve of absolute paths and file: URLs', () => {
  assertEquals(import.meta.resolve('/abs/x.mjs'), 'file:///abs/x.mjs');
  assertEquals(import.meta.resolve('file:///abs/y.mjs'), 'file:///abs/y.mjs');
  assertEquals(import.meta.resolve('file:///abs/../z.mjs'), 'file:///z.mjs');
});

await test('import.meta.resolve does not require the file to exist', () => {
  assertEquals(import.meta.resolve('./no/such/file.mjs'), `${dirUrl}/no/such/file.mjs`);
});

await test('import.meta.resolve in another module resolves against that module', () => {
  assertEquals(resolvedSibling, `${dirUrl}/fixtures/meta/sibling.mjs`);
  assertEquals(probeMeta.resolve('../x.mjs'), `${dirUrl}/fixtures/x.mjs`);
});

await test('import.meta.resolve of a bare specifier throws a TypeError', () => {
  assertThrows(() => import.meta.resolve('lodash'), TypeError, 'lodash');
});

await test('import.meta.resolve converts its argument with ToString: an exception from toString propagates', () => {
  const thrown = new Error('from toString');
  let caught;
  try {
    import.meta.resolve({ toString() { throw thrown; } });
  } catch (error) {
    caught = error;
  }
  assert(caught === thrown, `the toString error, not ${caught}`);
  assertEquals(import.meta.resolve({ toString: () => './x.mjs' }), dirUrl + '/x.mjs');
});

await test('a URL-like file: specifier is parsed with no base, as new URL() does', () => {
  assertEquals(import.meta.resolve('file:x.mjs'), 'file:///x.mjs');
});
