#include "allocator/pinned_host_allocator.h"

#include <algorithm>
#include <memory>
#include <new>

#include "allocator/asan.h"

namespace jt {
namespace {

int bin_of(size_t size) {  // size is a power of two
  int b = 0;
  while ((size_t(1) << b) < size) b++;
  return b;
}

size_t round_pow2(size_t n) {
  size_t p = 512;  // the smallest block, as the device allocator's
  while (p < n) p <<= 1;
  return p;
}

}  // namespace

PinnedHostAllocator::PinnedHostAllocator(HostProvider* host, DeviceProvider* device) : host_(host), device_(device) {}

PinnedHostAllocator::~PinnedHostAllocator() {
  for (auto& e : events_) device_->release_event(e.first);
  for (Block* b : blocks_) {
    JT_UNPOISON(b->ptr, b->size);
    host_->host_free(b->ptr);
    delete b;
  }
}

Allocation PinnedHostAllocator::allocate(size_t nbytes) {
  if (nbytes == 0 || nbytes > (SIZE_MAX >> 2)) return {};
  const size_t size = round_pow2(nbytes);
  std::lock_guard<std::mutex> lock(mutex_);
  if (!events_.empty()) process_events();
  std::vector<Block*>& list = free_[bin_of(size)];
  Block* b = nullptr;
  if (!list.empty()) {
    b = list.back();
    list.pop_back();
  } else {
    std::unique_ptr<Block> made;
    try {  // the block and its room in blocks_ and its bin's free list, before the memory
      made.reset(new Block());
      blocks_.reserve(blocks_.size() + 1);
      list.reserve(held_[bin_of(size)] + 1);
    } catch (const std::bad_alloc&) {
      return {};
    }
    void* p = host_->host_alloc(size);
    if (!p) return {};
    b = made.release();
    b->ptr = p;
    b->size = size;
    blocks_.push_back(b);
    held_[bin_of(size)]++;
    stats_.num_host_alloc++;
    stats_.segment.increase(1);
    stats_.reserved_bytes.increase((int64_t)size);
  }
  b->allocated = true;
  stats_.allocation.increase(1);
  stats_.allocated_bytes.increase((int64_t)size);
  JT_UNPOISON(b->ptr, nbytes);  // a cached block, and the tail past nbytes, stay poisoned under ASan
  return {b->ptr, b};
}

void PinnedHostAllocator::record_stream(void* ctx, StreamId stream) {
  if (!ctx) return;
  Block* b = static_cast<Block*>(ctx);
  std::lock_guard<std::mutex> lock(mutex_);
  if (std::find(b->streams.begin(), b->streams.end(), stream) == b->streams.end()) b->streams.push_back(stream);
}

void PinnedHostAllocator::free(void* ctx) {
  if (!ctx) return;
  Block* b = static_cast<Block*>(ctx);
  std::lock_guard<std::mutex> lock(mutex_);
  b->allocated = false;
  stats_.allocation.decrease(1);
  stats_.allocated_bytes.decrease((int64_t)b->size);
  bool synchronized = false;
  for (StreamId s : b->streams) {
    void* event = device_->record_event(s);
    if (event) {
      try {
        events_.emplace_back(event, b);
        b->event_count++;
        continue;
      } catch (const std::bad_alloc&) {  // no room to queue it: free() must not fail
        device_->release_event(event);
      }
    }
    if (!synchronized) {  // no event to wait on: wait for the device instead
      device_->synchronize();
      synchronized = true;
    }
  }
  b->streams.clear();
  if (b->event_count == 0) cache(b);
}

void PinnedHostAllocator::cache(Block* b) {
  JT_POISON(b->ptr, b->size);
  free_[bin_of(b->size)].push_back(b);
}

// Every completed event, in any order: a slow stream delays only its own blocks.
void PinnedHostAllocator::process_events() {
  size_t kept = 0;
  for (auto& e : events_) {
    if (!device_->event_done(e.first)) {
      events_[kept++] = e;
      continue;
    }
    device_->release_event(e.first);
    if (--e.second->event_count == 0) cache(e.second);
  }
  events_.resize(kept);
}

void PinnedHostAllocator::release(Block* b) {
  stats_.num_host_free++;
  stats_.segment.decrease(1);
  stats_.reserved_bytes.decrease((int64_t)b->size);
  JT_UNPOISON(b->ptr, b->size);
  host_->host_free(b->ptr);
  blocks_.erase(std::find(blocks_.begin(), blocks_.end(), b));
  held_[bin_of(b->size)]--;
  delete b;
}

void PinnedHostAllocator::empty_cache() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!events_.empty()) process_events();
  for (auto& list : free_) {
    for (Block* b : list) release(b);
    list.clear();
  }
}

PinnedStats PinnedHostAllocator::stats() {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

void PinnedHostAllocator::reset_peak_stats() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (Stat* s : {&stats_.allocation, &stats_.allocated_bytes, &stats_.segment, &stats_.reserved_bytes}) s->reset_peak();
}

void PinnedHostAllocator::reset_accumulated_stats() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (Stat* s : {&stats_.allocation, &stats_.allocated_bytes, &stats_.segment, &stats_.reserved_bytes}) s->reset_accumulated();
  stats_.num_host_alloc = stats_.num_host_free = 0;
}

}  // namespace jt
