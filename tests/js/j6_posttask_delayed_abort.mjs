// timeout: 20
//
// Spec test for contracts J6 and J3: a delayed scheduler.postTask whose
// signal aborts during the delay rejects with the signal's reason and stops
// keeping the runtime alive at once (this program must exit long before the
// 60 s delay; it hung until the delay ran out). A delay far beyond what
// nanoseconds in 64 bits can hold (9.3e12 ms, still a valid WebIDL unsigned
// long long) waits instead of running at once.
// https://wicg.github.io/scheduling-apis/#dom-scheduler-posttask
// Expected: j6_posttask_delayed_abort.stdout.

const long = new AbortController();
scheduler.postTask(() => console.log('J6 must not run: aborted during its delay'), { delay: 60_000, signal: long.signal })
  .catch((error) => console.log(`J6 delayed abort: rejected with ${error.name}`));
long.abort();

const huge = new AbortController();
let ran = false;
const pending = scheduler.postTask(() => { ran = true; }, { delay: 9.3e12, signal: huge.signal });
pending.catch((error) => console.log(`J6 huge delay: rejected with ${error.name}, ran: ${ran}`));
setTimeout(() => {
  console.log(`J6 huge delay: ran after 50 ms: ${ran}`);
  huge.abort();
}, 50);
