// What a device offers the stream-aware caching allocator (stream_caching_allocator.h): raw
// memory, events and streams. CUDA implements it over cudart (cuda-kernels/); the CTest suite over a
// fake whose events complete when the test says, so the allocator's rules are tested without a GPU.
#pragma once
#include <cstddef>
#include <cstdint>

namespace jt {

using StreamId = uint64_t;  // a cudaStream_t's bits; 0 is the legacy default stream

class DeviceProvider {
 public:
  virtual ~DeviceProvider() = default;
  virtual void* raw_alloc(size_t nbytes) = 0;  // nullptr when the device has no room
  virtual void raw_free(void* ptr) = 0;
  virtual void* record_event(StreamId stream) = 0;  // a new event, recorded now on stream; nullptr on failure
  virtual bool event_done(void* event) = 0;         // non-blocking query
  virtual void release_event(void* event) = 0;
  virtual void synchronize() = 0;           // waits for every stream of the device
  virtual StreamId current_stream() = 0;    // the stream the calling thread's ops run on
  virtual void copy_bytes(void* dst, const void* src, size_t nbytes) = 0;  // within the device, on the current stream
  virtual size_t total_memory() = 0;        // the device's capacity, for the out-of-memory message
  // Free bytes on the device now (cudaMemGetInfo), for the out-of-memory message. SIZE_MAX, the
  // default, means unknown: the message then counts capacity less what the allocator reserved.
  virtual size_t free_memory() { return SIZE_MAX; }
  virtual int device_index() = 0;
};

// Where page-locked memory comes from: cudaHostAlloc/cudaFreeHost for CUDA, a fake in tests.
class HostProvider {
 public:
  virtual ~HostProvider() = default;
  virtual void* host_alloc(size_t nbytes) = 0;  // nullptr when refused
  virtual void host_free(void* ptr) = 0;
};

}  // namespace jt
