// Spec test for console.log formatting (src/runtime/js/inspect.js).
//
// Prints a representative set of values and format strings with console.log.
// hostloop's stdout must equal console_format.stdout byte for byte; that file
// is node 20's output for this same script:
//
//   node tests/js/console_format.mjs > tests/js/console_format.stdout
//
// Only values whose node output is what hostloop should print are used: no
// node-only objects, no real stack traces (they contain paths), no timings.

const custom = Symbol.for('nodejs.util.inspect.custom');
const log = console.log;
const section = (name) => log(`--- ${name}`);

// An error with a fixed, path-free stack.
function fixedError(Ctor, message, frames = ['main (file:///app/main.mjs:10:5)', 'run (file:///app/lib.mjs:3:1)']) {
  const err = new Ctor(message);
  err.stack = `${err.name}${message ? `: ${message}` : ''}${frames.map((f) => `\n    at ${f}`).join('')}`;
  return err;
}

section('strings');
log('top-level strings print raw: it\'s "quoted" \\ and\ttabs');
log(['nested', "it's", 'say "hi"', 'both \' and "', 'all \' " `', 'back\\slash', 'nl\nx', '\x00\x1b\x7f']);
log({ empty: '', unicode: 'héllo wörld', emoji: '😀', cjk: '日本語', lone: '\ud800' });
log({ long: 'The quick brown fox jumps over the lazy dog. '.repeat(3) });
log({ multi: 'first line of a long multi-line string\nsecond line of that string\nthird\n' });
log([`${'x'.repeat(120)}`]);
log('x'.repeat(10005).length, ['y'.repeat(10003)].toString().length);

section('numbers and other primitives');
log(0, -0, 1.5, -42, NaN, Infinity, -Infinity, 1e21, 1e-7, 2 ** 53);
log([0, -0, 0.1, -1.5e-10]);
log(1n, -123456789012345678901234567890n, [10n]);
log(true, false, null, undefined, [true, null, undefined]);
log(Symbol(), Symbol('desc'), Symbol.iterator, Symbol.for('registered'), [Symbol('in array')]);

section('functions');
function named() {}
const anonymous = (() => function () {})();
const arrow = () => {};
async function asyncFn() {}
function* gen() {}
async function* asyncGen() {}
class Animal {}
class Dog extends Animal {}
const withProps = Object.assign(function withProps() {}, { version: 2, meta: { ok: true } });
log(named, anonymous, arrow, asyncFn, gen, asyncGen);
log(Animal, Dog, class {}, named.bind(null), Math.max);
log(withProps);
log({ method() {}, get getter() { return 1; }, set setter(v) {}, get both() { return 1; }, set both(v) {} });
class WithStatic { static count = 3; }
log(WithStatic, [Dog]);

section('objects');
log({});
log({ a: 1, b: 'two', c: [3], d: { e: null } });
log({ level1: { level2: { level3: { level4: 'too deep' } } } });
log({ a: { b: { c: {} } } }, [[[[]]]], [[[['deep']]]]);
log({ 'a-b': 1, 'with space': 2, 3: 'three', valid_id: 4, $dollar: 5, ünï: 6 });
log({ [Symbol('sym')]: 'symbol key', regular: true });
log(Object.create(null), Object.assign(Object.create(null), { x: 1 }));
log({ alpha: 'aaaaaaaaaa', beta: 'bbbbbbbbbb', gamma: 'cccccccccc', delta: 'dddddddddd', eps: 1 });
log(Object.fromEntries(Array.from({ length: 26 }, (_, i) => [String.fromCharCode(97 + i), i * i])));
log({ users: [{ id: 1, name: 'Ann', roles: ['admin', 'dev'] }, { id: 2, name: 'Bob', roles: [] }], total: 2 });
log({ outer: { inner: { list: [1, 2, 3], map: new Map([['k', { v: 1 }]]) } } });

section('class instances');
class Point { constructor(x, y) { this.x = x; this.y = y; } }
class Empty {}
class Tagged { get [Symbol.toStringTag]() { return 'TagName'; } }
function OldStyle() { this.legacy = true; }
log(new Point(1, 2), new Empty(), new Tagged(), new OldStyle());
log([new Point(0, 0), new Point(-1, 1.5)]);
log(Object.assign(Object.create({ inherited: true }), { own: 1 }));
log(new (class {})(), Object.create(Object.create(null)));
const anon = { [Symbol.toStringTag]: 'Enumerable tag' };
log(anon, Object.create({ [Symbol.toStringTag]: 'Inherited' }));
log((function () { return arguments; })(1, 'a'));

section('arrays');
log([], [1, 2, 3], ['a', 'b'], [[1, [2, [3, [4]]]]]);
log([1, , 3], [, , 1], new Array(5), [1, 2, , , , 6, ,]);
log(Object.assign([1, 2, 3], { extra: 'prop' }));
log(Array.from({ length: 101 }, (_, i) => i));
log(Array.from({ length: 30 }, (_, i) => i * i));
log(Array.from({ length: 12 }, (_, i) => -i * 1000));
log(Array.from({ length: 26 }, (_, i) => String.fromCharCode(65 + i).repeat((i % 5) + 1)));
log(['apple', 'banana', 'cherry', 'date', 'elderberry', 'fig', 'grape', 'honeydew']);
log({ matrix: Array.from({ length: 4 }, (_, r) => Array.from({ length: 4 }, (_, c) => r * 4 + c)) });
log(Array.from({ length: 8 }, (_, i) => ({ id: i })));
class List extends Array {}
log(List.from([1, 2]), new List());

