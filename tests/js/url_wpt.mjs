// WPT's URL parsing data (tests/js/fixtures/urltestdata.json, see the
// README there) against the URL global: what WPT's url-constructor.any.js,
// url-origin.any.js, url-statics-canparse.any.js, url-statics-parse.any.js
// and failure.html check, one case at a time.
//
// Prints the pass count and every failure, then exits 1 on any failure.
// Runs under plain node too (whose URL is another implementation); node 20
// has no URL.parse, so that part is skipped there.

import data from './fixtures/urltestdata.json' with { type: 'json' };

const components = ['href', 'protocol', 'username', 'password', 'host', 'hostname', 'port',
  'pathname', 'search', 'hash'];
const hasParse = typeof URL.parse === 'function';

function show(value) {
  return JSON.stringify(value);
}

function parse(input, base) {
  return base === null ? new URL(input) : new URL(input, base);
}

function throwsTypeError(fn) {
  try {
    fn();
  } catch (error) {
    return error instanceof TypeError ? null : `threw ${error}, not a TypeError`;
  }
  return 'did not throw';
}

// Returns the list of problems with one test case (empty: it passed).
function check(expected) {
  const { input, base } = expected;
  const problems = [];
  const args = base === null ? [input] : [input, base];
  if (expected.failure) {
    const thrown = throwsTypeError(() => parse(input, base));
    if (thrown) problems.push(`new URL: ${thrown}`);
    if (URL.canParse(...args) !== false) problems.push('URL.canParse is not false');
    if (hasParse && URL.parse(...args) !== null) problems.push('URL.parse is not null');
    // failure.html: what fails with a base fails without one, so it also
    // fails as a base, and as an href.
    if (base === null) {
      const asBase = throwsTypeError(() => new URL('about:blank', input));
      if (asBase) problems.push(`as a base: ${asBase}`);
      const url = new URL('about:blank');
      const asHref = throwsTypeError(() => {
        url.href = input;
      });
      if (asHref) problems.push(`as an href: ${asHref}`);
    }
    return problems;
  }

  let url;
  try {
    url = parse(input, base);
  } catch (error) {
    return [`new URL threw ${error}`];
  }
  for (const key of components) {
    if (url[key] !== expected[key]) problems.push(`${key} is ${show(url[key])}, expected ${show(expected[key])}`);
  }
  if ('origin' in expected && url.origin !== expected.origin) {
    problems.push(`origin is ${show(url.origin)}, expected ${show(expected.origin)}`);
  }
  if ('searchParams' in expected && url.searchParams.toString() !== expected.searchParams) {
    problems.push(`searchParams is ${show(url.searchParams.toString())}, expected ${show(expected.searchParams)}`);
  }
  if (URL.canParse(...args) !== true) problems.push('URL.canParse is not true');
  if (hasParse) {
    const parsed = URL.parse(...args);
    if (!(parsed instanceof URL) || parsed.href !== expected.href) {
      problems.push(`URL.parse gave ${parsed === null ? 'null' : show(parsed.href)}`);
    }
  }
  // The serialization parses back to itself.
  try {
    const again = new URL(url.href);
    if (again.href !== url.href) problems.push(`href reparses as ${show(again.href)}`);
  } catch (error) {
    problems.push(`href does not reparse: ${error}`);
  }
  return problems;
}

let passed = 0;
let failed = 0;
for (const expected of data) {
  if (typeof expected === 'string') continue;  // a comment
  const problems = check(expected);
  if (problems.length === 0) {
    passed++;
    continue;
  }
  failed++;
  console.log(`FAIL new URL(${show(expected.input)}, ${show(expected.base)})`);
  for (const problem of problems) console.log(`  ${problem}`);
}

console.log(`urltestdata.json: ${passed} passed, ${failed} failed`);
if (failed > 0 || passed < 800) {
  throw new Error(`url_wpt: ${failed} of ${passed + failed} WPT URL cases failed`);
}
