// The CPU caching allocator: rounding, alignment, pools, best fit, split, coalesce, emptyCache,
// the out-of-memory retry and the stats, each on a fresh allocator.
#include <cstdint>
#include <cstdlib>
#include <random>
#include <thread>
#include <vector>

#include "allocator/asan.h"
#include "allocator/caching_allocator.h"
#include "check.h"
#include "test_env.h"

using jt::Block;
using jt::CachingAllocator;
using jt::kAll;
using jt::kLargePool;
using jt::kSmallPool;

constexpr size_t MiB = 1 << 20;

static void rounding_and_alignment() {
  CHECK_EQ(CachingAllocator::round_size(1), 512u);
  CHECK_EQ(CachingAllocator::round_size(512), 512u);
  CHECK_EQ(CachingAllocator::round_size(513), 1024u);
  CHECK_EQ(CachingAllocator::segment_size(512), 2 * MiB);
  CHECK_EQ(CachingAllocator::segment_size(MiB), 2 * MiB);
  CHECK_EQ(CachingAllocator::segment_size(MiB + 512), 20 * MiB);
  CHECK_EQ(CachingAllocator::segment_size(11 * MiB), 12 * MiB);
  CachingAllocator a;
  Block* b = a.allocate(100);
  CHECK(b != nullptr);
  CHECK_EQ(reinterpret_cast<uintptr_t>(b->ptr) % 64, 0u);
  CHECK_EQ(b->size, 512u);
  CHECK(b->small);
  auto s = a.stats();
  CHECK_EQ(s.segment[kAll].current, 1);
  CHECK_EQ(s.reserved_bytes[kSmallPool].current, (int64_t)(2 * MiB));
  CHECK_EQ(s.allocated_bytes[kAll].current, 512);
  CHECK_EQ(s.requested_bytes[kAll].current, 100);
  CHECK_EQ(s.inactive_split[kAll].current, 1);  // the rest of the segment
  a.free(b);
  CHECK(a.allocate(0) == nullptr);
}

static void split_reuse_and_coalesce() {
  CachingAllocator a;
  Block* b1 = a.allocate(512);
  Block* b2 = a.allocate(512);
  CHECK_EQ(b2->ptr, b1->ptr + 512);  // carved from the same segment
  char* p1 = b1->ptr;
  a.free(b1);
  Block* b3 = a.allocate(300);
  CHECK_EQ(b3->ptr, p1);  // the cached block comes back, no new segment
  CHECK_EQ(a.stats().num_device_alloc, 1);
  a.free(b3);
  a.free(b2);
  std::vector<int64_t> snap(64);
  int64_t n = a.snapshot(snap.data(), 64);
  CHECK_EQ(n, 1 + 6 + 4);  // one segment of one free block: everything merged back
  CHECK_EQ(snap[0], 1);
  CHECK_EQ(snap[2], (int64_t)(2 * MiB));
  CHECK_EQ(snap[3], 0);
  CHECK_EQ(snap[6], 1);
  auto s = a.stats();
  CHECK_EQ(s.inactive_split[kAll].current, 0);
  CHECK_EQ(s.allocated_bytes[kAll].current, 0);
  CHECK_EQ(s.allocation[kAll].allocated, 3);
  CHECK_EQ(s.allocation[kAll].freed, 3);
}

static void best_fit() {
  jt::AllocConf pools_only;  // the pools' own choice: without a thread cache the frees merge at once
  pools_only.thread_cache_bytes = 0;
  CachingAllocator a(pools_only);
  Block* hole_small = a.allocate(1024);
  Block* keep1 = a.allocate(512);
  Block* hole_big = a.allocate(4096);
  Block* keep2 = a.allocate(512);
  char* ps = hole_small->ptr;
  char* pb = hole_big->ptr;
  a.free(hole_small);
  a.free(hole_big);
  Block* x = a.allocate(1000);
  CHECK_EQ(x->ptr, ps);  // the 1 KiB hole, not the 4 KiB one or the segment tail
  Block* y = a.allocate(3000);
  CHECK_EQ(y->ptr, pb);
  CHECK_EQ(y->size, 3072u);  // split: the rest of the hole stays free
  for (Block* b : {x, y, keep1, keep2}) a.free(b);
}

