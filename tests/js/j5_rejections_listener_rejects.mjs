// timeout: 10
//
// Spec test for contracts J5 and L4: `unhandledrejection` events are
// dispatched in a task of their own (HTML "notify about rejected promises"
// queues a global task), so a listener that rejects another promise every
// time cannot keep the loop from its timers. They were dispatched inside
// the microtask checkpoint, again and again while the listener rejected:
// the timer below never ran and the process spun forever.
// Expected: j5_rejections_listener_rejects.stdout.

let stop = false;
let events = 0;
addEventListener('unhandledrejection', (event) => {
  event.preventDefault();
  events++;
  if (!stop) Promise.reject(new Error(`again ${events}`));
});
setTimeout(() => {
  stop = true;
  const atStop = events;
  console.log('J5 listener rejects: the timer ran');
  // At most the rejection made just before the timer is still reported.
  setTimeout(() => console.log(`J5 listener rejects: events stopped with the timer: ${events - atStop <= 1}`), 20);
}, 1);
Promise.reject(new Error('first'));
