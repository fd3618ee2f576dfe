// timeout: 10
//
// A dynamic import() in a string timer handler resolves against the URL of
// the script that set the timer (HTML: the initiating script's base URL),
// and it must find the same module instance as this file's own import.
// Before, the base was the current directory: a handler set by a module in
// another directory failed to find its sibling (and earlier, with a base of
// "<cwd>//", the module loaded and ran a second time under another URL).
// The handlers set by fixtures/dynamic/string_timers.mjs name './value.mjs',
// which only exists next to that file; the runner's current directory is
// this one. Expected: modules_dynamic_import_string_timer.stdout.

import { setStringTimers } from './fixtures/dynamic/string_timers.mjs';

const mine = await import('./fixtures/dynamic/value.mjs');
globalThis.fromTimer = (what, ns) => {
  console.log(`${what}: same instance: ${ns === mine}, evaluations: ${globalThis.dynamicValueEvaluations}`);
};
setTimeout("import('./fixtures/dynamic/value.mjs').then((ns) => fromTimer('here', ns), (e) => console.log('here failed:', e.message))", 0);
setStringTimers();
