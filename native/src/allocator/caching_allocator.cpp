#include "allocator/caching_allocator.h"
#include "allocator/asan.h"
#include "allocator/scratch.h"
#include "allocator/segment_memory.h"
#include "allocator/snapshot_words.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>

namespace jt {
CachingAllocator::CachingAllocator() : CachingAllocator(parse_alloc_conf(std::getenv("JT_ALLOC_CONF"))) {}

namespace {
std::atomic<uint64_t> next_allocator_id{1};  // 0 marks a thread's empty cache slot
}

CachingAllocator::CachingAllocator(const AllocConf& conf)
    : conf_error_(conf.error), id_(next_allocator_id++), thread_cache_bytes_(conf.thread_cache_bytes) {
  if (conf.max_split_size) set_max_split_size(conf.max_split_size);
  memory_limit_ = conf.memory_limit;
  huge_pages_ = conf.huge_pages;
}

// Only allocators a test made are destroyed (cpu_allocator() lives until the process ends):
// every segment goes back to the system, blocks still handed out included, and every Block.
CachingAllocator::~CachingAllocator() {
  {  // threads that still hold a cache of this allocator drop it at their exit, untouched
    std::lock_guard<std::mutex> live(allocators_mutex());
    for (auto& c : thread_caches_) c->owner = nullptr;
  }
  for (Block* head : segments_) {
    size_t bytes = 0;
    for (Block* b = head; b;) {
      Block* next = b->next;
      bytes += b->size;
      if (b != head) delete b;
      b = next;
    }
    JT_UNPOISON(head->ptr, bytes);
    release_segment_memory(head->ptr);
    delete head;
  }
  for (Block* b : spare_blocks_) delete b;
}

size_t CachingAllocator::segment_size(size_t rounded) {
  if (rounded <= kSmallSize) return kSmallBuffer;
  if (rounded < kMinLargeAlloc) return kLargeBuffer;
  return (rounded + kRoundLarge - 1) / kRoundLarge * kRoundLarge;
}

// Note [No throw after the heap refuses]: a new Block's node and room come first; when the heap
// refuses any of them, bad_alloc leaves with nothing changed but spare capacity.
Block* CachingAllocator::new_block() {
  if (spare_blocks_.empty()) {
    segments_.reserve(blocks_made_ + 1);
    spare_blocks_.reserve(blocks_made_ + 1);
    std::unique_ptr<Block> b(new Block());
    // Its pool node: with the free list set aside the insert must make one, which the erase
    // (of a size-0 key no pool holds) then leaves on the list.
    FreeNode** list = small_blocks_.get_allocator().head.get();
    FreeNode* others = *list;
    *list = nullptr;
    try {
      small_blocks_.insert(b.get());
    } catch (...) {
      *list = others;
      throw;
    }
    small_blocks_.erase(b.get());
    (*list)->next = others;
    ++blocks_made_;
    return b.release();
  }
  Block* b = spare_blocks_.back();
  spare_blocks_.pop_back();
  *b = Block();
  return b;
}

void CachingAllocator::recycle(Block* b) { spare_blocks_.push_back(b); }

Block* CachingAllocator::allocate(size_t nbytes) {
  if (nbytes == 0) return nullptr;
  if (nbytes > (SIZE_MAX >> 2)) {  // no segment size arithmetic may overflow
    std::lock_guard<AdaptiveMutex> lock(mutex_);
    stats_.num_ooms++;
    return nullptr;
  }
  const size_t size = round_size(nbytes);
  const bool small = size <= kSmallSize;
  ThreadCache* tc = my_cache();  // every call folds its delta below, large ones too
  if (tc && size <= ThreadCache::kMaxBlock) {  // Note [Thread caches]: a parked block of this size, without the allocator's lock
    std::lock_guard<std::mutex> own(tc->mutex);
    Block*& bin = tc->bins[ThreadCache::size_class(size)];
    if (Block* b = bin) {
      bin = b->cache_next;
      b->cache_next = nullptr;
      tc->bytes -= b->size;
      b->requested = nbytes;
      tc->delta.handed_out((int64_t)b->size, (int64_t)nbytes, b->split);
      tc->dirty.store(true, std::memory_order_relaxed);
      JT_UNPOISON(b->ptr, nbytes);
      return b;
    }
  }
  std::lock_guard<AdaptiveMutex> lock(mutex_);
  if (tc && tc->dirty.load(std::memory_order_relaxed)) fold(tc);  // its hits count first (exact peaks for one thread)
  Pool& pool = pool_for(small);
  Block* b = find_free_block(pool, size);
  if (!b && !thread_caches_.empty()) {  // grow only when no parked block, merged, would do
    flush_thread_caches();
    b = find_free_block(pool, size);
  }
  if (b) {
    pool.erase(b);
    update_inactive_split(b, -1);
  } else {
    b = new_segment(segment_size(size), small);
    if (!b) {  // out of memory: give every cached segment back and try once more
      stats_.num_alloc_retries++;
      release_cached_blocks();
      b = new_segment(segment_size(size), small);
    }
    if (!b) {
      stats_.num_ooms++;
      return nullptr;
    }
  }
  if (should_split(b, size)) b = split(b, size);
  b->allocated = true;
  b->requested = nbytes;
  b->split = b->prev || b->next;
  stats_.block_handed_out(small, (int64_t)b->size, (int64_t)nbytes, b->size >= max_split_size_);
  JT_UNPOISON(b->ptr, nbytes);  // the tail past nbytes stays poisoned
  return b;
}

Block* CachingAllocator::find_free_block(Pool& pool, size_t size) {
  Block key;
  key.size = size;
  auto it = pool.lower_bound(&key);
  if (it == pool.end()) return nullptr;
  Block* b = *it;
  // Oversize blocks serve only oversize requests, and not ones much smaller (as PyTorch).
  if (size < max_split_size_ && b->size >= max_split_size_) return nullptr;
  if (size >= max_split_size_ && b->size >= size + kLargeBuffer) return nullptr;
  return b;
}

Block* CachingAllocator::new_segment(size_t size, bool small) {
  int64_t reserved = stats_.reserved_bytes[kAll].current;
  if (memory_limit_ && (size_t)reserved + size > memory_limit_) return nullptr;
  void* p = nullptr;
  // Note [Huge pages] A large segment is 2 MiB aligned and asks for transparent huge pages:
  // a kernel walking a big tensor across rows (a transposed operand) then misses the TLB once
  // per 2 MiB instead of once per 4 KiB. Small segments keep 4 KiB pages, committed lazily.
  const bool huge = huge_pages_ && !small;
  Block* b;
  try {
    b = new_block();  // before the memory: a refused Block takes nothing with it
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
  p = segment_memory(huge ? kHugePage : kAlignment, size, huge);
  if (!p) {
    recycle(b);
    return nullptr;
  }
  JT_POISON(p, size);  // free space until a block of it is handed out
  b->ptr = static_cast<char*>(p);
  b->size = size;
  b->small = small;
  segments_.push_back(b);
  stats_.segment_reserved(small, (int64_t)size, size >= max_split_size_);
  return b;
}

bool CachingAllocator::should_split(const Block* b, size_t size) const {
  size_t remaining = b->size - size;
  if (b->small) return remaining >= kMinBlockSize;
  return size < max_split_size_ && remaining > kSmallSize;
}

// Carves the front `size` bytes off b; the remainder goes back to the pool as a free block.
Block* CachingAllocator::split(Block* b, size_t size) {
  Block* rest;
  try {
    rest = new_block();
  } catch (const std::bad_alloc&) {
    return b;  // handed out whole: more bytes than asked, nothing lost
  }
  rest->ptr = b->ptr + size;
  rest->size = b->size - size;
  rest->small = b->small;
  rest->prev = b;
  rest->next = b->next;
  if (b->next) b->next->prev = rest;
  b->next = rest;
  b->size = size;
  pool_for(rest->small).insert(rest);
  update_inactive_split(rest, +1);
  return b;
}

void CachingAllocator::free(Block* b) {
  if (!b) return;
  JT_POISON(b->ptr, b->size);
  ThreadCache* tc = my_cache();
  if (tc && b->small && b->size <= ThreadCache::kMaxBlock) {  // park it (Note [Thread caches])
    std::lock_guard<std::mutex> own(tc->mutex);
    if (tc->bytes + b->size <= thread_cache_bytes_) {
      tc->delta.parked((int64_t)b->size, (int64_t)b->requested, b->split);
      tc->dirty.store(true, std::memory_order_relaxed);
      b->requested = 0;
      Block*& bin = tc->bins[ThreadCache::size_class(b->size)];
      b->cache_next = bin;
      bin = b;
      tc->bytes += b->size;
      return;
    }
  }
  std::lock_guard<AdaptiveMutex> lock(mutex_);
  if (tc && tc->dirty.load(std::memory_order_relaxed)) fold(tc);
  const bool small = b->small;
  const int64_t bs = (int64_t)b->size;
  stats_.block_freed(small, bs, b->size >= max_split_size_);
  stats_.block_inactive(small, bs, (int64_t)b->requested);
  b->allocated = false;
  b->requested = 0;
  insert_free(b);
}

// Merges free block b with its free neighbours into its pool (parked blocks count as handed out).
void CachingAllocator::insert_free(Block* b) {
  Pool& pool = pool_for(b->small);
  for (Block* n : {b->prev, b->next}) {
    if (n && !n->allocated) {
      pool.erase(n);
      update_inactive_split(n, -1);
      merge_into(b, n);
    }
  }
  pool.insert(b);
  update_inactive_split(b, +1);
}

ThreadCache* CachingAllocator::my_cache() {
  if (!thread_cache_bytes_) return nullptr;
  try {
    return this_thread_cache(*this, id_);
  } catch (const std::bad_alloc&) {  // no cache for this thread yet: it uses the pools directly
    return nullptr;
  }
}

std::shared_ptr<ThreadCache> CachingAllocator::register_thread_cache() {
  auto c = std::make_shared<ThreadCache>(this);
  std::lock_guard<AdaptiveMutex> lock(mutex_);
  thread_caches_.push_back(c);
  return c;
}

void CachingAllocator::retire_thread_cache(ThreadCache* c) {
  std::lock_guard<AdaptiveMutex> lock(mutex_);
  flush(c);
  c->owner = nullptr;
  thread_caches_.erase(std::find_if(thread_caches_.begin(), thread_caches_.end(),
                                    [c](const std::shared_ptr<ThreadCache>& p) { return p.get() == c; }));
}

size_t CachingAllocator::thread_cache_count() {
  std::lock_guard<AdaptiveMutex> lock(mutex_);
  return thread_caches_.size();
}

// Lock order: mutex_, then a cache's; a cache's owner never takes mutex_ while holding its own.
void CachingAllocator::fold(ThreadCache* c) {
  std::lock_guard<std::mutex> own(c->mutex);
  fold_locked(c);
}

void CachingAllocator::fold_locked(ThreadCache* c) {
  c->delta.fold_into(stats_);
  c->dirty.store(false, std::memory_order_relaxed);
}

void CachingAllocator::flush(ThreadCache* c) {
  std::lock_guard<std::mutex> own(c->mutex);
  flush_locked(c);
}

void CachingAllocator::flush_locked(ThreadCache* c) {
  fold_locked(c);
  for (Block*& head : c->bins) {
    while (Block* b = head) {  // free in the stats already: only the pools learn of it now
      head = b->cache_next;
      b->cache_next = nullptr;
      b->allocated = false;
      update_inactive_split(b, -1);  // insert_free counts what it merges into
      insert_free(b);
    }
  }
  c->bytes = 0;
}

void CachingAllocator::flush_thread_caches() {
  for (auto& c : thread_caches_) flush(c.get());
}

// Absorbs neighbour src (free, adjacent to dst) into dst.
void CachingAllocator::merge_into(Block* dst, Block* src) {
  if (src == dst->prev) {
    dst->ptr = src->ptr;
    dst->prev = src->prev;
    if (dst->prev) dst->prev->next = dst;
    else std::replace(segments_.begin(), segments_.end(), src, dst);  // dst is the new head
  } else {
    dst->next = src->next;
    if (dst->next) dst->next->prev = dst;
  }
  dst->size += src->size;
  recycle(src);
}

// A free block is an "inactive split" when its segment holds other blocks too.
void CachingAllocator::update_inactive_split(Block* b, int sign) {
  if (b->prev || b->next) stats_.inactive_split_changed(b->small, (int64_t)b->size, sign);
}

void CachingAllocator::release_segment(Block* b) {
  pool_for(b->small).erase(b);
  stats_.segment_released(b->small, (int64_t)b->size, b->size >= max_split_size_);
  JT_UNPOISON(b->ptr, b->size);  // the system allocator's memory again
  release_segment_memory(b->ptr);
  segments_.erase(std::find(segments_.begin(), segments_.end(), b));
  recycle(b);
}

void CachingAllocator::release_cached_blocks() {
  flush_thread_caches();
  // In place, without a list to fill: this runs when the heap has just refused an allocation.
  for (size_t i = 0; i < segments_.size();) {
    Block* seg = segments_[i];
    if (!seg->allocated && !seg->next) release_segment(seg);  // a free, unsplit segment; erased at i
    else ++i;
  }
}

void CachingAllocator::empty_cache() {
  std::lock_guard<AdaptiveMutex> lock(mutex_);
  release_cached_blocks();
}

void CachingAllocator::set_memory_limit(size_t bytes) {
  std::lock_guard<AdaptiveMutex> lock(mutex_);
  memory_limit_ = bytes;
}

size_t CachingAllocator::memory_limit() {
  std::lock_guard<AdaptiveMutex> lock(mutex_);
  return memory_limit_;
}

void CachingAllocator::set_max_split_size(size_t bytes) {
  std::lock_guard<AdaptiveMutex> lock(mutex_);
  max_split_size_ = bytes < kLargeBuffer ? kLargeBuffer : bytes;
  stats_.max_split_size = (int64_t)max_split_size_;
}

DeviceStats CachingAllocator::stats() {
  std::lock_guard<AdaptiveMutex> lock(mutex_);
  flush_thread_caches();  // report the merged state
  DeviceStats s = stats_;
  s.max_split_size = max_split_size_ == SIZE_MAX ? -1 : (int64_t)max_split_size_;
  return s;
}

void CachingAllocator::reset_peak_stats() {
  std::lock_guard<AdaptiveMutex> lock(mutex_);
  flush_thread_caches();
  stats_.reset_peak();
}

void CachingAllocator::reset_accumulated_stats() {
  std::lock_guard<AdaptiveMutex> lock(mutex_);
  flush_thread_caches();
  stats_.reset_accumulated();
}

int64_t CachingAllocator::snapshot(int64_t* out, int64_t cap) {
  std::lock_guard<AdaptiveMutex> lock(mutex_);
  // Every cache stays locked until the blocks are read: an owner parking a block or taking one back
  // writes its requested, and a block parked after its cache's flush would show as allocated.
  std::vector<std::unique_lock<std::mutex>> held;
  held.reserve(thread_caches_.size());
  for (auto& c : thread_caches_) {
    held.emplace_back(c->mutex);
    flush_locked(c.get());
  }
  std::vector<int64_t> v{(int64_t)segments_.size()};
  std::vector<Block*> segs = segments_;
  std::sort(segs.begin(), segs.end(), [](Block* a, Block* b) { return a->ptr < b->ptr; });
  for (Block* head : segs) append_segment_words(v, head, [](const Block* b) { return b->allocated ? 1 : 0; });
  return copy_words(v, out, cap);
}

ScratchBuffer::ScratchBuffer(size_t bytes)
    : block_(cpu_allocator().allocate(bytes)), data_(block_ ? block_->ptr : nullptr) {}

ScratchBuffer::~ScratchBuffer() { cpu_allocator().free(block_); }

CachingAllocator& cpu_allocator() {
  static CachingAllocator* a = new CachingAllocator();  // never destroyed: frees may run at exit
  return *a;
}

}  // namespace jt
