// No C++ exception may cross into the JVM: through a JNI frame it ends the process. Every C API
// entry point that can meet one (a kernel's host-side lists, an allocator's bookkeeping, all of
// which may find operator new refused) runs its body through one of these.
#pragma once
#include <new>

#include "jt/jt.h"

namespace jt {

// run()'s status; JT_OUT_OF_MEMORY when the heap refused operator new, JT_INVALID for any other exception.
template <typename F>
int guarded_status(F&& run) noexcept {
  try {
    return run();
  } catch (const std::bad_alloc&) {
    return JT_OUT_OF_MEMORY;
  } catch (...) {
    return JT_INVALID;
  }
}

// run()'s answer, or `refused` when it threw.
template <typename R, typename F>
R answer_or(R refused, F&& run) noexcept {
  try {
    return run();
  } catch (...) {
    return refused;
  }
}

// run(), an exception dropped: for calls with no answer to give (a release, emptying a cache), where
// what the exception left undone only keeps memory reserved.
template <typename F>
void dropping_exceptions(F&& run) noexcept {
  try {
    run();
  } catch (...) {
  }
}

}  // namespace jt
