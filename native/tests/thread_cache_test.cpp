// The CPU caching allocator's thread caches (Note [Thread caches]): hits without the lock, stats
// equal to an allocator without caches for one thread, blocks never handed out twice across
// threads, and caches that outlive their thread or their allocator.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <pthread.h>
#include <random>
#include <thread>
#include <vector>

#include "allocator/caching_allocator.h"
#include "check.h"

using jt::AllocConf;
using jt::Block;
using jt::CachingAllocator;
using jt::DeviceStats;
using jt::kAll;
using jt::kSmallPool;

static AllocConf with_cache(size_t bytes) {
  AllocConf c;
  c.thread_cache_bytes = bytes;
  return c;
}

// A freed small block comes back for the same size; the stats count it free at once; a report
// merges it, so best fit then sees the hole.
static void parked_blocks() {
  CachingAllocator a;
  Block* x = a.allocate(100);
  Block* y = a.allocate(512);
  Block* keep = a.allocate(512);
  char* px = x->ptr;
  a.free(x);
  CHECK(x->allocated);  // parked: still handed out to the pools
  CHECK_EQ(a.allocate(300), x);  // same rounded size: the parked block itself
  CHECK_EQ(x->ptr, px);
  CHECK_EQ(x->requested, 300u);
  a.free(x);
  a.free(y);
  DeviceStats s = a.stats();
  CHECK_EQ(s.allocated_bytes[kAll].current, 512);  // keep alone
  CHECK_EQ(s.requested_bytes[kAll].current, 512);
  CHECK_EQ(s.active[kSmallPool].current, 1);
  Block* big = a.allocate(1024);  // the report merged x and y: best fit takes their hole
  CHECK_EQ(big->ptr, px);
  a.free(big);
  a.free(keep);
  s = a.stats();
  CHECK_EQ(s.inactive_split[kAll].current, 0);  // everything merged into one free segment
  CHECK_EQ(s.allocated_bytes[kAll].current, 0);
  std::vector<Block*> many;
  for (int i = 0; i < 100; ++i) many.push_back(a.allocate(512 * (1 + i % 8)));
  for (Block* b : many) a.free(b);
  a.empty_cache();
  CHECK_EQ(a.stats().reserved_bytes[kAll].current, 0);  // parked blocks did not pin the segment
}

// One thread's random run gives the same block counts and bytes (current, peak, allocated, freed)
// with caches as without: the peak folds the cache's high-water mark (fails if it folded current alone).
static void stats_equal_an_allocator_without_caches() {
  CachingAllocator cached(with_cache(512 << 10)), plain(with_cache(0));
  std::mt19937 rng(7);
  std::vector<Block*> live[2];
  CachingAllocator* as[2] = {&cached, &plain};
  auto same = [&] {
    DeviceStats s[2] = {cached.stats(), plain.stats()};
    const jt::Stat* f[2][5];
    for (int k = 0; k < 2; ++k) {
      f[k][0] = s[k].allocation;
      f[k][1] = s[k].allocated_bytes;
      f[k][2] = s[k].active;
      f[k][3] = s[k].active_bytes;
      f[k][4] = s[k].requested_bytes;
    }
    for (int fam = 0; fam < 5; ++fam)
      for (int p = 0; p < jt::kNumStatTypes; ++p) {
        CHECK_EQ(f[0][fam][p].current, f[1][fam][p].current);
        CHECK_EQ(f[0][fam][p].peak, f[1][fam][p].peak);
        CHECK_EQ(f[0][fam][p].allocated, f[1][fam][p].allocated);
        CHECK_EQ(f[0][fam][p].freed, f[1][fam][p].freed);
      }
  };
  for (int i = 0; i < 20000; ++i) {
    uint32_t r = rng();
    bool alloc = live[0].empty() || (live[0].size() < 64 && r % 3 != 0);
    size_t n = r % 17 == 0 ? 100000 + r % (3 << 20) : 1 + (r >> 8) % 40000;  // mostly cacheable sizes
    size_t victim = live[0].empty() ? 0 : (r >> 4) % live[0].size();
    for (int k = 0; k < 2; ++k) {
      if (alloc) {
        live[k].push_back(as[k]->allocate(n));
      } else {
        as[k]->free(live[k][victim]);
        live[k].erase(live[k].begin() + (long)victim);
      }
    }
    if (i % 997 == 0) same();
  }
  same();
  for (int k = 0; k < 2; ++k)
    for (Block* b : live[k]) as[k]->free(b);
  same();
}

