// A tour of hostloop: run it with `make run` (or build/release/hostloop examples/tour.mjs).
// Each section shows one thing the runtime does; later work extends it.

import { greeting } from './tour/greeting.mjs';
import config from './tour/config.json' assert { type: 'json' };

const section = (title) => console.log(`\n== ${title}`);

section('ES modules');
console.log(greeting('hostloop'), '| config:', config);
console.log('import.meta.url ends with', JSON.stringify(import.meta.url.split('/').slice(-2).join('/')));
const { double } = await import('./tour/math.mjs');
console.log('dynamic import: double(21) =', double(21));

section('console formatting');
console.log({ nested: { deeper: { deepest: { hidden: true } } }, list: [1, 'two', 3n], map: new Map([['k', new Set([1, 2])]]) });
console.log('%s is %d years and %f%% done: %j', 'the loop', 42, 99.5, { ok: true });
const cyclic = { name: 'cycle' };
cyclic.self = cyclic;
console.log(cyclic);

section('timers and microtasks, in HTML order');
const order = [];
setTimeout(() => order.push('timeout 0 (a)'), 0);
setTimeout(() => order.push('timeout 0 (b)'), 0);
queueMicrotask(() => order.push('microtask'));
Promise.resolve().then(() => order.push('promise reaction'));
order.push('synchronous');
await new Promise((resolve) => setTimeout(resolve, 5));
console.log(order.join(' -> '));

section('top-level await');
const started = performance.now();
await new Promise((resolve) => setTimeout(resolve, 20));
console.log(`waited ~20 ms on a timer (took ${Math.round(performance.now() - started)} ms) without blocking the loop`);

section('errors stay catchable');
try {
  await import('./tour/does-not-exist.mjs');
} catch (error) {
  console.log('import failed as expected:', error.message.replace(/'.*examples/, "'.../examples"));
}

section('macrotasks: MessageChannel and scheduler.postTask');
const channel = new MessageChannel();
const delivered = new Promise((resolve) => { channel.port1.onmessage = (e) => resolve(e.data); });
channel.port2.postMessage({ cloned: new Map([['structured', 'clone']]) });
console.log('MessageChannel delivered', await delivered);
channel.port1.close();
const ran = [];
await Promise.all([
  scheduler.postTask(() => ran.push('background'), { priority: 'background' }),
  scheduler.postTask(() => ran.push('user-visible')),
  scheduler.postTask(() => ran.push('user-blocking'), { priority: 'user-blocking' }),
]);
console.log('postTask ran by priority:', ran.join(', '));

section('V8 platform tasks on the loop: Atomics.waitAsync, WebAssembly');
const shared = new Int32Array(new SharedArrayBuffer(4));
const waiting = Atomics.waitAsync(shared, 0, 0, 1000);
setTimeout(() => Atomics.notify(shared, 0), 5);
console.log('Atomics.waitAsync ->', await waiting.value);
const wasm = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 7, 1, 96, 2, 127, 127, 1, 127, 3, 2, 1, 0, 7, 7, 1, 3, 97, 100, 100, 0, 0, 10, 9, 1, 7, 0, 32, 0, 32, 1, 106, 11]);
const { instance } = await WebAssembly.instantiate(wasm);
console.log('WebAssembly add(2, 3) =', instance.exports.add(2, 3));

section('a Web Worker on its own thread');
const worker = new Worker(new URL('./tour/worker.mjs', import.meta.url), { type: 'module', name: 'squarer' });
const reply = await new Promise((resolve) => {
  worker.onmessage = (e) => resolve(e.data);
  worker.postMessage(12);
});
console.log(`worker "${reply.name}" replied ${reply.result}`);
const news = new BroadcastChannel('tour');
const heard = new Promise((resolve) => {
  news.onmessage = (e) => resolve(e.data);
});
news.postMessage('hello, everyone');
console.log('BroadcastChannel:', await heard);
console.log(`navigator.hardwareConcurrency = ${navigator.hardwareConcurrency}, crypto.randomUUID() = ${crypto.randomUUID()}`);
news.close();
worker.terminate();

section('hostloop:fs on the native thread pool');
const fs = await import('hostloop:fs');
const dir = `/tmp/hostloop-tour-${Date.now()}`;
await fs.mkdir(`${dir}/nested`, { recursive: true });
await fs.writeFile(`${dir}/nested/hello.txt`, new TextEncoder().encode('héllo from the pool'));
console.log('read back:', await fs.readFile(`${dir}/nested/hello.txt`, 'utf8'));
await fs.rm(dir, { recursive: true });
try {
  await fs.stat(dir);
} catch (error) {
  console.log('after rm:', error.code, error.syscall);
}
console.log('URL parsing:', new URL('../x?q=1#h', 'file:///a/b/c.mjs').href);
