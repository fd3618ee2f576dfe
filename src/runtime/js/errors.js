'use strict';
// Error reporting for the realm: HTML "report an exception" (J4) and the
// unhandled-rejection events (J5). The C++ side calls these after catching
// an exception at a loop entry, and after each microtask checkpoint.

const ErrorEvent = global.ErrorEvent;
const PromiseRejectionEvent = global.PromiseRejectionEvent;
const TypeError = global.TypeError;

// True while an `error` event is being dispatched: an exception thrown by an
// error listener is printed, not dispatched again (no recursion), and the
// --uncaught-errors policy waits until the error being reported is printed
// too (stopping at once lost its text).
let reporting = false;
let listenerFailed = false;

// https://html.spec.whatwg.org/multipage/webappapis.html#report-an-exception
// `location` is [message, filename, lineno, colno] from the V8 message, when
// the C++ side has one.
internals.reportException = function reportException(error, location) {
  if (reporting) {
    host.printUncaught(error, undefined, true);
    listenerFailed = true;
    return;
  }
  location = location || host.errorLocation(error);
  const [message, filename, lineno, colno] = location;
  // Steps 3-6: a cancelable ErrorEvent at the global; not canceled means
  // the error is reported to the developer (stderr), then the policy acts.
  const event = new ErrorEvent('error', {
    message, filename, lineno, colno, error, cancelable: true,
  });
  internals.markTrusted(event);
  let notCanceled;
  reporting = true;
  listenerFailed = false;
  try {
    notCanceled = internals.dispatchEvent(global, event);
  } finally {
    reporting = false;
  }
  if (notCanceled) {
    host.printUncaught(error, location);
  } else if (listenerFailed) {
    host.applyUncaughtPolicy();
  }
};

// https://html.spec.whatwg.org/multipage/webappapis.html#dom-reporterror
function reportError(e) {
  if (arguments.length < 1) {
    throw new TypeError("Failed to execute 'reportError': 1 argument required, but only 0 present.");
  }
  internals.reportException(e);
}
Object.defineProperty(global, 'reportError', {
  value: reportError, writable: true, configurable: true, enumerable: true,
});

// https://html.spec.whatwg.org/multipage/webappapis.html#unhandled-promise-rejections
// Returns true when no listener canceled the event (the rejection is then
// reported by the C++ side according to --unhandled-rejections).
internals.dispatchUnhandledRejection = function dispatchUnhandledRejection(promise, reason) {
  const event = new PromiseRejectionEvent('unhandledrejection', {
    promise, reason, cancelable: true,
  });
  internals.markTrusted(event);
  return internals.dispatchEvent(global, event);
};

internals.dispatchRejectionHandled = function dispatchRejectionHandled(promise, reason) {
  const event = new PromiseRejectionEvent('rejectionhandled', { promise, reason });
  internals.markTrusted(event);
  internals.dispatchEvent(global, event);
};
