package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * A hostile review of reductions' and elementwise math's values at the edges against PyTorch 2.13
 * (CPU); each expectation is PyTorch's answer to the same call, noted beside it.
 */
class NumericsHostileTest extends ScopedTest {

  private static Tensor f32(double... v) {
    return Tensor.fromArray(v).to(DType.FLOAT32);
  }

  private static double[] gradOf(java.util.function.Function<Tensor, Tensor> f, double... v) {
    Tensor x = f32(v).requiresGrad_(true);
    f.apply(x).sum().backward();
    return x.grad().toDoubleArray();
  }

  /**
   * torch.full((1_000_000, 2), 0.1).sum(0) is 99999.945 (cascade_sum); the rows were added one by
   * one into one float per output (100354.195), as were a strided view's elements and the runs of
   * a narrowed view. torch.full((10_000_000,), 0.1).sum() is 999999.56; the blocks' sums met in a
   * plain running total (999990).
   */
  @Test
  void aFloatSumAddedRowByRowOrRunByRunDrifted() {
    Tensor x = Tensor.full(new long[] {1_000_000, 2}, 0.1);
    for (double v : x.sum(0).toDoubleArray()) assertEquals(100_000, v, 0.5, "sum(0)");
    for (double v : x.mean(0).toDoubleArray()) assertEquals(0.1, v, 5e-7, "mean(0)");
    assertEquals(100_000, x.select(1, 0).sum().item(), 0.5, "a strided view's sum");
    assertEquals(100_000, x.narrow(1, 0, 1).sum().item(), 0.5, "runs of one element");
    assertEquals(1_000_000, Tensor.full(new long[] {10_000_000}, 0.1).sum().item(), 1.0, "a contiguous sum");
    assertEquals(0.1, Tensor.full(new long[] {10_000_000}, 0.1).mean().item(), 1e-6, "a contiguous mean");
    assertEquals(10_000_000, Tensor.ones(10_000_000).sum().item());  // exact in PyTorch
    assertEquals(4_000_000, Tensor.ones(2_000_000, 2).sum().item());
  }

  /** torch.tensor([1., 1.], requires_grad=True).std().backward() gives [0., 0.] (std_backward masks std == 0); here NaN. */
  @Test
  void stdOfAConstantHadANaNGradient() {
    assertArrayEquals(new double[] {0, 0}, gradOf(Tensor::std, 1, 1));
    assertArrayEquals(new double[] {0, 0}, gradOf(x -> x.std(null, 0, false), 3, 3));
    double[] g = gradOf(Tensor::std, 1, 3);  // away from 0 as before: (x - mean) / ((n - 1) std)
    assertEquals(-0.70710677, g[0], 1e-6);
    assertEquals(0.70710677, g[1], 1e-6);
  }

  /** z.norm(0.5).backward() at z = [0., 2.] gives [0., 1.] (PyTorch masks |x| = 0); the 0 element's was NaN. */
  @Test
  void aFractionalNormHadANaNGradientAtZero() {
    double[] g = gradOf(x -> x.norm(0.5, null, false), 0, 2);
    assertEquals(0.0, g[0]);
    assertEquals(1.0, g[1], 1e-6);
    assertArrayEquals(new double[] {0, 0, 0}, gradOf(x -> x.norm(0.5, null, false), 0, 0, 0));
    double[] h = gradOf(x -> x.norm(0.5, null, false), 0, -3, 4);  // [0., -2.1547, 1.8660]
    assertEquals(0.0, h[0]);
    assertEquals(-2.1547005, h[1], 1e-5);
    assertEquals(1.8660254, h[2], 1e-5);
    assertEquals(0.0, f32(0, 2).norm(-1, null, false).item());  // a negative p keeps 0^p = inf: inf^(1/p) = 0
  }

  /** torch.tensor([300., 400.], dtype=torch.float16).norm() is 500 (float accumulation); 300² overflowed float16 to inf. */
  @Test
  void aHalfNormSquaredInTheHalfType() {
    Tensor h = Tensor.fromArray(new double[] {300, 400}).to(DType.FLOAT16);
    Tensor n = h.norm();
    assertEquals(DType.FLOAT16, n.dtype());
    assertEquals(500.0, n.item());
    // [1e-4, 1e-4] in float16: 0.00014150142669677734 (the squares underflowed to 0)
    assertEquals(0.00014150142669677734, Tensor.fromArray(new double[] {1e-4, 1e-4}).to(DType.FLOAT16).norm().item());
    // p = 3 over [30., 40.]: 44.96875 (30³ + 40³ = 91000 overflowed)
    assertEquals(44.96875, Tensor.fromArray(new double[] {30, 40}).to(DType.FLOAT16).norm(3, null, false).item());
    Tensor b = Tensor.fromArray(new double[] {3, 4, 1, 1, 1}).to(DType.BFLOAT16).norm();
    assertEquals(DType.BFLOAT16, b.dtype());
    assertEquals(5.28125, b.item());
    Tensor x = Tensor.fromArray(new double[] {300, 400}).to(DType.FLOAT16).requiresGrad_(true);
    x.norm().backward();  // [0.6001, 0.7998] in float16
    assertArrayEquals(new double[] {0.60009765625, 0.7998046875}, x.grad().toDoubleArray());
  }

