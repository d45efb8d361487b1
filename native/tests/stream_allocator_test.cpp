// The stream caching allocator's rules, and the pinned host allocator's, over a fake device.
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "allocator/stream_caching_allocator.h"
#include "jt/stream_device_allocator.h"
#include "check.h"
#include "fake_device_provider.h"
#include "jt/jt.h"

using jt::kAll;
using jt::kLargePool;
using jt::kSmallPool;
using jt::StreamBlock;
using Alloc = jt::StreamCachingAllocator;

static constexpr size_t KiB = 1024, MiB = 1024 * KiB;

static jt::AllocConf conf(const char* text) {
  jt::AllocConf c = jt::parse_alloc_conf(text, jt::AllocConfTarget::kCuda);
  CHECK(c.error.empty());
  return c;
}

static void rounding_pools_and_segment_sizes() {
  FakeDevice dev(1 << 30);
  Alloc a(&dev, {});
  const size_t asks[] = {1, 1000, 1 * MiB, 1 * MiB + 1, 10 * MiB, 11 * MiB + 5};
  // The last takes its whole 12 MiB segment: a remainder under 1 MiB is not split off.
  const size_t sizes[] = {512, 1024, 1 * MiB, 1 * MiB + 512, 10 * MiB, 12 * MiB};
  std::vector<StreamBlock*> blocks;
  for (int i = 0; i < 6; i++) {
    blocks.push_back(a.allocate(asks[i], i < 3 ? 0 : i));  // a stream each: no large one reuses another's
    CHECK_EQ(blocks[i]->size, sizes[i]);
    CHECK_EQ(blocks[i]->small, i < 3);
  }
  auto s = a.stats();
  CHECK_EQ(s.reserved_bytes[kSmallPool].current, (int64_t)(2 * MiB));  // three small ones share 2 MiB
  CHECK_EQ(s.reserved_bytes[kLargePool].current, (int64_t)((20 + 10 + 12) * MiB));  // 20 MiB; exact; 2 MiB rounding
  CHECK_EQ(s.segment[kAll].current, 4);
  CHECK_EQ(s.requested_bytes[kAll].current, (int64_t)(1 + 1000 + MiB + MiB + 1 + 10 * MiB + 11 * MiB + 5));
  CHECK_EQ(s.allocated_bytes[kAll].current, (int64_t)(512 + 1024 + MiB + MiB + 512 + 22 * MiB));
  CHECK(a.allocate(0, 0) == nullptr);
  char* twenty = blocks[3]->ptr;
  for (StreamBlock* b : blocks) a.free(b);
  StreamBlock* reuse = a.allocate(10 * MiB, 3);  // best fit within the 20 MiB segment, split
  CHECK(reuse->ptr == twenty);
  CHECK_EQ(reuse->size, 10 * MiB);
  CHECK_EQ(a.stats().inactive_split[kLargePool].current, 1);
  a.free(reuse);
  s = a.stats();
  CHECK_EQ(s.allocated_bytes[kAll].current, 0);
  CHECK_EQ(s.inactive_split[kAll].current, 0);  // every segment merged back whole
  a.empty_cache();
  CHECK_EQ(dev.used(), 0u);
}

static void best_fit_split_and_merge() {
  FakeDevice dev(1 << 30);
  Alloc a(&dev, {});
  StreamBlock* x = a.allocate(100 * KiB, 0);
  StreamBlock* y = a.allocate(200 * KiB, 0);
  StreamBlock* z = a.allocate(100 * KiB, 0);
  CHECK(y->ptr == x->ptr + 100 * KiB && z->ptr == y->ptr + 200 * KiB);  // carved in order from one segment
  char* hole = x->ptr;
  a.free(x);  // a 100 KiB hole before y, and the segment's 1.6 MiB tail
  CHECK_EQ(a.stats().inactive_split[kAll].current, 2);
  StreamBlock* w = a.allocate(90 * KiB, 0);
  CHECK(w->ptr == hole);  // best fit: the smaller hole, not the tail
  a.free(w);
  a.free(z);
  a.free(y);  // merges with both neighbours, and they with the tail
  int64_t words[64];
  CHECK_EQ(a.snapshot(words, 64), 1 + 6 + 4 + 1);
  CHECK_EQ(words[0], 1);
  CHECK_EQ(words[6], 1);  // one block: the whole 2 MiB segment
  CHECK_EQ(words[2], (int64_t)(2 * MiB));
  CHECK_EQ(a.stats().inactive_split_bytes[kAll].current, 0);
}

