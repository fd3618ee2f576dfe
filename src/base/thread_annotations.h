// Clang thread-safety annotations (no-ops under GCC) and an annotated mutex.
// State touched from several threads is grouped behind one Mutex and marked
// GUARDED_BY(mutex_); helpers that expect the lock held end in `Locked`.
#pragma once

#include <mutex>

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

class CAPABILITY("mutex") Mutex {
 public:
  void Lock() ACQUIRE() { mutex_.lock(); }
  void Unlock() RELEASE() { mutex_.unlock(); }
  // For std::condition_variable_any and std::unique_lock.
  void lock() ACQUIRE() { mutex_.lock(); }
  void unlock() RELEASE() { mutex_.unlock(); }

 private:
  std::mutex mutex_;
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