  /** elu's gradient at -20 is 2.0612e-09 (alpha e^x); result + alpha cancelled to 0 in float32. */
  @Test
  void eluGradientFarBelowZeroCancelledToZero() {
    double[] g = gradOf(Tensor::elu, -20, -5, 0, 1);
    assertEquals(2.0611537e-9, g[0], 1e-15);
    assertEquals(6.7379470e-3, g[1], 1e-9);
    assertArrayEquals(new double[] {1, 1}, java.util.Arrays.copyOfRange(g, 2, 4));  // elu'(0) is taken as 1, as PyTorch
    double[] a2 = gradOf(x -> x.elu(2), -20);
    assertEquals(4.1223073e-9, a2[0], 1e-15);
  }

  /** torch.neg(torch.zeros(1)) is -0.0, torch.abs(tensor([-0.])) is 0.0 and torch.relu(tensor([-0.])) is -0.0; here the opposite signs. */
  @Test
  void theSignOfZeroAfterNegAbsAndRelu() {
    for (DType d : new DType[] {DType.FLOAT32, DType.FLOAT64, DType.FLOAT16, DType.BFLOAT16}) {
      Tensor zero = Tensor.zeros(new long[] {3}, d), negZero = Tensor.full(new long[] {3}, -0.0, d);
      for (double v : zero.neg().toDoubleArray()) assertEquals(-0.0, v, d + " neg(0.0)");
      for (double v : negZero.abs().toDoubleArray()) assertEquals(0.0, v, d + " abs(-0.0)");
      for (double v : negZero.relu().toDoubleArray()) assertEquals(-0.0, v, d + " relu(-0.0)");
    }
    assertArrayEquals(new double[] {3, 0, 2}, f32(-3, -0.0, 2).abs().toDoubleArray());
    assertTrue(Double.isNaN(f32(Double.NaN).abs().item()));
    assertArrayEquals(new long[] {-128, 5}, Tensor.fromArray(new byte[] {-128, -5}).abs().to(DType.INT64).toLongArray());
  }

  /** torch.tensor([[1, 0], [2, 2]], dtype=torch.uint8).any() is tensor(1, dtype=torch.uint8): any/all keep uint8; here bool. */
  @Test
  void anyAndAllOfUint8GaveBool() {
    Tensor u = Tensor.fromArray(new byte[] {1, 0, 2, 2}, 2, 2).to(DType.UINT8);
    assertEquals(DType.UINT8, u.any().dtype());
    assertEquals(1L, u.any().itemLong());
    assertEquals(0L, u.all().itemLong());
    Tensor rows = u.all(new int[] {1}, true);  // [[0], [1]]
    assertEquals(DType.UINT8, rows.dtype());
    assertArrayEquals(new long[] {0, 1}, rows.to(DType.INT64).toLongArray());
    assertArrayEquals(new long[] {1, 1}, u.any(1, false).to(DType.INT64).toLongArray());
    assertEquals(1L, Tensor.zeros(new long[] {0}, DType.UINT8).all().itemLong());
    assertEquals(DType.BOOL, Tensor.fromArray(new long[] {0, 2}).any().dtype());  // other dtypes give bool
  }

  /** torch.sign(tensor([nan])) is 0 in float32, float64, float16 and bfloat16 (PyTorch 2.13); it was NaN here. */
  @Test
  void signOfNaNIsZeroAsPyTorchs() {
    for (DType dt : new DType[] {DType.FLOAT32, DType.FLOAT64, DType.FLOAT16, DType.BFLOAT16}) {
      double[] got = Tensor.fromArray(new double[] {Double.NaN, -0.0, -2, Double.POSITIVE_INFINITY}).to(dt).sign().toDoubleArray();
      assertArrayEquals(new double[] {0, 0, -1, 1}, got, 0, dt.toString());
    }
  }

  /** PyTorch 2.13's refusals: var/std of int64, norm of int64, the inf norm over an empty dim (amax's message before). */
  @Test
  void integerVarianceNormAndEmptyInfNormAreRefusedInPyTorchsWords() {
    Tensor ints = Tensor.arange(4);
    String m = org.junit.jupiter.api.Assertions.assertThrows(UnsupportedOperationException.class, ints::var).getMessage();
    assertTrue(m.startsWith("var(): std and var only support floating point and complex dtypes"), m);
    m = org.junit.jupiter.api.Assertions.assertThrows(UnsupportedOperationException.class, ints::norm).getMessage();
    assertTrue(m.startsWith("norm(): Expected a floating point or complex tensor as input. Got int64"), m);
    m = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> Tensor.zeros(0).norm(Double.NEGATIVE_INFINITY, null, false)).getMessage();
    assertEquals("norm(): cannot compute the -inf norm on an empty tensor because the operation does not have an identity", m);
    assertEquals(0, Tensor.zeros(0, 3).norm(Double.POSITIVE_INFINITY, new int[] {1}, false).numel(), "no output: nothing to refuse");
  }
}
