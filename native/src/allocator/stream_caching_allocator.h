// A device caching allocator with PyTorch's CUDACachingAllocator rules, over a DeviceProvider so
// that the same logic runs on CUDA and, in the CTest suite, on a fake device without a GPU.
// Sizes round to 512 bytes; requests up to 1 MiB share 2 MiB segments (the small pool), larger
// ones take 20 MiB segments below 10 MiB and their size rounded to 2 MiB above (the large pool).
// A free block is found best fit among the blocks of the caller's stream, split when the rest is
// worth keeping (never above max_split_size_mb) and merged with its free neighbours when freed.
//
// Note [Stream ordering of reuse]
// Work on a stream runs in the order it was queued, so a block freed by the host may be handed
// to a later request on the SAME stream at once: that request's kernels run after the ones that
// used it. Another stream gives no such order, so a block belongs to the stream it was allocated
// on, and pools are keyed by (stream, size, address). A block used on other streams too
// (recordStream) is not cached when freed: an event is recorded on each of those streams and the
// block returns to its pool only once every one has completed (polled at each allocate; waited
// for by emptyCache and the out-of-memory path, which synchronize the device first).
#pragma once
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "allocator/alloc_conf.h"
#include "allocator/stats.h"
#include "allocator/stream_block.h"
#include "jt/device_provider.h"

namespace jt {

class StreamCachingAllocator {
 public:
  // provider must outlive the allocator; conf.error is kept for conf_error().
  StreamCachingAllocator(DeviceProvider* provider, const AllocConf& conf);
  ~StreamCachingAllocator();  // gives every segment back, blocks still handed out included

  // A block of at least nbytes for stream, or nullptr (nbytes == 0, or memory out after freeing
  // the cache and retrying: oom_message() then says why, in PyTorch's words).
  StreamBlock* allocate(size_t nbytes, StreamId stream);
  void free(StreamBlock* block);  // nullptr is ignored
  void record_stream(StreamBlock* block, StreamId stream);
  void empty_cache();  // waits for pending events, then gives every whole free segment back

  DeviceStats stats();
  void reset_peak_stats();
  void reset_accumulated_stats();
  // jt_snapshot's words (jt.h), a block's state 2 while it waits for events, and after the
  // segments one more word per segment, in the same order: the stream it serves.
  int64_t snapshot(int64_t* out, int64_t cap);
  void set_memory_limit(size_t bytes);  // 0: no limit
  size_t memory_limit();
  const std::string& conf_error() const { return conf_error_; }
  const char* oom_message() const;  // this thread's last failure of this allocator; "" if none
  DeviceProvider* provider() const { return provider_; }

 private:
  using EventQueue = std::deque<std::pair<void*, StreamBlock*>>;

  // stream_caching_allocator.cpp: finding, splitting, freeing and merging blocks
  StreamPool& pool_for(bool small) { return small ? small_blocks_ : large_blocks_; }
  StreamBlock* allocate_locked(size_t nbytes, StreamId stream);
  StreamBlock* get_free_block(StreamPool& pool, size_t size, StreamId stream);
  StreamBlock* alloc_segment(size_t seg_size, bool small, StreamId stream);
  bool should_split(const StreamBlock* b, size_t size) const;
  StreamBlock* hand_out(StreamBlock* b, size_t size, size_t nbytes);
  void free_block(StreamBlock* b);
  StreamBlock* absorb(StreamBlock* front, StreamBlock* back);
  void update_inactive_split(const StreamBlock* b, int sign);
  StreamBlock* new_block();
  void recycle(StreamBlock* b);
  bool oversize(size_t size) const { return size >= max_split_size_; }

  // stream_allocator_release.cpp: giving memory back, and the out-of-memory report
  StreamBlock* allocate_or_release(StreamPool& pool, size_t size, StreamId stream);
  void release_segment(StreamBlock* b);
  bool release_available_cached_blocks(StreamPool& pool, size_t size, StreamId stream);
  void release_cached_blocks();
  void garbage_collect();
  void report_out_of_memory(size_t alloc_size);
  void report_heap_refused(size_t nbytes) noexcept;

  // stream_allocator_events.cpp
  void insert_events(StreamBlock* b);
  void process_events();
  void synchronize_and_free_events();

  DeviceProvider* const provider_;
  std::mutex mutex_;
  // As the CPU's (Note [No throw after the heap refuses], caching_allocator.h): every StreamBlock
  // made brings a pool node and room in segments_ and spare_blocks_, taken before anything
  // changes; a free whose events cannot be queued waits for the device instead. So free() never
  // fails and allocate() answers nullptr (or an unsplit block) when the heap refuses.
  StreamPool small_blocks_{true, StreamPool::Nodes()}, large_blocks_{false, small_blocks_.blocks.get_allocator()};
  std::vector<StreamBlock*> segments_;  // the first block of each live segment (it stays first)
  std::vector<StreamBlock*> spare_blocks_;
  size_t blocks_made_ = 0;
  std::map<StreamId, EventQueue> events_;  // per stream: one stream's slow work delays no other
  DeviceStats stats_;
  size_t memory_limit_ = 0;
  size_t max_split_size_ = SIZE_MAX;
  double gc_threshold_ = 0;
  std::string conf_error_;
};

}  // namespace jt
