// Import attributes for V8 10.2. Node 20+ and deno write a module's import
// attributes `import data from './d.json' with { type: 'json' };`, but V8
// 10.2 parses only their older form, import assertions, where the same clause
// starts with `assert`. The module loader rewrites the one into the other in
// the module's source text. V8-free.
#pragma once

#include <cstddef>
#include <string>

namespace hostloop::runtime {

// Rewrites, in one pass over `source`, every attribute clause of an import
// or export declaration written `with {` into `assert {`, and returns how
// many it rewrote.
//
// A clause is a `with` right after the module specifier string of
// `import 'x'` or `... from 'x'` and right before `{` (whitespace and
// comments may stand between them). The scan skips comments, strings,
// template literals and regular expressions, so text that only looks like a
// clause stays as written, and so does a `with (object) {}` statement, which
// V8 then reports itself. A `/` is taken for a regular expression or a
// division from the token before it, as JS tokenizers without a parser do;
// the rare code that fools this (`if (x) /re/.test(s)`) can only hide or
// show a clause after it.
//
// Positions: no line changes. `assert` goes right after the specifier's
// closing quote (V8 allows no line break before it), `with` becomes four
// spaces, and up to six spaces or tabs after the quote on the specifier's
// line, outside comments, are dropped: `'x' with {` becomes `'x'assert{`
// and every column stays. With fewer blanks, only when `with` and `{` stand
// on the specifier's line with fewer than two blanks around `with`
// (`'x'with {`, `'x' with{`, `'x'with{`), what follows the clause on that
// line moves right by one or two columns.
std::size_t RewriteImportAttributes(std::string* source);

}  // namespace hostloop::runtime
