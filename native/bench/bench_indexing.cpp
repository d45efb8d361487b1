// Indexing at scale: the along-dim kernel (index_select, gather, scatter_add) against a plain C
// loop over the same buffers, in the same run, on one thread and on all of them.
#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

#include "jt/jt.h"
#include "parallel.h"
#include "plans.h"
#include "timing.h"

namespace {

const int64_t kF32 = 8;  // jt::DType::Float32

std::vector<int64_t> random_indices(int64_t n, int64_t bound) {
  std::mt19937_64 rng(42);
  std::vector<int64_t> v((size_t)n);
  for (auto& x : v) x = (int64_t)(rng() % (uint64_t)bound);
  return v;
}

void report(const char* what, double kernel_ns, double loop_ns) {
  std::printf("%-44s kernel %7.2f ms, plain C loop %7.2f ms: %.2fx the loop's time\n", what, kernel_ns / 1e6, loop_ns / 1e6,
              kernel_ns / loop_ns);
}

// Interleaved best-of-7, so both see the same state of a shared machine.
template <typename K, typename L>
void compare(const char* what, K&& kernel, L&& loop) {
  double k = 1e30, l = 1e30;
  for (int r = 0; r < 7; ++r) {
    k = std::min(k, bench::best_ns_per_op(1, 1, [&](int64_t) { kernel(); }));
    l = std::min(l, bench::best_ns_per_op(1, 1, [&](int64_t) { loop(); }));
  }
  report(what, k, l);
}

}  // namespace

void bench_indexing() {
  const int threads = jt::get_num_threads();
  {  // index_select of 1M rows of 64 float32 from a 1M-row table
    const int64_t rows = 1 << 20, cols = 64;
    std::vector<float> table((size_t)(rows * cols), 1.f), out((size_t)(rows * cols));
    std::vector<int64_t> idx = random_indices(rows, rows);
    auto plan = bench::index_along_plan(0, kF32, 0, rows, table.data(), idx.data(), out.data(), {rows, cols}, {cols, 1},
                                        {1, 0}, {cols, 1});
    int64_t bad = 0;
    for (int t : {1, threads}) {
      jt::set_num_threads(t);
      char what[64];
      std::snprintf(what, sizeof what, "indexSelect 1M x 64 float32, %d thread(s)", t);
      compare(what, [&] { jt_index_along(plan.data(), &bad); }, [&] {
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t c = 0; c < cols; ++c) out[(size_t)(r * cols + c)] = table[(size_t)(idx[(size_t)r] * cols + c)];
      });
    }
  }
  {  // gather and scatter_add of 16M float32 elements at random positions
    const int64_t n = 1 << 24;
    std::vector<float> self((size_t)n, 1.f), other((size_t)n, 1.f);
    std::vector<int64_t> idx = random_indices(n, n);
    auto gather = bench::index_along_plan(0, kF32, 0, n, self.data(), idx.data(), other.data(), {n}, {1}, {1}, {1});
    auto scatter_add = bench::index_along_plan(2, kF32, 0, n, self.data(), idx.data(), other.data(), {n}, {1}, {1}, {1});
    int64_t bad = 0;
    for (int t : {1, threads}) {
      jt::set_num_threads(t);
      char what[64];
      std::snprintf(what, sizeof what, "gather 16M float32, %d thread(s)", t);
      compare(what, [&] { jt_index_along(gather.data(), &bad); }, [&] {
        for (int64_t i = 0; i < n; ++i) other[(size_t)i] = self[(size_t)idx[(size_t)i]];
      });
    }
    compare("scatterAdd 16M float32 (serial, as repeated indices need)", [&] { jt_index_along(scatter_add.data(), &bad); }, [&] {
      for (int64_t i = 0; i < n; ++i) self[(size_t)idx[(size_t)i]] += other[(size_t)i];
    });
  }
  jt::set_num_threads(threads);
}
