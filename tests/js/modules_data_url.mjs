// data: URL modules and workers: `import 'data:text/javascript,...'`,
// JSON data: modules, and `new Worker('data:...')` (module and classic), as
// node, deno and browsers load them. The Fetch standard's data: URL
// processor reads the body; HTML checks a module script's MIME type, and a
// data: URL is no base for relative URLs.
// https://fetch.spec.whatwg.org/#data-urls
// https://html.spec.whatwg.org/multipage/webappapis.html#fetch-a-single-module-script

import { test, assert, assertEquals } from './lib/assert.mjs';
import { a } from 'data:text/javascript,export const a = "static";';
import json from 'data:application/json,{"list":[1,2,3]}' with { type: 'json' };
import { nextMessage, within } from './fixtures/workers/harness.mjs';

const js = (source) => 'data:text/javascript,' + encodeURIComponent(source);

// import() of `url`, and the TypeError message it rejects with ('' when it
// does not reject).
async function importError(url, options) {
  try {
    await import(url, options);
    return '';
  } catch (error) {
    assert(error instanceof TypeError, `a TypeError, not ${error}`);
    return error.message;
  }
}

await test('static imports of a JavaScript and a JSON data: module', () => {
  assertEquals(a, 'static');
  assertEquals(json, { list: [1, 2, 3] });
});

await test('the body is percent-decoded, or base64-decoded after ;base64, and import.meta.url is the URL', async () => {
  const escaped = await import(js('export default "100% " + import.meta.url.length'));
  assertEquals(escaped.default, '100% ' + js('export default "100% " + import.meta.url.length').length);
  const source = 'export const text = "é ✓"; export const url = import.meta.url;';
  const bytes = new TextEncoder().encode(source);
  const url = 'data:application/javascript;charset=utf-8;base64,' + btoa(String.fromCharCode(...bytes));
  const based = await import(url);
  assertEquals(based.text, 'é ✓');
  assertEquals(based.url, url);
  // A fragment is not part of the body; the same URL is the same module.
  const withFragment = await import(js('export const o = {};') + '#x');
  assertEquals(withFragment.o, {});
  assert((await import(url)) === based, 'one module per URL');
});

await test('a module script must have a JavaScript MIME type, a JSON module a JSON one', async () => {
  for (const type of ['text/plain', 'application/json', '']) {
    const message = await importError(`data:${type},export default 1`);
    assert(message.includes('expected a JavaScript MIME type'), `${type}: ${message}`);
  }
  const message = await importError('data:text/javascript,{}', { assert: { type: 'json' } });
  assert(message.includes('expected a JSON MIME type'), message);
  assertEquals((await import('data:application/ld+json,[1]', { assert: { type: 'json' } })).default, [1]);
  assertEquals((await import('data:text/ecmascript,export default 2')).default, 2);
});

await test('a data: URL without a comma, or with bad base64, fails to load', async () => {
  assert((await importError('data:text/javascript')).includes("needs a ','"));
  assert((await importError('data:text/javascript;base64,ZX=hwb3J0')).includes('not valid base64'));
});

await test('relative specifiers in a data: module fail; absolute ones load', async () => {
  const relative = await importError(js('import \"./fixtures/meta/probe.mjs\";'));
  assert(relative.includes('cannot be resolved against a data: URL'), relative);
  const dynamic = await import(js('export const p = import("./x.mjs");'));
  const dynamicError = await dynamic.p.then(() => '', (error) => error.message);
  assert(dynamicError.includes('cannot be resolved against a data: URL'), dynamicError);
  const target = new URL('./fixtures/json/data.json', import.meta.url).href;
  const absolute = await import(js(`import d from ${JSON.stringify(target)} with { type: 'json' }; export default d;`));
  assertEquals(typeof absolute.default, 'object');
});

await test('a module worker from a data: URL', async () => {
  const worker = new Worker(js('onmessage = (e) => postMessage([e.data * 2, import.meta.url.slice(0, 5)]);'), { type: 'module' });
  try {
    worker.postMessage(21);
    assertEquals(await within(nextMessage(worker), 5000, 'reply'), [42, 'data:']);
  } finally {
    worker.terminate();
  }
});

await test('a classic worker from a data: URL, whose importScripts of a relative URL throws', async () => {
  const worker = new Worker(js(`
    let result;
    try { importScripts('./helper.js'); result = 'imported'; } catch (e) { result = e.name; }
    postMessage([typeof importScripts, result]);`));
  try {
    assertEquals(await within(nextMessage(worker), 5000, 'reply'), ['function', 'SyntaxError']);
  } finally {
    worker.terminate();
  }
});

await test('a module worker whose data: URL is not JavaScript fires error, not a crash', async () => {
  const worker = new Worker('data:text/plain,postMessage(1)', { type: 'module' });
  const event = await within(new Promise((resolve) => { worker.onerror = resolve; }), 5000, 'error event');
  // A plain Event (HTML "run a worker"); the reason goes to stderr
  // (modules_data_url.stderr).
  assertEquals(event.constructor, Event);
});
