// Part of stream_allocator_test: the DeviceAllocator adapter and the C API over it, the pinned
// host allocator, and threads sharing one allocator.
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "allocator/stream_caching_allocator.h"
#include "check.h"
#include "fake_device_provider.h"
#include "test_env.h"
#include "jt/jt.h"
#include "jt/pinned_device_allocator.h"
#include "jt/storage.h"
#include "jt/stream_device_allocator.h"

using jt::StreamBlock;

static constexpr size_t KiB = 1024, MiB = 1024 * KiB;

static bool contains(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

void device_allocator_adapter_and_c_api() {
  FakeDevice dev(64 * MiB);
  jt_test::set_env("JT_CUDA_ALLOC_CONF", "max_split_size_mb:32");
  std::unique_ptr<jt::DeviceAllocator> a(jt::make_stream_device_allocator(&dev));
  jt_test::unset_env("JT_CUDA_ALLOC_CONF");
  CHECK(a->conf_error().empty());
  const auto& names = jt::DeviceStats::names();  // the CPU allocator's keys
  std::vector<int64_t> v(names.size());
  auto stat = [&](const char* name) {
    a->stats(v.data());
    return v[std::find(names.begin(), names.end(), name) - names.begin()];
  };
  CHECK_EQ(stat("max_split_size"), (int64_t)(32 * MiB));
  FakeDevice::stream() = 7;  // the allocating thread's current stream
  jt::Allocation x = a->allocate(1000);
  CHECK(x.data != nullptr);
  CHECK_EQ(stat("allocated_bytes.all.current"), 1024);
  CHECK_EQ(stat("requested_bytes.small_pool.current"), 1000);
  int64_t w[32];
  const int64_t n = a->snapshot(w, 32);
  CHECK_EQ(n, 1 + 6 + 2 * 4 + 1);
  CHECK_EQ(w[n - 1], 7);  // the segment's stream
  jt::Allocation y = a->allocate(1000);
  std::memset(x.data, 42, 1000);
  a->copy_bytes(y.data, x.data, 1000);
  CHECK_EQ(static_cast<char*>(y.data)[999], 42);
  a->record_stream(x.ctx, 8);
  a->free(x.ctx);
  CHECK_EQ(stat("active_bytes.all.current"), 2048);  // x waits for stream 8
  dev.complete(8);
  a->free(a->allocate(100).ctx);  // polls the event
  CHECK_EQ(stat("active_bytes.all.current"), 1024);
  a->free(y.ctx);
  CHECK(a->allocate(100 * MiB).data == nullptr);
  CHECK_EQ(stat("num_ooms"), 1);
  CHECK(contains(a->oom_message(), "CUDA out of memory. Tried to allocate 100.00 MiB. GPU 0 has a total capacity"));
  FakeDevice::stream() = 0;

  jt::register_device_allocator(JT_DEVICE_CUDA, a.get());
  int64_t s = jt_storage_new(JT_DEVICE_CUDA, 4096);
  CHECK(s != 0);
  jt_storage_record_stream(s, 9);
  jt_storage_release(s);
  CHECK_EQ(jt_snapshot(JT_DEVICE_CUDA, w, 32), 1 + 6 + 2 * 4 + 1);  // the OOM above freed the cache
  CHECK_EQ(w[7 + 3], 2);  // the storage's block waits for stream 9
  CHECK_EQ(jt_storage_new(JT_DEVICE_CUDA, 1 << 30), 0);
  CHECK(contains(jt_oom_message(JT_DEVICE_CUDA), "Tried to allocate 1024.00 MiB"));
  CHECK(std::string(jt_oom_message(JT_DEVICE_CPU)).empty());
  int64_t cpu = jt_storage_new(JT_DEVICE_CPU, 64);
  jt_storage_record_stream(cpu, 3);  // nothing to wait for on the CPU
  jt_storage_release(cpu);
  jt_empty_cache(JT_DEVICE_CUDA);
  CHECK_EQ(dev.used(), 0u);
  CHECK_EQ(dev.live_events(), 0u);
  jt::register_device_allocator(JT_DEVICE_CUDA, nullptr);

  jt_test::set_env("JT_CUDA_ALLOC_CONF", "huge_pages:1");  // a CPU key
  std::unique_ptr<jt::DeviceAllocator> refused(jt::make_stream_device_allocator(&dev));
  jt_test::unset_env("JT_CUDA_ALLOC_CONF");
  CHECK(contains(refused->conf_error(), "JT_CUDA_ALLOC_CONF='huge_pages:1': unknown key 'huge_pages'. JT_CUDA_ALLOC_CONF is"));
  CHECK(contains(refused->conf_error(), "garbage_collection_threshold (a fraction between 0 and 1"));
  for (const char* bad : {"garbage_collection_threshold:1.5", "garbage_collection_threshold:0", "garbage_collection_threshold:x"})
    CHECK(contains(jt::parse_alloc_conf(bad, jt::AllocConfTarget::kCuda).error, "is not a fraction between 0 and 1"));
  CHECK_EQ(jt::parse_alloc_conf("garbage_collection_threshold:0.6", jt::AllocConfTarget::kCuda).garbage_collection_threshold, 0.6);
  CHECK(contains(jt::parse_alloc_conf("garbage_collection_threshold:0.6").error, "unknown key"));  // not the CPU's
}

void pinned_host_allocator() {
  FakeDevice dev(64 * MiB);
  jt::PinnedHostAllocator p(&dev, &dev);
  jt::Allocation a = p.allocate(1000);
  std::memset(a.data, 1, 1000);
  jt::PinnedStats s = p.stats();
  CHECK_EQ(s.reserved_bytes.current, 1024);
  CHECK_EQ(s.allocated_bytes.current, 1024);
  p.free(a.ctx);
  jt::Allocation b = p.allocate(600);  // the same power of two: the cached block
  CHECK(b.data == a.data);
  CHECK_EQ(p.stats().num_host_alloc, 1);
  p.record_stream(b.ctx, 5);
  p.free(b.ctx);
  jt::Allocation c = p.allocate(1000);
  CHECK(c.data != a.data);  // a copy queued on stream 5 may still read it
  dev.complete(5);
  jt::Allocation d = p.allocate(1000);
  CHECK(d.data == a.data);
  std::memset(d.data, 2, 1000);
  CHECK(p.allocate(0).data == nullptr);
  CHECK(p.allocate(100 * MiB).data == nullptr);  // the host refuses
  p.free(c.ctx);
  p.free(d.ctx);
  s = p.stats();
  CHECK_EQ(s.allocation.current, 0);
  CHECK_EQ(s.allocation.allocated, 4);
  CHECK_EQ(s.segment.current, 2);
  p.empty_cache();
  s = p.stats();
  CHECK_EQ(s.reserved_bytes.current, 0);
  CHECK_EQ(s.num_host_free, 2);
  CHECK_EQ(dev.used(), 0u);
  jt::Allocation e = p.allocate(2048);
  p.record_stream(e.ctx, 6);
  p.free(e.ctx);
  p.empty_cache();  // still waiting for stream 6: kept (the destructor gives it back)
  CHECK_EQ(p.stats().reserved_bytes.current, 2048);
}

// The out-of-memory text in full, PyTorch's shape and number format (1 MiB is "1024.00 KiB" in
// its format_size too) with the allocator's own numbers: 14 MiB held
// (a 12 MiB large segment and a 2 MiB small one, 13 MiB allocated) on a 64 MiB device whose free
// memory the fake leaves to be counted as capacity less what is reserved.
void out_of_memory_message_in_full() {
  FakeDevice dev(64 * MiB);
  std::unique_ptr<jt::DeviceAllocator> a(jt::make_stream_device_allocator(&dev));
  jt::Allocation large = a->allocate(12 * MiB), small = a->allocate(1 * MiB);
  CHECK(a->allocate(80 * MiB).data == nullptr);
  CHECK_EQ(std::string(a->oom_message()),
           std::string("CUDA out of memory. Tried to allocate 80.00 MiB. GPU 0 has a total capacity of 64.00 MiB of "
                       "which 50.00 MiB is free. Of the allocated memory 13.00 MiB is allocated by jtensor, and 1024.00 KiB "
                       "is reserved by jtensor but unallocated. If reserved but unallocated memory is large try setting "
                       "JT_CUDA_ALLOC_CONF=max_split_size_mb:N to avoid fragmentation."));
  a->set_memory_limit(16 * MiB);
  // A new 20 MiB segment would pass the limit: PyTorch names the segment's size, as here.
  CHECK(a->allocate(6 * MiB).data == nullptr);
  CHECK(contains(a->oom_message(), "Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 64.00 MiB of which "
                                   "50.00 MiB is free. 16.00 MiB allowed; Of the allocated memory 13.00 MiB"));
  a->free(large.ctx);
  a->free(small.ctx);
}

// Pinned host blocks as CPU storages (pin_memory): a storage recorded on a stream keeps its block
// from reuse until the work queued there has run; resize keeps the bytes; stats count the blocks.
void pinned_storages() {
  FakeDevice dev(64 * MiB);
  std::unique_ptr<jt::DeviceAllocator> a(jt::make_pinned_device_allocator(&dev, &dev));
  const auto& names = jt::DeviceStats::names();
  std::vector<int64_t> v(names.size());
  auto stat = [&](const char* name) {
    a->stats(v.data());
    return v[std::find(names.begin(), names.end(), name) - names.begin()];
  };
  jt::StorageImpl* s = jt::storage_new_on(a.get(), JT_DEVICE_CPU, 1000);
  CHECK(s != nullptr);
  CHECK_EQ(jt_storage_device((int64_t)s), JT_DEVICE_CPU);
  void* first = s->data();
  std::memset(first, 7, 1000);
  CHECK_EQ(stat("allocated_bytes.all.current"), 1024);
  CHECK_EQ(stat("reserved_bytes.all.current"), 1024);
  CHECK_EQ(stat("num_device_alloc"), 1);
  jt_storage_record_stream((int64_t)s, 4);  // an asynchronous copy reads it on stream 4
  jt_storage_release((int64_t)s);
  jt::StorageImpl* t = jt::storage_new_on(a.get(), JT_DEVICE_CPU, 1000);
  CHECK(t->data() != first);  // the copy may still be reading the first block
  dev.complete(4);
  jt::StorageImpl* u = jt::storage_new_on(a.get(), JT_DEVICE_CPU, 900);
  CHECK(u->data() == first);
  std::memset(u->data(), 9, 900);
  CHECK_EQ(jt_storage_resize((int64_t)u, 3000), JT_OK);
  CHECK(u->data() != first);
  CHECK_EQ(static_cast<char*>(u->data())[899], 9);
  CHECK(jt::storage_new_on(a.get(), JT_DEVICE_CPU, 100 * MiB) == nullptr);  // the host refuses
  jt_storage_release((int64_t)t);
  jt_storage_release((int64_t)u);
  CHECK_EQ(stat("allocated_bytes.all.current"), 0);
  CHECK_EQ(stat("allocation.all.allocated"), 4);
  a->reset_accumulated_stats();
  CHECK_EQ(stat("allocation.all.allocated"), 0);
  a->empty_cache();
  CHECK_EQ(stat("reserved_bytes.all.current"), 0);
  CHECK_EQ(dev.used(), 0u);
}

// Threads on their own streams allocate, write, check and free through one allocator, some blocks
// used on a second stream whose work completes now and then. A block handed out twice would
// show as another thread's mark.
void threads_allocate_and_free() {
  FakeDevice dev(size_t(4) << 30);
  jt::StreamCachingAllocator a(&dev, jt::parse_alloc_conf("max_split_size_mb:24", jt::AllocConfTarget::kCuda));
  const size_t sizes[] = {100, 4 * KiB, 700 * KiB, 1536 * KiB, 12 * MiB, 30 * MiB};
  std::atomic<int> bad{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; t++) {
    threads.emplace_back([&, t] {
      const jt::StreamId stream = t + 1, other = 100 + t;
      std::vector<StreamBlock*> live;
      uint32_t seed = 12345 + t;
      for (int i = 0; i < 3000; i++) {
        seed = seed * 1664525u + 1013904223u;
        if (live.size() < 8 && (seed >> 28) < 9) {
          size_t n = sizes[(seed >> 8) % 6];
          StreamBlock* b = a.allocate(n, stream);
          if (!b) {
            bad++;
            continue;
          }
          b->ptr[0] = b->ptr[n - 1] = (char)t;
          if ((seed >> 4) % 4 == 0) a.record_stream(b, other);
          live.push_back(b);
        } else if (!live.empty()) {
          size_t k = (seed >> 8) % live.size();
          StreamBlock* b = live[k];
          live.erase(live.begin() + (long)k);
          if (b->ptr[0] != (char)t || b->ptr[b->requested - 1] != (char)t) bad++;
          a.free(b);
          if ((seed >> 12) % 8 == 0) dev.complete(other);
        }
      }
      for (StreamBlock* b : live) a.free(b);
    });
  }
  for (auto& th : threads) th.join();
  CHECK_EQ(bad.load(), 0);
  a.empty_cache();
  auto s = a.stats();
  CHECK_EQ(s.allocated_bytes[jt::kAll].current, 0);
  CHECK_EQ(s.active_bytes[jt::kAll].current, 0);
  CHECK_EQ(s.requested_bytes[jt::kAll].current, 0);
  CHECK_EQ(s.reserved_bytes[jt::kAll].current, 0);
  CHECK_EQ(s.inactive_split[jt::kAll].current, 0);
  CHECK(s.allocation[jt::kAll].allocated > 4000);
  CHECK_EQ(dev.used(), 0u);
  CHECK_EQ(dev.live_events(), 0u);
}
