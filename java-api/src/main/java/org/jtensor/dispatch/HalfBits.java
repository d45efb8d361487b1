package org.jtensor.dispatch;

/** float32 to float16/bfloat16 bits with round-to-nearest-even, as native jt::Half/BFloat16. */
final class HalfBits {
  private HalfBits() {}

  static long half(float f) {
    int u = Float.floatToRawIntBits(f);
    int sign = (u >>> 16) & 0x8000;
    int a = u & 0x7fffffff;
    if (a >= 0x7f800000) return sign | 0x7c00 | (a > 0x7f800000 ? 0x200 : 0);
    if (a >= 0x477ff000) return sign | 0x7c00;
    if (a < 0x38800000) {  // subnormal or zero: let the float adder round
      float r = Float.intBitsToFloat(a) + 0.5f;
      return sign | ((Float.floatToRawIntBits(r) - 0x3f000000) & 0xffff);
    }
    int odd = (a >>> 13) & 1;
    a += 0xc8000fff + odd;
    return (sign | (a >>> 13)) & 0xffff;
  }

  static long bfloat16(float f) {
    int u = Float.floatToRawIntBits(f);
    if ((u & 0x7fffffff) > 0x7f800000) return 0x7fc0;
    u += 0x7fff + ((u >>> 16) & 1);
    return (u >>> 16) & 0xffff;
  }
}
