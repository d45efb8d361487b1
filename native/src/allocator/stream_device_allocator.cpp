#include "jt/stream_device_allocator.h"

#include <cstdlib>

#include "allocator/stream_caching_allocator.h"

namespace jt {
namespace {

class StreamDeviceAllocator final : public DeviceAllocator {
 public:
  explicit StreamDeviceAllocator(DeviceProvider* provider)
      : provider_(provider),
        cache_(provider, parse_alloc_conf(std::getenv("JT_CUDA_ALLOC_CONF"), AllocConfTarget::kCuda)) {}

  Allocation allocate(size_t nbytes) override {
    StreamBlock* b = cache_.allocate(nbytes, provider_->current_stream());
    return b ? Allocation{b->ptr, b} : Allocation{};
  }
  void free(void* ctx) override { cache_.free(static_cast<StreamBlock*>(ctx)); }
  void copy_bytes(void* dst, const void* src, size_t nbytes) override { provider_->copy_bytes(dst, src, nbytes); }
  void empty_cache() override { cache_.empty_cache(); }
  void stats(int64_t* out) override { cache_.stats().values(out); }
  void reset_peak_stats() override { cache_.reset_peak_stats(); }
  void reset_accumulated_stats() override { cache_.reset_accumulated_stats(); }
  int64_t snapshot(int64_t* out, int64_t cap) override { return cache_.snapshot(out, cap); }
  void set_memory_limit(size_t bytes) override { cache_.set_memory_limit(bytes); }
  size_t memory_limit() override { return cache_.memory_limit(); }
  const std::string& conf_error() override { return cache_.conf_error(); }
  void record_stream(void* ctx, uint64_t stream) override {
    cache_.record_stream(static_cast<StreamBlock*>(ctx), stream);
  }
  const char* oom_message() override { return cache_.oom_message(); }

 private:
  DeviceProvider* const provider_;
  StreamCachingAllocator cache_;
};

}  // namespace

DeviceAllocator* make_stream_device_allocator(DeviceProvider* provider) {
  return new StreamDeviceAllocator(provider);
}

}  // namespace jt
