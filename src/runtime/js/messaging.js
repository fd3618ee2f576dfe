'use strict';
// Channel messaging (MessageChannel, MessagePort) and structuredClone.
// https://html.spec.whatwg.org/multipage/web-messaging.html#channel-messaging
// https://html.spec.whatwg.org/multipage/structured-data.html#dom-structuredclone
//
// MessagePort objects are created natively (host.MessagePort is an API
// constructor, so structured clone treats ports as host objects); their
// methods live here and call into host.port*. Every delivery is a task of
// its own (J6), queued by the native side.

const TypeError = global.TypeError;
const SymbolIterator = Symbol.iterator;
const ObjectDefineProperty = Object.defineProperty;
const ObjectSetPrototypeOf = Object.setPrototypeOf;
const ObjectFreeze = Object.freeze;
const ArrayIsArray = Array.isArray;
const EventTarget = global.EventTarget;
const MessageEvent = global.MessageEvent;

const MessagePort = host.MessagePort;
// Every MessagePort of this realm carries its partner in this slot: the
// entangled port's object when it lives in this realm (both ends keep each
// other alive, so a message posted on one can always reach the other: "as if
// the entangled port had a strong reference", HTML), else null. Having the
// slot is the brand check. (Private fields, not WeakMaps: internals.newPrivateSlot.)
const partnerSlot = internals.newPrivateSlot();

function isMessagePort(value) {
  return partnerSlot.peek(value) !== undefined;
}
internals.isMessagePort = isMessagePort;

function checkPort(value, method) {
  if (!isMessagePort(value)) {
    throw new TypeError(`Failed to execute '${method}' on 'MessagePort': Illegal invocation`);
  }
}

// Called by the native side for every MessagePort it creates.
// `partner`: the entangled port's object when it lives in this runtime (its
// partner keeps it alive, HTML "ports and garbage collection"), else
// undefined (the native side holds a port with a remote partner).
internals.initMessagePort = function initMessagePort(port, partner) {
  internals.initEventTarget(port);
  if (partner !== undefined) {
    partnerSlot.set(port, partner);
    partnerSlot.set(partner, port);
  } else {
    partnerSlot.set(port, null);
  }
  internals.watchEventListeners(port, portListenersChanged);
};

ObjectSetPrototypeOf(MessagePort.prototype, EventTarget.prototype);
ObjectSetPrototypeOf(MessagePort, EventTarget);

const isObject = (value) => (typeof value === 'object' && value !== null) || typeof value === 'function';

// WebIDL sequence<object> from an iterable, through `method` (its
// @@iterator, read once by the caller): a fresh array of the objects.
function objectSequence(iterable, method, what) {
  return internals.sequenceFromIterable(iterable, method, what, (item) => {
    if (!isObject(item)) throw new TypeError(`${what}: a value in the transfer list is not an object.`);
    return item;
  });
}

// The transfer list of postMessage(message, transfer) (the sequence<object>
// overload, chosen when the argument has an @@iterator) or of
// postMessage(message, { transfer }) / structuredClone(value, { transfer })
// (a StructuredSerializeOptions dictionary; functions count as objects):
// undefined or a fresh array of objects. Every member and @@iterator is
// read once.
function transferList(transferOrOptions, method, allowSequence = true) {
  const what = `Failed to execute '${method}'`;
  if (transferOrOptions === undefined || transferOrOptions === null) return undefined;
  if (!isObject(transferOrOptions)) {
    throw new TypeError(allowSequence
      ? `${what}: the second argument is neither an array nor an options object.`
      : `${what}: The provided value is not of type 'StructuredSerializeOptions'.`);
  }
  if (allowSequence) {
    const iterate = transferOrOptions[SymbolIterator];
    if (iterate !== undefined && iterate !== null) {
      if (typeof iterate !== 'function') throw new TypeError(`${what}: the transfer list is not iterable.`);
      return objectSequence(transferOrOptions, iterate, what);
    }
  }
  const transfer = transferOrOptions.transfer;
  if (transfer === undefined) return undefined;
  const iterate = isObject(transfer) ? transfer[SymbolIterator] : undefined;
  if (typeof iterate !== 'function') throw new TypeError(`${what}: 'transfer' is not iterable.`);
  return objectSequence(transfer, iterate, what);
}
internals.transferList = transferList;

