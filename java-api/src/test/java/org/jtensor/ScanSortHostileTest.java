package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Hostile inputs to the scans, sorting and selection (session 31): values and gradients with inf,
 * NaN, ties and large magnitudes. Each expectation is PyTorch 2.13's answer on the CPU, run beside
 * the call (quoted in each test).
 */
class ScanSortHostileTest extends ScopedTest {
  private static final double NAN = Double.NaN, INF = Double.POSITIVE_INFINITY;

  private static void bits(double[] want, double[] got, String what) {
    assertEquals(want.length, got.length, what + ": length");
    for (int i = 0; i < want.length; i++) {
      assertEquals(Double.doubleToLongBits(want[i] == 0 ? 0.0 : want[i]), Double.doubleToLongBits(got[i] == 0 ? 0.0 : got[i]),
          what + " at " + i + ": want " + want[i] + " got " + got[i]);
    }
  }

  private static double[] grad(double[] x, double[] g, java.util.function.Function<Tensor, Tensor> op) {
    Tensor t = Tensor.fromArray(x).requiresGrad_();
    op.apply(t).backward(Tensor.fromArray(g));
    return t.grad().toDoubleArray();
  }

  // ---- cumsum/cumprod's gradients: the reversed running sum ----

  @Test
  void cumsumGradientCancelledInTotalMinusCumsum() {
    // x.cumsum(0).backward(tensor([inf, 1., 1.])): PyTorch [inf, 2, 1] (flip, cumsum, flip); was NaN everywhere
    bits(new double[] {INF, 2, 1}, grad(new double[] {1, 2, 3}, new double[] {INF, 1, 1}, t -> t.cumsum(0)), "inf");
    // float32 [1e8, 1, 1]: PyTorch [1e8, 2, 1]; 1e8 + 2 − (1e8 + 1) + 1 rounded to 1
    Tensor x = Tensor.fromArray(new float[] {1, 2, 3}).requiresGrad_();
    x.cumsum(0).backward(Tensor.fromArray(new float[] {1e8f, 1, 1}));
    assertArrayEquals(new float[] {1e8f, 2, 1}, x.grad().toFloatArray());
    // along dim 1 of a transposed input, a long row
    Tensor y = Tensor.ones(new long[] {3000, 2}, DType.FLOAT64).t().requiresGrad_();
    Tensor g = Tensor.ones(new long[] {2, 3000}, DType.FLOAT64).mul(1e-3);
    g = Tensor.cat(java.util.List.of(Tensor.full(new long[] {2, 1}, 1e20, DType.FLOAT64), g.narrow(1, 1, 2999)), 1);
    y.cumsum(1).backward(g);
    Tensor want = Tensor.full(new long[] {2, 3000}, 1e-3, DType.FLOAT64).flip(1).cumsum(1).flip(1);
    double[] got = y.grad().toDoubleArray(), w = want.toDoubleArray();
    assertEquals(1e-3, got[3000 + 2999], 0.0);
    assertEquals(w[1], got[1], 0.0);  // 2.999, was 0
  }

  @Test
  void cumprodGradientWithInfOrNanGradientsOrInputs() {
    // PyTorch 2.13, float64, x.cumprod(0).backward(g):
    bits(new double[] {INF, 10, 6}, grad(new double[] {2, 3, 4}, new double[] {INF, 1, 1}, t -> t.cumprod(0)), "inf g, no zero");
    bits(new double[] {INF, NAN, INF}, grad(new double[] {2, INF, 3}, new double[] {1, 1, 1}, t -> t.cumprod(0)), "inf x");
    bits(new double[] {1, INF, 0}, grad(new double[] {2, 0, 3}, new double[] {1, 1, INF}, t -> t.cumprod(0)), "inf g after the zero");
    bits(new double[] {1, NAN, 0, 0}, grad(new double[] {2, 0, 3, 4}, new double[] {1, 1, 1, NAN}, t -> t.cumprod(0)), "NaN g after the zero");
    bits(new double[] {INF, NAN, INF, 0}, grad(new double[] {2, INF, 0, 3}, new double[] {1, 1, 1, 1}, t -> t.cumprod(0)), "inf and zero");
    bits(new double[] {INF}, grad(new double[] {0}, new double[] {INF}, t -> t.cumprod(0)), "one zero, inf g");
    // the zero cases that were right stay right: two zeros, zero first, zero last
    bits(new double[] {1, 22, 0, 0, 0}, grad(new double[] {2, 0, 3, 0, 5}, new double[] {1, 2, 3, 4, 5}, t -> t.cumprod(0)), "two zeros");
    bits(new double[] {23, 0, 0}, grad(new double[] {0, 2, 3}, new double[] {1, 2, 3}, t -> t.cumprod(0)), "zero first");
    bits(new double[] {7, 4, 18}, grad(new double[] {2, 3, 0}, new double[] {1, 2, 3}, t -> t.cumprod(0)), "zero last");
  }

  // ---- median(), quantile, bincount ----

  @Test
  void medianOfEveryElementSentItsGradientToOnePosition() {
    // tensor([1., 2., 2., 3.]).median().backward(): PyTorch [0, 0.5, 0.5, 0] (evenly_distribute_backward)
    bits(new double[] {0, 0.5, 0.5, 0}, grad(new double[] {1, 2, 2, 3}, new double[] {1}, t -> t.median().reshape(1)), "ties");
    // a NaN median: shared by the NaNs, PyTorch [0, 0.5, 0, 0.5]
    bits(new double[] {0, 0.5, 0, 0.5}, grad(new double[] {1, NAN, 2, NAN}, new double[] {1}, t -> t.median().reshape(1)), "NaN");
    Tensor m = Tensor.fromArray(new double[] {5, 1, 3}, 3).median();
    assertEquals(0, m.dim());
    assertEquals(3.0, m.item(), 0.0);
    assertEquals(DType.INT64, Tensor.fromArray(new long[] {3, 1, 2, 4}).median().dtype());
    assertEquals(2L, (long) Tensor.fromArray(new long[] {3, 1, 2, 4}).median().item());
  }
}
