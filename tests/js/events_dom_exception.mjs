// Spec tests for DOMException (https://webidl.spec.whatwg.org/#idl-DOMException).
//
// Runs under hostloop, under plain node and under
// tests/tools/run_events_in_vm.mjs (hostloop's src/runtime/js/events.js in a
// node:vm context). Node deviations are guarded with `!NODE`.

import { test, assert, assertEquals, assertThrows } from './lib/assert.mjs';

// True under plain node only (hostloop and the vm harness have no `process`).
const NODE = typeof process === 'object' && process !== null && typeof process.versions?.node === 'string';

// https://webidl.spec.whatwg.org/#dfn-error-names-table: every name with a
// legacy code.
const legacyCodes = {
  IndexSizeError: 1,
  HierarchyRequestError: 3,
  WrongDocumentError: 4,
  InvalidCharacterError: 5,
  NoModificationAllowedError: 7,
  NotFoundError: 8,
  NotSupportedError: 9,
  InUseAttributeError: 10,
  InvalidStateError: 11,
  SyntaxError: 12,
  InvalidModificationError: 13,
  NamespaceError: 14,
  InvalidAccessError: 15,
  TypeMismatchError: 17,
  SecurityError: 18,
  NetworkError: 19,
  AbortError: 20,
  URLMismatchError: 21,
  QuotaExceededError: 22,
  TimeoutError: 23,
  InvalidNodeTypeError: 24,
  DataCloneError: 25,
};

// https://webidl.spec.whatwg.org/#idl-DOMException: the legacy code constants.
const constants = {
  INDEX_SIZE_ERR: 1,
  DOMSTRING_SIZE_ERR: 2,
  HIERARCHY_REQUEST_ERR: 3,
  WRONG_DOCUMENT_ERR: 4,
  INVALID_CHARACTER_ERR: 5,
  NO_DATA_ALLOWED_ERR: 6,
  NO_MODIFICATION_ALLOWED_ERR: 7,
  NOT_FOUND_ERR: 8,
  NOT_SUPPORTED_ERR: 9,
  INUSE_ATTRIBUTE_ERR: 10,
  INVALID_STATE_ERR: 11,
  SYNTAX_ERR: 12,
  INVALID_MODIFICATION_ERR: 13,
  NAMESPACE_ERR: 14,
  INVALID_ACCESS_ERR: 15,
  VALIDATION_ERR: 16,
  TYPE_MISMATCH_ERR: 17,
  SECURITY_ERR: 18,
  NETWORK_ERR: 19,
  ABORT_ERR: 20,
  URL_MISMATCH_ERR: 21,
  QUOTA_EXCEEDED_ERR: 22,
  TIMEOUT_ERR: 23,
  INVALID_NODE_TYPE_ERR: 24,
  DATA_CLONE_ERR: 25,
};

await test('DOMException: defaults', () => {
  const error = new DOMException();
  assertEquals(error.name, 'Error');
  assertEquals(error.message, '');
  assertEquals(error.code, 0);
  const undefinedArgs = new DOMException(undefined, undefined);
  assertEquals([undefinedArgs.name, undefinedArgs.message], ['Error', '']);
});

await test('DOMException: message and name are converted with ToString', () => {
  const error = new DOMException('boom', 'NotFoundError');
  assertEquals([error.message, error.name, error.code], ['boom', 'NotFoundError', 8]);
  assertEquals(new DOMException(null).message, 'null');
  assertEquals(new DOMException('m', null).name, 'null');
  // node reads an object second argument as its own { name, cause } options
  // bag, which WebIDL's DOMException does not have.
  if (!NODE) assertEquals(new DOMException(42, { toString: () => 'Custom' }).name, 'Custom');
  assertEquals(new DOMException(42).message, '42');
  assertThrows(() => new DOMException(Symbol('s')), TypeError);
  assertThrows(() => new DOMException('m', Symbol('s')), TypeError);
});

await test('DOMException: legacy codes of every name in the error names table', () => {
  for (const [name, code] of Object.entries(legacyCodes)) {
    assertEquals(new DOMException('m', name).code, code, `code of ${name}`);
  }
  for (const name of ['Error', 'EncodingError', 'NotReadableError', 'UnknownError', 'ConstraintError',
    'DataError', 'TransactionInactiveError', 'ReadOnlyError', 'VersionError', 'OperationError',
    'NotAllowedError', 'OptOutError', 'abortError', 'ABORT_ERR', '']) {
    assertEquals(new DOMException('m', name).code, 0, `code of ${JSON.stringify(name)}`);
  }
});

