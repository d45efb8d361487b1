// jtc_random's per-thread logic (random_block.h) run by g++ over a grid emulated with loops, for
// every kind, several dtypes, contiguous, strided and misaligned dst and odd sizes, compared byte
// for byte with the CPU's jt_random (gaps between strided elements included); and
// jt/reproducible_math.h's log, sin and cos against long double references, their worst error
// and how often they are correctly rounded printed and bounded.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "check.h"
#include "exact_trig.h"
#include "jt/jt.h"
#include "jt/philox.h"
#include "jt/plans.h"
#include "jt/reproducible_math.h"
#include "random_block.h"

using namespace jt;
using namespace jt::cuda;

namespace {

int64_t bits(double d) {
  int64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}

struct Case {
  RandomKind kind;
  DType dtype;
  std::vector<int64_t> sizes, dst_strides, p_strides;
  int64_t a, b;       // the plan's words (doubles' bits, or low and range)
  int64_t dst_shift;  // elements between the buffer's start and dst: misaligns vector stores
};

// Bytes spanned by a view with these sizes and (non-negative) element strides.
int64_t span(const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides) {
  int64_t last = 0;
  for (size_t d = 0; d < sizes.size(); ++d) last += (sizes[d] - 1) * strides[d];
  return last + 1;
}

std::vector<int64_t> plan_of(const Case& c, char* dst, const double* p, uint64_t key, uint64_t counter) {
  std::vector<int64_t> w = {JT_PLAN_VERSION, (int64_t)c.kind, (int64_t)c.dtype, (int64_t)c.sizes.size(),
                            (int64_t)dst, (int64_t)key, (int64_t)counter, c.a, c.b, (int64_t)p};
  w.insert(w.end(), c.sizes.begin(), c.sizes.end());
  w.insert(w.end(), c.dst_strides.begin(), c.dst_strides.end());
  w.insert(w.end(), c.p_strides.begin(), c.p_strides.end());
  return w;
}

// jtc_random's host side and kernels over host memory: the check pass, then a grid of
// grid * threads threads striding over the blocks (as random.cu's kernels).
int emulate(const std::vector<int64_t>& words, double* bad) {
  random_plan r(words.data());
  RandomArgs a;
  if (!random_prepare(r, (int64_t)dtype_size((DType)r.dtype), a)) return JT_INVALID;
  const int64_t threads = 3 * 5;
  if (a.draw.kind == RandomKind::BernoulliTensor) {
    int64_t first = a.n;
    for (int64_t t = 0; t < threads; ++t)
      for (int64_t e = t; e < a.n; e += threads) {
        const int64_t b = random_bad_index(a, e);
        if (b >= 0 && b < first) first = b;
      }
    if (first < a.n) {
      int64_t off[2];
      a.g.offsets(first, off);
      std::memcpy(bad, a.p + off[1], 8);
      return JT_VALUE_OUT_OF_RANGE;
    }
  }
  dispatch_dtype((DType)r.dtype, [&](auto tag) {
    for (int64_t t = 0; t < threads; ++t)
      for (int64_t b = t; b < a.blocks; b += threads) random_block<typename decltype(tag)::type>(a, b);
  });
  return JT_OK;
}

// Runs c with both, the CPU's under every capability this CPU runs (baseline, AVX2, AVX-512), and
// compares every byte of dst's buffer and the statuses and bad values.
void check_case(const Case& c, const std::vector<double>& probs, uint64_t key, uint64_t counter) {
  const int64_t elem = (int64_t)dtype_size(c.dtype);
  const size_t bytes = (size_t)((span(c.sizes, c.dst_strides) + c.dst_shift) * elem);
  std::vector<char> gpu(bytes, (char)0x5a);
  double bad_gpu = -7;
  const int st_gpu = emulate(plan_of(c, gpu.data() + c.dst_shift * elem, probs.data(), key, counter), &bad_gpu);
  const int initial = jt_cpu_capability();
  for (int cap = 0; cap <= jt_cpu_capability_supported(); ++cap) {
#if defined(JT_ONLY_SOME_CPU_CAPS)  // scripts/sanitize.sh compiles the baseline and the best alone
    if (jt_set_cpu_capability(cap) != 0) continue;
#else
    CHECK_EQ(jt_set_cpu_capability(cap), 0);
#endif
    std::vector<char> cpu(bytes, (char)0x5a);
    double bad_cpu = -7;
    const int st_cpu = jt_random(plan_of(c, cpu.data() + c.dst_shift * elem, probs.data(), key, counter).data(), &bad_cpu);
    CHECK_EQ(st_cpu, st_gpu);
    CHECK(std::memcmp(&bad_cpu, &bad_gpu, 8) == 0);
    const bool same = cpu == gpu;
    CHECK(same);
    if (!same)
      std::fprintf(stderr, "  kind %d dtype %d ndim %zu differ (%s)\n", (int)c.kind, (int)c.dtype, c.sizes.size(),
                   jt_cpu_capability_name(cap));
  }
  jt_set_cpu_capability(initial);
  if (st_gpu == JT_VALUE_OUT_OF_RANGE) CHECK(gpu == std::vector<char>(bytes, (char)0x5a));  // nothing written
}

// Every kind over a few dtypes and layouts.
void draws_match_the_cpu() {
  struct Layout {
    std::vector<int64_t> sizes, strides;
    int64_t shift;
  };
  const Layout layouts[] = {
      {{1}, {1}, 0}, {{1001}, {1}, 0}, {{1001}, {1}, 1},    // one element, odd contiguous, misaligned
      {{13, 9}, {1, 13}, 0}, {{7, 1, 5}, {12, 99, 2}, 3},  // transposed; gaps, a size-1 dim
      {{4, 6}, {6, 1}, 2}, {{40001}, {1}, 1}};             // contiguous, 2-d, shifted; odd, split over threads
  const DType floats[] = {DType::Float64, DType::Float32, DType::Float16, DType::BFloat16};
  const DType ints[] = {DType::Int64, DType::Int32, DType::UInt8, DType::Int16, DType::Float64};
  const DType bools[] = {DType::Bool, DType::Float32, DType::Int64, DType::Float16};
  std::vector<double> probs(41000);
  for (size_t i = 0; i < probs.size(); ++i) probs[i] = (double)((i * 37) % 101) / 100.0;
  uint64_t key = 0x9e3779b97f4a7c15ull, counter = 5;
  for (const Layout& l : layouts) {
    auto run = [&](RandomKind kind, DType t, int64_t a, int64_t b, std::vector<int64_t> p_strides) {
      if (p_strides.empty()) p_strides.assign(l.sizes.size(), 0);
      check_case({kind, t, l.sizes, l.strides, p_strides, a, b, l.shift}, probs, key++, counter);
      counter = counter * 3 + 1;
    };
    for (DType t : floats) {
      run(RandomKind::Uniform53, t, bits(-2.5), bits(3.0), {});
      run(RandomKind::Normal, t, bits(0.0), bits(1.0), {});
      run(RandomKind::Normal, t, bits(10.0), bits(0.25), {});
    }
    run(RandomKind::Uniform24, DType::Float32, 0, 0, {});
    run(RandomKind::Uniform24, DType::Float64, 0, 0, {});
    for (DType t : ints) {
      run(RandomKind::Integers, t, -5, 17, {});
      run(RandomKind::Integers, t, 0, (int64_t)1 << 40, {});
    }
    for (DType t : bools) {
      run(RandomKind::Bernoulli, t, bits(0.3), 0, {});
      std::vector<int64_t> row_major(l.sizes.size(), 1), reversed(l.sizes.size(), 1);
      for (int d = (int)l.sizes.size() - 2; d >= 0; --d) row_major[d] = row_major[d + 1] * l.sizes[d + 1];
      for (size_t d = 1; d < l.sizes.size(); ++d) reversed[d] = reversed[d - 1] * l.sizes[d - 1];
      run(RandomKind::BernoulliTensor, t, 0, 0, row_major);
      run(RandomKind::BernoulliTensor, t, 0, 0, reversed);  // p transposed against dst
    }
  }
}

// bernoulli_tensor with probabilities outside [0, 1]: the first in row-major order is reported
// (not the first in memory) and nothing is written. p's element (i, j) is probs[i + 8 j].
void bad_probabilities_are_found_first_in_row_major_order() {
  std::vector<double> probs(48, 0.5);
  probs[5] = 1.5;     // (5, 0): row-major index 20, first in memory
  probs[9] = -0.25;   // (1, 1): index 5, the first
  probs[26] = NAN;    // (2, 3): index 11
  const Case c{RandomKind::BernoulliTensor, DType::Float32, {6, 4}, {4, 1}, {1, 8}, 0, 0, 0};
  check_case(c, probs, 1, 0);
  std::vector<float> out(24, 9.0f);
  double bad = 0;
  CHECK_EQ(emulate(plan_of(c, reinterpret_cast<char*>(out.data()), probs.data(), 1, 0), &bad), JT_VALUE_OUT_OF_RANGE);
  CHECK_EQ(bad, -0.25);
  probs[9] = 0.5;
  check_case(c, probs, 1, 0);
  CHECK_EQ(emulate(plan_of(c, reinterpret_cast<char*>(out.data()), probs.data(), 1, 0), &bad), JT_VALUE_OUT_OF_RANGE);
  CHECK(std::isnan(bad));
  CHECK(out == std::vector<float>(24, 9.0f));
}

using jt_test::ulps;

struct Worst {
  const char* name;
  double vs_exact = 0, vs_std = 0;  // ulps against long double, and against std:: in double
  int64_t count = 0, rounded = 0, as_std = 0;  // values; those equal to the exact value rounded, to std::'s
  void add(double got, long double exact, double std_value) {
    vs_exact = std::fmax(vs_exact, ulps(got, exact));
    vs_std = std::fmax(vs_std, ulps(got, (long double)std_value));
    ++count;
    rounded += got == (double)exact;
    as_std += got == std_value;
  }
  void report(double bound) {
    std::printf("  %s: max error %.3f ulp (%.3f ulp from std::), %.4f%% correctly rounded, %.4f%% equal to std::\n",
                name, vs_exact, vs_std, 100.0 * rounded / count, 100.0 * as_std / count);
    CHECK(vs_exact <= bound);
    CHECK(rounded >= count * 99 / 100);  // nearly always the exact value rounded, as Java's Math (RandomDrawTest)
  }
};

// fp::log over the normal kind's arguments 1 - u, and fp::sin_cos over its angles 2 pi u,
// at Philox's own u and at the edges (x near 1, 2^-53, sqrt(2)/2; angles near multiples of pi/2).
void log_sin_cos_are_within_0_7_ulp() {
  Worst lg{"log"}, sn{"sin"}, cs{"cos"};
  auto angle = [&](double th) {
    sn.add(fp::sin_cos(th, true), jt_test::exact_sin_cos(th, true), std::sin(th));
    cs.add(fp::sin_cos(th, false), jt_test::exact_sin_cos(th, false), std::cos(th));
  };
  auto logarithm = [&](double x) { lg.add(fp::log(x), logl((long double)x), std::log(x)); };
  uint32_t w[4];
  for (uint64_t i = 0; i < 400000; ++i) {
    philox_block(12345, i, w);
    const double u = philox_bits53(w[0], w[1]), v = philox_bits53(w[2], w[3]);
    logarithm(1.0 - u);
    logarithm(std::ldexp(1.0 - u, -(int)(w[2] % 53)));  // every binade the draws reach
    angle(2.0 * M_PI * v);
  }
  for (int k = 0; k <= 4; ++k) {  // around k pi/2, where the reduction cancels
    double th = std::max(0.0, k * (M_PI / 2));
    for (int s = 0; s < 40; ++s) th = std::nextafter(th, 0.0);
    for (int s = 0; s < 80; ++s, th = std::nextafter(th, 8.0)) angle(th);
  }
  for (double x : {1.0, 0x1.0p-53, 0x1.fffffffffffffp-1, 0x1.6a09e667f3bccp-1, 0x1.6a09e667f3bcdp-1, 0.5, 0.75})
    logarithm(x);
  CHECK_EQ(fp::log(1.0), 0.0);
  lg.report(0.7);
  sn.report(0.7);
  cs.report(0.7);
}

}  // namespace

int main() {
  draws_match_the_cpu();
  bad_probabilities_are_found_first_in_row_major_order();
  log_sin_cos_are_within_0_7_ulp();
  return jt_report("random_host_test");
}
