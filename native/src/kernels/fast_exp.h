// exp(x) for float x <= 0 (or NaN) in plain arithmetic the compiler vectorizes (std::exp is a
// call per element): x = n ln2 + r with |r| <= ln2/2 and e^r by jt/float_math.h's exp_reduced (Cephes),
// times 2^n built in the exponent bits. Within 1 ulp of the exact value (every float of the
// range checked when written; kernels_test samples it). Below -87.3 the result is 0 (exp is then
// under float's normal range); NaN stays NaN. The softmax kernel's exp(x - max) is always in
// this domain.
#pragma once
#include <cstdint>
#include <cstring>

#include "jt/float_math.h"

namespace jt {

inline float exp_nonpositive(float x) {
  int32_t n;
  const float p = fm::exp_reduced(x, n);
  const float scale = fm::from_bits((uint32_t)(n + 127) << 23);  // 2^n: n in [-126, 0] here
  // 0 below -87.33654 (bits 0x42AEAC50 in magnitude), -inf included, NaN kept: chosen on the
  // bits, since a float comparison here would stop the compiler vectorizing the loop.
  int32_t xb, eb;
  const float e = p * scale;
  std::memcpy(&xb, &x, 4);
  std::memcpy(&eb, &e, 4);
  const int32_t mag = xb & 0x7fffffff;
  eb &= ((mag > 0x42AEAC50) & (mag <= 0x7f800000)) - 1;
  float out;
  std::memcpy(&out, &eb, 4);
  return out;
}

}  // namespace jt
