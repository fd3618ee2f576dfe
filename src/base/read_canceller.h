// Ends, from another thread, the reads of pipes and FIFOs that a thread
// waits in (base::ReadFileToString): a worker whose script is a FIFO that
// nobody writes must still end when it is terminated.
#pragma once

#include "base/result.h"
#include "base/thread_annotations.h"
#include "base/unique_fd.h"

namespace hostloop::base {

class ReadCanceller {
 public:
  ReadCanceller() = default;
  ReadCanceller(const ReadCanceller&) = delete;
  ReadCanceller& operator=(const ReadCanceller&) = delete;

  // Thread-safe. Reads waiting now, and every later one that would wait,
  // end with ECANCELED. Only the first call does anything.
  void Cancel();

  // Thread-safe. An fd to poll() beside the one being read: readable once
  // Cancel() was called. Made on first use (most runtimes never read a
  // pipe) and owned by the canceller. ECANCELED once cancelled; the errno
  // if no eventfd could be made.
  Result<int> WakeFd();

 private:
  Mutex mutex_;
  bool cancelled_ GUARDED_BY(mutex_) = false;
  UniqueFd wake_fd_ GUARDED_BY(mutex_);
};

}  // namespace hostloop::base
