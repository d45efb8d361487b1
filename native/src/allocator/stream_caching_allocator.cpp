#include "allocator/stream_caching_allocator.h"

#include <algorithm>
#include <memory>
#include <new>

#include "allocator/snapshot_words.h"

namespace jt {

StreamCachingAllocator::StreamCachingAllocator(DeviceProvider* provider, const AllocConf& conf)
    : provider_(provider), memory_limit_(conf.memory_limit), gc_threshold_(conf.garbage_collection_threshold),
      conf_error_(conf.error) {
  if (conf.max_split_size) max_split_size_ = std::max(conf.max_split_size, CachingAllocator::kLargeBuffer);
  stats_.max_split_size = max_split_size_ == SIZE_MAX ? -1 : (int64_t)max_split_size_;  // as PyTorch reports
}

StreamCachingAllocator::~StreamCachingAllocator() {
  for (auto& entry : events_)
    for (auto& e : entry.second) provider_->release_event(e.first);
  for (StreamBlock* head : segments_) {
    for (StreamBlock* b = head->next; b;) {
      StreamBlock* next = b->next;
      delete b;
      b = next;
    }
    provider_->raw_free(head->ptr);
    delete head;
  }
  for (StreamBlock* b : spare_blocks_) delete b;
}

// A block with its pool node and its room in segments_ and spare_blocks_ (Note [No throw after the
// heap refuses]): bad_alloc here leaves everything as it was.
StreamBlock* StreamCachingAllocator::new_block() {
  if (spare_blocks_.empty()) {
    segments_.reserve(blocks_made_ + 1);
    spare_blocks_.reserve(blocks_made_ + 1);
    std::unique_ptr<StreamBlock> b(new StreamBlock());
    // Its pool node: with the free list set aside the insert must make one, which the erase (of a
    // size-0 key no pool holds) then leaves on the list.
    FreeNode** list = small_blocks_.blocks.get_allocator().head.get();
    FreeNode* others = *list;
    *list = nullptr;
    try {
      small_blocks_.blocks.insert(b.get());
    } catch (...) {
      *list = others;
      throw;
    }
    small_blocks_.blocks.erase(b.get());
    (*list)->next = others;
    ++blocks_made_;
    return b.release();
  }
  StreamBlock* b = spare_blocks_.back();
  spare_blocks_.pop_back();
  return b;
}

// Kept for reuse, with its stream_uses capacity: the cached path does not reach the heap.
void StreamCachingAllocator::recycle(StreamBlock* b) {
  std::vector<StreamId> uses;
  uses.swap(b->stream_uses);
  uses.clear();
  *b = StreamBlock();
  b->stream_uses.swap(uses);
  spare_blocks_.push_back(b);
}

StreamBlock* StreamCachingAllocator::allocate(size_t nbytes, StreamId stream) {
  if (nbytes == 0) return nullptr;
  std::lock_guard<std::mutex> lock(mutex_);
  try {
    return allocate_locked(nbytes, stream);
  } catch (const std::bad_alloc&) {  // every step leaves the pools whole: only this request fails
    report_heap_refused(nbytes);
    return nullptr;
  }
}

StreamBlock* StreamCachingAllocator::allocate_locked(size_t nbytes, StreamId stream) {
  if (!events_.empty()) process_events();
  if (nbytes > (SIZE_MAX >> 2)) {  // no size arithmetic below may overflow
    report_out_of_memory(nbytes);
    return nullptr;
  }
  const size_t size = CachingAllocator::round_size(nbytes);
  StreamPool& pool = pool_for(size <= CachingAllocator::kSmallSize);
  StreamBlock* b = get_free_block(pool, size, stream);
  if (!b) b = allocate_or_release(pool, size, stream);
  if (!b) {
    report_out_of_memory(CachingAllocator::segment_size(size));
    return nullptr;
  }
  return hand_out(b, size, nbytes);
}

// The smallest cached block of stream that fits, taken out of its pool; nullptr when none may serve.
StreamBlock* StreamCachingAllocator::get_free_block(StreamPool& pool, size_t size, StreamId stream) {
  if (gc_threshold_ > 0 && memory_limit_) pool.lookups++;
  StreamBlock key;
  key.stream = stream;
  key.size = size;
  auto it = pool.blocks.lower_bound(&key);
  if (it == pool.blocks.end() || (*it)->stream != stream) return nullptr;
  StreamBlock* b = *it;
  // Oversize blocks serve only oversize requests, and not ones much smaller (as PyTorch).
  if (!oversize(size) && oversize(b->size)) return nullptr;
  if (oversize(size) && b->size >= size + CachingAllocator::kLargeBuffer) return nullptr;
  pool.blocks.erase(it);
  update_inactive_split(b, -1);
  return b;
}

StreamBlock* StreamCachingAllocator::alloc_segment(size_t seg_size, bool small, StreamId stream) {
  const size_t reserved = (size_t)stats_.reserved_bytes[kAll].current;
  if (memory_limit_ && reserved + seg_size > memory_limit_) return nullptr;
  StreamBlock* b = new_block();  // before the memory: a refused block takes nothing with it
  void* p = provider_->raw_alloc(seg_size);
  if (!p) {
    recycle(b);
    return nullptr;
  }
  b->stream = stream;
  b->ptr = static_cast<char*>(p);
  b->size = seg_size;
  b->small = small;
  segments_.push_back(b);
  stats_.segment_reserved(small, (int64_t)seg_size, oversize(seg_size));
  return b;
}

bool StreamCachingAllocator::should_split(const StreamBlock* b, size_t size) const {
  const size_t remaining = b->size - size;
  if (b->small) return remaining >= CachingAllocator::kMinBlockSize;
  return !oversize(size) && remaining > CachingAllocator::kSmallSize;
}

// b is out of its pool (or a new segment): the front `size` bytes are handed out, the rest cached.
StreamBlock* StreamCachingAllocator::hand_out(StreamBlock* b, size_t size, size_t nbytes) {
  StreamBlock* rest = nullptr;
  if (should_split(b, size)) {
    try {
      rest = new_block();
    } catch (const std::bad_alloc&) {  // the heap refused: the whole block is handed out, unsplit
    }
  }
  if (rest) {
    rest->stream = b->stream;
    rest->small = b->small;
    rest->ptr = b->ptr + size;
    rest->size = b->size - size;
    rest->prev = b;
    rest->next = b->next;
    if (b->next) b->next->prev = rest;
    b->next = rest;
    b->size = size;
    pool_for(rest->small).insert(rest);
    update_inactive_split(rest, +1);
  }
  b->allocated = true;
  b->requested = nbytes;
  stats_.block_handed_out(b->small, (int64_t)b->size, (int64_t)nbytes, oversize(b->size));
  return b;
}

// "allocation" counts end here; "active" ones when the block is back in its pool (free_block),
// which waits for the events of other streams it was used on (Note [Stream ordering of reuse]).
void StreamCachingAllocator::free(StreamBlock* b) {
  if (!b) return;
  std::lock_guard<std::mutex> lock(mutex_);
  b->allocated = false;
  stats_.block_freed(b->small, (int64_t)b->size, oversize(b->size));
  if (!b->stream_uses.empty()) insert_events(b);
  else free_block(b);
}

void StreamCachingAllocator::record_stream(StreamBlock* b, StreamId stream) {
  if (!b) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (stream == b->stream) return;  // its own stream orders every use already
  if (std::find(b->stream_uses.begin(), b->stream_uses.end(), stream) == b->stream_uses.end())
    b->stream_uses.push_back(stream);
}

// Merges b with its cached neighbours into its pool; b may be recycled.
void StreamCachingAllocator::free_block(StreamBlock* b) {
  const int64_t bs = (int64_t)b->size, requested = (int64_t)b->requested;
  StreamPool& pool = pool_for(b->small);
  for (StreamBlock* n : {b->next, b->prev}) {
    if (!n || !n->cached()) continue;
    pool.blocks.erase(n);
    update_inactive_split(n, -1);
    b = n == b->next ? absorb(b, n) : absorb(n, b);
  }
  b->requested = 0;
  pool.insert(b);
  update_inactive_split(b, +1);
  stats_.block_inactive(b->small, bs, requested);
}

// front takes back's bytes (its neighbour after it): a segment's first block stays its first.
StreamBlock* StreamCachingAllocator::absorb(StreamBlock* front, StreamBlock* back) {
  front->size += back->size;
  front->next = back->next;
  if (front->next) front->next->prev = front;
  recycle(back);
  return front;
}

// A cached block is an "inactive split" when its segment holds other blocks too.
void StreamCachingAllocator::update_inactive_split(const StreamBlock* b, int sign) {
  if (b->is_split()) stats_.inactive_split_changed(b->small, (int64_t)b->size, sign);
}

void StreamCachingAllocator::empty_cache() {
  std::lock_guard<std::mutex> lock(mutex_);
  release_cached_blocks();
}

void StreamCachingAllocator::set_memory_limit(size_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  memory_limit_ = bytes;
}

size_t StreamCachingAllocator::memory_limit() {
  std::lock_guard<std::mutex> lock(mutex_);
  return memory_limit_;
}

DeviceStats StreamCachingAllocator::stats() {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

void StreamCachingAllocator::reset_peak_stats() {
  std::lock_guard<std::mutex> lock(mutex_);
  stats_.reset_peak();
}

void StreamCachingAllocator::reset_accumulated_stats() {
  std::lock_guard<std::mutex> lock(mutex_);
  stats_.reset_accumulated();
}

int64_t StreamCachingAllocator::snapshot(int64_t* out, int64_t cap) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<StreamBlock*> segs = segments_;
  std::sort(segs.begin(), segs.end(), [](StreamBlock* a, StreamBlock* b) { return a->ptr < b->ptr; });
  std::vector<int64_t> v{(int64_t)segs.size()};
  for (StreamBlock* head : segs)
    append_segment_words(v, head, [](const StreamBlock* b) { return b->allocated ? 1 : b->pending_free() ? 2 : 0; });
  for (StreamBlock* head : segs) v.push_back((int64_t)head->stream);
  return copy_words(v, out, cap);
}

}  // namespace jt