section('collections');
log(new Map(), new Map([['a', 1], [{ key: 'obj' }, [1, 2]]]));
log(new Set(), new Set([1, 'two', { three: 3 }]));
log(new Map([['nested', new Map([['deeper', new Map([['deepest', new Map()]])]])]]));
log(new Set(Array.from({ length: 102 }, (_, i) => i)).size, new Map([[1, new Set([2])]]));
log(new WeakMap(), new WeakSet());
log({ map: new Map([[1, 2]]), set: new Set(['x']) });

section('dates and regexps');
log(new Date(0), new Date(Date.UTC(2024, 1, 29, 12, 30, 15, 250)), new Date(NaN));
log({ created: new Date(86400000) });
log(/abc/, /a\/b[c-d]+$/gimsuy, new RegExp('x', 'g'), Object.assign(/re/, { prop: 1 }));

section('errors');
log(fixedError(Error, 'something failed'));
log(fixedError(TypeError, 'bad type'), fixedError(RangeError, ''));
log({ error: fixedError(Error, 'nested in an object') });
log([fixedError(Error, 'in an array')]);
log(Object.assign(fixedError(Error, 'with props'), { code: 'E_FAIL', status: 500 }));
class AppError extends Error {}
log(fixedError(AppError, 'subclass'));
const noFrames = new Error('no frames');
noFrames.stack = 'Error: no frames';
log(noFrames, [noFrames]);
const withCause = fixedError(Error, 'outer');
withCause.cause = fixedError(Error, 'inner', ['inner (file:///app/inner.mjs:1:1)']);
log(withCause);
log(new Error('string cause', { cause: 'because' }).cause);
const aggregate = new AggregateError([noFrames, 42], 'several');
aggregate.stack = 'AggregateError: several\n    at main (file:///app/main.mjs:1:1)';
log(aggregate);
const real = new Error('real stack');
log(real.stack.split('\n')[0], real.message, real.name);

section('circular');
const circ = { name: 'root' };
circ.self = circ;
circ.list = [circ, { parent: circ }];
log(circ);
const ringA = { id: 'a' };
const ringB = { id: 'b', a: ringA };
ringA.b = ringB;
log([ringA, ringB]);
const selfMap = new Map();
selfMap.set('me', selfMap);
log(selfMap);

section('boxed primitives');
log(new Number(3), new Number(-0), new String('boxed'), new Boolean(false), Object(7n), Object(Symbol('s')));
log(Object.assign(new String('ab'), { extra: 1 }));

section('binary data');
log(new Uint8Array([1, 2, 3]), new Int16Array(0), new Float64Array([-0, 1.5, NaN]));
log(new BigInt64Array([1n, -2n]), new Uint8Array(120));
log(new Uint8Array([1, 2]).buffer, new ArrayBuffer(0));
log(new SharedArrayBuffer(4));
log(new DataView(new Uint8Array([1, 2, 3, 4]).buffer, 1, 2));
log({ bytes: new Uint8ClampedArray([255, 0]) });

section('promises and proxies');
const rejected = Promise.reject(fixedError(Error, 'nope'));
rejected.catch(() => {});
log(Promise.resolve(42), Promise.resolve({ a: [1] }), new Promise(() => {}), rejected);
log(new Proxy({ target: true }, {}), new Proxy([1, 2], { get: () => 'trapped' }));
log(new Proxy(function proxiedFn() {}, {}));

section('custom inspect');
log({ [custom]: () => 'custom output' });
log([1, { [custom]: (depth) => `depth is ${depth}` }]);
log({ wrapped: { [custom]: () => ({ replacement: true }) } });

section('format strings');
log('%s is %d years', 'Bob', 42);
log('%s|%s|%s|%s', 'str', 42, 42n, -0);
log('%s|%s|%s', null, undefined, Symbol('s'));
log('%s', { a: { b: { c: 1 } } }, 'extra');
log('%s', [1, [2, [3]]]);
log('%s', { toString() { return 'custom toString'; } });
log('%s', new Date(0));
log('%d|%d|%d|%d|%d', 42, '42', 1.5, 7n, {});
log('%i|%i|%i|%i', 42.9, '-42.9px', 7n, 'abc');
log('%f|%f|%f', '1.5e3', 2, 'x');
log('%j|%j|%j', { a: [1, 'two'] }, 'str', undefined);
const circular = { a: 1 };
circular.self = circular;
log('%j', circular);
log('%o', { a: [1, 2], f: named });
log('%O', { a: { b: { c: { d: 1 } } } });
log('%c styled %c text', 'color: red', 'font-weight: bold');
log('100%% sure, %s%%', 50);
log('%x is not a format, %s is', 'this');
log('trailing %', 'arg');
log('%s %s', 'only one');
log('no format', 'multiple', 1, { args: true }, ['arr'], null);
log(1, '%s', 'not a format string when not first');
log({ first: 'object' }, 'then string', 3);
log('%s');
log('%%');
log();
log('');
log('end');
