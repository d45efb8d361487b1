// sin and cos to a long double's precision, for tests, and errors in ulps. The angle is reduced
// here, by pi/2 in three parts of 33, 33 and 53 bits (k times each is exact; their sum is pi/2 to
// about 2^-122), before the C library's sinl/cosl see it below pi/4, where even x87's fsin and fcos
// (MinGW's) are good to the long double's last bits. Near multiples of pi/2 those reduce with a
// 66-bit pi and were off by up to 6e14 ulp.
#pragma once
#include <cmath>

namespace jt_test {

inline long double exact_sin_cos(double th, bool sine) {
  const long double p1 = 0x1.921fb54400000p+0L, p2 = 0x1.0b4611a600000p-34L, p3 = 0x1.3198a2e037073p-69L;
  const long k = std::lround(th / 0x1.921fb54442d18p+0);
  const long double r = (((long double)th - k * p1) - k * p2) - k * p3;
  switch ((k + (sine ? 3 : 0)) & 3) {  // sin(th) = cos(th - pi/2)
    case 0: return cosl(r);
    case 1: return -sinl(r);
    case 2: return -cosl(r);
    default: return sinl(r);
  }
}

// |got - want| in units of the last place of want rounded to double.
inline double ulps(double got, long double want) {
  const double w = (double)want;
  const double ulp = std::nextafter(std::fabs(w), INFINITY) - std::fabs(w);
  return (double)(std::fabs((long double)got - want) / ulp);
}

}  // namespace jt_test
