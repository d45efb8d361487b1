// A DeviceProvider (and HostProvider) without a GPU, for the stream allocator's CTest suite:
// "device" memory is malloc'd under a capacity, events complete when the test says (or at
// synchronize), and each thread has a current stream the test sets.
#pragma once
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <new>
#include <set>

#include "allocator/pinned_host_allocator.h"
#include "jt/device_provider.h"

struct FakeEvent {
  jt::StreamId stream;
  bool done = false;
};

class FakeDevice final : public jt::DeviceProvider, public jt::HostProvider {
 public:
  explicit FakeDevice(size_t capacity) : capacity_(capacity) {}
  ~FakeDevice() override {
    for (FakeEvent* e : events_) delete e;
  }

  void* raw_alloc(size_t n) override {
    std::lock_guard<std::mutex> lock(m_);
    if (used_ + n > capacity_) return nullptr;
    void* p = std::malloc(n);
    if (!p) return nullptr;
    try {  // as cudaMalloc: nullptr when refused, even by the heap (heap_refusal_test refuses operator new)
      used_ += sizes_[p] = n;
    } catch (const std::bad_alloc&) {
      std::free(p);
      return nullptr;
    }
    raw_allocs_++;
    return p;
  }
  void raw_free(void* p) override {
    std::lock_guard<std::mutex> lock(m_);
    used_ -= sizes_.at(p);
    sizes_.erase(p);
    std::free(p);
  }
  void* record_event(jt::StreamId s) override {
    std::lock_guard<std::mutex> lock(m_);
    if (refuse_events_) return nullptr;
    FakeEvent* e = new (std::nothrow) FakeEvent{s};
    if (!e) return nullptr;
    try {
      events_.insert(e);
    } catch (const std::bad_alloc&) {
      delete e;
      return nullptr;
    }
    return e;
  }
  bool event_done(void* e) override {
    std::lock_guard<std::mutex> lock(m_);
    return static_cast<FakeEvent*>(e)->done;
  }
  void release_event(void* e) override {
    std::lock_guard<std::mutex> lock(m_);
    events_.erase(static_cast<FakeEvent*>(e));
    delete static_cast<FakeEvent*>(e);
  }
  void synchronize() override {
    std::lock_guard<std::mutex> lock(m_);
    syncs_++;
    for (FakeEvent* e : events_) e->done = true;
  }
  jt::StreamId current_stream() override { return stream(); }
  void copy_bytes(void* dst, const void* src, size_t n) override { std::memcpy(dst, src, n); }
  size_t total_memory() override { return capacity_; }
  int device_index() override { return 0; }

  void* host_alloc(size_t n) override { return raw_alloc(n); }
  void host_free(void* p) override { raw_free(p); }

  // The work queued on stream s so far has run: its events are done.
  void complete(jt::StreamId s) {
    std::lock_guard<std::mutex> lock(m_);
    for (FakeEvent* e : events_)
      if (e->stream == s) e->done = true;
  }
  static jt::StreamId& stream() {
    static thread_local jt::StreamId s = 0;
    return s;
  }
  size_t used() {
    std::lock_guard<std::mutex> lock(m_);
    return used_;
  }
  size_t live_events() {
    std::lock_guard<std::mutex> lock(m_);
    return events_.size();
  }
  int syncs() { return syncs_; }
  int raw_allocs() { return raw_allocs_; }
  void refuse_events(bool r) { refuse_events_ = r; }

 private:
  std::mutex m_;
  size_t capacity_, used_ = 0;
  std::map<void*, size_t> sizes_;
  std::set<FakeEvent*> events_;
  int syncs_ = 0, raw_allocs_ = 0;
  bool refuse_events_ = false;
};
