#include "allocator/foreign_allocator.h"

#include <cstring>
#include <mutex>
#include <new>

#include "allocator/stats.h"

namespace jt {
namespace {

struct ForeignBlock {
  int64_t nbytes;
};

std::mutex stats_mutex;
Stat wrapped;  // guarded by stats_mutex

class ForeignAllocator final : public DeviceAllocator {
 public:
  Allocation allocate(size_t) override { return {}; }  // foreign bytes cannot grow: resize_ is refused in Java first
  void free(void* ctx) override {
    if (!ctx) return;
    auto* b = static_cast<ForeignBlock*>(ctx);
    {
      std::lock_guard<std::mutex> lock(stats_mutex);
      wrapped.decrease(b->nbytes);
    }
    delete b;
  }
  void copy_bytes(void* dst, const void* src, size_t nbytes) override { std::memcpy(dst, src, nbytes); }
  // Nothing is cached and nothing is reported as the caching allocator's.
  void empty_cache() override {}
  void stats(int64_t*) override {}
  void reset_peak_stats() override {}
  void reset_accumulated_stats() override {}
  int64_t snapshot(int64_t* out, int64_t cap) override {
    if (cap > 0) out[0] = 0;
    return 1;
  }
  void set_memory_limit(size_t) override {}
  size_t memory_limit() override { return 0; }
  const std::string& conf_error() override {
    static const std::string none;
    return none;
  }
};

}  // namespace

DeviceAllocator& foreign_allocator() {
  static ForeignAllocator a;
  return a;
}

Allocation foreign_allocation(void* data, int64_t nbytes) {
  auto* b = new (std::nothrow) ForeignBlock{nbytes};
  if (!b) return {};  // the heap refused: nothing counted
  {
    std::lock_guard<std::mutex> lock(stats_mutex);
    wrapped.increase(nbytes);
  }
  return Allocation{data, b};
}

void foreign_stats(int64_t* out) {
  std::lock_guard<std::mutex> lock(stats_mutex);
  out[0] = wrapped.current;
  out[1] = wrapped.peak;
  out[2] = wrapped.allocated;
  out[3] = wrapped.freed;
}

void foreign_reset_peak() {
  std::lock_guard<std::mutex> lock(stats_mutex);
  wrapped.reset_peak();
}

void foreign_reset_accumulated() {
  std::lock_guard<std::mutex> lock(stats_mutex);
  wrapped.reset_accumulated();
}

}  // namespace jt
