// Spec test for the console methods (src/runtime/js/console.js): which
// stream each one writes to, and what it prints.
//
// log/info/debug/dirxml/dir/count/group/table write to stdout,
// warn/error/trace/assert to stderr. hostloop's stdout must equal
// console_streams.stdout exactly, and every line of console_streams.stderr
// must appear in its stderr, in order. Both files are node 20's output for
// this script (stack frame lines, which contain paths, removed from the
// .stderr file), except the asserts whose first argument is not a string:
// hostloop follows the console spec there (node prints "[object Object]"
// and throws on a symbol):
//
//   node tests/js/console_streams.mjs > tests/js/console_streams.stdout \
//     2> >(grep -v '^ *at ' > tests/js/console_streams.stderr)

console.log('log: stdout');
console.info('info: stdout', 1);
console.debug('debug: stdout', { level: 'debug' });
console.dirxml('dirxml: stdout', [1, 2]);
console.warn('warn: stderr');
console.error('error: stderr', { code: 'E_TEST' });
console.trace('trace: stderr %s', 'formatted', { extra: true });
console.trace();
console.assert(true, 'assert: never printed');
console.assert(false, 'assert: stderr %d', 42);
console.assert(0);
console.assert('', { notAString: true });
console.log('between');

console.dir({ a: { b: { c: { d: 1 } } } });
console.dir({ a: { b: { c: { d: 1 } } } }, { depth: 0 });
console.dir({ a: { b: { c: { d: 1 } } } }, { depth: null });
console.dir({ [Symbol.for('nodejs.util.inspect.custom')]: () => 'dir ignores custom inspect' });
console.dir('dir of a string');

console.count();
console.count();
console.count('label');
console.count('label');
console.countReset();
console.count();
console.count(undefined);
console.count(42);

console.group('Group A');
console.log('inside A');
console.warn('warn inside A');
console.group();
console.log('nested with\nmultiple lines');
console.error({ in: 'nested group', list: [1, 2, 3] });
console.groupEnd();
console.groupCollapsed('Collapsed', 'group');
console.info(Array.from({ length: 30 }, (_, i) => i));
console.trace('trace in group');
console.groupEnd();
console.groupEnd();
console.groupEnd(); // extra groupEnd is harmless
console.log('after groups');

console.table([{ name: 'apple', qty: 3 }, { name: 'kiwi', qty: 12, note: 'ripe' }]);
console.table([[1, 2], [3, 4, 5]]);
console.table({ row1: { col: 'a' }, row2: { col: 'b' } });
console.table([1, 'two', { three: 3 }]);
console.table([{ a: 1, b: 2 }, { a: 3, b: 4 }], ['b']);
console.table(new Map([['key', { value: 1 }]]));
console.table(new Set(['x', 'y']));
console.table('not tabular');

const { log, error, warn, info } = console;
log('detached log');
info('detached info');
warn('detached warn');
error('detached error');
console.log('done');
// A first argument that is not a string is printed as it is, after the
// prefix (a symbol threw; console spec, assert).
console.assert(false, Symbol('not a string'));
