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
