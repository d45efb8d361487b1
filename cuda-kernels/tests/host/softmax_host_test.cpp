// The CUDA softmax's per-thread logic run on the host over an emulated grid: a thread per line, a
// warp per line (32 strided shares merged by the xor-shuffle butterfly) and a block per line (512
// shares, merged per warp, then the warps' results), against the CPU kernel through the C API, for
// every floating dtype, softmax and log_softmax, every dim, contiguous and transposed input, with
// rows holding -inf, NaN and +inf. Values agree to rounding (the CPU sums in another order), NaN
// exactly where the CPU has NaN. Aligned lines of whole 16-byte packs take the packed loads,
// and those short enough are written from each thread's cached packs.
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "check.h"
#include "jt/jt.h"
#include "softmax_logic.cuh"

using namespace jt;
using namespace jt::cuda;

namespace {

using V = std::vector<int64_t>;
std::mt19937_64 rng(20261124);
int64_t packs = 0, cached_lines = 0;  // lines the group kernels read in 16-byte packs, kept in registers

V cat(std::initializer_list<V> parts) {
  V out;
  for (const V& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

V strides_of(const V& sizes, bool reversed) {
  V s(sizes.size());
  int64_t k = 1;
  for (size_t i = 0; i < sizes.size(); ++i) {
    const size_t d = reversed ? i : sizes.size() - 1 - i;
    s[d] = k;
    k *= sizes[d];
  }
  return s;
}

// 32 lanes' shares from lanes[base]: after the butterfly every lane holds the merge of all.
template <typename A>
void butterfly(std::vector<OnlineSoftmax<A>>& lanes, size_t base) {
  for (int d = 16; d > 0; d /= 2) {
    const std::vector<OnlineSoftmax<A>> old(lanes.begin() + base, lanes.begin() + base + 32);
    for (int l = 0; l < 32; ++l) lanes[base + l].merge(old[l ^ d].max, old[l ^ d].sum);
  }
}

// Line l as a group of `threads` threads (32: the warp kernel; more: the block kernel).
template <typename T, bool Log>
void group_line(const SoftmaxArgs& a, int64_t l, int threads) {
  using A = opmath_t<T>;
  int64_t off[2];
  a.lines.start(l, off);
  const bool packed = softmax_packed<T>(a, off), cached = softmax_cacheable<T>(a, packed, threads);
  packs += packed;
  cached_lines += cached;
  std::vector<OnlineSoftmax<A>> share(threads);
  std::vector<SoftmaxPack<T>> cache((size_t)threads * kCachedPacks);  // each thread's registers
  for (int t = 0; t < threads; ++t)
    share[t] = cached ? softmax_share_cached<T>(a, off, t, threads, &cache[(size_t)t * kCachedPacks])
                      : softmax_group_share<T>(a, off, packed, t, threads);
  for (int w = 0; w < threads / 32; ++w) butterfly(share, (size_t)w * 32);
  OnlineSoftmax<A> all = share[0];
  if (threads > 32) {  // the block kernel: lane w of a warp merges warp w's result, then the butterfly
    std::vector<OnlineSoftmax<A>> warps(32);
    for (int w = 0; w < threads / 32; ++w) warps[w].merge(share[(size_t)w * 32].max, share[(size_t)w * 32].sum);
    butterfly(warps, 0);
    all = warps[0];
  }
  for (int t = 0; t < threads; ++t) {
    if (cached) softmax_write_cached<T, Log>(a, off, t, threads, &cache[(size_t)t * kCachedPacks], all.max, all.finished_sum());
    else softmax_group_write<T, Log>(a, off, packed, t, threads, all.max, all.finished_sum());
  }
}

template <typename T>
bool agree(T cpu, T gpu) {
  const double c = (double)(opmath_t<T>)cpu, g = (double)(opmath_t<T>)gpu;
  if (std::isnan(c) || std::isnan(g)) return std::isnan(c) && std::isnan(g);
  if (std::isinf(c) || std::isinf(g)) return c == g;
  const double eps = sizeof(T) == 8 ? 1e-13 : sizeof(T) == 4 ? 1e-6 : std::is_same<T, Half>::value ? 2e-3 : 1.6e-2;
  return std::fabs(c - g) <= eps * (1 + std::fabs(c));
}

template <typename T>
void softmax_case(const V& sizes, int64_t dim, bool transposed, int64_t log) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  std::vector<T> in((size_t)n), cpu((size_t)n);
  std::uniform_real_distribution<double> u(-6, 6);
  for (auto& x : in) x = convert<T, double>(u(rng));
  const double specials[] = {-INFINITY, NAN, INFINITY};
  for (int k = 0; k < 4 && n > 8; ++k) in[(size_t)(rng() % n)] = convert<T, double>(specials[k % 3]);
  const V is = strides_of(sizes, transposed), os = strides_of(sizes, false);
  if (sizes[dim] > 1 && n > 8) {  // one whole line of -inf: NaN, as the CPU
    for (int64_t i = 0; i < sizes[dim]; ++i) in[(size_t)(i * is[dim])] = convert<T, double>(-INFINITY);
  }
  V plan = cat({{JT_PLAN_VERSION, log, (int64_t)DTypeOf<T>::value, (int64_t)sizes.size(), dim, (int64_t)cpu.data(),
                 (int64_t)in.data()}, sizes, os, is});
  CHECK_EQ(jt_softmax(plan.data()), JT_OK);
  for (int kernel = 0; kernel < 3; ++kernel) {
    std::vector<T> gpu((size_t)n);
    plan[5] = (int64_t)gpu.data();
    SoftmaxArgs a;
    CHECK(prepare_softmax(softmax_plan(plan.data()), a));
    for (int64_t l = 0; l < a.lines.count; ++l) {
      if (kernel == 0) log ? softmax_line<T, true>(a, l) : softmax_line<T, false>(a, l);
      else log ? group_line<T, true>(a, l, kernel == 1 ? 32 : 512) : group_line<T, false>(a, l, kernel == 1 ? 32 : 512);
    }
    bool same = true;
    for (int64_t i = 0; i < n; ++i) same &= agree(cpu[(size_t)i], gpu[(size_t)i]);
    if (!same) std::fprintf(stderr, "softmax dtype %d dim %d kernel %d log %d\n", (int)DTypeOf<T>::value, (int)dim, kernel, (int)log);
    CHECK(same);
  }
}

template <typename T>
void every_case() {
  for (const V& sizes : {V{7}, V{5, 37}, V{3, 4, 70}, V{2, 1100}, V{1, 3}, V{3, 64}, V{2, 3000}}) {
    for (int64_t dim = 0; dim < (int64_t)sizes.size(); ++dim) {
      for (int64_t log = 0; log < 2; ++log) {
        softmax_case<T>(sizes, dim, false, log);
        softmax_case<T>(sizes, dim, true, log);
      }
    }
  }
}

}  // namespace

int main() {
  every_case<float>();
  every_case<double>();
  every_case<Half>();
  every_case<BFloat16>();
  CHECK(packs > 100);  // the packed path ran for every dtype's aligned lines
  CHECK(cached_lines > 50 && cached_lines < packs);  // from registers, and (rows of 3000 in a warp) not
  // the online fold's special rows, against the two-pass formulas: -inf alone, +inf, NaN
  OnlineSoftmax<float> o;
  o.add(-INFINITY);
  o.add(2.f);
  o.add(-INFINITY);
  CHECK(o.max == 2.f && o.finished_sum() == 1.f);
  o.add(INFINITY);
  CHECK(std::isnan(o.finished_sum()));
  OnlineSoftmax<double> q;
  q.add(1.0);
  q.add(NAN);
  q.add(3.0);
  CHECK(std::isnan(q.max));
  return jt_report("softmax_host_test");
}