// A peak reached by cache hits alone, between two folds, is in the stats (the delta's high-water mark).
static void peak_of_hits_between_folds() {
  for (size_t cache : {size_t(512) << 10, size_t(0)}) {
    CachingAllocator a(with_cache(cache));
    std::vector<Block*> small;
    for (int i = 0; i < 100; ++i) small.push_back(a.allocate(1024));
    for (Block* b : small) a.free(b);  // parked
    Block* held = a.allocate(200 << 10);  // not cacheable: the lock, a fold
    for (Block*& b : small) b = a.allocate(1024);  // hits: 100 KiB on top of held
    for (Block* b : small) a.free(b);  // parked again: the delta is back where it started
    CHECK_EQ(a.stats().allocated_bytes[kAll].peak, (int64_t)((200 << 10) + 100 * 1024));
    a.free(held);
  }
}

// With several threads a peak is off by up to one cache's bytes per thread, not one in all: two
// threads hold 512 KiB each of hits (parked before their last fold, so not yet in the shared stats)
// while a third allocates 4 MiB from a cached segment (no flush); their deltas fold later, against
// the shared current of then, and the peak comes out 1 MiB (two caches) under the truth.
static void peak_with_several_threads() {
  const size_t cache = 512 << 10;
  CachingAllocator a(with_cache(cache));
  a.free(a.allocate(4 << 20));  // its segment stays cached: the 4 MiB below needs no new one, so no flush
  a.reset_peak_stats();
  std::mutex m;
  std::condition_variable cv;
  int ready = 0;
  bool go = false;
  auto worker = [&] {
    std::vector<Block*> bs;
    for (int i = 0; i < 16; ++i) bs.push_back(a.allocate(32 << 10));
    for (Block* b : bs) a.free(b);  // parked: the cache full
    a.free(a.allocate(64 << 10));   // a locked call: the delta folds, the blocks stay parked
    for (Block*& b : bs) b = a.allocate(32 << 10);  // hits: live, not yet in the shared stats
    {
      std::unique_lock<std::mutex> g(m);
      ready++;
      cv.notify_all();
      cv.wait(g, [&] { return go; });
    }
    for (Block* b : bs) a.free(b);
  };
  std::thread t1(worker), t2(worker);
  {
    std::unique_lock<std::mutex> g(m);
    cv.wait(g, [&] { return ready == 2; });
  }
  a.free(a.allocate(4 << 20));  // live at once: 4 MiB and the threads' 2 x 512 KiB
  {
    std::lock_guard<std::mutex> g(m);
    go = true;
  }
  cv.notify_all();
  t1.join();
  t2.join();
  const int64_t truth = (4 << 20) + 2 * (int64_t)cache, peak = a.stats().allocated_bytes[kAll].peak;
  CHECK(peak <= truth);
  CHECK(truth - peak <= 2 * (int64_t)cache);  // one cache per thread
}

// Threads allocate, fill, and free each other's blocks while another thread reports and empties the
// cache: a block handed out twice at once shows as a changed fill. At the end every byte is free
// and emptyCache gives every segment back.
static void blocks_cross_threads() {
  CachingAllocator a;
  std::mutex m;
  std::deque<Block*> handoff;
  std::atomic<int> damaged{0};
  auto fill_of = [](const Block* b) { return (unsigned char)(((uintptr_t)b->ptr >> 9) * 131 + b->requested); };
  auto intact = [&](const Block* b) {
    for (size_t i = 0; i < b->requested; i += 61)
      if ((unsigned char)b->ptr[i] != fill_of(b)) return false;
    return true;
  };
  std::vector<std::thread> ts;
  for (int t = 0; t < 6; ++t) {
    ts.emplace_back([&, t] {
      std::mt19937 rng(100 + t);
      std::vector<Block*> mine;
      for (int i = 0; i < 30000; ++i) {
        uint32_t r = rng();
        if (mine.size() < 24 && r % 2) {
          Block* b = a.allocate(1 + (r >> 4) % (r % 50 == 0 ? (2 << 20) : 20000));
          std::memset(b->ptr, fill_of(b), b->requested);
          mine.push_back(b);
        } else if (!mine.empty()) {
          Block* b = mine.back();
          mine.pop_back();
          if (r % 3 == 0) {  // another thread frees it
            std::lock_guard<std::mutex> g(m);
            handoff.push_back(b);
            continue;
          }
          if (!intact(b)) damaged++;
          a.free(b);
        }
        Block* other = nullptr;
        {
          std::lock_guard<std::mutex> g(m);
          if (!handoff.empty() && r % 4 == 0) {
            other = handoff.front();
            handoff.pop_front();
          }
        }
        if (other) {
          if (!intact(other)) damaged++;
          a.free(other);
        }
      }
      for (Block* b : mine) a.free(b);
    });
  }
  std::atomic<bool> done{false};
  std::thread reporter([&] {  // flushes every thread's cache while they use it (ThreadSanitizer's case)
    for (int i = 0; !done; ++i) {
      DeviceStats s = a.stats();
      if (s.allocated_bytes[kAll].current < 0) damaged++;
      if (i % 8 == 0) a.empty_cache();
      std::this_thread::yield();
    }
  });
  for (auto& t : ts) t.join();  // each exit returns its cache's blocks
  done = true;
  reporter.join();
  for (Block* b : handoff) a.free(b);
  CHECK_EQ(damaged.load(), 0);
  DeviceStats s = a.stats();
  CHECK_EQ(s.allocated_bytes[kAll].current, 0);
  CHECK_EQ(s.active[kAll].current, 0);
  CHECK_EQ(s.requested_bytes[kAll].current, 0);
  CHECK_EQ(s.inactive_split[kAll].current, 0);
  CHECK_EQ(s.allocation[kAll].allocated, s.allocation[kAll].freed);
  a.empty_cache();
  CHECK_EQ(a.stats().reserved_bytes[kAll].current, 0);
}

