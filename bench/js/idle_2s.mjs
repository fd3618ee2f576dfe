// Row "idle_cost": waits 2 s on one timer and does nothing else. bench/run.py
// runs it next to empty.mjs and reports what it costs beyond the empty module:
// CPU time (user + system, every thread, from os.wait4's rusage) and the
// number of kernel waits (epoll_wait/epoll_pwait/epoll_pwait2/poll/ppoll/
// select/pselect6 calls over all threads, counted with strace -f). A runtime
// that really sleeps costs about one wait and well under a millisecond.
// Prints nothing, like empty.mjs.
setTimeout(() => {}, 2000);
