// jt/float_math.h (exp, log, log1p, tanh, erf, gelu, sinh, cosh, atanh) and jt/float_math_wide.h (log2, log10,
// sin, cos, atan, erfc, expm1, erfinv) against double precision libm: the worst error in ulps over every 61st float (1201st under
// emulation, 6007th under the sanitizers)
// (all exponents, all sign bits), subnormal inputs and results included, and the special values.
#include <cmath>
#include <cstdint>
#include <cstring>

#include "check.h"
#include "jt/float_math_wide.h"
#include "jt/functors.h"

namespace {

// Under the sanitizers (scripts/sanitize.sh, -O0) the sweep takes every 6007th float: it checks
// numbers, which the optimized run already did, not memory, and there it took over a minute.
// Cross-built and run under QEMU (scripts/arm64.sh), every 1201st (3.6 million floats): the
// emulator runs it ~20x slower, and at every 607th it was the longest suite there (34 s).
#ifdef JT_SANITIZED
constexpr uint64_t kStep = 6007;
#elif defined(JT_EMULATED)
constexpr uint64_t kStep = 1201;
#else
constexpr uint64_t kStep = 61;
#endif

// |got - want| in units of the float spacing at want (the subnormal spacing below FLT_MIN); 0
// when both are the same infinity or both NaN, huge when only one is.
double ulps(float got, double want) {
  if (std::isnan(want) || std::isnan(got)) return std::isnan(want) && std::isnan(got) ? 0 : 1e30;
  const float wf = (float)want;
  if (std::isinf(wf) || std::isinf(got)) return got == wf ? 0 : 1e30;
  const double spacing = std::fabs(want) < 0x1p-126 ? 0x1p-149 : std::ldexp(1.0, std::ilogb(wf) - 23);
  return std::fabs((double)got - want) / spacing;
}

// float_math_wide.h's functions sweep every (2 kStep + 1)th float: eight more sweeps at kStep made
// this suite 60% longer in every build (CI's 30 minutes); the dense checks at their switch points
// below cover where a coarser sweep could miss.
constexpr uint64_t kWideStep = 2 * kStep + 1;

template <typename F, typename R>
double worst_over_floats(F f, R ref, uint64_t step = kStep) {
  double worst = 0;
  for (uint64_t b = 0; b < 0x100000000ull; b += step) {
    const uint32_t u = (uint32_t)b;
    float x;
    std::memcpy(&x, &u, 4);
    worst = std::fmax(worst, ulps(f(x), ref((double)x)));
  }
  return worst;
}

}  // namespace

