// The channels-in-lanes forward for few positions (conv_lanes_few.cpp, Note [Few positions])
// through jt_conv: bit for bit the forward that packs the whole weight first (the same sums in the
// same order), and within rounding of a float64 plain loop; 1 to 3 spatial dims, strides,
// dilation, uneven padding, groups, channel counts that fill no vector and more than a block,
// several samples, a run of input channels shorter than the channels and a kernel larger than a
// run, bias or none, float32 and float64, one thread and several; every output element written;
// NaN and infinities (the same bits too), and its scratch refused.
// The input's gradient for few positions (Note [Few positions, the input's gradient]) and the one
// that packs the whole weight, over the same shapes, within rounding of a float64 adjoint (their
// sums go in different orders), non-finite values landing in the same places, its scratch refused.
// Beside it, both layouts' weight gradients, which end in the same layout change (sums_to_weight).
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "check.h"
#include "test_env.h"
#include "test_values.h"
#include "jt/jt.h"
#include "jt/plans.h"

namespace {

struct Shape {
  int64_t n, c, u, groups, nsp;
  int64_t in[3], k[3], before[3], after[3], dilation[3], stride[3];
  int64_t out(int d) const { return (in[d] + before[d] + after[d] - dilation[d] * (k[d] - 1) - 1) / stride[d] + 1; }
  int64_t in_plane() const { return in[0] * (nsp > 1 ? in[1] : 1) * (nsp > 2 ? in[2] : 1); }
  int64_t out_plane() const { return out(0) * (nsp > 1 ? out(1) : 1) * (nsp > 2 ? out(2) : 1); }
  int64_t taps() const { return k[0] * (nsp > 1 ? k[1] : 1) * (nsp > 2 ? k[2] : 1); }
};

// jt_conv's mode (0 forward, 1 the input's gradient: x written from y) through the channels in lanes.
template <typename T>
int conv(int mode, const Shape& s, bool few, const T* x, const T* w, const T* bias, const T* y) {
  jt_test::set_env("JT_CONV_LANES", "1");
  jt_test::set_env("JT_CONV_FEW", few ? "1" : "0");
  std::vector<int64_t> plan = {JT_PLAN_VERSION, mode, sizeof(T) == 4 ? 8 : 9, s.nsp, s.n, s.c, s.u, s.groups,
                               (int64_t)x, (int64_t)w, (int64_t)bias, (int64_t)y};
  for (const int64_t* field : {s.in, (const int64_t*)nullptr, s.k, s.before, s.after, s.dilation, s.stride})
    for (int d = 0; d < s.nsp; ++d) plan.push_back(field ? field[d] : s.out(d));
  const int st = jt_conv(plan.data());
  jt_test::unset_env("JT_CONV_FEW");
  jt_test::unset_env("JT_CONV_LANES");
  return st;
}

template <typename T>
int forward(const Shape& s, bool few, const T* x, const T* w, const T* bias, T* y) {
  return conv(0, s, few, x, w, bias, y);
}

template <typename T>
int input_grad(const Shape& s, bool few, T* gx, const T* w, const T* gy) {
  return conv<T>(1, s, few, gx, w, nullptr, gy);
}

// f(x index, y index, w index) for every product of the convolution: the input element a tap of
// an output position reads (padding skipped), in the group's channels.
template <typename F>
void each_product(const Shape& s, F&& f) {
  const int64_t cg = s.c / s.groups, og = s.u / s.groups, P = s.out_plane();
  int64_t o3[3] = {1, 1, 1}, i3[3] = {1, 1, 1}, k3[3] = {1, 1, 1};
  for (int d = 0; d < s.nsp; ++d) o3[d] = s.out(d), i3[d] = s.in[d], k3[d] = s.k[d];
  for (int64_t n = 0; n < s.n; ++n)
    for (int64_t u = 0; u < s.u; ++u)
      for (int64_t o = 0; o < P; ++o) {
        const int64_t oa[3] = {o / (o3[1] * o3[2]), o / o3[2] % o3[1], o % o3[2]};
        for (int64_t c = 0; c < cg; ++c)
          for (int64_t t = 0; t < s.taps(); ++t) {
            const int64_t ta[3] = {t / (k3[1] * k3[2]), t / k3[2] % k3[1], t % k3[2]};
            int64_t at = 0;
            bool inside = true;
            for (int d = 0; d < 3; ++d) {
              const int64_t i = d < s.nsp ? oa[d] * s.stride[d] - s.before[d] + ta[d] * s.dilation[d] : 0;
              inside &= i >= 0 && i < i3[d];
              at = at * i3[d] + i;
            }
            if (inside) f((n * s.c + u / og * cg + c) * s.in_plane() + at, (n * s.u + u) * P + o, (u * cg + c) * s.taps() + t);
          }
      }
}

// y[n][u][o] = bias[u] + Σ_c Σ_t x · w over the group's channels, in float64.
template <typename T>
std::vector<double> plain(const Shape& s, const std::vector<T>& x, const std::vector<T>& w, const T* bias) {
  std::vector<double> y((size_t)(s.n * s.u * s.out_plane()));
  for (size_t i = 0; i < y.size(); ++i) y[i] = bias ? (double)bias[i / s.out_plane() % s.u] : 0.0;
  each_product(s, [&](int64_t xi, int64_t yi, int64_t wi) { y[(size_t)yi] += (double)x[(size_t)xi] * (double)w[(size_t)wi]; });
  return y;
}

// The adjoint: gx[n][c][i] = Σ over the products that read it of gy · w, in float64.
template <typename T>
std::vector<double> plain_input_grad(const Shape& s, const std::vector<T>& gy, const std::vector<T>& w) {
  std::vector<double> gx((size_t)(s.n * s.c * s.in_plane()), 0.0);
  each_product(s, [&](int64_t xi, int64_t yi, int64_t wi) { gx[(size_t)xi] += (double)gy[(size_t)yi] * (double)w[(size_t)wi]; });
  return gx;
}

// Whether two results are the same bits (an empty one's data() may be null, which memcmp may not take).
template <typename T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

// Non-finite operands: NaN, inf and -inf in the input and the weight (hostile review, session 35).
template <typename T>
void non_finite(const Shape& s) {
  std::vector<T> x = values<T>((size_t)(s.n * s.c * s.in_plane()), 1), w = values<T>((size_t)(s.u * (s.c / s.groups) * s.taps()), 2);
  x[x.size() / 3] = NAN, x[x.size() / 2] = INFINITY, w[w.size() / 5] = -INFINITY, w[w.size() - 1] = NAN;
  std::vector<T> few((size_t)(s.n * s.u * s.out_plane()), T(7)), whole(few.size(), T(-7));
  CHECK_EQ(forward<T>(s, true, x.data(), w.data(), nullptr, few.data()), JT_OK);
  CHECK_EQ(forward<T>(s, false, x.data(), w.data(), nullptr, whole.data()), JT_OK);
  CHECK(same_bits(few, whole));
  int odd = 0;
  for (T v : few) odd += !std::isfinite(v);
  CHECK(odd > 0);  // the non-finite values reached the result
  // The input's gradient sums in another order, so only where NaN and each infinity land must agree.
  std::vector<T> gy = values<T>((size_t)(s.n * s.u * s.out_plane()), 6), gx_few(x.size(), T(7)), gx_whole(x.size(), T(-7));
  gy[gy.size() / 4] = INFINITY, gy[gy.size() / 3] = NAN;
  CHECK_EQ(input_grad<T>(s, true, gx_few.data(), w.data(), gy.data()), JT_OK);
  CHECK_EQ(input_grad<T>(s, false, gx_whole.data(), w.data(), gy.data()), JT_OK);
  int differ = 0, reached = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const T a = gx_few[i], b = gx_whole[i];
    differ += std::isnan(a) != std::isnan(b) || std::isinf(a) != std::isinf(b) || (std::isinf(a) && a != b);
    reached += !std::isfinite(a);
  }
  CHECK_EQ(differ, 0);
  CHECK(reached > 0);
}