static void max_split_size() {
  FakeDevice dev(80 * MiB);
  Alloc a(&dev, conf("max_split_size_mb:40"));
  CHECK_EQ(a.stats().max_split_size, (int64_t)(40 * MiB));
  StreamBlock* big = a.allocate(50 * MiB, 0);
  auto s = a.stats();
  CHECK_EQ(s.oversize_allocations.current, 1);
  CHECK_EQ(s.oversize_segments.current, 1);
  char* p = big->ptr;
  a.free(big);
  StreamBlock* again = a.allocate(45 * MiB, 0);  // oversize, within 20 MiB of the cached block
  CHECK(again->ptr == p);
  CHECK_EQ(again->size, 50 * MiB);  // oversize blocks are not split
  a.free(again);
  const int raw = dev.raw_allocs();
  StreamBlock* under = a.allocate(25 * MiB, 0);  // below the cap: never the oversize block
  CHECK(under->ptr != p);
  CHECK_EQ(dev.raw_allocs(), raw + 1);
  a.free(under);
  a.empty_cache();
  CHECK_EQ(dev.used(), 0u);
  StreamBlock* first = a.allocate(60 * MiB, 0);
  a.free(first);
  // 30 MiB may not take the cached 60 MiB oversize block, and the device has no room for both:
  // that oversize block is freed to make room, without the full retry.
  StreamBlock* mid = a.allocate(30 * MiB, 0);
  CHECK(mid != nullptr);
  CHECK(mid->ptr != nullptr && mid->size == 30 * MiB);
  s = a.stats();
  CHECK_EQ(s.num_alloc_retries, 0);
  CHECK_EQ(s.oversize_segments.current, 0);
  CHECK_EQ(s.reserved_bytes[kAll].current, (int64_t)(30 * MiB));
  a.free(mid);
  a.empty_cache();
  StreamBlock* o1 = a.allocate(40 * MiB, 0);
  StreamBlock* o2 = a.allocate(40 * MiB, 0);
  a.free(o1);
  a.free(o2);
  const int64_t frees = a.stats().num_device_free;
  CHECK(a.allocate(50 * MiB, 0) != nullptr);  // neither fits alone: both go, largest first
  CHECK_EQ(a.stats().num_device_free, frees + 2);
  CHECK_EQ(a.stats().num_alloc_retries, 0);
}

static void streams_keep_their_blocks() {
  FakeDevice dev(1 << 30);
  Alloc a(&dev, {});
  StreamBlock* b1 = a.allocate(4 * KiB, 1);
  char* p1 = b1->ptr;
  a.free(b1);
  StreamBlock* b2 = a.allocate(4 * KiB, 2);  // stream 2 never gets stream 1's memory
  char* p2 = b2->ptr;
  CHECK(p2 != p1);
  a.free(b2);
  StreamBlock* b0 = a.allocate(4 * KiB, 0);  // nor stream 0 theirs (ordered after its own in the pool)
  CHECK(b0->ptr != p1 && b0->ptr != p2);
  a.free(b0);
  CHECK_EQ(a.stats().segment[kAll].current, 3);
  a.empty_cache();
  b1 = a.allocate(4 * KiB, 1);
  p1 = b1->ptr;
  b2 = a.allocate(4 * KiB, 2);
  a.free(b1);
  StreamBlock* b3 = a.allocate(4 * KiB, 1);
  CHECK(b3->ptr == p1);
  std::vector<int64_t> w(64);
  int64_t n = a.snapshot(w.data(), 64);
  CHECK_EQ(n, 1 + 2 * (6 + 2 * 4) + 2);
  const int p1_segment = w[1] == (int64_t)(intptr_t)p1 ? 0 : 1;  // segments by address, then their streams
  CHECK_EQ(w[n - 2 + p1_segment], 1);
  CHECK_EQ(w[n - 1 - p1_segment], 2);
  a.free(b2);
  a.free(b3);
}

static void record_stream_delays_reuse() {
  FakeDevice dev(1 << 30);
  Alloc a(&dev, {});
  StreamBlock* b = a.allocate(8 * KiB, 1);
  char* p = b->ptr;
  a.record_stream(b, 2);
  a.record_stream(b, 2);
  a.record_stream(b, 1);  // its own stream: nothing to wait for
  a.free(b);
  CHECK_EQ(dev.live_events(), 1u);
  auto s = a.stats();
  CHECK_EQ(s.allocated_bytes[kAll].current, 0);
  CHECK_EQ(s.active_bytes[kAll].current, (int64_t)(8 * KiB));  // still active until its event completes
  int64_t w[32];
  CHECK_EQ(a.snapshot(w, 32), 1 + 6 + 2 * 4 + 1);
  CHECK_EQ(w[7 + 3], 2);  // pending free
  CHECK_EQ(w[4], (int64_t)(8 * KiB));  // active bytes of the segment
  StreamBlock* c = a.allocate(8 * KiB, 1);
  CHECK(c->ptr != p);  // stream 2 may still be using it
  dev.complete(2);
  StreamBlock* d = a.allocate(8 * KiB, 1);  // the event is polled: the block is cached again
  CHECK(d->ptr == p);
  CHECK_EQ(dev.live_events(), 0u);
  a.free(c);
  a.free(d);
  // No event to record: the device is synchronized and the block cached at once.
  dev.refuse_events(true);
  StreamBlock* e = a.allocate(8 * KiB, 1);
  a.record_stream(e, 3);
  const int syncs = dev.syncs();
  a.free(e);
  CHECK_EQ(dev.syncs(), syncs + 1);
  CHECK_EQ(a.stats().active[kAll].current, 0);
}

