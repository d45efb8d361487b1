package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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

  @Test
  void cumsumWithDtypeDifferentiatedInTheNarrowDtype() {
    // x = ones(3000) float32; x.cumsum(0, dtype=float16).backward(ones float16): PyTorch
    // cumsum_backward(grad.to(float32)) gives 3000, 2999, ... exactly; summed in float16, 2999 was 3000
    Tensor x = Tensor.ones(new long[] {3000}).requiresGrad_();
    x.cumsum(0, DType.FLOAT16).backward(Tensor.ones(new long[] {3000}, DType.FLOAT16));
    assertEquals(DType.FLOAT32, x.grad().dtype());
    double[] g = x.grad().toDoubleArray();
    for (int i = 0; i < 3000; i++) assertEquals(3000 - i, g[i], "at " + i);
    // bfloat16: grad [1e-3, 1, 300, 1] gives PyTorch [302.0010070800781, 302, 301, 1] (float32 sums)
    Tensor y = Tensor.fromArray(new float[] {1.001f, 1.001f, 1.001f, 3}).requiresGrad_();
    y.cumsum(0, DType.BFLOAT16).backward(Tensor.fromArray(new float[] {1e-3f, 1, 300, 1}).to(DType.BFLOAT16));
    bits(new double[] {302.0010070800781, 302, 301, 1}, y.grad().toDoubleArray(), "bfloat16 cumsum");
  }

  @Test
  void cumprodWithDtypeDifferentiatedInTheNarrowDtype() {
    // x = [1.001, 1.001, 1.001, 3] float32; x.cumprod(0, dtype=float16).backward(ones float16):
    // PyTorch cumprod_backward(grad.to(float32), x, 0, result) in float32
    Tensor x = Tensor.fromArray(new float[] {1.001f, 1.001f, 1.001f, 3}).requiresGrad_();
    Tensor y = x.cumprod(0, DType.FLOAT16);
    bits(new double[] {1.0009765625, 1.001953125, 1.0029296875, 3.009765625}, y.toDoubleArray(), "cumprod values");
    y.backward(Tensor.ones(new long[] {4}, DType.FLOAT16));
    assertEquals(DType.FLOAT32, x.grad().dtype());
    bits(new double[] {6.009614944458008, 5.009638786315918, 4.008686542510986, 1.0032552480697632}, x.grad().toDoubleArray(), "cumprod");
  }

  @Test
  void cumsumWithBoolDtypeRefusedBeforeItsDimOutOfRange() {
    // torch.cumsum(tensor([1.]), 1, dtype=torch.bool): PyTorch IndexError "Dimension out of range
    // (expected to be in range of [-1, 0], but got 1)"; was the bool dtype's refusal
    Tensor x = Tensor.fromArray(new double[] {1});
    for (String op : new String[] {"cumsum", "cumprod"}) {
      Throwable e = assertThrows(IllegalArgumentException.class,
          () -> (op.equals("cumsum") ? x.cumsum(1, DType.BOOL) : x.cumprod(1, DType.BOOL)).close());
      assertEquals(op + "(): Dimension out of range (expected to be in range of [-1, 0], but got 1)", e.getMessage());
    }
  }
}