// Its scratch refused (a limit of 1 byte, the allocator's free space filled, as kernels_test's
// convolution_scratch): JT_OUT_OF_MEMORY, then the packed-whole forward's bits once memory is back.
void scratch_refused() {
  const Shape s = {1, 512, 64, 1, 2, {7, 7}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, {1, 1}};  // padded planes of 166 KB
  std::vector<float> x = values<float>((size_t)(s.c * s.in_plane()), 1), w = values<float>((size_t)(s.u * s.c * s.taps()), 2);
  std::vector<float> few((size_t)(s.u * s.out_plane()), 7.f), whole(few.size(), -7.f);
  const int64_t limit = jt_memory_limit(JT_DEVICE_CPU);
  jt_empty_cache(JT_DEVICE_CPU);
  jt_set_memory_limit(JT_DEVICE_CPU, 1);
  std::vector<int64_t> fillers;
  for (int64_t st; (st = jt_storage_new(JT_DEVICE_CPU, 64 << 10)) != 0;) fillers.push_back(st);
  CHECK_EQ(forward<float>(s, true, x.data(), w.data(), nullptr, few.data()), JT_OUT_OF_MEMORY);
  std::vector<float> gy = values<float>(few.size(), 6), gx(x.size(), 7.f);
  CHECK_EQ(input_grad<float>(s, true, gx.data(), w.data(), gy.data()), JT_OUT_OF_MEMORY);
  for (int64_t st : fillers) jt_storage_release(st);
  jt_set_memory_limit(JT_DEVICE_CPU, limit);
  CHECK_EQ(forward<float>(s, true, x.data(), w.data(), nullptr, few.data()), JT_OK);
  CHECK_EQ(forward<float>(s, false, x.data(), w.data(), nullptr, whole.data()), JT_OK);
  CHECK(same_bits(few, whole));
  CHECK_EQ(input_grad<float>(s, true, gx.data(), w.data(), gy.data()), JT_OK);
  const std::vector<double> want = plain_input_grad(s, gy, w);
  int bad = 0;
  for (size_t i = 0; i < want.size(); ++i) bad += !(std::fabs((double)gx[i] - want[i]) <= 1e-5 * (1 + (double)(s.u * s.taps())));
  CHECK_EQ(bad, 0);
}

