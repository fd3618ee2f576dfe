// Clang thread-safety annotations (no-ops under GCC) and an annotated mutex.
// State touched from several threads is grouped behind one Mutex and marked
// GUARDED_BY(mutex_); helpers that expect the lock held end in `Locked`.
#pragma once

#include <pthread.h>

#if defined(__clang__)
#define HL_THREAD_ANNOTATION(x) __attribute__((x))
#else
#define HL_THREAD_ANNOTATION(x)
#endif

#define CAPABILITY(x) HL_THREAD_ANNOTATION(capability(x))
#define SCOPED_CAPABILITY HL_THREAD_ANNOTATION(scoped_lockable)
#define GUARDED_BY(x) HL_THREAD_ANNOTATION(guarded_by(x))
#define PT_GUARDED_BY(x) HL_THREAD_ANNOTATION(pt_guarded_by(x))
#define REQUIRES(...) HL_THREAD_ANNOTATION(requires_capability(__VA_ARGS__))
#define ACQUIRE(...) HL_THREAD_ANNOTATION(acquire_capability(__VA_ARGS__))
#define RELEASE(...) HL_THREAD_ANNOTATION(release_capability(__VA_ARGS__))
#define EXCLUDES(...) HL_THREAD_ANNOTATION(locks_excluded(__VA_ARGS__))

namespace hostloop::base {

// An adaptive mutex: a thread that finds it held spins briefly before it
// sleeps. The critical sections here are a few dozen instructions (a queue
// push or pop), so a waiter usually gets the lock while spinning; a plain
// mutex put it to sleep and made the holder pay a futex wake, a syscall
// pair per contended lock (thousands per 10k pool jobs).
class CAPABILITY("mutex") Mutex {
 public:
  Mutex() = default;
  ~Mutex() { pthread_mutex_destroy(&mutex_); }
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  void Lock() ACQUIRE() { pthread_mutex_lock(&mutex_); }
  void Unlock() RELEASE() { pthread_mutex_unlock(&mutex_); }
  // For std::condition_variable_any and std::unique_lock.
  void lock() ACQUIRE() { pthread_mutex_lock(&mutex_); }
  void unlock() RELEASE() { pthread_mutex_unlock(&mutex_); }

 private:
  pthread_mutex_t mutex_ = PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP;
};

class SCOPED_CAPABILITY MutexLock {
 public:
  explicit MutexLock(Mutex& mutex) ACQUIRE(mutex) : mutex_(mutex) { mutex_.Lock(); }
  ~MutexLock() RELEASE() { mutex_.Unlock(); }
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

 private:
  Mutex& mutex_;
};

}  // namespace hostloop::base