static void large_pool_and_empty_cache() {
  CachingAllocator a;
  Block* b = a.allocate(5 * MiB);
  CHECK(!b->small);
  auto s = a.stats();
  CHECK_EQ(s.reserved_bytes[kLargePool].current, (int64_t)(20 * MiB));
  CHECK_EQ(s.allocated_bytes[kLargePool].current, (int64_t)(5 * MiB));
  Block* c = a.allocate(12 * MiB);  // fits in the 15 MiB left of the 20 MiB segment
  CHECK_EQ(a.stats().segment[kAll].current, 1);
  Block* d = a.allocate(40 * MiB);
  CHECK_EQ(a.stats().reserved_bytes[kAll].current, (int64_t)(60 * MiB));
  a.free(b);
  a.free(c);
  a.free(d);
  CHECK_EQ(a.stats().reserved_bytes[kAll].current, (int64_t)(60 * MiB));  // cached
  a.empty_cache();
  s = a.stats();
  CHECK_EQ(s.reserved_bytes[kAll].current, 0);
  CHECK_EQ(s.reserved_bytes[kAll].peak, (int64_t)(60 * MiB));
  CHECK_EQ(s.num_device_free, 2);
  a.reset_peak_stats();
  CHECK_EQ(a.stats().reserved_bytes[kAll].peak, 0);
}

static void out_of_memory_retry() {
  CachingAllocator a;
  a.set_memory_limit(21 * MiB);
  a.free(a.allocate(512));  // leaves a cached 2 MiB small segment
  Block* big = a.allocate(5 * MiB);  // needs 20 MiB: fits only once the cache is released
  CHECK(big != nullptr);
  auto s = a.stats();
  CHECK_EQ(s.num_alloc_retries, 1);
  CHECK_EQ(s.num_ooms, 0);
  CHECK_EQ(s.segment[kSmallPool].current, 0);
  Block* none = a.allocate(30 * MiB);
  CHECK(none == nullptr);
  CHECK_EQ(a.stats().num_ooms, 1);
  a.free(big);
  CHECK(a.allocate(SIZE_MAX / 2) == nullptr);  // absurd sizes fail cleanly
  CHECK_EQ(a.stats().num_ooms, 2);
}

static void max_split_size() {
  CachingAllocator a;
  a.set_max_split_size(32 * MiB);
  Block* b = a.allocate(64 * MiB);  // oversize: never split, never serves small requests
  CHECK_EQ(a.stats().oversize_allocations.current, 1);
  a.free(b);
  Block* c = a.allocate(4 * MiB);
  CHECK(c != b);  // a new 20 MiB segment, not the cached oversize block
  CHECK_EQ(a.stats().segment[kAll].current, 2);
  a.free(c);
}

static void concurrent_threads() {
  CachingAllocator a;
  std::vector<std::thread> ts;
  for (int t = 0; t < 8; ++t) {
    ts.emplace_back([&a, t] {
      std::mt19937 rng(t);
      std::vector<Block*> live;
      for (int i = 0; i < 20000; ++i) {
        if (live.size() < 16 && rng() % 2) {
          live.push_back(a.allocate(1 + rng() % (3 * MiB)));
        } else if (!live.empty()) {
          a.free(live.back());
          live.pop_back();
        }
      }
      for (Block* b : live) a.free(b);
    });
  }
  for (auto& t : ts) t.join();
  auto s = a.stats();
  CHECK_EQ(s.allocated_bytes[kAll].current, 0);
  CHECK_EQ(s.active[kAll].current, 0);
  CHECK_EQ(s.inactive_split[kAll].current, 0);  // every segment merged back whole
  a.empty_cache();
  CHECK_EQ(a.stats().reserved_bytes[kAll].current, 0);
}

