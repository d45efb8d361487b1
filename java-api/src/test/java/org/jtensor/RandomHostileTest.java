package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * A hostile review of the random draws (session 29): each test is named after a bug it found and
 * checks PyTorch 2.13's behaviour (verified against it): ranges after rounding to the dtype,
 * refusals, dtypes and gradients. Statistics are loose bounds over many samples, never bits.
 */
class RandomHostileTest extends ScopedTest {

  /** The largest value of t (read as float64) and its smallest. */
  private static double[] minMax(Tensor t) {
    try (Tensor d = t.to(DType.FLOAT64)) {
      return new double[] {d.amin().item(), d.amax().item()};
    }
  }

  @Test
  void uniformRoundedUpToItsUpperBoundInFloat16Bfloat16AndFloat32() {
    // PyTorch 2.13's CPU kernel gives `from` where the cast rounds up to `to`: 10^7 float16 draws of
    // uniform_(100, 101) reach 100.9375, never 101. Here 3% of them were 101.
    Generator g = new Generator(1);
    double[][] cases = {{100, 101}, {1, 2}, {1000, 1001}, {-3, 0.1}};
    for (DType dt : new DType[] {DType.FLOAT16, DType.BFLOAT16, DType.FLOAT32}) {
      for (double[] c : cases) {
        Tensor t = Tensor.empty(new long[] {200_000}, dt).uniform_(c[0], c[1], g);
        try (Tensor top = Tensor.scalar(c[1], dt).to(DType.FLOAT64); Tensor bottom = Tensor.scalar(c[0], dt).to(DType.FLOAT64)) {
          double[] mm = minMax(t);
          if (top.item() == bottom.item()) continue;  // bfloat16's 1001 is 1000: every draw is `from` (PyTorch's too)
          assertTrue(mm[1] < top.item(), dt + " uniform_(" + c[0] + ", " + c[1] + ") reached " + mm[1]);
          assertTrue(mm[0] >= bottom.item(), dt + " uniform_(" + c[0] + ", " + c[1] + ") went below from: " + mm[0]);
        }
        if (dt != DType.FLOAT32 && c[1] > 2) continue;  // coarse float16/bfloat16 steps there move the mean
        double mean = t.to(DType.FLOAT64).mean().item(), mid = (c[0] + c[1]) / 2, width = c[1] - c[0];
        assertEquals(mid, mean, 0.03 * width, dt + " mean of uniform_(" + c[0] + ", " + c[1] + ")");
      }
    }
  }

