// A segment's bytes from the system: aligned to `align`, transparent huge pages advised for a huge
// one where Linux has them (Note [Huge pages]); given back with release_segment_memory. Windows'
// C runtime has no posix_memalign, and its aligned blocks must go back through _aligned_free.
#pragma once
#include <cstddef>
#include <cstdlib>

#ifdef _WIN32
#include <malloc.h>
#else
#include <sys/mman.h>
#endif

namespace jt {

inline void* segment_memory(size_t align, size_t size, bool huge) {
#ifdef _WIN32
  (void)huge;
  return _aligned_malloc(size, align);
#else
  void* p = nullptr;
  if (posix_memalign(&p, align, size) != 0) return nullptr;
#ifdef MADV_HUGEPAGE
  if (huge) madvise(p, size, MADV_HUGEPAGE);  // advice only: ignored where THP is off
#else
  (void)huge;
#endif
  return p;
#endif
}

inline void release_segment_memory(void* p) {
#ifdef _WIN32
  _aligned_free(p);
#else
  std::free(p);
#endif
}

}  // namespace jt
