// Winograd F(2 × 2, 3 × 3) (conv_winograd.cpp) through jt_conv, against a float64 plain loop and
// against the direct kernels: odd and even sizes, every padding it takes (0 to 2, uneven),
// channel counts that fill no whole vector, batch > 1, bias, float32 and float64, the forward and
// the input's gradient; a result that is not finite comes out with the direct kernels' bits.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "check.h"
#include "test_env.h"
#include "test_values.h"
#include "jt/jt.h"
#include "jt/plans.h"

namespace {

using V = std::vector<int64_t>;

struct Shape {
  int64_t n, c, u, h, w, pt, pl, pb, pr;
  int64_t oh() const { return h + pt + pb - 2; }
  int64_t ow() const { return w + pl + pr - 2; }
};

template <typename T>
int64_t dtype_code() {
  return sizeof(T) == 4 ? 8 : 9;
}

template <typename T>
int conv(const Shape& s, int64_t mode, T* x, T* w, T* bias, T* y, bool winograd) {
  jt_test::set_env("JT_CONV_WINOGRAD", winograd ? "1" : "0");
  V plan = {JT_PLAN_VERSION, mode, dtype_code<T>(), 2, s.n, s.c, s.u, 1, (int64_t)x, (int64_t)w, (int64_t)bias, (int64_t)y,
            s.h, s.w, s.oh(), s.ow(), 3, 3, s.pt, s.pl, s.pb, s.pr, 1, 1, 1, 1};
  const int st = jt_conv(plan.data());
  jt_test::unset_env("JT_CONV_WINOGRAD");
  return st;
}

// y = conv(x, w) + bias (mode 0) or gx = its adjoint applied to gy (mode 1), in float64.
template <typename T>
std::vector<double> plain(const Shape& s, int64_t mode, const std::vector<T>& x, const std::vector<T>& w, const std::vector<T>& bias,
                          const std::vector<T>& gy) {
  const int64_t oh = s.oh(), ow = s.ow();
  std::vector<double> out(mode == 0 ? (size_t)(s.n * s.u * oh * ow) : (size_t)(s.n * s.c * s.h * s.w), 0.0);
  for (int64_t n = 0; n < s.n; ++n)
    for (int64_t u = 0; u < s.u; ++u)
      for (int64_t a = 0; a < oh; ++a)
        for (int64_t b = 0; b < ow; ++b) {
          if (mode == 0) out[(size_t)(((n * s.u + u) * oh + a) * ow + b)] = bias.empty() ? 0.0 : (double)bias[(size_t)u];
          for (int64_t c = 0; c < s.c; ++c)
            for (int64_t i = 0; i < 3; ++i)
              for (int64_t j = 0; j < 3; ++j) {
                const int64_t r = a + i - s.pt, q = b + j - s.pl;
                if (r < 0 || r >= s.h || q < 0 || q >= s.w) continue;
                const double wv = w[(size_t)(((u * s.c + c) * 3 + i) * 3 + j)];
                const size_t xi = (size_t)(((n * s.c + c) * s.h + r) * s.w + q), yi = (size_t)(((n * s.u + u) * oh + a) * ow + b);
                if (mode == 0) out[yi] += (double)x[xi] * wv;
                else out[xi] += (double)gy[yi] * wv;
              }
        }
  return out;
}

template <typename T>
void against_plain_loop(const Shape& s) {
  const double tol = sizeof(T) == 4 ? 2e-5 : 1e-12;
  std::vector<T> x = values<T>((size_t)(s.n * s.c * s.h * s.w), 1), w = values<T>((size_t)(s.u * s.c * 9), 2);
  std::vector<T> bias = values<T>((size_t)s.u, 3), gy = values<T>((size_t)(s.n * s.u * s.oh() * s.ow()), 4);
  for (int64_t mode = 0; mode < 2; ++mode) {
    const std::vector<double> want = plain(s, mode, x, w, bias, gy);
    std::vector<T> got(want.size(), T(7)), xs = x, gys = gy;  // 7: a place left unwritten shows
    const int st = mode == 0 ? conv<T>(s, 0, xs.data(), w.data(), bias.data(), got.data(), true)
                             : conv<T>(s, 1, got.data(), w.data(), nullptr, gys.data(), true);
    CHECK_EQ(st, JT_OK);
    // the error bound scales with the sum of the products' magnitudes: about 3·C·9 terms of size ≤ 1
    const double scale = 1 + 0.1 * (double)(s.c > s.u ? s.c : s.u);
    int bad = 0;
    for (size_t i = 0; i < want.size(); ++i) bad += !(std::fabs((double)got[i] - want[i]) <= tol * scale);
    if (bad) std::printf("winograd %s mode %d n%d c%d u%d %dx%d pad %d %d %d %d: %d of %zu off\n", sizeof(T) == 4 ? "f32" : "f64",
                         (int)mode, (int)s.n, (int)s.c, (int)s.u, (int)s.h, (int)s.w, (int)s.pt, (int)s.pl, (int)s.pb, (int)s.pr, bad,
                         want.size());
    CHECK_EQ(bad, 0);
  }
}

// An infinity in the input: the transforms would give NaNs where the direct sum gives ±inf; the
// result must be the direct kernels', bit for bit.
void non_finite_input_falls_back() {
  const Shape s{1, 16, 16, 9, 9, 1, 1, 1, 1};
  std::vector<float> x = values<float>((size_t)(16 * 81), 5), w = values<float>((size_t)(16 * 16 * 9), 6);
  for (float& v : w) v = std::fabs(v);  // one sign: the infinity stays an infinity in the direct sum
  x[40] = INFINITY;
  std::vector<float> a((size_t)(16 * 81)), b(a.size());
  CHECK_EQ(conv<float>(s, 0, x.data(), w.data(), nullptr, a.data(), true), JT_OK);
  CHECK_EQ(conv<float>(s, 0, x.data(), w.data(), nullptr, b.data(), false), JT_OK);
  CHECK(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
  int infinite = 0;
  for (float v : a) infinite += std::isinf(v);
  CHECK(infinite > 0);
}

}  // namespace

int main() {
  const Shape shapes[] = {
      {1, 16, 16, 8, 8, 1, 1, 1, 1},     // one vector each side, even
      {2, 17, 20, 7, 9, 1, 1, 1, 1},     // channel tails, odd sizes, batch 2
      {1, 32, 64, 14, 14, 1, 1, 1, 1},   // several vectors: blocks of the lanes
      {1, 16, 24, 10, 6, 0, 0, 0, 0},    // no padding: the output 8 × 4
      {1, 16, 16, 5, 11, 2, 2, 2, 2},    // padding 2: the output larger than the input
      {1, 20, 16, 9, 8, 2, 0, 1, 2},     // uneven padding
      {3, 64, 64, 3, 3, 1, 1, 1, 1},     // one tile and a half
      {1, 16, 16, 60, 60, 1, 1, 1, 1},   // a wide plane: one tile row a task
      {1, 130, 70, 5, 5, 1, 1, 1, 1},    // channels past the blocks' four vectors
      {1, 16, 32, 3, 301, 1, 0, 2, 2},   // wider than a task's tiles: one tile row a task, 151 tiles
      {2, 16, 32, 1, 1, 2, 2, 2, 2},     // a 1 × 1 input, padding 2: the output 3 × 3, one input element
  };
  for (const Shape& s : shapes) {
    against_plain_loop<float>(s);
    against_plain_loop<double>(s);
  }
  non_finite_input_falls_back();
  return jt_report("conv_winograd_test");
}
