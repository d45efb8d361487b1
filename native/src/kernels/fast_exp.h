// exp(x) for float x <= 0 (or NaN) in plain arithmetic the compiler vectorizes (std::exp is a
// call per element): x = n ln2 + r with |r| <= ln2/2, exp(r) by Cephes' expf polynomial (degree
// 7), times 2^n built in the exponent bits. Within 1 ulp of the exact value (every float of the
// range checked when written; kernels_test samples it). Below -87.3 the result is 0 (exp is then
// under float's normal range); NaN stays NaN. The softmax kernel's exp(x - max) is always in
// this domain.
#pragma once
#include <cstdint>
#include <cstring>

namespace jt {

inline float exp_nonpositive(float x) {
  const float t = x * 1.44269504088896341f + 12582912.0f;  // 1.5 * 2^23: rounds x / ln2 to an integer n
  const float n = t - 12582912.0f;
  uint32_t tb;
  std::memcpy(&tb, &t, 4);
  const uint32_t scale_bits = (tb - 0x4B400000u + 127u) << 23;  // 2^n: n in [-126, 0] here
  float scale;
  std::memcpy(&scale, &scale_bits, 4);
  const float r = (x - n * 0.693359375f) + n * 2.12194440e-4f;  // x - n ln2 in two parts (Cody-Waite)
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.0f;
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
