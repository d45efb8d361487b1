package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * Hostile inputs to session 32's order statistics, scans and unique (kthvalue, nanmedian, mode,
 * searchsorted, cummax/cummin, logcumsumexp, cumsum/cumprod with a dtype, unique over a dim).
 * Each expectation is PyTorch 2.13's answer on the CPU, quoted beside the call.
 */
class SelectionScanHostileTest extends ScopedTest {
  private static final double NAN = Double.NaN, INF = Double.POSITIVE_INFINITY;

  private static void bits(double[] want, double[] got, String what) {
    assertEquals(want.length, got.length, what + ": length");
    for (int i = 0; i < want.length; i++) {
      assertEquals(Double.doubleToLongBits(want[i] == 0 ? 0.0 : want[i]), Double.doubleToLongBits(got[i] == 0 ? 0.0 : got[i]),
          what + " at " + i + ": want " + want[i] + " got " + got[i]);
    }
  }

  private static double[] allGrad(double upstream, java.util.function.Function<Tensor, Tensor> op) {
    Tensor x = Tensor.fromArray(new double[] {1, 2, 3, 2}).requiresGrad_();
    op.apply(x).backward(Tensor.scalar(upstream, DType.FLOAT64));
    return x.grad().toDoubleArray();
  }

  @Test
  void evenlyDistributedGradientOfInfOrNanLeakedIntoOtherElements() {
    // x = [1, 2, 3, 2]; x.nanmedian().backward(inf): PyTorch [0, inf, 0, inf] (its CPU
    // evenly_distribute_backward masked_fills zeros); was [nan, inf, nan, inf] (g · 0 = NaN)
    bits(new double[] {0, INF, 0, INF}, allGrad(INF, Tensor::nanmedian), "nanmedian()");
    // x.median().backward(nan): PyTorch [0, nan, 0, nan]; x.max().backward(inf): [0, 0, inf, 0]
    bits(new double[] {0, NAN, 0, NAN}, allGrad(NAN, Tensor::median), "median()");
    bits(new double[] {0, 0, INF, 0}, allGrad(INF, Tensor::max), "max()");
    bits(new double[] {INF, 0, 0, 0}, allGrad(INF, Tensor::min), "min()");
  }
}
