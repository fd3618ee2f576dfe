// Runs JS spec files (tests/js/*.mjs) against hostloop's src/runtime/js/events.js
// instead of node's own EventTarget/AbortSignal/DOMException.
//
//   node --experimental-vm-modules tests/tools/run_events_in_vm.mjs tests/js/events_abort.mjs [more.mjs ...]
//
// For each file: a fresh node:vm context (only the ECMAScript built-ins, no web
// globals), events.js evaluated in it as `(function (host, internals, global) {...})`
// the way hostloop does at startup, then the spec file evaluated as a
// vm.SourceTextModule in that context (its relative imports, such as
// ./lib/assert.mjs, are loaded into the same context).
//
// The context also gets what events.js and the tests expect from the host:
// queueMicrotask, setTimeout, clearTimeout, performance.now and console (node's).
// Harness-only extras, for tests/js/events_internals_vm.mjs:
//   __internals  the `internals` object events.js filled in
//   __harness    { uncaught: [], captureUncaught: false, gc: function|undefined }
//                uncaught exceptions go into `uncaught` while captureUncaught is true.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const eventsPath = path.join(repoRoot, 'src/runtime/js/events.js');

if (typeof vm.SourceTextModule !== 'function') {
  console.error('run_events_in_vm: run node with --experimental-vm-modules');
  process.exit(2);
}

// A `gc` function for the GC-related tests (the flag only affects contexts
// created after it is set).
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('typeof gc === "function" ? gc : undefined');

let currentHarness = null;
process.on('uncaughtException', (error) => {
  if (currentHarness !== null && currentHarness.captureUncaught) {
    currentHarness.uncaught.push(error);
    return;
  }
  console.error('run_events_in_vm: uncaught exception:', error);
  process.exit(1);
});

function defineHidden(object, name, value) {
  Object.defineProperty(object, name, { value, writable: true, configurable: true, enumerable: false });
}

function createRealm() {
  const context = vm.createContext({});
  const global = vm.runInContext('globalThis', context);
  defineHidden(global, 'queueMicrotask', (callback) => queueMicrotask(callback));
  defineHidden(global, 'setTimeout', (callback, ms, ...args) => setTimeout(callback, ms, ...args));
  defineHidden(global, 'clearTimeout', (handle) => clearTimeout(handle));
  defineHidden(global, 'performance', vm.runInContext('({})', context));
  defineHidden(global.performance, 'now', () => performance.now());
  defineHidden(global, 'console', console);

  const internals = vm.runInContext('({})', context);
  const host = { now: () => performance.now() };
  const source = fs.readFileSync(eventsPath, 'utf8');
  // Line 1 of events.js is line 2 of the wrapper: lineOffset keeps stack
  // traces pointing at the right lines.
  const body = vm.runInContext(`(function (host, internals, global) {\n${source}\n})`, context, {
    filename: eventsPath,
    lineOffset: -1,
  });
  body(host, internals, global);

  const harness = vm.runInContext('({ uncaught: [], captureUncaught: false })', context);
  harness.gc = gc;
  defineHidden(global, '__internals', internals);
  defineHidden(global, '__harness', harness);
  return { context, harness };
}

async function runSpecFile(file) {
  const { context, harness } = createRealm();
  currentHarness = harness;
  const modules = new Map();

  function load(filePath) {
    let module = modules.get(filePath);
    if (module === undefined) {
      module = new vm.SourceTextModule(fs.readFileSync(filePath, 'utf8'), {
        context,
        identifier: pathToFileURL(filePath).href,
        initializeImportMeta(meta) {
          meta.url = pathToFileURL(filePath).href;
        },
      });
      modules.set(filePath, module);
    }
    return module;
  }

  async function linker(specifier, referencingModule) {
    if (!specifier.startsWith('./') && !specifier.startsWith('../')) {
      throw new Error(`run_events_in_vm: only relative imports are supported, got ${specifier}`);
    }
    const base = fileURLToPath(referencingModule.identifier);
    return load(path.resolve(path.dirname(base), specifier));
  }

  const absolute = path.resolve(file);
  const main = load(absolute);
  await main.link(linker);
  let finished = false;
  const onExit = () => {
    if (!finished) {
      console.error(`${file}: FAILED: the spec never finished (a promise it awaited never settled)`);
      process.exitCode = 1;
    }
  };
  process.once('exit', onExit);
  try {
    await main.evaluate();
  } finally {
    finished = true;
    process.removeListener('exit', onExit);
  }
  const assertLib = modules.get(path.join(path.dirname(absolute), 'lib', 'assert.mjs'));
  const passed = assertLib !== undefined ? assertLib.namespace.passedCount() : '?';
  console.log(`${file}: ${passed} tests passed (events.js in a vm context)`);
  currentHarness = null;
}

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node --experimental-vm-modules tests/tools/run_events_in_vm.mjs SPEC.mjs [...]');
  process.exit(2);
}

for (const file of files) {
  try {
    await runSpecFile(file);
  } catch (error) {
    console.error(`${file}: FAILED`);
    console.error(error && error.stack ? error.stack : error);
    process.exit(1);
  }
}
