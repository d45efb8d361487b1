#include "jt/pinned_device_allocator.h"

#include <cstring>

#include "allocator/pinned_host_allocator.h"
#include "allocator/stats.h"

namespace jt {
namespace {

class PinnedDeviceAllocator final : public DeviceAllocator {
 public:
  PinnedDeviceAllocator(HostProvider* host, DeviceProvider* device) : pinned_(host, device) {}

  Allocation allocate(size_t nbytes) override { return pinned_.allocate(nbytes); }
  void free(void* ctx) override { pinned_.free(ctx); }
  void copy_bytes(void* dst, const void* src, size_t nbytes) override { std::memcpy(dst, src, nbytes); }
  void empty_cache() override { pinned_.empty_cache(); }
  void stats(int64_t* out) override {
    const PinnedStats p = pinned_.stats();
    DeviceStats d;
    d.allocation[kAll] = p.allocation;
    d.allocated_bytes[kAll] = p.allocated_bytes;
    d.segment[kAll] = p.segment;
    d.reserved_bytes[kAll] = p.reserved_bytes;
    d.num_device_alloc = p.num_host_alloc;
    d.num_device_free = p.num_host_free;
    d.values(out);
  }
  void reset_peak_stats() override { pinned_.reset_peak_stats(); }
  void reset_accumulated_stats() override { pinned_.reset_accumulated_stats(); }
  int64_t snapshot(int64_t* out, int64_t cap) override {
    if (cap >= 1) out[0] = 0;  // no segments to list: blocks are whole host allocations
    return 1;
  }
  void set_memory_limit(size_t) override {}
  size_t memory_limit() override { return 0; }
  const std::string& conf_error() override { return no_error_; }
  void record_stream(void* ctx, uint64_t stream) override { pinned_.record_stream(ctx, stream); }

 private:
  PinnedHostAllocator pinned_;
  const std::string no_error_;
};

}  // namespace

DeviceAllocator* make_pinned_device_allocator(HostProvider* host, DeviceProvider* device) {
  return new PinnedDeviceAllocator(host, device);
}

}  // namespace jt