// Snapshots while threads park and take back blocks with no lock but their caches': every block a
// snapshot shows allocated is handed out, with its requested size. A snapshot that flushed the caches
// one by one showed blocks parked after their cache's flush as allocated with requested 0, and
// read requested as their owners wrote it (ThreadSanitizer's data race).
// Under ASan a snapshot of the 1M-word buffer is slow, and on a loaded 2-core host 2,000 of them
// took the churning threads 114 s (CI, session 36; 14 s the run before).
#ifdef JT_SANITIZED
constexpr int kSnapshots = 400;
#else
constexpr int kSnapshots = 2000;
#endif

static void snapshots_while_threads_park() {
  CachingAllocator a;
  std::atomic<bool> done{false};
  std::atomic<int> bad{0}, snapshots{0};
  auto churn = [&] {
    std::vector<Block*> bs;
    for (int round = 0; round < 100 || snapshots < kSnapshots; ++round) {  // until the snapshots have met many parks
      for (int i = 0; i < 512; ++i) bs.push_back(a.allocate(1 + (size_t)(i * 7 % 512)));  // hits after the first round
      for (Block* b : bs) a.free(b);  // parked, with the cache's lock alone
      bs.clear();
    }
  };
  std::thread t1(churn), t2(churn);
  std::thread snapper([&] {
    std::vector<int64_t> w(1 << 20);
    while (!done) {
      if (a.snapshot(w.data(), (int64_t)w.size()) > (int64_t)w.size()) continue;
      snapshots++;
      size_t p = 1;
      for (int64_t s = 0; s < w[0]; ++s) {
        int64_t nblocks = w[p + 5];
        for (int64_t k = 0; k < nblocks; ++k) {
          const int64_t* b = &w[p + 6 + 4 * k];  // ptr, size, requested, state
          if (b[3] == 1 && (b[2] <= 0 || b[2] > b[1])) bad++;
        }
        p += 6 + 4 * (size_t)nblocks;
      }
    }
  });
  t1.join();
  t2.join();
  done = true;
  snapper.join();
  CHECK(snapshots.load() > 0);
  CHECK_EQ(bad.load(), 0);
  CHECK_EQ(a.stats().allocated_bytes[kAll].current, 0);
}

// Another thread's parked blocks are seen by this thread's reports, by growth and by emptyCache.
static void another_threads_cache_is_flushed() {
  CachingAllocator a(with_cache(2 << 20));
  std::mutex m;
  std::condition_variable cv;
  int step = 0;
  std::thread t([&] {
    std::vector<Block*> bs;
    for (int i = 0; i < 64; ++i) bs.push_back(a.allocate(16 << 10));
    for (Block* b : bs) a.free(b);  // the small segment's first 1 MiB parked in t's cache
    std::unique_lock<std::mutex> g(m);
    step = 1;
    cv.notify_all();
    cv.wait(g, [&] { return step == 2; });  // stays alive, its cache full, while the main thread looks
  });
  {
    std::unique_lock<std::mutex> g(m);
    cv.wait(g, [&] { return step == 1; });
  }
  CHECK_EQ(a.stats().allocated_bytes[kAll].current, 0);
  CHECK_EQ(a.stats().segment[kAll].current, 1);
  Block* tail = a.allocate(1 << 20);  // the segment's free second half
  Block* head = a.allocate(1 << 20);  // fits only once t's parked blocks are merged: no new segment
  CHECK_EQ(a.stats().segment[kAll].current, 1);
  a.free(tail);
  a.free(head);
  a.empty_cache();
  CHECK_EQ(a.stats().reserved_bytes[kAll].current, 0);
  {
    std::lock_guard<std::mutex> g(m);
    step = 2;
  }
  cv.notify_all();
  t.join();
}

