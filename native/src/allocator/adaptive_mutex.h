// Note [Adaptive mutex]
// The CPU caching allocator's lock is taken for well under a microsecond per call, but by every
// thread that makes or frees a tensor. Under std::mutex a thread that finds it taken sleeps in the
// kernel (futex) and the holder then pays a second system call to wake it: with a DataLoader's two
// workers on two cores that was most allocations, and the workers together loaded fewer batches
// than one thread alone (docs/performance.md, session 19). This mutex first spins a while with the
// CPU's pause hint, as glibc's PTHREAD_MUTEX_ADAPTIVE_NP does, and only then blocks, so a holder
// preempted mid-section still costs the others no more than a sleep.
#pragma once
#include <mutex>

#include "cpu_relax.h"

namespace jt {

class AdaptiveMutex {
 public:
  void lock() {
    for (int i = 0; i < kSpins; ++i) {
      if (m_.try_lock()) return;
      cpu_relax();
    }
    m_.lock();
  }
  bool try_lock() { return m_.try_lock(); }
  void unlock() { m_.unlock(); }

 private:
  static constexpr int kSpins = 256;  // a few microseconds: longer than the allocator's sections
  std::mutex m_;
};

}  // namespace jt