// The input's gradient both ways (a block a task, a run of output channels at a time; the whole
// weight packed first) within rounding of the float64 adjoint, every element written.
template <typename T>
void check_input_grad(const Shape& s) {
  std::vector<T> gy = values<T>((size_t)(s.n * s.u * s.out_plane()), 6), w = values<T>((size_t)(s.u * (s.c / s.groups) * s.taps()), 2);
  std::vector<T> few((size_t)(s.n * s.c * s.in_plane()), T(7)), whole(few.size(), T(-7));
  CHECK_EQ(input_grad<T>(s, true, few.data(), w.data(), gy.data()), JT_OK);
  CHECK_EQ(input_grad<T>(s, false, whole.data(), w.data(), gy.data()), JT_OK);
  const std::vector<double> want = plain_input_grad(s, gy, w);
  const double tol = (sizeof(T) == 4 ? 1e-5 : 1e-13) * (1 + (double)(s.u / s.groups * s.taps()));
  int bad_few = 0, bad_whole = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    bad_few += !(std::fabs((double)few[i] - want[i]) <= tol);
    bad_whole += !(std::fabs((double)whole[i] - want[i]) <= tol);
  }
  if (bad_few || bad_whole)
    std::printf("input grad %s n%d c%d u%d g%d nsp%d: %d (a block a task) and %d (whole) of %zu off the plain loop\n",
                sizeof(T) == 4 ? "f32" : "f64", (int)s.n, (int)s.c, (int)s.u, (int)s.groups, (int)s.nsp, bad_few, bad_whole, want.size());
  CHECK_EQ(bad_few, 0);
  CHECK_EQ(bad_whole, 0);
}

template <typename T>
void check(const Shape& s, bool with_bias) {
  std::vector<T> x = values<T>((size_t)(s.n * s.c * s.in_plane()), 1), w = values<T>((size_t)(s.u * (s.c / s.groups) * s.taps()), 2);
  std::vector<T> bias = values<T>((size_t)s.u, 3);
  const T* b = with_bias ? bias.data() : nullptr;
  std::vector<T> few((size_t)(s.n * s.u * s.out_plane()), T(7)), whole(few.size(), T(-7));  // a place left unwritten shows
  CHECK_EQ(forward<T>(s, true, x.data(), w.data(), b, few.data()), JT_OK);
  CHECK_EQ(forward<T>(s, false, x.data(), w.data(), b, whole.data()), JT_OK);
  const bool same = same_bits(few, whole);
  const std::vector<double> want = plain(s, x, w, b);
  const double tol = (sizeof(T) == 4 ? 1e-5 : 1e-13) * (1 + (double)(s.c / s.groups * s.taps()));
  int bad = 0;
  for (size_t i = 0; i < want.size(); ++i) bad += !(std::fabs((double)few[i] - want[i]) <= tol);
  if (!same || bad)
    std::printf("%s n%d c%d u%d g%d nsp%d: %s, %d of %zu off the plain loop\n", sizeof(T) == 4 ? "f32" : "f64", (int)s.n, (int)s.c,
                (int)s.u, (int)s.groups, (int)s.nsp, same ? "same bits" : "bits differ", bad, want.size());
  CHECK(same);
  CHECK_EQ(bad, 0);
}

