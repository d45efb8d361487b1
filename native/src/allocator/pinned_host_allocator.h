// A caching allocator of page-locked host memory, the staging buffers of asynchronous copies
// between host and device (PyTorch's CachingHostAllocator). Sizes round up to a power of two and
// a freed block is reused for that size only. A copy queued on a stream may still be reading or
// writing the block when the host frees it, so a block used on streams (record_stream) is reused
// only after an event recorded on each of them at its free has completed.
#pragma once
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

#include "allocator/stats.h"
#include "jt/device_allocator.h"
#include "jt/device_provider.h"  // HostProvider too

// libjtensor_cuda.so uses the class from libjtensor.so (built with hidden visibility).
#ifndef JT_CXX_API
#define JT_CXX_API __attribute__((visibility("default")))
#endif

namespace jt {

struct PinnedStats {
  Stat allocation, allocated_bytes, segment, reserved_bytes;  // blocks handed out; blocks held
  int64_t num_host_alloc = 0, num_host_free = 0;
};

class JT_CXX_API PinnedHostAllocator {
 public:
  // Both providers must outlive the allocator; events come from the device's provider.
  PinnedHostAllocator(HostProvider* host, DeviceProvider* device);
  ~PinnedHostAllocator();  // gives every block back, those still handed out included

  Allocation allocate(size_t nbytes);  // {} for 0 bytes or when the host refuses
  void record_stream(void* ctx, StreamId stream);
  void free(void* ctx);  // nullptr is ignored
  void empty_cache();    // gives back every cached block (not those still waiting for events)
  PinnedStats stats();
  void reset_peak_stats();
  void reset_accumulated_stats();  // allocated/freed totals and the host call counts

 private:
  struct Block {
    void* ptr = nullptr;
    size_t size = 0;
    bool allocated = false;
    int event_count = 0;
    std::vector<StreamId> streams;
  };
  static constexpr int kBins = 64;  // one free list per power of two
  void process_events();
  void cache(Block* b);
  void release(Block* b);

  HostProvider* const host_;
  DeviceProvider* const device_;
  std::mutex mutex_;
  // A free list has room for every block of its bin (held_), taken when the block is made, so
  // caching a block never allocates: free() never fails when the heap refuses operator new.
  std::vector<Block*> free_[kBins];
  size_t held_[kBins] = {};
  std::vector<std::pair<void*, Block*>> events_;
  std::vector<Block*> blocks_;  // every block held
  PinnedStats stats_;
};

}  // namespace jt
