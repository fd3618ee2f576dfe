// User Timing: performance.mark/measure, the entry buffer's getters and
// clear methods, PerformanceMark's constructor, and the errors the spec
// requires. https://w3c.github.io/user-timing/
import { test, assert, assertEquals, assertThrows } from './lib/assert.mjs';

const fields = (entry) => [entry.name, entry.entryType, entry.startTime, entry.duration];

await test('mark() records the current time, or the given startTime, with a cloned detail', () => {
  const before = performance.now();
  const mark = performance.mark('start');
  const after = performance.now();
  assert(mark instanceof PerformanceMark && mark instanceof PerformanceEntry, 'a PerformanceMark');
  assertEquals(Object.prototype.toString.call(mark), '[object PerformanceMark]');
  assertEquals([mark.name, mark.entryType, mark.duration, mark.detail], ['start', 'mark', 0, null]);
  assert(mark.startTime >= before && mark.startTime <= after, 'startTime is now');
  const detail = { nested: [1, 2], when: new Date(0) };
  const given = performance.mark('given', { startTime: 12.5, detail });
  assertEquals(given.startTime, 12.5);
  assertEquals(given.detail, detail, 'detail equal');
  assert(given.detail !== detail && given.detail.nested !== detail.nested, 'detail is a structured clone');
  assert(given.detail === given.detail, 'the same detail each time');
  assertEquals(given.toJSON(), { name: 'given', entryType: 'mark', startTime: 12.5, duration: 0, detail });
  assertEquals(JSON.parse(JSON.stringify(given)).name, 'given');
  // A detail that cannot be cloned is a DataCloneError; the mark is not recorded.
  const error = assertThrows(() => performance.mark('bad', { detail: () => 1 }), DOMException);
  assertEquals(error.name, 'DataCloneError');
  assertEquals(performance.getEntriesByName('bad'), []);
});

await test('measure() takes its ends from marks, times and options as the spec orders', () => {
  performance.clearMarks();
  performance.clearMeasures();
  performance.mark('a', { startTime: 10 });
  performance.mark('b', { startTime: 30 });
  performance.mark('a', { startTime: 20 });  // the latest mark of a name counts
  assertEquals(fields(performance.measure('m1', 'a', 'b')), ['m1', 'measure', 20, 10]);
  assertEquals(fields(performance.measure('m2', { start: 'a', end: 'b' })), ['m2', 'measure', 20, 10]);
  assertEquals(fields(performance.measure('m3', { start: 4, duration: 6 })), ['m3', 'measure', 4, 6]);
  assertEquals(fields(performance.measure('m4', { end: 'b', duration: 5 })), ['m4', 'measure', 25, 5]);
  assertEquals(fields(performance.measure('m5', undefined, 'b')), ['m5', 'measure', 0, 30]);
  assertEquals(fields(performance.measure('m6', { start: 2, end: 9, detail: 'x' })), ['m6', 'measure', 2, 7]);
  assertEquals(performance.getEntriesByName('m6')[0].detail, 'x');
  const before = performance.now();
  const open = performance.measure('m7', 'b');
  assertEquals(open.startTime, 30);
  assert(open.startTime + open.duration >= before, 'without an end it ends now');
  const whole = performance.measure('m8');
  assertEquals(whole.startTime, 0);
  assert(whole.duration >= before, 'from the time origin to now');
  assertEquals(performance.measure('m9', null).startTime, 0);
});

await test('measure() throws what the spec says', () => {
  const missing = assertThrows(() => performance.measure('x', 'no such mark'), DOMException, "'no such mark'");
  assertEquals(missing.name, 'SyntaxError');
  assertThrows(() => performance.measure('x', { start: 1 }, 'b'), TypeError, 'endMark');
  assertThrows(() => performance.measure('x', { detail: 1 }), TypeError, "'start' or 'end'");
  assertThrows(() => performance.measure('x', { duration: 1 }), TypeError, "'start' or 'end'");
  assertThrows(() => performance.measure('x', { start: 1, end: 2, duration: 1 }), TypeError, 'all be given');
  assertThrows(() => performance.measure('x', { start: -1 }), TypeError, 'negative');
  assertThrows(() => performance.measure('x', { start: 1, duration: NaN }), TypeError, 'non-finite');
  assertThrows(() => performance.mark('x', { startTime: -5 }), TypeError, 'negative');
  assertThrows(() => performance.mark('x', 5), TypeError, 'PerformanceMarkOptions');
  assertThrows(() => performance.mark(), TypeError, '1 argument required');
  assertThrows(() => performance.measure(), TypeError, '1 argument required');
  assertThrows(() => performance.mark.call({}, 'x'), TypeError, 'Illegal invocation');
  // A PerformanceTiming attribute name as a mark: a TypeError outside a
  // Window ("convert a name to a timestamp" step 1), even when a mark of
  // that name exists (WPT invoke_with_timing_attributes.worker.js).
  assertThrows(() => performance.measure('x', 'navigationStart'), TypeError, 'PerformanceTiming');
  assertThrows(() => performance.measure('x', { start: 'domComplete', end: 5 }), TypeError, 'PerformanceTiming');
  performance.mark('fetchStart');
  assertThrows(() => performance.measure('x', 'fetchStart'), TypeError, 'PerformanceTiming');
  performance.clearMarks('fetchStart');
  assertEquals(performance.getEntriesByName('x'), [], 'nothing recorded by the failed calls');
});

await test('the entry buffer: getEntries*, sorted by startTime, and clearMarks/clearMeasures', () => {
  performance.clearMarks();
  performance.clearMeasures();
  performance.mark('late', { startTime: 50 });
  performance.mark('early', { startTime: 5 });
  performance.measure('span', 'early', 'late');
  performance.mark('same', { startTime: 5 });
  const names = (list) => list.map((entry) => entry.name);
  assertEquals(names(performance.getEntries()), ['early', 'span', 'same', 'late'], 'stable by startTime');
  assertEquals(names(performance.getEntriesByType('mark')), ['early', 'same', 'late']);
  assertEquals(names(performance.getEntriesByType('measure')), ['span']);
  assertEquals(names(performance.getEntriesByType('resource')), []);
  assertEquals(names(performance.getEntriesByName('span')), ['span']);
  assertEquals(names(performance.getEntriesByName('span', 'mark')), []);
  assert(performance.getEntries() !== performance.getEntries(), 'a new array each time');
  performance.clearMarks('early');
  assertEquals(names(performance.getEntries()), ['span', 'same', 'late']);
  performance.clearMeasures();
  assertEquals(names(performance.getEntries()), ['same', 'late']);
  performance.clearMarks();
  assertEquals(performance.getEntries(), []);
});

await test('PerformanceMark can be constructed; the other entry interfaces cannot', () => {
  const mark = new PerformanceMark('made', { startTime: 1, detail: [1] });
  assertEquals(fields(mark), ['made', 'mark', 1, 0]);
  assertEquals(mark.detail, [1]);
  assertEquals(performance.getEntriesByName('made'), [], 'constructing does not record');
  assertThrows(() => new PerformanceEntry(), TypeError, 'Illegal constructor');
  assertThrows(() => new PerformanceMeasure(), TypeError, 'Illegal constructor');
  assertThrows(() => new PerformanceMark(), TypeError, '1 argument required');
  assertThrows(() => PerformanceEntry.prototype.name, TypeError, 'Illegal invocation');
  assertEquals([PerformanceEntry.length, PerformanceMark.length, PerformanceMeasure.length], [0, 1, 0]);
});
