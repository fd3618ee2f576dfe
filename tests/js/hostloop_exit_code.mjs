// expect-exit: 4
// timeout: 20
//
// hostloop.exitCode: the code the program exits with when it ends by itself;
// the work pending when it is set still runs. hostloop.exit() with no
// argument exits with it. Invalid codes (not an integer from 0 to 255) are a
// TypeError or a RangeError, and leave the code as it was; a worker's
// hostloop.exit() ends that worker only.
// Expected: hostloop_exit_code.stdout, and exit code 4.

function attempt(what, action) {
  try {
    action();
    console.log(`${what}: no error`);
  } catch (e) {
    console.log(`${what}: ${e.name}: ${e.message}`);
  }
}
attempt('exit("2")', () => hostloop.exit('2'));
attempt('exit(1.5)', () => hostloop.exit(1.5));
attempt('exit(256)', () => hostloop.exit(256));
attempt('exit(-1)', () => hostloop.exit(-1));
attempt('exit(null)', () => hostloop.exit(null));
attempt('exitCode = NaN', () => { hostloop.exitCode = NaN; });
attempt('exitCode = 7n', () => { hostloop.exitCode = 7n; });
console.log('exitCode after the errors', hostloop.exitCode);

hostloop.exitCode = 9;
hostloop.exitCode = 4;
console.log('exitCode', hostloop.exitCode);

const source = `
  onmessage = () => { postMessage('worker: exiting'); hostloop.exit(5); postMessage('worker: went on'); };
  setTimeout(() => postMessage('worker: timer after exit'), 100);
`;
const worker = new Worker(`data:text/javascript,${encodeURIComponent(source)}`, { type: 'module' });
worker.onmessage = (e) => console.log(e.data);
worker.postMessage('go');
setTimeout(() => {
  console.log('main: still running, exitCode', hostloop.exitCode);
  setTimeout(() => console.log('main: the last timer ran'), 10);
}, 300);
