// timeout: 10
//
// A dynamic import() in a string timer handler has no file of its own; it
// resolves against the current directory (the runner's is this directory).
// It must find the same module instance as this file's own import: the base
// was "<cwd>//", so the module loaded (and ran) a second time, under another
// URL. (HTML would use this script's URL as the base; hostloop uses the
// current directory, as for the REPL: a known deviation.)
// Expected: modules_dynamic_import_string_timer.stdout.

const mine = await import('./fixtures/dynamic/value.mjs');
globalThis.fromTimer = (ns) => {
  console.log(`same instance: ${ns === mine}, evaluations: ${globalThis.dynamicValueEvaluations}`);
};
setTimeout("import('./fixtures/dynamic/value.mjs').then(fromTimer, (e) => console.log('failed', e.message))", 0);
