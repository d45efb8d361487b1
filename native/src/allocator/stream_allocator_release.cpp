// The stream caching allocator giving memory back: when a new segment is refused, under the
// memory limit's garbage collection, by emptyCache, and the out-of-memory report.
#include <algorithm>
#include <cstdio>

#include "allocator/stream_caching_allocator.h"

namespace jt {
namespace {

// The last failure of this thread, for the allocator that failed.
struct OomNote {
  const void* owner = nullptr;
  std::string text;
  size_t heap_refused = 0;  // the request's bytes when the heap, not the device, refused it
};
thread_local OomNote last_oom;

// PyTorch's format_size: bytes up to 1 KiB, then KiB, MiB and GiB with two decimals.
std::string format_size(uint64_t size) {
  char buf[64];
  if (size <= 1024) std::snprintf(buf, sizeof buf, "%llu bytes", (unsigned long long)size);
  else if (size <= (1ull << 20)) std::snprintf(buf, sizeof buf, "%.2f KiB", size / 1024.0);
  else if (size <= (1ull << 30)) std::snprintf(buf, sizeof buf, "%.2f MiB", size / 1048576.0);
  else std::snprintf(buf, sizeof buf, "%.2f GiB", size / 1073741824.0);
  return buf;
}

}  // namespace

// A new segment for a request the pool could not serve, freeing cached memory step by step as
// PyTorch does: the oversize blocks that make room, then (after waiting for every pending event)
// every whole cached segment, before the one retry.
StreamBlock* StreamCachingAllocator::allocate_or_release(StreamPool& pool, size_t size, StreamId stream) {
  const size_t seg_size = CachingAllocator::segment_size(size);
  if (gc_threshold_ > 0 && memory_limit_) garbage_collect();
  StreamBlock* b = alloc_segment(seg_size, pool.small, stream);
  if (!b && release_available_cached_blocks(pool, size, stream)) b = alloc_segment(seg_size, pool.small, stream);
  if (!b) {
    stats_.num_alloc_retries++;
    release_cached_blocks();
    b = get_free_block(pool, size, stream);  // a block whose events were pending may serve now
    if (!b) b = alloc_segment(seg_size, pool.small, stream);
  }
  return b;
}

// Only whole cached segments go back: a split one still holds blocks in use.
void StreamCachingAllocator::release_segment(StreamBlock* b) {
  pool_for(b->small).blocks.erase(b);
  stats_.segment_released(b->small, (int64_t)b->size, oversize(b->size));
  provider_->raw_free(b->ptr);
  segments_.erase(std::find(segments_.begin(), segments_.end(), b));
  recycle(b);
}

// With max_split_size set, frees the stream's smallest cached oversize segment that is at least
// as large as the request, else its largest ones until as many bytes are free. True when enough was.
bool StreamCachingAllocator::release_available_cached_blocks(StreamPool& pool, size_t size, StreamId stream) {
  if (max_split_size_ == SIZE_MAX) return false;
  StreamBlock key;
  key.stream = stream;
  key.size = std::max(size, max_split_size_);
  auto it = pool.blocks.lower_bound(&key);
  if (it != pool.blocks.end() && (*it)->stream == stream && !(*it)->is_split()) {
    release_segment(*it);
    return true;
  }
  std::vector<StreamBlock*> victims;
  size_t freed = 0;
  while (it != pool.blocks.begin() && freed < key.size) {
    StreamBlock* b = *--it;
    if (b->stream != stream || !oversize(b->size)) break;
    if (b->is_split()) continue;
    victims.push_back(b);
    freed += b->size;
  }
  for (StreamBlock* b : victims) release_segment(b);
  return freed >= key.size;
}

void StreamCachingAllocator::release_cached_blocks() {
  synchronize_and_free_events();
  for (StreamPool* pool : {&large_blocks_, &small_blocks_}) {
    std::vector<StreamBlock*> whole;
    for (StreamBlock* b : pool->blocks)
      if (!b->is_split()) whole.push_back(b);
    for (StreamBlock* b : whole) release_segment(b);
  }
}

// garbage_collection_threshold: once reserved memory passes that fraction of the limit, whole
// cached large segments are freed, those unused for longer than average first (age counts the
// pool's lookups since a block was cached), until reserved memory is back under the threshold.
void StreamCachingAllocator::garbage_collect() {
  const size_t threshold = (size_t)(gc_threshold_ * (double)memory_limit_);
  const size_t reserved = (size_t)stats_.reserved_bytes[kAll].current;
  if (reserved <= threshold) return;
  const size_t target = reserved - threshold;
  std::vector<StreamBlock*> freeable;
  double total_age = 0;
  for (StreamBlock* b : large_blocks_.blocks) {
    if (b->is_split()) continue;
    freeable.push_back(b);
    total_age += (double)large_blocks_.age(b);
  }
  size_t reclaimed = 0;
  while (reclaimed < target && !freeable.empty()) {
    const double average = total_age / (double)freeable.size();
    std::vector<StreamBlock*> younger;
    for (StreamBlock* b : freeable) {
      const double age = (double)large_blocks_.age(b);
      if (age < average) {
        younger.push_back(b);
        continue;
      }
      reclaimed += b->size;
      total_age -= age;
      release_segment(b);
    }
    freeable.swap(younger);
  }
}

// PyTorch's message, with jtensor in its place.
void StreamCachingAllocator::report_out_of_memory(size_t alloc_size) {
  stats_.num_ooms++;
  const size_t total = provider_->total_memory();
  const int64_t allocated = stats_.allocated_bytes[kAll].current;
  const int64_t reserved = stats_.reserved_bytes[kAll].current;
  size_t free_bytes = provider_->free_memory();
  if (free_bytes == SIZE_MAX) free_bytes = total > (size_t)reserved ? total - (size_t)reserved : 0;
  std::string allowed = memory_limit_ ? format_size(memory_limit_) + " allowed; " : "";
  last_oom.owner = this;
  last_oom.heap_refused = 0;
  last_oom.text = "CUDA out of memory. Tried to allocate " + format_size(alloc_size) + ". GPU " +
                  std::to_string(provider_->device_index()) + " has a total capacity of " + format_size(total) +
                  " of which " + format_size(free_bytes) + " is free. " + allowed + "Of the allocated memory " +
                  format_size((uint64_t)allocated) + " is allocated by jtensor, and " +
                  format_size((uint64_t)(reserved - allocated)) +
                  " is reserved by jtensor but unallocated. If reserved but unallocated memory is large try "
                  "setting JT_CUDA_ALLOC_CONF=max_split_size_mb:N to avoid fragmentation.";
}

// The heap (not the device) refused a step of allocate(): the request fails, nothing else changed.
void StreamCachingAllocator::report_heap_refused(size_t nbytes) noexcept {
  last_oom.owner = this;
  last_oom.heap_refused = nbytes;
  last_oom.text.clear();  // the message is not built: building it may be refused too
}

const char* StreamCachingAllocator::oom_message() const {
  if (last_oom.owner != this) return "";
  if (last_oom.text.empty() && last_oom.heap_refused) {
    return "CUDA allocator: the host's heap refused the allocator's own bookkeeping (operator new failed); no device memory was taken";
  }
  return last_oom.text.c_str();
}

}  // namespace jt
