// Bundles js_deps/url_entry.js (whatwg-url and what it needs) into one IIFE
// with esbuild's JavaScript API, for js_deps/build_url.sh.
// Usage: node bundle_url.mjs OUTPUT
//
// The options are those of the CLI command build_url.sh used to run, plus one
// plugin, `patches`: a few exact text replacements in whatwg-url's sources
// that make parsing faster without changing what it computes. Each pattern
// must occur exactly as many times as listed, or the build fails: a new
// whatwg-url release that changes these lines needs the patch looked at again,
// never a silently unpatched (or half-patched) bundle.
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));

// url-state-machine.js calls the current state's method as
// this[`parse ${this.state}`](...) for every code point: a new string, then
// a property lookup that must first find that string in V8's string table
// (the string-table lookups led a profile of new URL). The patched loop looks
// the method up in a table made once from the same prototype methods, keyed
// by state name.
const stateMachinePatches = [
  {
    find: 'const ret = this[`parse ${this.state}`](c, cStr);',
    replace: 'const ret = (stateParsers ??= collectStateParsers())[this.state].call(this, c, cStr);',
    count: 1,
  },
  // Array.from(string, callback): a callback call per code point.
  {
    find: 'this.input = Array.from(this.input, c => c.codePointAt(0));',
    replace: 'this.input = codePointsOf(this.input);',
    count: 1,
  },
  // A URL without tabs or newlines (nearly all) skips the /u regexp replace.
  {
    find: 'return url.replace(/\\u0009|\\u000A|\\u000D/ug, "");',
    replace: 'return /[\\t\\n\\r]/.test(url) ? url.replace(/\\u0009|\\u000A|\\u000D/ug, "") : url;',
    count: 1,
  },
  {
    find: 'function URLStateMachine(input, base, encodingOverride, url, stateOverride) {',
    replace: `let stateParsers = null;
function collectStateParsers() {
  const parsers = Object.create(null);
  for (const key of Object.getOwnPropertyNames(URLStateMachine.prototype)) {
    if (key.startsWith("parse ")) parsers[key.slice(6)] = URLStateMachine.prototype[key];
  }
  return parsers;
}

// The code points of a string, as Array.from(string) splits it (a lone
// surrogate is one code point).
function codePointsOf(string) {
  const codePoints = [];
  for (let i = 0; i < string.length; i++) {
    const c = string.codePointAt(i);
    codePoints.push(c);
    if (c > 0xFFFF) i++;
  }
  return codePoints;
}

function URLStateMachine(input, base, encodingOverride, url, stateOverride) {`,
    count: 1,
  },
];

// webidl-conversions' USVString builds the result one code point at a time
// (a string and an array push per character); a string without surrogates
// (nearly every string) is already a USVString.
const webidlPatches = [
  {
    find: `  const S = exports.DOMString(value, options);
  const n = S.length;`,
    replace: `  const S = exports.DOMString(value, options);
  if (!/[\\uD800-\\uDFFF]/.test(S)) {
    return S;
  }
  const n = S.length;`,
    count: 1,
  },
];

// percent-encoding.js: every code point of a path, query or fragment goes
// through a string, a UTF-8 byte array and a for-of loop over it; an ASCII
// code point is one byte, encoded or kept by the predicate. A host without a
// "%" decodes to its own UTF-8 bytes.
const percentEncodingPatches = [
  {
    find: `function utf8PercentEncodeCodePointInternal(codePoint, percentEncodePredicate) {
  const bytes = utf8Encode(codePoint);`,
    replace: `function utf8PercentEncodeCodePointInternal(codePoint, percentEncodePredicate) {
  if (codePoint.length === 1 && codePoint.charCodeAt(0) < 0x80) {
    const c = codePoint.charCodeAt(0);
    return percentEncodePredicate(c) ? percentEncode(c) : codePoint;
  }
  const bytes = utf8Encode(codePoint);`,
    count: 1,
  },
  {
    find: `function utf8PercentEncodeCodePoint(codePoint, percentEncodePredicate) {
  return`,
    replace: `function utf8PercentEncodeCodePoint(codePoint, percentEncodePredicate) {
  if (codePoint < 0x80) {
    return percentEncodePredicate(codePoint) ? percentEncode(codePoint) : String.fromCharCode(codePoint);
  }
  return`,
    count: 1,
  },
  {
    find: `function percentDecodeString(input) {
  const bytes = utf8Encode(input);`,
    replace: `function percentDecodeString(input) {
  if (!input.includes("%")) {
    return utf8Encode(input);
  }
  const bytes = utf8Encode(input);`,
    count: 1,
  },
];

