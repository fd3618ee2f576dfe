// Import attributes (`with { type: 'json' }`), which hostloop rewrites to
// V8 10.2's `assert`, in forms node 20 accepts: a block comment between the
// specifier and `with`, and a specifier with an escaped quote (both were a
// SyntaxError "Unexpected token 'with'"). An attribute other than `type` is
// a SyntaxError (HTML HostLoadImportedModule; node: ERR_IMPORT_ATTRIBUTE_
// UNSUPPORTED); it was ignored.

import commented from './fixtures/json/data.json' /* a comment */ with { type: 'json' };
import twice from "./fixtures/json/data.json" /* one */ /* two */ with { type: 'json' };
import quoted from './fixtures/json/quote\'s.json' with { type: 'json' };
import { test, assert, assertEquals, assertRejects } from './lib/assert.mjs';

await test('comments before `with` and an escaped quote in the specifier', () => {
  assertEquals(JSON.stringify(commented), JSON.stringify(twice));
  assert(typeof commented === 'object' && commented !== null, 'the JSON module loaded');
  assertEquals(quoted.quoted, true);
});

await test('an attribute other than type is a SyntaxError', async () => {
  await assertRejects(import('./fixtures/json/unknown_attribute.mjs'), SyntaxError, "'integrity'");
});
