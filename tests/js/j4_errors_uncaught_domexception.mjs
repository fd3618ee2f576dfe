// hostloop-flags: --uncaught-errors=warn
//
// Spec test for contract J4: an uncaught DOMException is reported as
// "Uncaught NAME: MESSAGE" (Chrome's text) in ErrorEvent.message, however it
// escaped (a timer, an event listener, reportError, a promise job), for a
// subclass and for a structured clone too; its name and message come from
// the DOMException itself, never from a getter or an own property someone
// added. The message used to be "Uncaught " alone: V8 reads an error's name
// and message from data properties only, and a DOMException's are accessors
// on its prototype. Other thrown values keep V8's text, and reporting them
// runs none of their getters. On stderr (the warn policy prints each one
// after its event) a DOMException shows its name, message and stack, and a
// clone, which has no stack, its name and message without inspect's
// brackets, at the place it was thrown.
// Expected: j4_errors_uncaught_domexception.stdout and .stderr.

const seen = [];
const printed = ['Uncaught AbortError: boom', 'Uncaught EmptyMessageError', 'Uncaught AbortError: cloned'];
addEventListener('error', (event) => {
  seen.push(event.message);
  if (!printed.includes(event.message)) event.preventDefault();
});

let getterCalls = 0;
class MyException extends DOMException {}
const overridden = new DOMException('the real message', 'NotFoundError');
Object.defineProperty(overridden, 'message', { value: 'an own message' });
const throwers = [
  () => { throw new DOMException('boom', 'AbortError'); },
  () => {
    const target = new EventTarget();
    target.addEventListener('x', () => { throw new DOMException('from a listener', 'InvalidStateError'); });
    target.dispatchEvent(new Event('x'));
  },
  () => reportError(new DOMException('reported', 'DataCloneError')),
  () => { throw new MyException('subclass', 'DataError'); },
  () => { throw new DOMException('no name given'); },
  () => { throw new DOMException('', 'EmptyMessageError'); },
  () => { throw overridden; },
  () => { throw structuredClone(new DOMException('cloned', 'AbortError')); },
  () => { throw { get name() { getterCalls++; return 'Getter'; }, get message() { getterCalls++; return 'x'; } }; },
  () => { throw new TypeError('an ordinary error'); },
];
for (const thrower of throwers) setTimeout(thrower, 0);
queueMicrotask(() => { throw new DOMException('from a microtask', 'TimeoutError'); });

setTimeout(() => {
  for (const message of seen) console.log(JSON.stringify(message));
  console.log('getters run by the reports:', getterCalls);
}, 20);