// URL-impl.js: the constructor (and URL.canParse) tries the fast path first
// (url_entry.js adaParse, bound by esbuild's inject), and falls back to
// whatwg-url's parser, with its errors, when that does not take the input.
// The URL record (_url) of a fast-path URL is built when first read
// (buildURLRecord; ~40% of a short `new URL`): every getter, setter and
// URLSearchParams reaches the record through _url, and href, until then,
// is Ada's href (the same string: tests/js/url_fast_path.mjs). A URL's
// URLSearchParams object (a wrapper and an impl, ~350 ns) is made
// when first needed, from the URL's query then: until then nothing can have
// changed the one without the other (href and search setters update it
// through the _query getter, which makes it from the new query first).
const urlImplPatches = [
  {
    find: `  constructor(globalObject, [url, base]) {
    let parsedBase = null;`,
    replace: `  constructor(globalObject, [url, base]) {
    this._globalObject = globalObject;
    this._queryObject = null;
    this._record = null;
    this._href = adaParse(url, base);
    if (this._href !== null) {
      this._components = adaComponents();
      return;
    }
    let parsedBase = null;`,
    count: 1,
  },
  {
    find: `  get href() {
    return usm.serializeURL(this._url);
  }`,
    replace: `  get _url() {
    if (this._record === null) {
      this._record = buildURLRecord(this._href, this._components);
      this._components = null;
    }
    return this._record;
  }

  set _url(record) {
    this._record = record;
    this._components = null;
  }

  get href() {
    if (this._record === null) {
      return this._href;
    }
    return usm.serializeURL(this._url);
  }`,
    count: 1,
  },
  {
    find: `    this._query = URLSearchParams.createImpl(globalObject, [query], { doNotStripQMark: true });
    this._query._url = this;
  }`,
    replace: `  }

  get _query() {
    if (this._queryObject === null) {
      const query = this._url.query !== null ? this._url.query : "";
      this._queryObject = URLSearchParams.createImpl(this._globalObject, [query], { doNotStripQMark: true });
      this._queryObject._url = this;
    }
    return this._queryObject;
  }`,
    count: 1,
  },
  {
    find: `  static canParse(url, base) {
    let parsedBase = null;`,
    replace: `  static canParse(url, base) {
    if (adaParse(url, base) !== null) {
      return true;
    }
    let parsedBase = null;`,
    count: 1,
  },
];

// URL.js, URLSearchParams.js, utils.js (webidl2js wrappers): a wrapper keeps
// its impl in a private slot (internals.newPrivateSlot, through url_entry.js
// setImpl/implOf/hasImpl) instead of an own property keyed by a symbol.
// Object.defineProperty of that property was a runtime call on every URL
// and URLSearchParams made (and the property showed in
// Object.getOwnPropertySymbols(url), which no browser or node has).
function wrapperPatches(reads) {
  return [
    {
      find: 'utils.hasOwn(value, implSymbol) && value[implSymbol] instanceof',
      replace: 'hasImpl(value) && implOf(value) instanceof',
      count: 1,
    },
    {
      find: `Object.defineProperty(wrapper, implSymbol, {
    value: new Impl.implementation(globalObject, constructorArgs, privateData),
    configurable: true
  });`,
      replace: 'setImpl(wrapper, new Impl.implementation(globalObject, constructorArgs, privateData));',
      count: 1,
    },
    {
      find: `Object.defineProperty(wrapper, implSymbol, {
    value: Object.create(Impl.implementation.prototype),
    configurable: true
  });`,
      replace: 'setImpl(wrapper, Object.create(Impl.implementation.prototype));',
      count: 1,
    },
    ...reads.map(([object, count]) => ({
      find: `${object}[implSymbol]`,
      replace: `implOf(${object})`,
      count,
    })),
  ];
}
const utilsPatches = [
  {
    find: 'return wrapper ? wrapper[implSymbol] : null;',
    replace: 'return wrapper ? implOf(wrapper) : null;',
    count: 1,
  },
];