// A thread's exit drops its cache: its parked blocks are in the pools, merged, and the count of
// caches is back where it was (dead threads' caches would otherwise pile up, and every report and
// growth would walk them).
static void a_threads_exit_retires_its_cache() {
  CachingAllocator a;
  a.free(a.allocate(100));  // the main thread's own cache
  const size_t before = a.thread_cache_count();
  for (int round = 0; round < 8; ++round) {
    std::thread t([&a] {
      std::vector<Block*> bs;
      for (int i = 0; i < 32; ++i) bs.push_back(a.allocate(2048));
      for (Block* b : bs) a.free(b);  // parked in t's cache
    });
    t.join();
    CHECK_EQ(a.thread_cache_count(), before);
  }
  CHECK_EQ(a.stats().allocated_bytes[kAll].current, 0);
  a.empty_cache();
  CHECK_EQ(a.stats().reserved_bytes[kAll].current, 0);
}

// A library's thread-exit hook (a pthread key destructor that runs after the caches' own) that
// allocates and frees: the thread's slots were already freed, and the hook reached them through a
// stale pointer (a cache registered in freed memory, never retired). It gets fresh slots now, which
// glibc's next round of key destructors retires.
static CachingAllocator* late_allocator = nullptr;
static void late_exit_hook(void*) { late_allocator->free(late_allocator->allocate(1024)); }

static void a_free_after_the_caches_key_destructor() {
  CachingAllocator a;
  late_allocator = &a;
  a.free(a.allocate(100));  // the caches' key exists before the hook's, so its destructor runs first
  const size_t before = a.thread_cache_count();
  pthread_key_t hook;
  CHECK_EQ(pthread_key_create(&hook, late_exit_hook), 0);
  for (int round = 0; round < 4; ++round) {
    std::thread t([&a, hook] {
      a.free(a.allocate(2048));  // this thread's slots and cache
      pthread_setspecific(hook, &a);
    });
    t.join();
    CHECK_EQ(a.thread_cache_count(), before);
  }
  pthread_key_delete(hook);
  CHECK_EQ(a.stats().allocated_bytes[kAll].current, 0);
  a.empty_cache();
  CHECK_EQ(a.stats().reserved_bytes[kAll].current, 0);
}

// A thread whose cache outlives its allocator drops it at exit untouched, and its slot serves a
// later allocator (ASan would report a touch of the destroyed one).
static void caches_outlive_their_allocator() {
  std::mutex m;
  std::condition_variable cv;
  int step = 0;
  auto first = std::make_unique<CachingAllocator>();
  CachingAllocator* seen = first.get();
  int later_cached = 0;
  std::thread t([&] {
    seen->free(seen->allocate(1000));  // parked in t's cache of the first allocator
    std::unique_lock<std::mutex> g(m);
    step = 1;
    cv.notify_all();
    cv.wait(g, [&] { return step == 2; });
    for (int k = 0; k < 6; ++k) {  // more allocators than a thread has slots: the dead one's is reused
      CachingAllocator later;
      Block* b = later.allocate(1000);
      later.free(b);
      later_cached += b->allocated;  // parked: still handed out to the pools
    }
  });
  {
    std::unique_lock<std::mutex> g(m);
    cv.wait(g, [&] { return step == 1; });
  }
  first.reset();
  {
    std::lock_guard<std::mutex> g(m);
    step = 2;
  }
  cv.notify_all();
  t.join();
  CHECK_EQ(later_cached, 6);
}

static void no_caches_when_turned_off() {
  CachingAllocator a(with_cache(0));
  Block* x = a.allocate(100);
  Block* y = a.allocate(100);
  Block* keep = a.allocate(100);
  char* px = x->ptr;
  a.free(x);
  CHECK(!x->allocated);  // in the pool at once
  a.free(y);
  Block* big = a.allocate(1024);  // x and y merged: best fit takes their place
  CHECK_EQ(big->ptr, px);
  a.free(big);
  a.free(keep);
  CHECK_EQ(jt::parse_alloc_conf("thread_cache_kb:0").thread_cache_bytes, 0u);
  CHECK_EQ(jt::parse_alloc_conf("thread_cache_kb:64").thread_cache_bytes, 64u << 10);
  CHECK_EQ(jt::parse_alloc_conf(nullptr).thread_cache_bytes, 512u << 10);
  CHECK(jt::parse_alloc_conf("thread_cache_kb:-1").error.find("thread_cache_kb:-1 is not a non-negative integer")
        != std::string::npos);
  CHECK(jt::parse_alloc_conf("thread_cache_kb:1", jt::AllocConfTarget::kCuda).error.find("unknown key")
        != std::string::npos);
}

int main() {
  parked_blocks();
  stats_equal_an_allocator_without_caches();
  peak_of_hits_between_folds();
  peak_with_several_threads();
  blocks_cross_threads();
  snapshots_while_threads_park();
  another_threads_cache_is_flushed();
  a_threads_exit_retires_its_cache();
  a_free_after_the_caches_key_destructor();
  caches_outlive_their_allocator();
  no_caches_when_turned_off();
  return jt_report("thread_cache_test");
}
