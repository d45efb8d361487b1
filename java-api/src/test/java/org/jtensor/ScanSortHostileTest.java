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

  @Test
  void lerpAndQuantileRoundedTwice() {
    // torch.lerp(tensor([0.1]), tensor([0.7]), 0.6), float32: PyTorch's bits 1055622431 (one rounding,
    // fmadd); a + ... with two roundings gave 1055622432, as did quantile's interpolation
    Tensor a = Tensor.fromArray(new float[] {0.1f}), b = Tensor.fromArray(new float[] {0.7f});
    assertEquals(1055622431, Float.floatToIntBits(a.lerp(b, 0.6000000238418579).toFloatArray()[0]), "scalar weight");
    assertEquals(1055622431, Float.floatToIntBits(a.lerp(b, Tensor.fromArray(new float[] {0.6f})).toFloatArray()[0]), "tensor weight");
    // torch.quantile(x, q) at q = 0.05, 0.1, ..., 0.95, PyTorch 2.13's bits (rank and weight in x's dtype)
    double[] qs = new double[19];
    for (int i = 0; i < 19; i++) qs[i] = 0.05 * (i + 1);
    int[] want32 = {1049582633, 1055622431, 1059313418, 1062333317, 1065353216, 1066863165, 1069211974, 1073238509, 1075503431,
        1077516698, 1080788257, 1083095123, 1084730900, 1086010162, 1087111168, 1088212174, 1089732611, 1091305470, 1092485119};
    float[] got32 = Tensor.fromArray(new float[] {0.1f, 0.7f, 1.3f, 2.9f, 5.5f, 7.25f, 11f})
        .quantile(Tensor.fromArray(qs).to(DType.FLOAT32), null, false).toFloatArray();
    for (int i = 0; i < 19; i++) assertEquals(want32[i], Float.floatToIntBits(got32[i]), "float32 q = " + qs[i]);
    long[] want64 = {4598715651500560876L, 4601958243232267633L, 4603939827068310651L, 4605561122934164030L, 4607182418800017408L,
        4607993066732944098L, 4609254074628607837L, 4611415802449745677L, 4612631774349135709L, 4613712638259704627L,
        4615469042114379122L, 4616707532011906009L, 4617585733939243255L, 4618272532882417255L, 4618863630333509632L,
        4619454727784602011L, 4620271005217062914L, 4621115430147194881L, 4621748748844793856L};
    double[] got64 = Tensor.fromArray(new double[] {0.1, 0.7, 1.3, 2.9, 5.5, 7.25, 11}).quantile(Tensor.fromArray(qs), null, false).toDoubleArray();
    for (int i = 0; i < 19; i++) assertEquals(want64[i], Double.doubleToLongBits(got64[i]), "float64 q = " + qs[i]);
  }

  @Test
  void quantileTookHalfInputsAndGaveANanRowNoGradient() {
    // torch.quantile(x.half(), 0.5): "quantile() input tensor must be either float or double dtype"
    for (DType dt : new DType[] {DType.FLOAT16, DType.BFLOAT16}) {
      Tensor h = Tensor.fromArray(new double[] {1, 2}).to(dt);
      Exception e = assertThrows(IllegalArgumentException.class, () -> h.quantile(0.5));
      assertTrue(e.getMessage().contains("quantile(): input tensor must be either float or double dtype"), e.getMessage());
    }
    // tensor([1., nan, 3., nan]).quantile(0.3).backward(): PyTorch [0, 0, 0, 1] (the rank moved to the last, a NaN)
    bits(new double[] {0, 0, 0, 1}, grad(new double[] {1, NAN, 3, NAN}, new double[] {1}, t -> t.quantile(0.3).reshape(1)), "NaN row");
    assertTrue(Double.isNaN(Tensor.fromArray(new double[] {1, NAN, 3}).quantile(0.3).item()));
  }

  @Test
  void bincountKeptHalfWeightsAndStoppedCounting() {
    // torch.bincount(zeros(3000, long), weights=ones(3000, half)): float64 [3000.] (float16 stopped at 2048)
    Tensor x = Tensor.zeros(new long[] {3000}, DType.INT64, Device.CPU);
    for (DType dt : new DType[] {DType.FLOAT16, DType.BFLOAT16, DType.FLOAT64, DType.INT32, DType.BOOL}) {
      Tensor r = x.bincount(Tensor.ones(new long[] {3000}, dt, Device.CPU), 0);
      assertEquals(DType.FLOAT64, r.dtype(), dt + " weights");
      assertEquals(3000.0, r.item(), 0.0, dt + " weights");
    }
    Tensor r = x.bincount(Tensor.ones(new long[] {3000}, DType.FLOAT32, Device.CPU), 0);
    assertEquals(DType.FLOAT32, r.dtype());
    assertEquals(3000.0, r.item(), 0.0);
  }

  @Test
  void quantileOfAZeroDimTensorKeptADimAndOfAnEmptyOneAnswered() {
    // torch.quantile(tensor(3.), 0.5, dim=0, keepdim=True).shape: torch.Size([]) (was [1])
    Tensor x0 = Tensor.full(new long[] {}, 3.0, DType.FLOAT32);
    Tensor q = Tensor.full(new long[] {}, 0.5, DType.FLOAT32);
    assertArrayEquals(new long[] {}, x0.quantile(q, 0, true).shape());
    assertEquals(3.0, x0.quantile(q, 0, true).item(), 0.0);
    assertArrayEquals(new long[] {2}, x0.quantile(Tensor.fromArray(new float[] {0.5f, 0.7f}), 0, true).shape());
    // torch.quantile(zeros(2, 0), 0.5, dim=0): "quantile() input tensor must be non-empty" (was an empty result)
    Tensor e = Tensor.zeros(new long[] {2, 0}, DType.FLOAT32, Device.CPU);
    Exception ex = assertThrows(IllegalArgumentException.class, () -> e.quantile(q, 0, false));
    assertTrue(ex.getMessage().contains("quantile(): input tensor must be non-empty"), ex.getMessage());
  }

  @Test
  void quantileTookAQTensorOfAnotherDtype() {
    // torch.quantile(rand(3), tensor(0.5, float64)): "quantile() q tensor must be same dtype as the input tensor"
    Tensor x = Tensor.fromArray(new float[] {1, 2, 3});
    Exception e = assertThrows(IllegalArgumentException.class, () -> x.quantile(Tensor.full(new long[] {}, 0.5, DType.FLOAT64), null, false));
    assertTrue(e.getMessage().contains("quantile(): q tensor must be same dtype as the input tensor"), e.getMessage());
    assertEquals(2.0, x.quantile(0.5).item(), 0.0);  // a double level is taken in x's dtype, as PyTorch's scalar q
    assertEquals(DType.FLOAT32, x.quantile(0.5).dtype());
  }
}
