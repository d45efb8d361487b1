// When the heap refuses operator new (Note [No throw after the heap refuses]): the caching
// allocator answers nullptr or hands out a whole block, never an exception, and loses no byte;
// the C API's storage calls answer 0 or a status (an exception through JNI ends the JVM). Every
// n-th operator new is refused in turn, n = 0, 1, ... until a round runs without a refusal.
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <thread>

#include "allocator/caching_allocator.h"
#include "allocator/stream_caching_allocator.h"
#include "check.h"
#include "fake_device_provider.h"
#include "jt/jt.h"

namespace {
thread_local bool t_armed = false;  // only the thread under test is refused
std::atomic<long> g_allowed{-1};    // operator news that still succeed on it; -1: every one
std::atomic<long> g_refused{0};
}  // namespace

void* operator new(std::size_t n) {
  if (t_armed) {
    long left = g_allowed.load();
    if (left == 0) {
      ++g_refused;
      throw std::bad_alloc();
    }
    if (left > 0) --g_allowed;
  }
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
// The nothrow forms through the one above, as libstdc++'s own do (AddressSanitizer's would not).
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return ::operator new(n);
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }

namespace {
using jt::Block;
using jt::CachingAllocator;
using jt::kAll;

// Runs body on a new thread whose n-th operator new and every later one are refused; true when
// nothing was refused (the sweep's end). An exception out of body is a failure: through JNI it
// would have ended the process.
template <typename F>
bool refusing_after(long n, F&& body) {
  long before = g_refused.load();
  bool escaped = false;
  std::thread th([&] {
    g_allowed = n;
    t_armed = true;
    try {
      body();
    } catch (...) {
      escaped = true;
    }
    t_armed = false;
    g_allowed = -1;
  });
  th.join();
  CHECK(!escaped);
  return g_refused.load() == before;
}

// A fresh allocator each round: new Blocks, pool nodes, the thread's cache, a split, a merge.
void allocator_loses_nothing() {
  long rounds = 0, refusing = 0;
  for (long n = 0;; ++n) {
    CachingAllocator a;
    Block *small = nullptr, *big = nullptr, *other = nullptr;
    bool clean = refusing_after(n, [&] {
      small = a.allocate(100);  // nullptr when the heap refused its segment's Block
      big = a.allocate(3 << 20);  // a large segment, split
      other = a.allocate(40000);
      int64_t words[4096];
      try {
        a.snapshot(words, 4096);
      } catch (const std::bad_alloc&) {  // its list of words: the C API answers -1 for it
      }
    });
    ++rounds;
    if (!clean) ++refusing;
    if (clean) CHECK(small != nullptr && big != nullptr && other != nullptr);
    refusing_after(n, [&] {  // freeing and flushing under the same refusals
      a.free(small);
      a.free(big);
      a.free(other);
      a.empty_cache();
    });
    auto s = a.stats();
    CHECK_EQ(s.allocated_bytes[kAll].current, 0);
    CHECK_EQ(s.reserved_bytes[kAll].current, 0);  // every segment found its way back
    CHECK_EQ(s.segment[kAll].current, 0);
    if (clean || n > 200) break;
  }
  CHECK(refusing > 3);
  std::printf("allocator: %ld rounds, %ld with refusals\n", rounds, refusing);
}

// The CUDA caching allocator's logic over a fake device, under the same refusals: allocate answers
// nullptr (saying why) or a block, possibly unsplit; record_stream may be refused (the C API answers
// a status); free never fails, a block used on another stream waiting for the device where its
// event cannot be queued; every segment goes back to the device.
void stream_allocator_loses_nothing() {
  long rounds = 0, refusing = 0;
  for (long n = 0;; ++n) {
    FakeDevice dev(1 << 30);
    bool clean;
    {
      jt::StreamCachingAllocator a(&dev, {});
      jt::StreamBlock *small = nullptr, *big = nullptr, *other = nullptr;
      bool said_why = true;
      clean = refusing_after(n, [&] {
        small = a.allocate(100, 0);
        big = a.allocate(3 << 20, 0);  // a large segment, split
        other = a.allocate(40000, 1);
        for (jt::StreamBlock* b : {small, big, other}) said_why = said_why && (b || *a.oom_message());
        if (other) {
          try {
            a.record_stream(other, 2);  // used on stream 2 too: its free waits for that stream
          } catch (const std::bad_alloc&) {  // jt_storage_record_stream answers JT_OUT_OF_MEMORY for it
          }
        }
        int64_t words[4096];
        try {
          a.snapshot(words, 4096);
        } catch (const std::bad_alloc&) {  // its list of words: the C API answers -1 for it
        }
      });
      CHECK(said_why);
      if (clean) CHECK(small != nullptr && big != nullptr && other != nullptr);
      refusing_after(n, [&] {
        a.free(small);
        a.free(big);
        a.free(other);
        a.empty_cache();  // waits for stream 2's event, then gives every whole segment back
      });
      auto s = a.stats();
      CHECK_EQ(s.allocated_bytes[kAll].current, 0);
      CHECK_EQ(s.reserved_bytes[kAll].current, 0);
      CHECK_EQ(s.segment[kAll].current, 0);
      CHECK_EQ(dev.used(), 0u);
    }
    CHECK_EQ(dev.live_events(), 0u);
    ++rounds;
    if (!clean) ++refusing;
    if (clean || n > 300) break;
  }
  CHECK(refusing > 3);
  std::printf("stream allocator: %ld rounds, %ld with refusals\n", rounds, refusing);
}

// The pinned host allocator (the staging buffers of asynchronous copies) under the same refusals:
// allocate answers {} or a block, free never fails, every block goes back to the host.
void pinned_allocator_loses_nothing() {
  long refusing = 0;
  for (long n = 0;; ++n) {
    FakeDevice dev(1 << 30);
    bool clean;
    {
      jt::PinnedHostAllocator a(&dev, &dev);
      jt::Allocation x{}, y{}, z{};
      clean = refusing_after(n, [&] {
        x = a.allocate(100);
        y = a.allocate(5000);
        z = a.allocate(100);  // a second block of x's bin
        if (y.ctx) {
          try {
            a.record_stream(y.ctx, 3);
          } catch (const std::bad_alloc&) {
          }
        }
      });
      if (clean) CHECK(x.ctx != nullptr && y.ctx != nullptr && z.ctx != nullptr);
      refusing_after(n, [&] {
        a.free(x.ctx);
        a.free(y.ctx);
        a.free(z.ctx);
      });
      dev.synchronize();
      a.empty_cache();
      CHECK_EQ(a.stats().reserved_bytes.current, 0);
      CHECK_EQ(dev.used(), 0u);
    }
    CHECK_EQ(dev.live_events(), 0u);
    if (!clean) ++refusing;
    if (clean || n > 300) break;
  }
  CHECK(refusing > 2);
  std::printf("pinned allocator: %ld rounds with refusals\n", refusing);
}

int stat_index(const char* name) {
  for (int i = 0; i < jt_stat_count(); ++i)
    if (std::strcmp(jt_stat_name(i), name) == 0) return i;
  return -1;
}

// The C API's storage calls on the CPU's allocator: 0 or a status, and every byte back.
void c_api_answers_instead_of_throwing() {
  const int allocated = stat_index("allocated_bytes.all.current");
  const int reserved = stat_index("reserved_bytes.all.current");
  CHECK(allocated >= 0 && reserved >= 0);
  int64_t stats[256];
  CHECK(jt_stat_count() <= 256);
  jt_empty_cache(JT_DEVICE_CPU);
  jt_memory_stats(JT_DEVICE_CPU, stats);
  const int64_t allocated0 = stats[allocated], reserved0 = stats[reserved];
  long refusing = 0, failed_calls = 0;
  static char outside[64];
  for (long n = 0; n < 400; ++n) {
    int64_t h[4] = {};
    int statuses[1] = {JT_OK};
    int64_t listed = 0, wrapped[4];
    bool clean = refusing_after(n, [&] {
      h[0] = jt_storage_new(JT_DEVICE_CPU, 100);
      h[1] = jt_storage_new(JT_DEVICE_CPU, 3 << 20);
      h[2] = jt_storage_new(JT_DEVICE_CPU, 40000);
      h[3] = jt_storage_wrap(reinterpret_cast<int64_t>(outside), sizeof outside);
      if (h[0]) statuses[0] = jt_storage_resize(h[0], 5000);
      int64_t words[4096];
      listed = jt_snapshot(JT_DEVICE_CPU, words, 4096);
      jt_memory_stats(JT_DEVICE_CPU, stats);
      for (int64_t s : h)
        if (s) jt_storage_release(s);
      jt_empty_cache(JT_DEVICE_CPU);
    });
    for (int64_t s : h) failed_calls += s == 0;
    CHECK(statuses[0] == JT_OK || statuses[0] == JT_OUT_OF_MEMORY);
    CHECK(listed == -1 || listed > 0);
    jt_wrapped_stats(wrapped);
    CHECK_EQ(wrapped[0], 0);  // a refused wrap counted nothing
    jt_empty_cache(JT_DEVICE_CPU);
    jt_memory_stats(JT_DEVICE_CPU, stats);
    CHECK_EQ(stats[allocated], allocated0);
    CHECK_EQ(stats[reserved], reserved0);
    if (clean) {
      CHECK(h[0] != 0 && h[1] != 0 && h[2] != 0 && h[3] != 0);
      break;
    }
    ++refusing;
  }
  CHECK(refusing > 0);
  std::printf("c api: %ld rounds with refusals, %ld storage calls answered 0\n", refusing, failed_calls);
}
}  // namespace

int main() {
  allocator_loses_nothing();
  stream_allocator_loses_nothing();
  pinned_allocator_loses_nothing();
  c_api_answers_instead_of_throwing();
  return jt_report("heap_refusal_test");
}