static void alloc_conf_from_environment() {
  jt_test::set_env("JT_ALLOC_CONF", "max_split_size_mb:64,memory_limit_mb:30");
  CachingAllocator a;
  jt_test::unset_env("JT_ALLOC_CONF");
  CHECK_EQ(a.stats().max_split_size, (int64_t)(64 * MiB));
  Block* fits = a.allocate(5 * MiB);  // a 20 MiB segment: under the 30 MiB limit
  CHECK(fits != nullptr);
  CHECK(a.allocate(16 * MiB) == nullptr);  // the segment has 15 MiB free; a new 16 MiB one passes the limit
  a.free(fits);
  CHECK_EQ(CachingAllocator().stats().max_split_size, -1);  // unset: no limit, as PyTorch reports
}

static void alloc_conf_is_validated() {
  jt::AllocConf ok = jt::parse_alloc_conf("max_split_size_mb:64,memory_limit_mb:0,huge_pages:0");
  CHECK(ok.error.empty());
  CHECK_EQ(ok.max_split_size, 64 * MiB);
  CHECK(!ok.huge_pages);
  CHECK(jt::parse_alloc_conf(nullptr).error.empty());
  CHECK(jt::parse_alloc_conf("").error.empty());
  // Each malformed form is refused with a message naming the key and the accepted form.
  const char* bad[] = {"bogus_key:1", "memory_limit_mb:-5", ":abc", "16mb", "max_split_size_mb:0", "huge_pages:2",
                       "memory_limit_mb:12x", "memory_limit_mb:", "max_split_size_mb:64,", "memory_limit_mb:99999999999999"};
  for (const char* text : bad) {
    jt::AllocConf c = jt::parse_alloc_conf(text);
    CHECK(!c.error.empty());
    CHECK(c.error.find("JT_ALLOC_CONF='") == 0);
    CHECK(c.error.find("max_split_size_mb (a positive integer)") != std::string::npos);
    CHECK_EQ(c.memory_limit, 0u);  // refused text leaves every default
  }
  CHECK(jt::parse_alloc_conf("bogus_key:1").error.find("unknown key 'bogus_key'") != std::string::npos);
  CHECK(jt::parse_alloc_conf("memory_limit_mb:-5").error.find("memory_limit_mb:-5 is not a non-negative integer")
        != std::string::npos);
  jt_test::set_env("JT_ALLOC_CONF", "16mb");
  CachingAllocator a;
  jt_test::unset_env("JT_ALLOC_CONF");
  CHECK(a.conf_error().find("entry '16mb' is not key:value") != std::string::npos);
}

static void stat_names() {
  const auto& names = jt::DeviceStats::names();
  bool has_alloc = false, has_retries = false;
  for (auto& n : names) {
    has_alloc |= n == "allocated_bytes.all.current";
    has_retries |= n == "num_alloc_retries";
  }
  CHECK(has_alloc);
  CHECK(has_retries);
}

// Under ASan (scripts/sanitize.sh) cached bytes are poisoned: a use after free, or a touch past
// the requested bytes, is reported even though the allocator keeps the block.
static void asan_poisons_cached_blocks() {
#ifdef JT_ASAN
  CachingAllocator a;
  Block* b = a.allocate(100);
  CHECK(!__asan_address_is_poisoned(b->ptr) && !__asan_address_is_poisoned(b->ptr + 99));
  CHECK(__asan_address_is_poisoned(b->ptr + 100));  // the block's tail past the request
  char* p = b->ptr;
  a.free(b);  // parked in the thread's cache
  CHECK(__asan_address_is_poisoned(p));
  Block* big = a.allocate(3 << 20);  // large pool, merged on free
  char* q = big->ptr;
  a.free(big);
  CHECK(__asan_address_is_poisoned(q) && __asan_address_is_poisoned(q + (3 << 20) - 1));
  Block* again = a.allocate(100);  // the parked block, handed out again
  CHECK(again->ptr == p && !__asan_address_is_poisoned(p));
  a.free(again);
#endif
}

int main() {
  asan_poisons_cached_blocks();
  rounding_and_alignment();
  split_reuse_and_coalesce();
  best_fit();
  large_pool_and_empty_cache();
  out_of_memory_retry();
  max_split_size();
  concurrent_threads();
  alloc_conf_from_environment();
  alloc_conf_is_validated();
  stat_names();
  return jt_report("allocator_test");
}
