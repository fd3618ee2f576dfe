// WebIDL details of the event and scheduling interfaces:
//  - ErrorEventInit converts each member as soon as it reads it (members in
//    lexicographic order); it read them all first, then converted.
//  - Interfaces defined by scheduler.js and bootstrap.js have the WebIDL
//    shape: enumerable operations and attributes, and @@toStringTag.
// Expected: events_webidl_conversions.stdout.

const log = [];
const init = {};
const convertible = (name) => ({
  valueOf() {
    log.push(`convert ${name}`);
    return 1;
  },
  toString() {
    log.push(`convert ${name}`);
    return 's';
  },
});
for (const [key, value] of [
  ['colno', convertible('colno')],
  ['error', 1],
  ['filename', convertible('filename')],
  ['lineno', convertible('lineno')],
  ['message', convertible('message')],
]) {
  Object.defineProperty(init, key, {
    get() {
      log.push(`get ${key}`);
      return value;
    },
  });
}
new ErrorEvent('error', init);
console.log(log.join(', '));

const enumerable = (object, key) => Object.getOwnPropertyDescriptor(object, key).enumerable;
console.log('Scheduler.prototype.postTask', enumerable(Scheduler.prototype, 'postTask'));
console.log('Scheduler.prototype.yield', enumerable(Scheduler.prototype, 'yield'));
console.log('TaskController.prototype.setPriority', enumerable(TaskController.prototype, 'setPriority'));
console.log('TaskSignal.prototype.priority', enumerable(TaskSignal.prototype, 'priority'));
console.log('TaskSignal.prototype.onprioritychange', enumerable(TaskSignal.prototype, 'onprioritychange'));
console.log('Performance.prototype.now', enumerable(Performance.prototype, 'now'));
console.log(Object.prototype.toString.call(new TaskPriorityChangeEvent('x', { previousPriority: 'background' })));
console.log(Object.prototype.toString.call(scheduler), Object.prototype.toString.call(performance));
console.log(Object.prototype.toString.call(new TaskController()), Object.prototype.toString.call(new TaskController().signal));
console.log('globals not enumerable:', ['Scheduler', 'TaskController', 'TaskSignal', 'TaskPriorityChangeEvent', 'Performance']
  .every((name) => !enumerable(globalThis, name)));
