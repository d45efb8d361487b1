package org.jtensor;

/**
 * nextafter for float16 and bfloat16 on their bits (their kernels compute in float, whose neighbours
 * are not theirs): a 16-bit float's raw bits read as int16 step by +1 away from zero and -1 toward it,
 * whatever its sign, and ±0 steps to the smallest subnormal of other's sign.
 */
final class FloatNeighbours {
  private FloatNeighbours() {}

  /** x and y of the same 16-bit float dtype, broadcast together. */
  static Tensor nextafter16(Tensor x, Tensor y) {
    Tensor bits = x.view(DType.INT16);
    Tensor away = y.gt(x).eq(x.gt(0.0));
    Tensor step = Tensor.where(away, bits.add(1L), bits.sub(1L));
    Tensor fromZero = Tensor.where(y.gt(0.0), 1L, -32767L).to(DType.INT16);  // 0x0001 and 0x8001
    Tensor next = Tensor.where(x.eq(0.0), fromZero, step).view(x.dtype());
    Tensor nan = x.isnan().logicalOr(y.isnan());
    return Tensor.where(x.eq(y), y, Tensor.where(nan, x.add(y), next));
  }
}