const patchedFiles = new Map([
  [`${here}node_modules/whatwg-url/lib/url-state-machine.js`, stateMachinePatches],
  [`${here}node_modules/webidl-conversions/lib/index.js`, webidlPatches],
  [`${here}node_modules/whatwg-url/lib/percent-encoding.js`, percentEncodingPatches],
  [`${here}node_modules/whatwg-url/lib/URL-impl.js`, urlImplPatches],
  [`${here}node_modules/whatwg-url/lib/URL.js`, wrapperPatches([['esValue', 24], ['wrapper', 5]])],
  [`${here}node_modules/whatwg-url/lib/URLSearchParams.js`,
    wrapperPatches([['esValue', 9], ['wrapper', 5], ['this', 2], ['target', 1]])],
  [`${here}node_modules/whatwg-url/lib/utils.js`, utilsPatches],
]);

function countOf(text, pattern) {
  let count = 0;
  for (let at = text.indexOf(pattern); at !== -1; at = text.indexOf(pattern, at + pattern.length)) {
    count++;
  }
  return count;
}

const patches = {
  name: 'patches',
  setup(plugin) {
    plugin.onLoad({ filter: /(url-state-machine|percent-encoding|index|URL-impl|URL|URLSearchParams|utils)\.js$/ }, async (args) => {
      const list = patchedFiles.get(args.path);
      if (list === undefined) return undefined;
      let text = await readFile(args.path, 'utf8');
      for (const { find, replace, count } of list) {
        const found = countOf(text, find);
        if (found !== count) {
          return { errors: [{ text: `patch expects ${count} of ${JSON.stringify(find)}, found ${found}` }] };
        }
        text = text.replaceAll(find, replace);
      }
      patchedFiles.delete(args.path);
      return { contents: text, loader: 'js' };
    });
    plugin.onEnd((result) => {
      if (result.errors.length === 0 && patchedFiles.size !== 0) {
        result.errors.push({ text: `patched files not in the bundle: ${[...patchedFiles.keys()].join(', ')}` });
      }
    });
  },
};

const output = process.argv[2];
if (output === undefined) {
  console.error('usage: node bundle_url.mjs OUTPUT');
  process.exit(2);
}

// target: the engine is V8 10.2 (node 18, Chrome 102).
// inject: url_entry.js's TextEncoder/TextDecoder replace the free globals of
//   those names in the bundled packages (there are none in the realm).
// alias tr46: url_entry.js stands in for the tr46 package, and loads it on
//   first use (see there).
// platform neutral with mainFields main: plain CommonJS packages, no node
//   built-ins, no browser field.
// charset ascii: \u escapes keep the embedded source ASCII.
// Whitespace and syntax are minified; identifiers are kept, so stack traces
// and function names stay readable.
await build({
  absWorkingDir: here,
  entryPoints: ['./url_entry.js'],
  bundle: true,
  format: 'iife',
  globalName: 'hostloopURL',
  platform: 'neutral',
  mainFields: ['main'],
  target: 'chrome102',
  inject: ['./url_entry.js'],
  alias: { tr46: './url_entry.js' },
  charset: 'ascii',
  legalComments: 'none',
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
  outfile: output,
  plugins: [patches],
});
