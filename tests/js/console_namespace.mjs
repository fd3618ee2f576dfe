// https://console.spec.whatwg.org/#console-namespace: console is a namespace
// object whose [[Prototype]] is an empty object inheriting from
// Object.prototype (it was Object.prototype itself: WPT
// console-is-a-namespace.any.js), with enumerable, writable, configurable
// methods, clear() among them, and @@toStringTag "console".
// Expected: console_namespace.stdout.

const prototype = Object.getPrototypeOf(console);
console.log('prototype own keys:', Reflect.ownKeys(prototype).length);
console.log('prototype of prototype is Object.prototype:', Object.getPrototypeOf(prototype) === Object.prototype);
console.log('toStringTag:', Object.prototype.toString.call(console));
const shape = (name) => {
  const d = Object.getOwnPropertyDescriptor(console, name);
  return `${name} ${typeof d.value} ${d.writable} ${d.enumerable} ${d.configurable}`;
};
for (const name of ['log', 'clear', 'table', 'timeLog', 'countReset', 'groupCollapsed']) console.log(shape(name));