await test('DOMException: legacy code constants on the constructor, the prototype and instances', () => {
  const instance = new DOMException();
  for (const [name, value] of Object.entries(constants)) {
    assertEquals(DOMException[name], value, `DOMException.${name}`);
    assertEquals(DOMException.prototype[name], value, `DOMException.prototype.${name}`);
    assertEquals(instance[name], value, `instance.${name}`);
    const descriptor = { value, writable: false, enumerable: true, configurable: false };
    assertEquals(Object.getOwnPropertyDescriptor(DOMException, name), descriptor, `DOMException.${name} descriptor`);
    assertEquals(Object.getOwnPropertyDescriptor(DOMException.prototype, name), descriptor,
      `DOMException.prototype.${name} descriptor`);
  }
});

await test('DOMException: is an Error with the WebIDL shape', () => {
  const error = new DOMException('msg', 'AbortError');
  assert(error instanceof DOMException, 'instanceof DOMException');
  assert(error instanceof Error, 'instanceof Error');
  assertEquals(Object.getPrototypeOf(DOMException.prototype), Error.prototype);
  assertEquals(Object.prototype.toString.call(error), '[object DOMException]');
  assertEquals(DOMException.prototype[Symbol.toStringTag], 'DOMException');
  assertEquals(String(error), 'AbortError: msg');
  assertEquals(DOMException.length, 0);
  assertEquals(DOMException.name, 'DOMException');
  assertThrows(() => DOMException(), TypeError);
  for (const name of ['name', 'message', 'code']) {
    const descriptor = Object.getOwnPropertyDescriptor(DOMException.prototype, name);
    assertEquals(typeof descriptor.get, 'function', `${name} is a getter`);
    assertEquals([descriptor.set, descriptor.enumerable, descriptor.configurable], [undefined, true, true],
      `${name} descriptor`);
  }
  const global = Object.getOwnPropertyDescriptor(globalThis, 'DOMException');
  assertEquals([global.writable, global.enumerable, global.configurable], [true, false, true]);
});

await test('DOMException: name, message and code are not own properties', () => {
  const error = new DOMException('msg', 'AbortError');
  for (const name of ['name', 'message', 'code']) {
    assertEquals(Object.prototype.hasOwnProperty.call(error, name), false, `${name} is not own`);
  }
  assertEquals(Object.keys(error), []);
  // Only `stack` may be own (node's DOMException has other own keys too).
  if (!NODE) {
    const own = Reflect.ownKeys(error).filter((key) => key !== 'stack');
    assertEquals(own, []);
  }
});

await test('DOMException: getters check their receiver', () => {
  const name = Object.getOwnPropertyDescriptor(DOMException.prototype, 'name').get;
  const code = Object.getOwnPropertyDescriptor(DOMException.prototype, 'code').get;
  assertThrows(() => name.call({}), TypeError);
  assertThrows(() => name.call(new Error('e')), TypeError);
  assertThrows(() => code.call(Object.create(DOMException.prototype)), TypeError);
  assertThrows(() => DOMException.prototype.message, TypeError);
});

await test('DOMException: has a stack like Error', () => {
  const error = new DOMException('stacked', 'DataCloneError');
  assertEquals(typeof error.stack, 'string');
  assert(error.stack.startsWith('DataCloneError: stacked'), `stack starts with name and message: ${error.stack}`);
  assert(error.stack.includes('events_dom_exception.mjs'), 'stack names this file');
  assertEquals(Object.getOwnPropertyDescriptor(error, 'stack')?.enumerable ?? false, false);
});

await test('DOMException: can be thrown and caught', () => {
  const thrown = assertThrows(() => {
    throw new DOMException('nope', 'NotSupportedError');
  }, 'NotSupportedError', 'nope');
  assertEquals(thrown.code, 9);
  assertThrows(() => {
    throw new DOMException('x', 'SyntaxError');
  }, DOMException);
});

await test('DOMException: subclassing', () => {
  class MyError extends DOMException {
    constructor(message) {
      super(message, 'InvalidStateError');
      this.extra = true;
    }
  }
  const error = new MyError('sub');
  assert(error instanceof MyError && error instanceof DOMException && error instanceof Error, 'instanceof chain');
  assertEquals([error.name, error.message, error.code, error.extra], ['InvalidStateError', 'sub', 11, true]);
  assertEquals(Object.prototype.toString.call(error), '[object DOMException]');
  assertEquals(typeof error.stack, 'string');
});
