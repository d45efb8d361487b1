// Note [Storage owned by its device]
// A storage records the allocator that owns its bytes (as c10's StorageImpl and DataPtr do):
// freeing and resizing go back to that allocator, and stats, snapshots and limits are asked of a
// device's allocator by device type. The CPU caching allocator is registered here; a CUDA
// library registers its own when it loads.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace jt {

// The jt_device_type codes; Java's Device.Type ordinals are checked against their names at load.
enum class DeviceType : int { CPU = 0, CUDA = 1 };
constexpr int kNumDeviceTypes = 2;
const char* device_type_name(int device);  // "cpu", "cuda"; nullptr for an unknown code

// What the allocator hands out: the data pointer and its own record of the block.
struct Allocation {
  void* data = nullptr;
  void* ctx = nullptr;
};

class DeviceAllocator {
 public:
  virtual ~DeviceAllocator() = default;
  virtual Allocation allocate(size_t nbytes) = 0;  // {} when memory is out after the retry
  virtual void free(void* ctx) = 0;                // ctx from allocate; nullptr is ignored
  virtual void copy_bytes(void* dst, const void* src, size_t nbytes) = 0;  // within this device
  virtual void empty_cache() = 0;
  virtual void stats(int64_t* out) = 0;  // DeviceStats::names().size() values, in name order
  virtual void reset_peak_stats() = 0;
  virtual void reset_accumulated_stats() = 0;
  virtual int64_t snapshot(int64_t* out, int64_t cap) = 0;
  virtual void set_memory_limit(size_t bytes) = 0;
  virtual size_t memory_limit() = 0;
  virtual const std::string& conf_error() = 0;  // why its configuration was refused; empty if valid
  // The block ctx is used on stream too (a cudaStream_t's bits): it is not reused before the work
  // queued there when it is freed has run. Devices without streams ignore it.
  virtual void record_stream(void* /*ctx*/, uint64_t /*stream*/) {}
  // Why this thread's last allocate here gave {}, in PyTorch's words; "" when the device says nothing.
  virtual const char* oom_message() { return ""; }
};

// Exported from libjtensor.so (built with hidden visibility): libjtensor_cuda.so registers its
// allocator here when it loads, so both libraries share one registry.
#define JT_CXX_API __attribute__((visibility("default")))
JT_CXX_API DeviceAllocator* device_allocator(int device);  // nullptr: no allocator for that device in this process
JT_CXX_API void register_device_allocator(int device, DeviceAllocator* allocator);

}  // namespace jt
