// timeout: 170
//
// Spec test for contract W5: creating and terminating 1000 workers in a row
// leaks no threads, fds or memory beyond noise, and never crashes, including
// with messages in flight both ways.
//
// Each worker (fixtures/workers/churn_worker.mjs) floods its parent with a
// burst of messages every turn and echoes what it gets; the parent posts to
// it (a string, a transferred ArrayBuffer) and terminates it at once -- every
// other cycle only after the worker's first message arrived, so that
// messages are in flight both ways. Thread count (/proc/self/status
// Threads:), open fds (/proc/self/fd) and RSS (VmRSS:) are read with
// hostloop:fs after a warm-up (the baseline) and after each quarter of the
// churn, once the terminated workers have wound down. A second, shorter
// churn does the same with workers that own a MessageChannel.

import { readFile, readdir } from 'hostloop:fs';
import { test, assert, assertEquals } from './lib/assert.mjs';
import { fixture, settle } from './fixtures/workers/harness.mjs';

const CYCLES = 1000;
const PHASES = 4;
const THREAD_SLACK = 2; // threads above the baseline still called noise
const FD_SLACK = 2;
const RSS_SLACK_MB = 48; // plus 25% of the reference sample
// Under ASan, freed memory sits in the quarantine (256 MB by default) and
// fills it during the first phase: RSS is compared from the end of the first
// phase on instead of from the baseline (LeakSanitizer checks leaks at exit).
const RSS_SLACK_SANITIZED_MB = 64;

const url = fixture('churn_worker.mjs');

async function sample() {
  const status = await readFile('/proc/self/status', 'utf8');
  const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)[1]);
  const fds = (await readdir('/proc/self/fd')).length;
  return { threads: field('Threads'), fds, rssMB: field('VmRSS') / 1024 };
}

// Lets terminated workers wind down, then takes the smallest of a few
// samples (a thread still exiting is not a leak; a leaked one stays).
async function settledSample() {
  await settle(300);
  const samples = [];
  for (let i = 0; i < 4; i++) {
    samples.push(await sample());
    await settle(100);
  }
  const min = (key) => Math.min(...samples.map((s) => s[key]));
  return { threads: min('threads'), fds: min('fds'), rssMB: min('rssMB') };
}

let late = 0;
let errors = 0;

function firstMessage(worker, ms = 30000) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no message from a worker within ${ms} ms`)), ms);
    worker.addEventListener('message', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}

async function cycle(i) {
  const worker = new Worker(url, { type: 'module', name: `churn ${i}` });
  let terminated = false;
  worker.onmessage = () => { if (terminated) late++; };
  worker.onerror = (event) => {
    event.preventDefault();
    errors++;
  };
  const first = i % 2 === 0 ? firstMessage(worker) : null;
  worker.postMessage(`hello ${i}`);
  const buffer = new ArrayBuffer(1024);
  worker.postMessage(buffer, [buffer]);
  if (first) await first;
  worker.postMessage('bye');
  worker.terminate();
  terminated = true;
}

await test(`W5 ${CYCLES} worker create/terminate cycles with messages in flight both ways leak no threads, fds or memory`, async () => {
  const maps = await readFile('/proc/self/maps', 'utf8');
  const sanitized = /lib[at]san|__asan/.test(maps);
  // Warm-up: the fs thread pool, allocator pools, code caches.
  for (let i = 0; i < 20; i++) await cycle(-1 - i);
  const base = await settledSample();
  const table = [['cycles', 'threads', 'fds', 'rss MB'], [0, base.threads, base.fds, base.rssMB.toFixed(1)]];
  let done = 0;
  const samples = [base];
  for (let phase = 0; phase < PHASES; phase++) {
    const count = Math.round((CYCLES * (phase + 1)) / PHASES) - done;
    for (let i = 0; i < count; i++) await cycle(done + i);
    done += count;
    const now = await settledSample();
    samples.push(now);
    table.push([done, now.threads, now.fds, now.rssMB.toFixed(1)]);
  }
  const last = samples.at(-1);
  console.log(`W5 churn (${sanitized ? 'sanitized' : 'release'} build):`);
  for (const row of table) console.log(row.map((cell) => String(cell).padStart(8)).join(''));

  assertEquals(late, 0, 'message or error events that reached a Worker object after terminate()');
  assertEquals(errors, 0, 'error events from churn workers');
  assert(last.threads <= base.threads + THREAD_SLACK, `threads leaked: ${base.threads} -> ${last.threads}`);
  assert(last.fds <= base.fds + FD_SLACK, `fds leaked: ${base.fds} -> ${last.fds}`);
  const ref = sanitized ? samples[1] : base;
  const slack = (sanitized ? RSS_SLACK_SANITIZED_MB : RSS_SLACK_MB) + ref.rssMB / 4;
  assert(last.rssMB <= ref.rssMB + slack,
    `memory grew beyond noise: ${ref.rssMB.toFixed(1)} MB -> ${last.rssMB.toFixed(1)} MB (allowed +${slack.toFixed(1)} MB)`);
});

await test('W5 200 create/terminate cycles of workers that own a busy MessageChannel leak no fds, threads or memory', async () => {
  const channelUrl = fixture('churn_channel_worker.mjs');
  const run = async (i) => {
    const worker = new Worker(channelUrl, { type: 'module', name: `channel churn ${i}` });
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no message from a worker within 30 s')), 30000);
      worker.onmessage = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    worker.terminate();
  };
  for (let i = 0; i < 5; i++) await run(-1 - i);
  const base = await settledSample();
  for (let i = 0; i < 200; i++) await run(i);
  const last = await settledSample();
  console.log(`W5 channel churn: threads ${base.threads} -> ${last.threads}, fds ${base.fds} -> ${last.fds}, rss ${base.rssMB.toFixed(1)} -> ${last.rssMB.toFixed(1)} MB`);
  assert(last.threads <= base.threads + THREAD_SLACK, `threads leaked: ${base.threads} -> ${last.threads}`);
  assert(last.fds <= base.fds + FD_SLACK, `fds leaked: ${base.fds} -> ${last.fds} after 200 workers`);
  assert(last.rssMB <= base.rssMB + RSS_SLACK_MB + base.rssMB / 4,
    `memory grew beyond noise: ${base.rssMB.toFixed(1)} MB -> ${last.rssMB.toFixed(1)} MB`);
});