// The weight's gradient of both layouts (JT_CONV_LANES 0 and 1: flat planes and channels in lanes,
// whose sums [c][t][u] are written out in the weight's layout [u][c][t] by sums_to_weight) against
// a float64 plain loop: groups, output channels past a vector, taps, samples.
template <typename T>
void weight_gradient(int64_t n, int64_t c, int64_t u, int64_t groups, int64_t hw, int64_t k, bool lanes) {
  const int64_t cg = c / groups, og = u / groups, taps = k * k, pad = k / 2, P = hw * hw;
  std::vector<T> x = values<T>((size_t)(n * c * P), 4), gy = values<T>((size_t)(n * u * P), 5), gw((size_t)(u * cg * taps), T(7));
  jt_test::set_env("JT_CONV_LANES", lanes ? "1" : "0");
  std::vector<int64_t> plan = {JT_PLAN_VERSION, 2, sizeof(T) == 4 ? 8 : 9, 2, n, c, u, groups, (int64_t)x.data(), (int64_t)gw.data(), 0,
                               (int64_t)gy.data(), hw, hw, hw, hw, k, k, pad, pad, pad, pad, 1, 1, 1, 1};
  CHECK_EQ(jt_conv(plan.data()), JT_OK);
  jt_test::unset_env("JT_CONV_LANES");
  int bad = 0;
  for (int64_t o = 0; o < u; ++o)
    for (int64_t ci = 0; ci < cg; ++ci)
      for (int64_t t = 0; t < taps; ++t) {
        double want = 0;
        for (int64_t s = 0; s < n; ++s)
          for (int64_t a = 0; a < hw; ++a)
            for (int64_t b = 0; b < hw; ++b) {
              const int64_t r = a + t / k - pad, q = b + t % k - pad;
              if (r < 0 || r >= hw || q < 0 || q >= hw) continue;
              want += (double)x[(size_t)((s * c + o / og * cg + ci) * P + r * hw + q)] * (double)gy[(size_t)((s * u + o) * P + a * hw + b)];
            }
        const double got = (double)gw[(size_t)((o * cg + ci) * taps + t)];
        bad += !(std::fabs(got - want) <= (sizeof(T) == 4 ? 1e-5 : 1e-13) * (1 + (double)(n * P)));
      }
  if (bad) std::printf("weight gradient %s, %s: %d of %zu off\n", sizeof(T) == 4 ? "f32" : "f64", lanes ? "lanes" : "planes", bad, gw.size());
  CHECK_EQ(bad, 0);
}

}  // namespace

int main() {
  const Shape shapes[] = {
      {1, 64, 64, 1, 2, {7, 7}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, {1, 1}},          // a deep layer's shape, small
      {1, 40, 200, 1, 2, {5, 6}, {3, 3}, {1, 0}, {2, 1}, {1, 1}, {1, 1}},         // three blocks and a tail, uneven padding
      {3, 24, 36, 1, 2, {9, 9}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, {2, 2}},          // samples, stride 2, a tile across samples
      {2, 32, 48, 2, 2, {6, 7}, {3, 3}, {2, 2}, {2, 2}, {2, 2}, {1, 1}},          // groups, dilation 2
      {1, 300, 40, 1, 2, {4, 4}, {1, 1}, {0, 0}, {0, 0}, {1, 1}, {1, 1}},         // 1 × 1: runs of many channels, then a short one
      {1, 8, 64, 1, 2, {8, 8}, {11, 11}, {5, 5}, {5, 5}, {1, 1}, {1, 1}},         // a kernel larger than a run
      {2, 20, 33, 1, 1, {30}, {5}, {2}, {1}, {1}, {3}},                           // 1-D, stride 3
      {1, 12, 40, 1, 3, {4, 5, 6}, {3, 3, 3}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}},  // 3-D
      {5, 16, 16, 1, 2, {1, 1}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, {1, 1}},          // a 1 × 1 plane: every tile spans samples
      // hostile review: og = 4 AVX2 / AVX-512 vectors + 1, cg = 1 with og below a vector, batch 0
      {2, 8, 66, 2, 2, {5, 4}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, {1, 1}},
      {1, 8, 130, 2, 2, {4, 4}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, {1, 1}},
      {2, 12, 36, 12, 2, {5, 5}, {3, 3}, {2, 0}, {0, 2}, {1, 1}, {1, 1}},
      {0, 16, 16, 1, 2, {4, 4}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, {1, 1}},
  };
  for (int threads : {1, 2, 3, 7})
    for (const Shape& s : shapes) {
      jt_set_num_threads(threads);
      check<float>(s, true);
      check<double>(s, s.n % 2 == 0);
      if (threads == 1 || threads == 3) {  // the suite's time under ASan and QEMU: one thread and an uneven split
        check_input_grad<float>(s);
        check_input_grad<double>(s);
      }
    }
  for (int threads : {1, 3}) {
    jt_set_num_threads(threads);
    non_finite<float>(shapes[1]);
    non_finite<double>(shapes[3]);
  }
  scratch_refused();
  for (bool lanes : {false, true}) {
    weight_gradient<float>(2, 6, 40, 2, 7, 3, lanes);    // groups, a vector and a tail of output channels a group
    weight_gradient<double>(1, 3, 17, 1, 5, 5, lanes);   // 25 taps, a tail past one vector
    weight_gradient<float>(1, 64, 64, 1, 7, 3, lanes);   // a deep layer's shape, small
  }
  return jt_report("conv_lanes_few_test");
}
