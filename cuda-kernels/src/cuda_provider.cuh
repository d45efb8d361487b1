// DeviceProvider (jt/device_provider.h) over the CUDA runtime: what the
// stream-aware caching allocator asks of one device, in cudaMalloc, cudaFree, events and streams.
#pragma once
#include "jt/device_provider.h"

namespace jt {
namespace cuda {

class CudaProvider final : public DeviceProvider {
 public:
  explicit CudaProvider(int device) : device_(device) {}
  void* raw_alloc(size_t nbytes) override;
  void raw_free(void* ptr) override;
  void* record_event(StreamId stream) override;
  bool event_done(void* event) override;
  void release_event(void* event) override;
  void synchronize() override;
  StreamId current_stream() override;
  void copy_bytes(void* dst, const void* src, size_t nbytes) override;
  size_t total_memory() override;
  size_t free_memory() override;
  int device_index() override { return device_; }

 private:
  int device_;
};

// Page-locked host memory for the pinned host allocator: cudaHostAlloc/cudaFreeHost.
class CudaHostProvider final : public HostProvider {
 public:
  void* host_alloc(size_t nbytes) override;
  void host_free(void* ptr) override;
};

// Device 0's provider, made once and kept for the process (storages may be freed by the JVM's
// cleaners at exit), shared by its caching allocator and the pinned host allocator's events.
CudaProvider& device0_provider();

}  // namespace cuda
}  // namespace jt