  @Test
  void randintWrappedValuesOutsideItsDtype() {
    // PyTorch 2.13: "to - 1 is out of bounds for signed char"; here int8 randint(0, 1000) gave -73
    Generator g = new Generator(2);
    Object[][] refused = {
        {0L, 1000L, DType.INT8, "to - 1"}, {-200L, 0L, DType.INT8, "from"}, {-1L, 5L, DType.UINT8, "from"},
        {0L, 3L, DType.BOOL, "to - 1"}, {0L, 70_000L, DType.FLOAT16, "to - 1"}, {0L, 1L << 40, DType.INT32, "to - 1"}};
    for (Object[] c : refused) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> Tensor.randint((long) c[0], (long) c[1], new long[] {4}, (DType) c[2], g), c[2] + " " + c[0] + ".." + c[1]);
      assertTrue(e.getMessage().startsWith("randint(): " + c[3] + " is out of bounds for " + c[2]), e.getMessage());
    }
    // the edges of each dtype are taken, and every value lands inside
    assertArrayEquals(new double[] {-128, 127}, minMax(Tensor.randint(-128, 128, new long[] {20_000}, DType.INT8, g)));
    assertArrayEquals(new double[] {0, 255}, minMax(Tensor.randint(0, 256, new long[] {20_000}, DType.UINT8, g)));
    assertArrayEquals(new double[] {0, 1}, minMax(Tensor.randint(0, 2, new long[] {1000}, DType.BOOL, g)));
    assertArrayEquals(new double[] {0, 2047}, minMax(Tensor.randint(0, 2048, new long[] {100_000}, DType.FLOAT16, g)));
  }

  @Test
  void randintRefusedTheWholeInt64Range() {
    // PyTorch 2.13: torch.randint(-2**63, 2**63 - 1, (5,)) draws; here "overflows int64"
    Generator g = new Generator(3);
    long[] v = Tensor.randint(Long.MIN_VALUE, Long.MAX_VALUE, new long[] {10_000}, g).toLongArray();
    long negative = 0, huge = 0;
    for (long x : v) {
      assertTrue(x != Long.MAX_VALUE);
      if (x < 0) negative++;
      if (Math.abs((double) x) > 0x1p61) huge++;
    }
    assertTrue(negative > 4_500 && negative < 5_500, "negatives " + negative);  // about half
    assertTrue(huge > 7_000, "beyond 2^61: " + huge);  // about 3/4
    long[] top = Tensor.randint(Long.MAX_VALUE - 2, Long.MAX_VALUE, new long[] {1000}, g).toLongArray();
    for (long x : top) assertTrue(x == Long.MAX_VALUE - 2 || x == Long.MAX_VALUE - 1, "drew " + x);
  }

  @Test
  void normalTookANaNStd() {
    // PyTorch 2.13: "normal expects std >= 0.0, but found std nan"; here a tensor of NaN
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Tensor.zeros(3).normal_(0, Double.NaN, new Generator(0)));
    assertEquals("normal_(): expects std >= 0.0, but found std NaN", e.getMessage());
  }

  @Test
  void bernoulliWithAScalarProbabilityTurnedIntegersAndBoolsIntoFloat32() {
    // PyTorch 2.13: torch.zeros(3, dtype=int64).bernoulli(0.5) is int64, a bool input gives bool
    Generator g = new Generator(4);
    for (DType dt : new DType[] {DType.INT64, DType.INT8, DType.UINT8, DType.BOOL, DType.FLOAT16}) {
      Tensor b = Tensor.zeros(new long[] {4000}, dt).bernoulli(0.25, g);
      assertEquals(dt, b.dtype());
      double ones = b.to(DType.FLOAT64).sum().item();
      assertTrue(ones > 850 && ones < 1150, dt + ": " + ones + " ones in 4000 at p = 0.25");
    }
    assertEquals(4.0, Tensor.zeros(new long[] {4}, DType.INT32).bernoulli(1.0, g).to(DType.FLOAT64).sum().item());
  }

  @Test
  void dropoutOfIntegersGaveFloat32WherePyTorchRefuses() {
    // PyTorch 2.13: F.dropout(int64, 0.5, True) refuses ("result type Float can't be cast to the desired
    // output type Long"); with p = 1 it gives int64 zeros, not training or p = 0 the input
    Generator g = new Generator(5);
    for (DType dt : new DType[] {DType.INT64, DType.BOOL}) {
      Tensor x = Tensor.ones(new long[] {3}, dt);
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> x.dropout(0.5, true, g));
      assertEquals("dropout(): result type float32 can't be cast to the desired output type " + dt, e.getMessage());
      Tensor gone = x.dropout(1.0, true, g);
      assertEquals(dt, gone.dtype());
      assertEquals(0.0, gone.to(DType.FLOAT64).sum().item());
      assertEquals(dt, x.dropout(0.5, false, g).dtype());
      assertEquals(dt, x.dropout(0.0, true, g).dtype());
      assertEquals(0, Tensor.ones(new long[] {0}, dt).dropout(0.5, true, g).numel());
    }
    // float inputs: p = 1 keeps the dtype and NaN * 0, and the kept ones are scaled by 1 / (1 - p)
    Tensor h = Tensor.fromArray(new float[] {Float.NaN, 1}).to(DType.FLOAT16).dropout(1.0, true, g);
    assertEquals(DType.FLOAT16, h.dtype());
    assertTrue(Double.isNaN(h.to(DType.FLOAT64).toDoubleArray()[0]));
    double[] kept = Tensor.ones(new long[] {10_000}, DType.FLOAT64).dropout(0.2, true, g).toDoubleArray();
    int zeros = 0;
    for (double k : kept) {
      if (k == 0) zeros++;
      else assertEquals(1.25, k, 1e-15);
    }
    assertTrue(zeros > 1_800 && zeros < 2_200, zeros + " zeros at p = 0.2");
  }

  @Test
  void multinomialWithoutReplacementRefusedFewerPositiveWeightsThanSamples() {
    // PyTorch 2.13: torch.multinomial(tensor([1., 0., 0., 2.]), 3) gives (3, 0, 2) or (0, 3, 2): the
    // positive categories first, then a zero-weight one; here "not enough non-negative category"
    Generator g = new Generator(6);
    int threeFirst = 0;
    for (int i = 0; i < 400; i++) {
      long[] s = Tensor.fromArray(new float[] {1, 0, 0, 2}).multinomial(3, false, g).toLongArray();
      assertTrue((s[0] == 0 && s[1] == 3) || (s[0] == 3 && s[1] == 0), java.util.Arrays.toString(s));
      assertTrue(s[2] == 1 || s[2] == 2, java.util.Arrays.toString(s));
      if (s[0] == 3) threeFirst++;
    }
    assertTrue(threeFirst > 230 && threeFirst < 300, threeFirst + " of 400 start with the weight-2 category");
    long[][] rows = {{0, 1, 2}, {2, 0, 1}};
    Tensor two = Tensor.fromArray(new float[] {1, 0, 0, 0, 0, 1}).reshape(2, 3).multinomial(3, false, g);
    long[] got = two.toLongArray();
    assertEquals(rows[0][0], got[0]);
    assertEquals(rows[1][0], got[3]);
  }

  @Test
  void uniformAndNormalIgnoredAutograd() {
    // PyTorch 2.13: a leaf that requires grad is refused; on y = x * 2 the draw is UniformBackward0 /
    // NormalBackward0 and x.grad is 0. Here the leaf was overwritten and x.grad was 2.
    Generator g = new Generator(7);
    Tensor leaf = Tensor.zeros(3).requiresGrad_(true);
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> leaf.uniform_(0, 1, g));
    assertEquals("uniform_(): a leaf Variable that requires grad is being used in an in-place operation.", e.getMessage());
    assertThrows(IllegalStateException.class, () -> leaf.normal_(0, 1, g));
    assertArrayEquals(new float[] {0, 0, 0}, leaf.toFloatArray());
    for (boolean normal : new boolean[] {false, true}) {
      Tensor x = Tensor.ones(3).requiresGrad_(true);
      Tensor y = x.mul(2.0);
      if (normal) y.normal_(0, 1, g);
      else y.uniform_(0, 1, g);
      Tensor part = x.mul(3.0);
      part.narrow(0, 1, 2).uniform_(0, 1, g);  // a view's draw cuts only its elements' gradient
      y.sum().add(part.sum()).backward();
      assertArrayEquals(new float[] {3, 0, 0}, x.grad().toFloatArray(), normal ? "normal_" : "uniform_");
    }
    Tensor quiet = Tensor.zeros(3).requiresGrad_(true);
    org.jtensor.nn.Init.uniform_(quiet, 1.0, g);  // nn.init draws under no_grad, as PyTorch's
    assertTrue(minMax(quiet.detach())[1] > 0);
  }

  @Test
  void initFanRefusalsNamedFanInOrUniform() {
    // PyTorch 2.13: "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions"
    // (ValueError) from kaiming_normal_ of a 1-D tensor, here named "fanIn()"; xavier_uniform_ of a
    // [2, 3, 0] weight raises ZeroDivisionError, here "uniform_(): from is out of bounds" (xavierNormal_ took it)
    Generator g = new Generator(8);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> org.jtensor.nn.Init.kaimingNormal_(Tensor.zeros(3)));
    assertEquals("kaimingNormal_(): Fan in and fan out can not be computed for tensor with fewer than 2 dimensions", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> org.jtensor.nn.Init.kaimingUniform_(Tensor.zeros(2, 2), 0, "fan_avg", "relu", g));
    assertEquals("kaimingUniform_(): Mode fan_avg not supported, please use one of fan_in, fan_out", e.getMessage());
    for (boolean normal : new boolean[] {false, true}) {
      Tensor w = Tensor.zeros(2, 3, 0);
      ArithmeticException z = assertThrows(ArithmeticException.class,
          () -> { if (normal) org.jtensor.nn.Init.xavierNormal_(w); else org.jtensor.nn.Init.xavierUniform_(w); });
      assertTrue(z.getMessage().startsWith(normal ? "xavierNormal_(): fan_in + fan_out is 0" : "xavierUniform_(): fan_in + fan_out is 0"), z.getMessage());
    }
    // a [3, 0] weight has fan_out 3: PyTorch's xavier draws nothing and returns it
    assertEquals(0, org.jtensor.nn.Init.xavierUniform_(Tensor.zeros(3, 0)).numel());
    assertEquals(4L, org.jtensor.nn.Init.fanIn(Tensor.zeros(5, 2, 2)));
    assertEquals(10L, org.jtensor.nn.Init.fanOut(Tensor.zeros(5, 2, 2)));
  }
}