const methods = {
  postMessage(message, transferOrOptions = undefined) {
    // A number with no transfer list needs no serializer: a V8 fast API
    // call from optimized code (a message chain's common case), which is
    // also the brand check (false: `this` is no MessagePort, and
    // checkPort throws).
    if (typeof message === 'number' && transferOrOptions === undefined && host.portPostNumber(this, message)) {
      return;
    }
    checkPort(this, 'postMessage');
    if (arguments.length < 1) {
      throw new TypeError("Failed to execute 'postMessage' on 'MessagePort': 1 argument required, but only 0 present.");
    }
    host.portPostMessage(this, message, transferList(transferOrOptions, 'postMessage'));
  },
  start() {
    checkPort(this, 'start');
    host.portStart(this);
  },
  close() {
    checkPort(this, 'close');
    host.portClose(this);
  },
};
for (const name of ['postMessage', 'start', 'close']) {
  ObjectDefineProperty(MessagePort.prototype, name, {
    value: methods[name], writable: true, configurable: true, enumerable: true,
  });
}
ObjectDefineProperty(MessagePort.prototype, Symbol.toStringTag, { value: 'MessagePort', configurable: true });
// Whether a port has a `message` listener decides whether it keeps its
// runtime alive while its partner lives elsewhere (J3). Every way a listener
// comes or goes counts: `once`, an aborted `signal`, onmessage, and
// EventTarget.prototype's methods called on the port directly.
function portListenersChanged(port, type, present) {
  if (type === 'message') host.portSetListening(port, present);
}

// Setting onmessage starts the port (HTML); addEventListener does not.
internals.defineEventHandler(MessagePort.prototype, 'message', {
  brandCheck: isMessagePort,
  onSet(port, value) {
    if (value !== null) host.portStart(port);
  },
});
internals.defineEventHandler(MessagePort.prototype, 'messageerror', { brandCheck: isMessagePort });

// deliverPortMessage(target, data, ports): a delivered message's task
// (message_port.cc DispatchMessageEvent). deliverChainedPortMessage, the
// same for an ordered-lane entry of its own, goes on with the deliveries
// the loop would run next: host.nextPortMessage() ends this task (its
// microtask checkpoint) and hands over the next one, so a chain of messages
// enters the engine once, not once per message. It returns the next
// message's data when that is for the same port and carries no ports,
// [kChainEnd, target, data, ports] for any other, and kChainEnd when the
// chain ends.
const dispatchMessage = internals.dispatchMessage;
const kChainEnd = ObjectFreeze({ __proto__: null });
internals.deliverPortMessage = dispatchMessage;
internals.deliverChainedPortMessage = function deliverChainedPortMessage(target, data, ports) {
  dispatchMessage(target, data, ports);
  for (;;) {
    const next = host.nextPortMessage(target, kChainEnd);
    if (next === kChainEnd) return;
    if (ArrayIsArray(next) && next[0] === kChainEnd) {
      target = next[1];
      dispatchMessage(target, next[2], next[3]);
    } else {
      dispatchMessage(target, next, undefined);
    }
  }
};

internals.deliverPortMessageError = function deliverPortMessageError(port) {
  const event = new MessageEvent('messageerror');
  internals.markTrusted(event);
  internals.dispatchEvent(port, event);
};