int main() {
  using namespace jt;
  const float inf = INFINITY, nan = NAN;
  const double e = worst_over_floats([](float x) { return fm::exp(x); }, [](double x) { return std::exp(x); });
  const double l = worst_over_floats([](float x) { return fm::log(x); }, [](double x) { return std::log(x); });
  const double t = worst_over_floats([](float x) { return fm::tanh(x); }, [](double x) { return std::tanh(x); });
  const double r = worst_over_floats([](float x) { return fm::erf(x); }, [](double x) { return std::erf(x); });
  const double l1 = worst_over_floats([](float x) { return fm::log1p(x); }, [](double x) { return std::log1p(x); });
  const double e1 = worst_over_floats([](float x) { return fm::expm1(x); }, [](double x) { return std::expm1(x); });
  std::printf("float_math worst ulps: exp %.3f, log %.3f, tanh %.3f, erf %.3f, log1p %.3f, expm1 %.3f\n", e, l, t, r, l1, e1);
  CHECK(l1 <= 2.5);  // Goldberg's correction adds about 1.5 ulp to log's
  CHECK(e1 <= 0.51);  // computed in double
  CHECK(fm::log1p(0.f) == 0 && std::signbit(fm::log1p(-0.f)) && fm::log1p(-1.f) == -inf && fm::log1p(inf) == inf);
  CHECK(std::isnan(fm::log1p(-2.f)) && std::isnan(fm::log1p(-inf)) && std::isnan(fm::log1p(nan)) && fm::log1p(1e-30f) == 1e-30f);
  CHECK(fm::expm1(0.f) == 0 && std::signbit(fm::expm1(-0.f)) && fm::expm1(-inf) == -1 && fm::expm1(inf) == inf);
  CHECK(fm::expm1(100.f) == inf && fm::expm1(-100.f) == -1 && std::isnan(fm::expm1(nan)) && fm::expm1(-1e-30f) == -1e-30f);
  const double sh = worst_over_floats([](float x) { return fm::sinh(x); }, [](double x) { return std::sinh(x); });
  const double ch = worst_over_floats([](float x) { return fm::cosh(x); }, [](double x) { return std::cosh(x); });
  const double ath = worst_over_floats([](float x) { return fm::atanh(x); }, [](double x) { return std::atanh(x); });
  std::printf("float_math worst ulps: sinh %.3f, cosh %.3f, atanh %.3f\n", sh, ch, ath);
  CHECK(sh <= 2.5 && ch <= 2.5 && ath <= 2.5);  // 2.4 near sinh's and cosh's overflow (libm's sinhf: 1.9) and atanh's 0.94
  CHECK(fm::sinh(0.f) == 0 && std::signbit(fm::sinh(-0.f)) && fm::sinh(inf) == inf && fm::sinh(-inf) == -inf && fm::sinh(89.5f) == inf);
  CHECK(std::isfinite(fm::sinh(89.4f)) && fm::cosh(0.f) == 1 && fm::cosh(-inf) == inf && std::isfinite(fm::cosh(-89.4f)));
  CHECK(std::isnan(fm::sinh(nan)) && std::isnan(fm::cosh(nan)) && std::isnan(fm::atanh(nan)) && fm::sinh(1e-30f) == 1e-30f);
  CHECK(fm::atanh(1.f) == inf && fm::atanh(-1.f) == -inf && std::isnan(fm::atanh(1.5f)) && std::isnan(fm::atanh(-inf)));
  CHECK(fm::atanh(0.f) == 0 && std::signbit(fm::atanh(-0.f)) && fm::atanh(-1e-30f) == -1e-30f);
  CHECK(e <= 1.0);
  CHECK(l <= 1.0);
  CHECK(t <= 2.0);
  CHECK(r <= 1.5);
  CHECK(fm::exp(0.f) == 1 && fm::exp(-0.f) == 1 && fm::exp(-inf) == 0 && fm::exp(inf) == inf);
  CHECK(fm::exp(88.8f) == inf && fm::exp(-104.f) == 0 && std::isnan(fm::exp(nan)));
  CHECK(fm::exp(-100.f) > 0);  // subnormal results are kept
  CHECK(fm::log(1.f) == 0 && fm::log(0.f) == -inf && fm::log(-0.f) == -inf && fm::log(inf) == inf);
  CHECK(std::isnan(fm::log(-1.f)) && std::isnan(fm::log(-inf)) && std::isnan(fm::log(nan)));
  CHECK(std::fabs(fm::log(0x1p-149f) - (float)std::log(0x1p-149)) <= 1e-5f);
  CHECK(fm::tanh(inf) == 1 && fm::tanh(-inf) == -1 && fm::tanh(0.f) == 0 && std::signbit(fm::tanh(-0.f)));
  CHECK(std::isnan(fm::tanh(nan)) && fm::tanh(1e-30f) == 1e-30f);
  CHECK(fm::erf(0.f) == 0 && std::signbit(fm::erf(-0.f)) && ulps(fm::erf(1e-30f), std::erf((double)1e-30f)) <= 1);
  CHECK(ulps(fm::erf(-1e-40f), std::erf((double)-1e-40f)) <= 1);  // subnormal
  CHECK(fm::erf(inf) == 1 && fm::erf(-inf) == -1 && fm::erf(4.f) == 1 && fm::erf(-10.f) == -1 && std::isnan(fm::erf(nan)));
  // gelu against x Phi(x) in double: ulps above -2; below, where Phi(x) is a tail, its relative error
  const auto gelu_ref = [](double x) { return 0.5 * x * std::erfc(-x / std::sqrt(2.0)); };
  const double g = worst_over_floats([](float x) { return x >= -2 ? fm::gelu(x) : NAN; },
                                     [&](double x) { return x >= -2 ? gelu_ref(x) : NAN; });
  double tail4 = 0, tail8 = 0, beyond = 0;
  for (float x = -2.0f; x > -16.0f; x = std::nextafter(x, -INFINITY) - 1e-4f) {
    const double rel = std::fabs(fm::gelu(x) / gelu_ref(x) - 1);
    if (x >= -4) tail4 = std::fmax(tail4, rel);
    else if (x >= -8) tail8 = std::fmax(tail8, rel);
    else beyond = std::fmax(beyond, std::fabs(fm::gelu(x) - gelu_ref(x)));
  }
  std::printf("gelu: %.3f ulps from -2 up, relative %.2e to -4, %.2e to -8, absolute %.1e below\n", g, tail4, tail8, beyond);
  CHECK(g <= 8 && tail4 <= 1.2e-6 && tail8 <= 3e-5 && beyond <= 3e-17);
  CHECK(fm::gelu(0.f) == 0 && std::signbit(fm::gelu(-0.f)) && fm::gelu(inf) == inf && std::isnan(fm::gelu(-inf)));
  CHECK(std::isnan(fm::gelu(nan)) && fm::gelu(-20.f) == 0 && ulps(fm::gelu(1e-30f), gelu_ref((double)1e-30f)) <= 1);
  // gelu's derivative Phi(x) + x phi(x): it crosses 0 near -0.75, so its error is absolute
  double dg = 0;
  for (uint64_t b = 0; b < 0x100000000ull; b += kStep) {
    const uint32_t u = (uint32_t)b;
    float x;
    std::memcpy(&x, &u, 4);
    if (std::isnan(x) || std::isinf(x)) continue;
    const double xd = x, want = 0.5 * std::erfc(-xd / std::sqrt(2.0)) + xd * std::exp(-0.5 * xd * xd) / std::sqrt(2 * M_PI);
    dg = std::fmax(dg, std::fabs(fm::gelu_grad(x) - want));
  }
  std::printf("gelu_grad: absolute %.2e\n", dg);
  CHECK(dg <= 2e-7 && fm::gelu_grad(0.f) == 0.5f && std::isnan(fm::gelu_grad(nan)));
  CHECK(std::isnan(fm::gelu_grad(inf)) && std::isnan(fm::gelu_grad(-inf)));  // x phi(x) is inf * 0 there, NaN as in PyTorch
  // computed in double and rounded once: within 0.51 ulp (sin and cos below 2^20, where they apply)
  const double lg2 = worst_over_floats([](float x) { return fm::log2(x); }, [](double x) { return std::log2(x); }, kWideStep);
  const double lg10 = worst_over_floats([](float x) { return fm::log10(x); }, [](double x) { return std::log10(x); }, kWideStep);
  const double sn = worst_over_floats([](float x) { return std::fabs(x) < fm::sin_cos_reduces ? fm::sin_cos_reduced(x, false) : NAN; },
                                      [](double x) { return std::fabs(x) < 0x1p20 ? std::sin(x) : NAN; }, kWideStep);
  const double cs = worst_over_floats([](float x) { return std::fabs(x) < fm::sin_cos_reduces ? fm::sin_cos_reduced(x, true) : NAN; },
                                      [](double x) { return std::fabs(x) < 0x1p20 ? std::cos(x) : NAN; }, kWideStep);
  const double at = worst_over_floats([](float x) { return fm::atan(x); }, [](double x) { return std::atan(x); }, kWideStep);
  const double ec = worst_over_floats([](float x) { return fm::erfc(x); }, [](double x) { return std::erfc(x); }, kWideStep);
  std::printf("float_math_wide worst ulps: log2 %.3f, log10 %.3f, sin %.3f, cos %.3f, atan %.3f, erfc %.3f\n", lg2, lg10, sn, cs, at, ec);
  CHECK(lg2 <= 0.51 && lg10 <= 0.51 && sn <= 0.53 && cs <= 0.53 && at <= 0.51 && ec <= 0.51);
  for (int k = -149; k <= 127; ++k) CHECK(fm::log2(std::ldexp(1.0f, k)) == (float)k);  // exact, as PyTorch's
  float ten = 1;
  for (int k = 0; k <= 10; ++k, ten *= 10) CHECK(fm::log10(ten) == (float)k);  // 10^k is a float up to 10^10
  CHECK(fm::log2(0.f) == -inf && fm::log10(-0.f) == -inf && fm::log2(inf) == inf && fm::log10(inf) == inf);
  CHECK(std::isnan(fm::log2(-1.f)) && std::isnan(fm::log10(-inf)) && std::isnan(fm::log2(nan)) && fm::log2(0x1p-149f) == -149);
  CHECK(fm::sin_cos_reduced(0.f, false) == 0 && std::signbit(fm::sin_cos_reduced(-0.f, false)) && fm::sin_cos_reduced(-0.f, true) == 1);
  CHECK(fm::sin_cos_reduced(-1e-45f, false) == -1e-45f && fm::sin_cos_reduced(1e-30f, true) == 1);
  CHECK(std::isnan(fm::sin_cos_reduced(inf, false)) && std::isnan(fm::sin_cos_reduced(-inf, true)) && std::isnan(fm::sin_cos_reduced(nan, false)));
  CHECK(fm::atan(inf) == (float)M_PI_2 && fm::atan(-inf) == -(float)M_PI_2 && std::signbit(fm::atan(-0.f)) && fm::atan(1.f) == (float)M_PI_4);
  CHECK(std::isnan(fm::atan(nan)) && fm::atan(-1e-45f) == -1e-45f && fm::atan(1e30f) == (float)M_PI_2);
  CHECK(fm::erfc(0.f) == 1 && fm::erfc(-0.f) == 1 && fm::erfc(inf) == 0 && fm::erfc(-inf) == 2 && std::isnan(fm::erfc(nan)));
  CHECK(fm::erfc(1e-45f) == 1 && fm::erfc(10.1f) == 0 && fm::erfc(-10.f) == 2);
  // the tail, relative: erfc falls to float's last subnormal near 10.05
  for (float x = 9.0f; x < 10.06f; x += 1e-3f) CHECK(ulps(fm::erfc(x), std::erfc((double)x)) <= 0.51);
  // erfinv against erfinv_double's four Newton steps (jt/functors.h): PyTorch's float32 is within 0.501
  double ei = 0;
  for (uint64_t b = 0; b < 0x100000000ull; b += kWideStep) {
    const uint32_t u = (uint32_t)b;
    float y;
    std::memcpy(&y, &u, 4);
    if (std::fabs(y) < 1) ei = std::fmax(ei, ulps(fm::erfinv(y), erfinv_double(y)));
  }
  std::printf("erfinv: worst %.3f ulps\n", ei);
  CHECK(ei <= 0.51);
  CHECK(fm::erfinv(0.f) == 0 && std::signbit(fm::erfinv(-0.f)) && fm::erfinv(1.f) == inf && fm::erfinv(-1.f) == -inf);
  CHECK(std::isnan(fm::erfinv(1.0000001f)) && std::isnan(fm::erfinv(-inf)) && std::isnan(fm::erfinv(nan)));
  CHECK(fm::erfinv(1e-45f) == 1e-45f && fm::erfinv(-1e-30f) == (float)(-1e-30 * 0.886226925452758));
  // every float within 4096 of each place where a reduction or a polynomial switches, which the
  // sweep's step passes over: atan's tan(pi/8) and tan(3pi/8), erfinv's w = 5 (|y| = sqrt(1 - e^-5))
  // and its last floats below 1, the logarithms' sqrt(2) mantissa split, expm1's clamp at -30 and its
  // overflow, erfc's end, and sin and cos at the floats nearest the multiples of pi/2 below 2^20
  double edge = 0;
  const auto near_each = [&](float c, auto f, auto ref) {
    for (int d = -4096; d <= 4096; ++d) {
      uint32_t u;
      std::memcpy(&u, &c, 4);
      u += d;
      float x;
      std::memcpy(&x, &u, 4);
      for (float s : {x, -x}) edge = std::fmax(edge, ulps(f(s), ref((double)s)));
    }
  };
  const auto sin_below = [](float x) { return std::fabs(x) < fm::sin_cos_reduces ? fm::sin_cos_reduced(x, false) : NAN; };
  const auto sin_ref = [](double x) { return std::fabs(x) < 0x1p20 ? std::sin(x) : NAN; };
  const auto cos_below = [](float x) { return std::fabs(x) < fm::sin_cos_reduces ? fm::sin_cos_reduced(x, true) : NAN; };
  const auto cos_ref = [](double x) { return std::fabs(x) < 0x1p20 ? std::cos(x) : NAN; };
  for (float c : {0.41421356f, 2.41421356f}) near_each(c, [](float x) { return fm::atan(x); }, [](double x) { return std::atan(x); });
  for (float c : {0.99662738f, 0.99999994f})
    near_each(c, [](float x) { return std::fabs(x) < 1 ? fm::erfinv(x) : NAN; },
              [](double x) { return std::fabs(x) < 1 ? erfinv_double(x) : NAN; });
  for (float c : {1.41421356f, 0.70710678f, 0x1p-126f}) {
    near_each(c, [](float x) { return fm::log2(x); }, [](double x) { return std::log2(x); });
    near_each(c, [](float x) { return fm::log10(x); }, [](double x) { return std::log10(x); });
  }
  for (float c : {30.0f, 88.72f}) near_each(c, [](float x) { return fm::expm1(x); }, [](double x) { return std::expm1(x); });
  near_each(10.05f, [](float x) { return fm::erfc(x); }, [](double x) { return std::erfc(x); });
  for (double q : {1.0, 2.0, 3.0, 100001.0, 667544.0}) {  // 667544 pi/2 is just below 2^20
    near_each((float)(q * M_PI_2), sin_below, sin_ref);
    near_each((float)(q * M_PI_2), cos_below, cos_ref);
  }
  near_each(std::nextafter(0x1p20f, 0.f), sin_below, sin_ref);
  near_each(std::nextafter(0x1p20f, 0.f), cos_below, cos_ref);
  std::printf("float_math_wide near the switch points: worst %.3f ulps\n", edge);
  CHECK(edge <= 0.53);
  return jt_report("float_math_test");
}
