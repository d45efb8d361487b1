#include "jt/device_allocator.h"

#include <atomic>
#include <cstring>

#include "allocator/caching_allocator.h"

namespace jt {
namespace {

// The CPU caching allocator behind the device-neutral interface.
class CpuDeviceAllocator final : public DeviceAllocator {
 public:
  Allocation allocate(size_t nbytes) override {
    Block* b = cpu_allocator().allocate(nbytes);
    return b ? Allocation{b->ptr, b} : Allocation{};
  }
  void free(void* ctx) override { cpu_allocator().free(static_cast<Block*>(ctx)); }
  void copy_bytes(void* dst, const void* src, size_t nbytes) override { std::memcpy(dst, src, nbytes); }
  void empty_cache() override { cpu_allocator().empty_cache(); }
  void stats(int64_t* out) override { cpu_allocator().stats().values(out); }
  void reset_peak_stats() override { cpu_allocator().reset_peak_stats(); }
  void reset_accumulated_stats() override { cpu_allocator().reset_accumulated_stats(); }
  int64_t snapshot(int64_t* out, int64_t cap) override { return cpu_allocator().snapshot(out, cap); }
  void set_memory_limit(size_t bytes) override { cpu_allocator().set_memory_limit(bytes); }
  size_t memory_limit() override { return cpu_allocator().memory_limit(); }
  const std::string& conf_error() override { return cpu_allocator().conf_error(); }
};

CpuDeviceAllocator cpu_device_allocator;
std::atomic<DeviceAllocator*> registry[kNumDeviceTypes] = {{&cpu_device_allocator}, {nullptr}};

}  // namespace

const char* device_type_name(int device) {
  switch (device) {
    case (int)DeviceType::CPU: return "cpu";
    case (int)DeviceType::CUDA: return "cuda";
    default: return nullptr;
  }
}

DeviceAllocator* device_allocator(int device) {
  return device >= 0 && device < kNumDeviceTypes ? registry[device].load(std::memory_order_acquire) : nullptr;
}

void register_device_allocator(int device, DeviceAllocator* allocator) {
  if (device >= 0 && device < kNumDeviceTypes) registry[device].store(allocator, std::memory_order_release);
}

}  // namespace jt
