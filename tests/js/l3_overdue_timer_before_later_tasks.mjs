// Spec test for contract L3 (and HTML's timer task queuing): a timer that
// came due while a long task ran goes before macrotasks that task queued
// after the timer's deadline (postTask, a MessageChannel message, a
// setTimeout(0)). The loop stamped posts made during a task with the time
// the task started, so all three ran ahead of the overdue timer.
// Expected: l3_overdue_timer_before_later_tasks.stdout.

setTimeout(() => console.log('timer due at +20 ms'), 20);
const end = performance.now() + 80;
while (performance.now() < end) {
  // a long task
}
scheduler.postTask(() => console.log('postTask queued at +80 ms'));
const { port1, port2 } = new MessageChannel();
port1.onmessage = () => {
  console.log('message posted at +80 ms');
  port1.close();
};
port2.postMessage(0);
setTimeout(() => console.log('setTimeout(0) set at +80 ms'), 0);