static void out_of_memory_path() {
  FakeDevice dev(64 * MiB);
  Alloc a(&dev, {});
  StreamBlock* x = a.allocate(30 * MiB, 1);
  a.record_stream(x, 2);
  a.free(x);  // pending on stream 2's event
  const int syncs = dev.syncs();
  StreamBlock* y = a.allocate(40 * MiB, 3);  // no room: wait for events, free the cache, retry
  CHECK(y != nullptr);
  CHECK_EQ(dev.syncs(), syncs + 1);
  auto s = a.stats();
  CHECK_EQ(s.num_alloc_retries, 1);
  CHECK_EQ(s.num_device_free, 1);
  CHECK_EQ(s.num_ooms, 0);
  CHECK(std::string(a.oom_message()).empty());
  CHECK(a.allocate(40 * MiB, 3) == nullptr);
  s = a.stats();
  CHECK_EQ(s.num_ooms, 1);
  CHECK_EQ(s.num_alloc_retries, 2);
  CHECK_EQ(std::string(a.oom_message()),
           "CUDA out of memory. Tried to allocate 40.00 MiB. GPU 0 has a total capacity of 64.00 MiB of which "
           "24.00 MiB is free. Of the allocated memory 40.00 MiB is allocated by jtensor, and 0 bytes is reserved "
           "by jtensor but unallocated. If reserved but unallocated memory is large try setting "
           "JT_CUDA_ALLOC_CONF=max_split_size_mb:N to avoid fragmentation.");
  std::string other;
  std::thread([&] { other = a.oom_message(); }).join();
  CHECK(other.empty());  // the message is the failing thread's
  a.set_memory_limit(50 * MiB);
  CHECK_EQ(a.memory_limit(), 50 * MiB);
  CHECK(a.allocate(12 * MiB, 3) == nullptr);  // 40 + 12 passes the limit
  CHECK(std::string(a.oom_message()).find("Tried to allocate 12.00 MiB") != std::string::npos);
  CHECK(std::string(a.oom_message()).find(" is free. 50.00 MiB allowed; Of the allocated") != std::string::npos);
  a.free(y);
  CHECK(a.allocate(SIZE_MAX / 2, 3) == nullptr);  // absurd sizes fail cleanly
  CHECK_EQ(a.stats().num_ooms, 3);
}

static void empty_cache_waits_for_events() {
  FakeDevice dev(1 << 30);
  Alloc a(&dev, {});
  StreamBlock* b = a.allocate(3 * MiB, 1);
  StreamBlock* c = a.allocate(1 * KiB, 1);
  a.record_stream(b, 5);
  a.free(b);
  a.free(c);
  const int syncs = dev.syncs();
  a.empty_cache();
  CHECK_EQ(dev.syncs(), syncs + 1);
  CHECK_EQ(dev.used(), 0u);
  CHECK_EQ(dev.live_events(), 0u);
  auto s = a.stats();
  CHECK_EQ(s.reserved_bytes[kAll].current, 0);
  CHECK_EQ(s.active_bytes[kAll].current, 0);
  CHECK_EQ(s.num_device_alloc, 2);
  CHECK_EQ(s.num_device_free, 2);
  a.reset_accumulated_stats();
  CHECK_EQ(a.stats().num_device_alloc, 0);
  CHECK_EQ(a.stats().segment[kAll].peak, 2);
  a.reset_peak_stats();
  CHECK_EQ(a.stats().segment[kAll].peak, 0);
}

static void garbage_collection_threshold() {
  FakeDevice dev(1 << 30);
  Alloc a(&dev, conf("memory_limit_mb:100,garbage_collection_threshold:0.5"));
  a.free(a.allocate(30 * MiB, 1));  // cached first: the oldest
  a.free(a.allocate(30 * MiB, 2));
  const int raw = dev.raw_allocs();
  StreamBlock* c = a.allocate(30 * MiB, 3);  // 60 MiB reserved > 50: the older segment goes
  auto s = a.stats();
  CHECK_EQ(s.num_device_free, 1);
  CHECK_EQ(s.reserved_bytes[kAll].current, (int64_t)(60 * MiB));
  CHECK_EQ(dev.raw_allocs(), raw + 1);
  StreamBlock* d = a.allocate(30 * MiB, 2);  // the younger one is still cached
  CHECK_EQ(dev.raw_allocs(), raw + 1);
  a.free(c);
  a.free(d);
}

void device_allocator_adapter_and_c_api();  // stream_allocator_adapters_test.cpp
void pinned_host_allocator();
void out_of_memory_message_in_full();
void pinned_storages();
void threads_allocate_and_free();

int main() {
  rounding_pools_and_segment_sizes();
  best_fit_split_and_merge();
  max_split_size();
  streams_keep_their_blocks();
  record_stream_delays_reuse();
  out_of_memory_path();
  empty_cache_waits_for_events();
  garbage_collection_threshold();
  device_allocator_adapter_and_c_api();
  pinned_host_allocator();
  out_of_memory_message_in_full();
  pinned_storages();
  threads_allocate_and_free();
  return jt_report("stream_allocator_test");
}
