package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The differences from PyTorch that the strict fuzzer found (issue 22 point 1, docs/reliability.md),
 * each pinned to PyTorch 2.13's answer to the same call, noted beside it.
 */
class FuzzFindingsParityTest extends ScopedTest {

  private static void refused(String message, Executable call) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
    assertEquals(message, e.getMessage());
  }

  /** torch.zeros(0, 3).argmax(1) is an empty int64 tensor; only an empty reduced dim is refused. */
  @Test
  void argmaxAndMaxAlongAKeptEmptyDimGiveAnEmptyResult() {
    Tensor x = Tensor.zeros(1, 0, 3);
    assertArrayEquals(new long[] {1, 0}, x.argmax(2, false).shape());
    assertEquals(DType.INT64, x.argmin(2, false).dtype());
    ValuesAndIndices m = x.max(2, true);
    assertArrayEquals(new long[] {1, 0, 1}, m.values().shape());
    assertArrayEquals(new long[] {1, 0, 1}, m.indices().shape());
    refused("max(): Expected reduction dim 1 to have non-zero size.", () -> x.max(1, false));
    refused("argmin(): Expected reduction dim 1 to have non-zero size.", () -> x.argmin(1, false));
    refused("argmax(): Expected reduction dim to be specified for input.numel() == 0.", () -> x.argmax());
  }

  /** clamp's bounds convert to the result's dtype as PyTorch's checked conversion does. */
  @Test
  void clampBoundsThatOverflowTheResultAreRefusedAndAFloatBoundPromotes() {
    Tensor i8 = Tensor.fromArray(new byte[] {-24, 5, 1});
    // torch: clamp(int8, -inf, 2) -> float32 [-24., 2., 1.]; clamp(int8, min=300) raises
    Tensor r = i8.clamp(Double.NEGATIVE_INFINITY, 2);
    assertEquals(DType.FLOAT32, r.dtype());
    assertArrayEquals(new float[] {-24, 2, 1}, r.toFloatArray());
    refused("clampMin(): value 300 cannot be converted to type int8 without overflow", () -> i8.clampMin(300));
    // torch: clamp(int8, -1, 1e300) raises "value cannot be converted to type float without overflow" (a float bound promotes)
    refused("clamp(): value 1.0E300 cannot be converted to type float32 without overflow", () -> i8.clamp(-1, 1e300));
    // torch: clamp_(int8, min=2.5) raises "result type Float can't be cast to the desired output type signed char"
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> i8.clamp_(2.5, 3));
    assertTrue(e.getMessage().startsWith("clamp_(): result type float32 can't be cast to the desired output type int8"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> i8.clamp_(Double.NEGATIVE_INFINITY, 3));
    assertArrayEquals(new long[] {-24, 5, 1}, i8.toLongArray(), "a refused clamp_ writes nothing");
    // torch: float32 clamp(min=-1e300) raises; bfloat16 clamp(min=1e300) raises; inf is taken
    refused("clampMin(): value -1.0E300 cannot be converted to type float32 without overflow", () -> Tensor.ones(2).clampMin(-1e300));
    refused("clampMax(): value 1.0E300 cannot be converted to type bfloat16 without overflow",
        () -> Tensor.ones(new long[] {2}, DType.BFLOAT16).clampMax(1e300));
    assertArrayEquals(new float[] {1, 1}, Tensor.ones(2).clampMax(Double.POSITIVE_INFINITY).toFloatArray());
    assertArrayEquals(new double[] {1e300}, Tensor.ones(new long[] {1}, DType.FLOAT64).clampMin(1e300).toDoubleArray());
  }

  /** add/sub's alpha converts to the computation's dtype: torch refuses add(float32, alpha=1e300), add(float16, alpha=70000). */
  @Test
  void anAlphaThatOverflowsTheComputationIsRefused() {
    Tensor f = Tensor.zeros(3);
    refused("add(): value 1.0E300 cannot be converted to type float32 without overflow", () -> f.add(Tensor.ones(3), 1e300));
    refused("sub_(): value -1.0E300 cannot be converted to type float32 without overflow", () -> f.sub_(Tensor.ones(3), -1e300));
    Tensor h = Tensor.ones(new long[] {2}, DType.FLOAT16);
    refused("add(): value 70000 cannot be converted to type float16 without overflow", () -> h.add(h, 70000));
    Tensor i8 = Tensor.zeros(new long[] {2}, DType.INT8);
    refused("add(): value 300 cannot be converted to type int8 without overflow", () -> i8.add(i8, 300));
    // float32 + float16 computes in float32: alpha 70000 is taken (torch: [70000., 70000., 70000.])
    assertArrayEquals(new float[] {70000, 70000, 70000}, f.add(Tensor.ones(new long[] {3}, DType.FLOAT16), 70000).toFloatArray());
    assertArrayEquals(new float[] {0, 0, 0}, f.toFloatArray(), "a refused in-place call writes nothing");
  }

  /** addmm/baddbmm convert alpha and beta to their math type: float32 for float16 (torch takes alpha 70000 there), the dtype otherwise. */
  @Test
  void addmmAlphaAndBetaAreCheckedAgainstTheMathType() {
    Tensor m = Tensor.ones(2, 2);
    refused("addmm(): value -1.0E300 cannot be converted to type float32 without overflow", () -> m.addmm(m, m, 4.0, -1e300));
    refused("addmm(): value 1.0E300 cannot be converted to type float32 without overflow", () -> m.addmm(m, m, 1e300, 1));
    Tensor u8 = Tensor.ones(new long[] {2, 2}, DType.UINT8);
    refused("addmm(): value 1.0E300 cannot be converted to type uint8 without overflow", () -> u8.addmm(u8, u8, 1, 1e300));
    Tensor b = Tensor.ones(1, 2, 2);
    refused("baddbmm(): value 1.0E300 cannot be converted to type float32 without overflow", () -> b.baddbmm(b, b, 1, 1e300));
    Tensor h = Tensor.ones(new long[] {2, 2}, DType.FLOAT16);
    Tensor r = h.addmm(h, h, 1, 70000);  // torch: inf in float16, computed in float32
    assertTrue(Double.isInfinite(r.toDoubleArray()[0]));
  }

  /** torch.addmm(c, zeros(1, 0), zeros(0, 1), beta=-0.125, alpha=inf) is beta * c: with no product at all, alpha is not applied. */
  @Test
  void addmmWithAnEmptyInnerDimIsBetaTimesInputWhateverAlpha() {
    for (DType dt : new DType[] {DType.FLOAT16, DType.BFLOAT16, DType.FLOAT32, DType.FLOAT64}) {
      Tensor c = Tensor.full(new long[] {1}, 1.875, dt);
      Tensor r = c.addmm(Tensor.zeros(new long[] {1, 0}, dt), Tensor.zeros(new long[] {0, 1}, dt), -0.125, Double.POSITIVE_INFINITY);
      assertEquals(-0.234375, r.toDoubleArray()[0], 1e-3, dt.toString());
    }
  }

  /** bool addmm reads alpha and beta as bools (PyTorch's alpha.to<bool>()): alpha 0 drops the product. */
  @Test
  void boolAddmmWithAlphaZeroKeepsOnlyTheInput() {
    Tensor c = Tensor.fromArray(new boolean[] {true, false, false, true}, 2, 2);
    Tensor a = Tensor.ones(new long[] {2, 4}, DType.BOOL), b = Tensor.ones(new long[] {4, 2}, DType.BOOL);
    assertArrayEquals(new boolean[] {true, false, false, true}, c.addmm(a, b, 1.625, 0).toBooleanArray());
    assertArrayEquals(new boolean[] {true, true, true, true}, c.addmm(a, b, 0, 1).toBooleanArray());
  }

  /** torch: zeros(1, 2).index_add_(-2, [0, 0], ones(2, 2), alpha=-1e300) raises; so does float16 with alpha 70000. */
  @Test
  void indexAddAlphaThatOverflowsSelfIsRefusedBeforeWriting() {
    Tensor self = Tensor.zeros(1, 2), index = Tensor.fromArray(new long[] {0, 0});
    refused("indexAdd_(): value -1.0E300 cannot be converted to type float32 without overflow",
        () -> self.indexAdd_(-2, index, Tensor.ones(2, 2), -1e300));
    Tensor h = Tensor.zeros(new long[] {1, 2}, DType.FLOAT16);
    refused("indexAdd_(): value 70000 cannot be converted to type float16 without overflow",
        () -> h.indexAdd_(0, Tensor.fromArray(new long[] {0}), Tensor.ones(new long[] {1, 2}, DType.FLOAT16), 70000));
    assertArrayEquals(new float[] {0, 0}, self.toFloatArray());
  }

  /** torch's check_uniform_bounds: from and to finite in the dtype, from <= to, to - from within its range. */
  @Test
  void uniformRefusesBoundsTheDtypeCannotHold() {
    Tensor f = Tensor.zeros(2, 2);
    refused("uniform_(): from is out of bounds for float32, got -Infinity", () -> f.uniform_(Double.NEGATIVE_INFINITY, 1, new Generator(0)));
    refused("uniform_(): to is out of bounds for float32, got Infinity", () -> f.uniform_(0, Double.POSITIVE_INFINITY, new Generator(0)));
    refused("uniform_(): to is out of bounds for float16, got 1000000.0",
        () -> Tensor.zeros(new long[] {2}, DType.FLOAT16).uniform_(0, 1e6, new Generator(0)));
    refused("uniform_(): expects to return a [from, to) range, but found from=2.0 > to=1.0", () -> f.uniform_(2, 1, new Generator(0)));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> f.uniform_(-3e38, 3e38, new Generator(0)));
    assertTrue(e.getMessage().startsWith("uniform_(): expects to-from <= the largest float32"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> f.uniform_(Double.NaN, 1, new Generator(0)));
    assertArrayEquals(new float[4], f.toFloatArray(), "nothing drawn");
    Tensor d = Tensor.zeros(new long[] {3}, DType.FLOAT64).uniform_(0, 1e300, new Generator(0));  // torch takes it
    for (double v : d.toDoubleArray()) assertTrue(v >= 0 && v < 1e300);
  }

  /** PyTorch draws only as many bits as the dtype's significand holds: rand in float16 and bfloat16 stays below 1. */
  @Test
  void randInSixteenBitFloatsStaysBelowOneAndTakesOnlyTheSignificandsBits() {
    for (DType dt : new DType[] {DType.BFLOAT16, DType.FLOAT16}) {
      int digits = dt == DType.BFLOAT16 ? 8 : 11;
      double[] got = Tensor.rand(new long[] {200_000}, dt, new Generator(1)).toDoubleArray();
      double max = 0;
      for (double v : got) {
        assertTrue(v >= 0 && v < 1, dt + " drew " + v);
        assertEquals(v, Math.rint(v * (1 << digits)) / (1 << digits), 0.0, dt + " " + v + " is a multiple of 2^-" + digits);
        max = Math.max(max, v);
      }
      assertEquals(1 - 1.0 / (1 << digits), max, 0.0, dt + " reaches its largest value below 1");
    }
    // element 0 of each Philox block takes the top bits of word 0, element 1 those of word 2
    assertArrayEquals(new PhiloxReference(4).uniformDigits(1001, 11), Tensor.rand(new long[] {1001}, DType.FLOAT16, new Generator(4)).toDoubleArray());
    assertArrayEquals(new PhiloxReference(5).uniformDigits(1001, 24),
        Tensor.zeros(1001).uniform_(0, 1, new Generator(5)).toDoubleArray(), "uniform_ into float32 takes 24 bits");
  }

  /** torch.zeros(0).std(0, correction=-1) is NaN: an empty reduction is NaN whatever the correction. */
  @Test
  void varAndStdOfNothingAreNaNWhateverTheCorrection() {
    Tensor empty = Tensor.zeros(0);
    for (long correction : new long[] {-1, 0, 1, 2}) {
      assertTrue(Double.isNaN(empty.var(new int[] {0}, correction, false).item()), "var correction " + correction);
      assertTrue(Double.isNaN(empty.std(new int[] {0}, correction, false).item()), "std correction " + correction);
    }
  }

  /** torch.lerp(float16, end, 70000.0) takes the weight in float32 ([inf, inf] in float16); 1e300 overflows it. */
  @Test
  void lerpTakesAHalfTensorsScalarWeightInFloat32() {
    Tensor start = Tensor.zeros(new long[] {2}, DType.FLOAT16), end = Tensor.ones(new long[] {2}, DType.FLOAT16);
    double[] r = start.lerp(end, 70000.0).toDoubleArray();
    assertTrue(Double.isInfinite(r[0]) && r[0] > 0, "got " + r[0]);
    assertArrayEquals(new double[] {0, 0}, start.lerp(start, 70000.0).toDoubleArray(), "no inf * 0: the weight is not rounded to float16");
    refused("lerp(): value 1.0E300 cannot be converted to type float32 without overflow", () -> start.lerp(end, 1e300));
    assertArrayEquals(new float[] {0.25f, 0.75f}, Tensor.zeros(2).lerp(Tensor.fromArray(new float[] {1, 3}), 0.25).toFloatArray());
  }

  /** torch.lerp(ones(2), tensor([3., 4.], dtype=float64), 0.5) raises "expected dtype float for `end` but got dtype double": lerp does not promote. */
  @Test
  void lerpRefusesAnEndOrWeightOfAnotherDtype() {
    Tensor f = Tensor.ones(2), d = Tensor.ones(new long[] {2}, DType.FLOAT64);
    refused("lerp(): expected dtype float32 for `end` but got dtype float64", () -> f.lerp(d, 0.5));
    refused("lerp(): expected dtype float32 for `weight` but got dtype float64", () -> f.lerp(f, d));
    refused("lerp(): expected dtype float64 for `end` but got dtype float32", () -> d.lerp(f, d));
    assertThrows(UnsupportedOperationException.class, () -> Tensor.fromArray(new long[] {1, 2}).lerp(Tensor.fromArray(new long[] {3, 4}), 0.5),
        "torch: lerp_kernel_scalar not implemented for 'Long'");
  }

  /**
   * A float16/bfloat16 mul or div takes its scalar in float32, its math type, as PyTorch's: zeros(2,
   * half) * -2**31 is [-0., -0.] and ones(2, half) * 1e-6 * 1e6 is 1.0137 there (rounded to float16
   * first, the scalar would be inf: NaN and inf). PyTorch's add and sub round it to float16 first:
   * (ones + 70000) - 70000 is inf - inf, NaN. Both the small-op path and the general one.
   */
  @Test
  void aSixteenBitFloatOpTakesItsScalarInFloat32() {
    Tensor h = Tensor.zeros(new long[] {2}, DType.FLOAT16);
    assertArrayEquals(new double[] {-0.0, -0.0}, h.mul(-2147483648L).toDoubleArray());
    assertArrayEquals(new double[] {0, 0}, h.mul(1e6).toDoubleArray());
    Tensor one = Tensor.ones(new long[] {2}, DType.FLOAT16);
    assertArrayEquals(new double[] {1.013671875, 1.013671875}, one.mul(1e-6).mul(1e6).toDoubleArray());
    Tensor wide = Tensor.ones(new long[] {3, 1}, DType.FLOAT16).expand(3, 4);  // not contiguous: the general path
    for (double v : wide.mul(1e6).div(1e6).toDoubleArray()) assertTrue(Double.isInfinite(v), "1e6 rounds to inf in float16: " + v);
    for (double v : wide.mul(1e-3).mul(1e3).toDoubleArray()) assertEquals(1.0, v, 1e-3);
    for (double v : one.add(70000.0).sub(70000.0).toDoubleArray()) assertTrue(Double.isNaN(v), "add/sub round 70000 to inf first, as torch: " + v);
    Tensor b = Tensor.zeros(new long[] {2}, DType.BFLOAT16);
    for (double v : b.mul(1e39).toDoubleArray()) assertTrue(Double.isNaN(v), "1e39 overflows float32 too: 0 * inf, as torch");
  }
}
