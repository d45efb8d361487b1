// Note [Thread caches]
// Each thread that frees a small block (up to kMaxBlock bytes) parks it in its own cache, by exact
// size, and its next request of that size takes it back, both without the allocator's lock (as
// tcmalloc's and PyTorch's CPU thread caches do). A DataLoader's workers make ~10 small tensors an
// image; under one lock their allocations passed the lock's and the pools' cache lines between the
// cores on every call, and the training thread merged the workers' parked blocks (docs/performance.md).
//
// - To the pools a parked block is still handed out: they never merge it or read its fields, so the
//   owner touches it with no lock but its cache's own (taken by the owner on every call, and by a
//   flush from another thread only). A snapshot keeps every cache locked until it has read the
//   blocks: an owner's park or hit writes its block's requested, and a block parked after its
//   cache's flush would show as allocated.
// - The stats count a parked block as free at once. The owner keeps its hits' counts in a StatDelta,
//   folded into the shared stats whenever it takes the allocator's lock, and by every report; a peak
//   folds as the shared current plus the delta's high-water mark, so with one thread allocating the
//   stats equal an allocator without caches. With several, a peak is within one cache's bytes per
//   thread, either way: a thread's hits of blocks parked before its last fold are in no shared
//   count until its next, and fold against the shared current of then (thread_cache_test's
//   peak_with_several_threads: two threads' hits held while a third allocates, 1 MiB under).
// - Parked blocks go back to the pools (merged) before a new segment is reserved, on emptyCache, the
//   out-of-memory retry, stats and snapshots, and when the thread exits; a cache holds at most
//   JT_ALLOC_CONF's thread_cache_kb (0 turns caches off).
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>

#include "allocator/stats.h"

namespace jt {

class CachingAllocator;
struct Block;

// The stats a thread cache's hits and parks move (small blocks, never oversize), kept apart from
// the allocator's until DeviceStats::fold: the same block events as the allocator's own path.
struct CacheDelta : BlockStats<StatDelta> {
  void handed_out(int64_t size, int64_t requested, bool split) {
    if (split) inactive_split_changed(true, size, -1);
    block_handed_out(true, size, requested, false);
  }
  void parked(int64_t size, int64_t requested, bool split) {
    block_freed(true, size, false);
    block_inactive(true, size, requested);
    if (split) inactive_split_changed(true, size, +1);
  }
  void fold_into(DeviceStats& s) {
    s.fold(*this);
    *this = CacheDelta();
  }
};

struct alignas(64) ThreadCache {  // its own cache lines: two threads' caches never share one
  static constexpr size_t kMaxBlock = 32 << 10;
  static constexpr size_t kGranule = 512;  // CachingAllocator::kMinBlockSize
  static constexpr int kClasses = (int)(kMaxBlock / kGranule);
  static int size_class(size_t rounded) { return (int)(rounded / kGranule) - 1; }

  std::mutex mutex;  // the owner's on every call; another thread's only to flush (held through a snapshot)
  Block* bins[kClasses] = {};
  size_t bytes = 0;  // parked
  CacheDelta delta;
  // Set by the owner's hits (under mutex), cleared by a fold; read without the lock by the owner
  // alone, which skips an empty fold (a stale true costs one fold, and only the owner sets it).
  std::atomic<bool> dirty{false};
  std::atomic<CachingAllocator*> owner;  // null once the allocator is destroyed (under allocators_mutex())

  explicit ThreadCache(CachingAllocator* a) : owner(a) {}
};

// The calling thread's cache for allocator a (numbered id, never reused), made and registered on
// first use; null when the thread already holds caches of kThreadSlots other allocators.
ThreadCache* this_thread_cache(CachingAllocator& a, uint64_t id);

// Guards ThreadCache::owner between a thread's exit and its allocator's destruction.
std::mutex& allocators_mutex();

}  // namespace jt