// https://html.spec.whatwg.org/multipage/web-messaging.html#message-channels
let channelPorts;  // (value) -> [port1, port2], or throws Illegal invocation
class MessageChannel {
  #ports;
  constructor() {
    // (The native side ties the two ports together: initMessagePort.)
    this.#ports = host.createMessageChannel();
  }
  static {
    channelPorts = (value) => {
      if (!isObject(value) || !(#ports in value)) throw new TypeError('Illegal invocation');
      return value.#ports;
    };
  }
  get port1() {
    return channelPorts(this)[0];
  }
  get port2() {
    return channelPorts(this)[1];
  }
}
ObjectDefineProperty(MessageChannel.prototype, Symbol.toStringTag, { value: 'MessageChannel', configurable: true });
internals.defineInspect(MessageChannel, ['port1', 'port2']);
for (const name of ['port1', 'port2']) {
  const descriptor = Object.getOwnPropertyDescriptor(MessageChannel.prototype, name);
  descriptor.enumerable = true;
  ObjectDefineProperty(MessageChannel.prototype, name, descriptor);
}

// https://html.spec.whatwg.org/multipage/web-messaging.html#broadcasting-to-other-browsing-contexts
// Channels of one name in every runtime of the process (main and workers)
// receive what one of them posts; the hub is native (broadcast_channel.cc).
const channelSlot = internals.newPrivateSlot();  // channel -> { id, name, closed, listeners }
const peekChannelState = channelSlot.peek;
function channelState(value, member) {
  const state = peekChannelState(value);
  if (state === undefined) {
    throw new TypeError(`Failed to execute '${member}' on 'BroadcastChannel': Illegal invocation`);
  }
  return state;
}
// Whether a channel has a `message` or `messageerror` listener decides whether
// it keeps its runtime alive (J3) and its object from being collected.
function channelListenersChanged(channel, type, present) {
  if (type !== 'message' && type !== 'messageerror') return;
  const state = channelSlot.peek(channel);
  state.listeners[type] = present;
  if (state.id !== undefined) {
    host.broadcastListening(state.id, state.listeners.message || state.listeners.messageerror);
  }
}
class BroadcastChannel extends EventTarget {
  constructor(name) {
    if (arguments.length < 1) {
      throw new TypeError("Failed to construct 'BroadcastChannel': 1 argument required, but only 0 present.");
    }
    const channelName = `${name}`;
    super();
    const state = { id: undefined, name: channelName, closed: false, listeners: { message: false, messageerror: false } };
    channelSlot.set(this, state);
    internals.watchEventListeners(this, channelListenersChanged);
    // (Undefined while the runtime stops: the channel is born closed.)
    state.id = host.broadcastOpen(this, channelName);
    if (state.id === undefined) state.closed = true;
  }
  get name() {
    return channelState(this, 'name').name;
  }
  postMessage(message) {
    const state = channelState(this, 'postMessage');
    if (arguments.length < 1) {
      throw new TypeError("Failed to execute 'postMessage' on 'BroadcastChannel': 1 argument required, but only 0 present.");
    }
    if (state.closed) {
      throw new global.DOMException("Failed to execute 'postMessage' on 'BroadcastChannel': Channel is closed", 'InvalidStateError');
    }
    host.broadcastPost(state.id, message);
  }
  close() {
    const state = channelState(this, 'close');
    if (state.closed) return;
    state.closed = true;
    host.broadcastClose(state.id);
  }
}
const isBroadcastChannel = (value) => peekChannelState(value) !== undefined;
internals.defineEventHandler(BroadcastChannel.prototype, 'message', { brandCheck: isBroadcastChannel });
internals.defineEventHandler(BroadcastChannel.prototype, 'messageerror', { brandCheck: isBroadcastChannel });
internals.exposeInterface(BroadcastChannel, 'BroadcastChannel');
internals.defineInspect(BroadcastChannel, ['name']);

// https://html.spec.whatwg.org/multipage/structured-data.html#dom-structuredclone
function structuredClone(value, options = undefined) {
  if (arguments.length < 1) {
    throw new TypeError("Failed to execute 'structuredClone': 1 argument required, but only 0 present.");
  }
  return host.structuredClone(value, transferList(options, 'structuredClone', false));
}

for (const [name, value] of [['MessagePort', MessagePort], ['MessageChannel', MessageChannel],
  ['structuredClone', structuredClone]]) {
  ObjectDefineProperty(global, name, {
    value, writable: true, configurable: true, enumerable: name === 'structuredClone',
  });
}
