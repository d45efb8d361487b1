// A caching allocator modelled on PyTorch's CUDACachingAllocator, here over host memory.
// Note [Caching allocator blocks]
// Segments come from the system (64-byte aligned) and are carved into Blocks linked to their
// neighbours (prev/next). A freed block merges with free neighbours and returns to its pool, so
// the common path (allocate what was just freed) never reaches the system allocator. Only
// emptyCache() or the out-of-memory retry give whole free segments back.
#pragma once
#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "allocator/adaptive_mutex.h"
#include "allocator/alloc_conf.h"
#include "allocator/stats.h"
#include "allocator/thread_cache.h"

namespace jt {

struct Block {
  size_t size = 0;       // bytes in this block (a multiple of 512)
  size_t requested = 0;  // bytes the caller asked for
  char* ptr = nullptr;
  bool allocated = false;
  bool small = false;  // which pool (and segment kind) it belongs to
  bool split = false;  // handed out with neighbours in its segment (they stay while it is out)
  Block* cache_next = nullptr;  // parked in a thread cache: the next of its size (Note [Thread caches])
  Block* prev = nullptr;
  Block* next = nullptr;
};

// Recycles std::set nodes through a free list, so inserting into and erasing from the pools on the
// cached path never reaches malloc. Used under the allocator's mutex only.
struct FreeNode {
  FreeNode* next;
};

template <typename T>
struct NodeRecycler {
  using value_type = T;
  // The free list, shared by rebound copies; the last copy to go frees the nodes on it.
  std::shared_ptr<FreeNode*> head{new FreeNode*(nullptr), [](FreeNode** h) {
                                    while (FreeNode* f = *h) {
                                      *h = f->next;
                                      ::operator delete(f);
                                    }
                                    delete h;
                                  }};

  NodeRecycler() = default;
  template <typename U>
  NodeRecycler(const NodeRecycler<U>& o) : head(o.head) {}

  T* allocate(size_t n) {
    if (n == 1 && *head) {
      FreeNode* f = *head;
      *head = f->next;
      return reinterpret_cast<T*>(f);
    }
    return static_cast<T*>(::operator new(std::max(n * sizeof(T), sizeof(FreeNode))));
  }
  void deallocate(T* p, size_t n) {
    if (n != 1) {
      ::operator delete(p);
      return;
    }
    FreeNode* f = reinterpret_cast<FreeNode*>(p);  // kept for reuse until the allocator goes
    f->next = *head;
    *head = f;
  }
  template <typename U> bool operator==(const NodeRecycler<U>& o) const { return (void*)head.get() == (void*)o.head.get(); }
  template <typename U> bool operator!=(const NodeRecycler<U>& o) const { return !(*this == o); }
};

struct BlockLess {
  bool operator()(const Block* a, const Block* b) const {
    return a->size != b->size ? a->size < b->size : a->ptr < b->ptr;
  }
};

class CachingAllocator {
 public:
  static constexpr size_t kAlignment = 64;
  static constexpr size_t kMinBlockSize = 512;      // every size rounds up to this
  static constexpr size_t kSmallSize = 1 << 20;     // largest request served by the small pool
  static constexpr size_t kSmallBuffer = 2 << 20;   // small-pool segment size
  static constexpr size_t kLargeBuffer = 20 << 20;  // segment for large requests under 10 MiB
  static constexpr size_t kMinLargeAlloc = 10 << 20;
  static constexpr size_t kRoundLarge = 2 << 20;    // larger segments round up to this
  static constexpr size_t kHugePage = 2 << 20;      // x86-64 transparent huge page

  CachingAllocator();  // configured by JT_ALLOC_CONF
  explicit CachingAllocator(const AllocConf& conf);
  ~CachingAllocator();

  // Why JT_ALLOC_CONF was refused (its settings then keep their defaults); empty when it was valid.
  const std::string& conf_error() const { return conf_error_; }
  size_t memory_limit();

  // A block of at least nbytes, or nullptr when memory is out (after freeing the cache and
  // retrying once). nbytes == 0 gives nullptr too; callers do not allocate empty storage.
  Block* allocate(size_t nbytes);
  void free(Block* block);
  void empty_cache();

  void set_memory_limit(size_t bytes);  // 0: no limit
  void set_max_split_size(size_t bytes);
  DeviceStats stats();
  void reset_peak_stats();
  void reset_accumulated_stats();
  int64_t snapshot(int64_t* out, int64_t cap);

  static size_t round_size(size_t n) {
    return n < kMinBlockSize ? kMinBlockSize : (n + kMinBlockSize - 1) / kMinBlockSize * kMinBlockSize;
  }
  static size_t segment_size(size_t rounded);

  // A new cache for the calling thread, registered (Note [Thread caches]); called by this_thread_cache.
  std::shared_ptr<ThreadCache> register_thread_cache();
  // A thread's exit, allocators_mutex() held: its parked blocks back to the pools, the cache dropped.
  void retire_thread_cache(ThreadCache* c);
  size_t thread_cache_count();  // caches of live threads (a thread's exit drops its own)

 private:
  using Pool = std::set<Block*, BlockLess, NodeRecycler<Block*>>;
  Pool& pool_for(bool small) { return small ? small_blocks_ : large_blocks_; }
  Block* find_free_block(Pool& pool, size_t size);
  Block* new_segment(size_t size, bool small);
  bool should_split(const Block* b, size_t size) const;
  Block* split(Block* b, size_t size);
  void merge_into(Block* dst, Block* src);
  void release_cached_blocks();
  void release_segment(Block* b);
  void update_inactive_split(Block* b, int sign);
  Block* new_block();
  void recycle(Block* b);
  void insert_free(Block* b);
  ThreadCache* my_cache();  // nullptr when caches are off, or the heap refused this thread's
  void fold(ThreadCache* c);   // c's stats delta into stats_
  void fold_locked(ThreadCache* c);  // fold, c->mutex already held
  void flush(ThreadCache* c);  // fold, and c's parked blocks back to the pools, merged
  void flush_locked(ThreadCache* c);  // flush, c->mutex already held
  void flush_thread_caches();

  AdaptiveMutex mutex_;  // Note [Adaptive mutex]
  // Note [No throw after the heap refuses] Every Block made brings one pool node (both pools share
  // one free list) and room in segments_ and spare_blocks_, all taken before anything changes: so
  // inserting a block into a pool, recycling it or listing a segment never allocates, and a refused
  // operator new (bad_alloc) leaves allocate() unchanged and free() and the flushes unable to fail.
  Pool small_blocks_, large_blocks_{BlockLess{}, small_blocks_.get_allocator()};
  std::vector<Block*> segments_;   // head block of each live segment
  std::vector<Block*> spare_blocks_;  // recycled Block objects: no heap traffic on the cached path
  size_t blocks_made_ = 0;  // Block objects ever made (live or spare): the room reserved above
  DeviceStats stats_;
  size_t memory_limit_ = 0;
  size_t max_split_size_ = SIZE_MAX;
  bool huge_pages_ = true;  // JT_ALLOC_CONF=huge_pages:0 turns it off
  std::string conf_error_;
  const uint64_t id_;  // names this allocator to the threads' caches; never reused
  size_t thread_cache_bytes_;  // a cache's most parked bytes; 0: no caches
  std::vector<std::shared_ptr<ThreadCache>> thread_caches_;  // every live thread's, under mutex_
};

CachingAllocator& cpu_allocator();

}  // namespace jt
