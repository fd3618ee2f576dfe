// HTML's module map keeps a module's parse error: every import of that URL,
// direct or through an importer, rethrows the same SyntaxError object (node
// does too). Each import() compiled the file again and made a new one.
// Fixtures: tests/js/fixtures/dynamic/syntax_error.mjs, imports_syntax_error.mjs.

import { assert } from './lib/assert.mjs';

const caught = async (specifier) => {
  try {
    await import(specifier);
  } catch (error) {
    return error;
  }
  return null;
};
const first = await caught('./fixtures/dynamic/syntax_error.mjs');
const second = await caught('./fixtures/dynamic/syntax_error.mjs');
const viaImporter = await caught('./fixtures/dynamic/imports_syntax_error.mjs');
assert(first instanceof SyntaxError, `a SyntaxError: ${first}`);
assert(first === second, 'the same error object for a second import()');
assert(first === viaImporter, 'the same error object through an importer');
