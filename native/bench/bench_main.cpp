// Native benchmark suite (`jt_bench alloc` / `conv`: those lines only): the allocator's cached path and the copy kernel against memcpy, indexing,
// and the direct convolution's two layouts.
// Prints one line per benchmark; figures are ratios to a peer measured in the same run.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "allocator/caching_allocator.h"
#include "allocator/segment_memory.h"
#include "jt/jt.h"
#include "kernels/kernels.h"
#include "plans.h"
#include "timing.h"

using bench::best_ns_per_op;

void bench_indexing();  // bench_indexing.cpp
void bench_conv();      // bench_conv.cpp
void bench_conv_few_positions();  // bench_conv.cpp

static void* P(int64_t storage) { return reinterpret_cast<void*>(jt_storage_data(storage)); }

// The allocator's cached path: one thread, then two threads at once (each its own sizes, as a
// DataLoader's workers), whose ns per alloc+free would double if every call passed the lock's and
// the pools' cache lines between the cores (Note [Thread caches]; JT_ALLOC_CONF=thread_cache_kb:0
// shows the shared path).
static void bench_allocator() {
  jt::CachingAllocator& a = jt::cpu_allocator();
  for (size_t bytes : {size_t(512), size_t(1) << 20, size_t(64) << 20}) {
    double cached = best_ns_per_op(1000000, 5, [&](int64_t n) {
      for (int64_t i = 0; i < n; ++i) a.free(a.allocate(bytes));
    });
    double sys = best_ns_per_op(bytes > (1u << 20) ? 2000 : 100000, 5, [&](int64_t n) {
      for (int64_t i = 0; i < n; ++i) {
        if (void* p = jt::segment_memory(64, bytes, false)) {  // posix_memalign (Windows: _aligned_malloc)
          static_cast<volatile char*>(p)[0] = 1;
          jt::release_segment_memory(p);
        }
      }
    });
    std::printf("allocator cached alloc+free %9zu B: %7.1f ns (system aligned alloc+free: %8.1f ns, %.1fx)\n",
                bytes, cached, sys, sys / cached);
  }
  auto churn = [&](int64_t n) {  // a small op's storages: four sizes, three live at a time
    jt::Block* live[3] = {};
    for (int64_t i = 0; i < n; ++i) {
      jt::Block*& slot = live[i % 3];
      if (slot) a.free(slot);
      slot = a.allocate(size_t(784 * 4) << (i & 3));
    }
    for (jt::Block* b : live) a.free(b);
  };
  double one = best_ns_per_op(1000000, 5, churn);
  double two = best_ns_per_op(1000000, 5, [&](int64_t n) {
    std::thread other(churn, n);
    churn(n);
    other.join();
  });
  std::printf("allocator small churn alloc+free, one thread: %6.1f ns; two threads at once: %6.1f ns each (%.2fx)\n",
              one, two, two / one);
}

int main(int argc, char** argv) {
  // `jt_bench conv`: the convolution's lines only (the rest takes a minute).
  if (argc > 1 && std::strcmp(argv[1], "conv") == 0) {
    bench_conv();
    return 0;
  }
  if (argc > 1 && std::strcmp(argv[1], "conv-few") == 0) {  // its batch-1 forward lines only
    bench_conv_few_positions();
    return 0;
  }
  if (argc > 1 && std::strcmp(argv[1], "alloc") == 0) {
    bench_allocator();
    return 0;
  }
  bench_allocator();
  jt::CachingAllocator& a = jt::cpu_allocator();
  // The fixed cost of a small op, native side only: a 16-byte storage and a 4-element add plan.
  {
    double st = best_ns_per_op(1000000, 5, [&](int64_t n) {
      for (int64_t i = 0; i < n; ++i) jt_storage_release(jt_storage_new(JT_DEVICE_CPU, 16));
    });
    int64_t xs = jt_storage_new(JT_DEVICE_CPU, 16), ys = jt_storage_new(JT_DEVICE_CPU, 16), zs = jt_storage_new(JT_DEVICE_CPU, 16);
    float* x = reinterpret_cast<float*>(jt_storage_data(xs));
    for (int i = 0; i < 4; ++i) x[i] = (float)i;
    std::vector<int64_t> plan = bench::add_plan(P(zs), P(xs), P(ys), {4}, {{1}, {1}, {1}});
    double ew = best_ns_per_op(1000000, 5, [&](int64_t n) {
      for (int64_t i = 0; i < n; ++i) jt_elementwise(plan.data());
    });
    std::printf("storage new+release, 16 B: %.1f ns; jt_elementwise add of 4 floats: %.1f ns\n", st, ew);
    jt_storage_release(xs), jt_storage_release(ys), jt_storage_release(zs);
  }
  const int64_t n = 4096;
  // Buffers from the caching allocator, aligned as every tensor's storage is.
  jt::Block* sb = a.allocate(n * n * 4);
  jt::Block* db = a.allocate(n * n * 4);
  float* src = reinterpret_cast<float*>(sb->ptr);
  float* dst = reinterpret_cast<float*>(db->ptr);
  for (int64_t i = 0; i < n * n; ++i) src[i] = dst[i] = 1.f;
  int64_t sz[] = {n, n}, ds[] = {n, 1}, ss[] = {1, n};
  jt::CopyPlan p{2, dst, jt::DType::Float32, src, jt::DType::Float32, sz, ds, ss};
  double tr = best_ns_per_op(1, 10, [&](int64_t) { jt::copy_strided(p); });
  double mc = best_ns_per_op(1, 10, [&](int64_t) { jt::parallel_memcpy(dst, src, n * n * 4); });
  std::printf("contiguous() of transposed 4096x4096 float32: %.2f ms, memcpy of the same bytes %.2f ms: %.0f%% of memcpy\n",
              tr / 1e6, mc / 1e6, 100.0 * mc / tr);
  // add with a transposed operand against the contiguous add, both through jt_elementwise.
  {
    jt::Block* ob = a.allocate(n * n * 4);
    auto plan = [&](int64_t s1_row, int64_t s1_col) {
      return bench::add_plan(ob->ptr, dst, src, {n, n}, {{n, 1}, {n, 1}, {s1_row, s1_col}});
    };
    std::vector<int64_t> contiguous = plan(n, 1), transposed = plan(1, n);
    // Interleaved, so both see the same state of a shared machine's memory bandwidth.
    double c = 1e30, t = 1e30;
    for (int r = 0; r < 10; ++r) {
      c = std::min(c, best_ns_per_op(1, 1, [&](int64_t) { jt_elementwise(contiguous.data()); }));
      t = std::min(t, best_ns_per_op(1, 1, [&](int64_t) { jt_elementwise(transposed.data()); }));
    }
    std::printf("add 4096x4096 float32: contiguous %.2f ms, one operand transposed %.2f ms: %.2fx\n", c / 1e6, t / 1e6, t / c);
    a.free(ob);
  }
  a.free(sb);
  a.free(db);
  bench_indexing();
  bench_conv();
  return 0;
}
