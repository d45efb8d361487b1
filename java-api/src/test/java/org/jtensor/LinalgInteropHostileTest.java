package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * A hostile review of the matrix products (matmul, mm, bmm, dot, addmm, baddbmm, linear), the
 * closeness comparisons and the Java array interop against PyTorch 2.13 (CPU); each expectation is
 * PyTorch's answer to the same call, noted beside it.
 */
class LinalgInteropHostileTest extends ScopedTest {
  private static final double INF = Double.POSITIVE_INFINITY;

  private static Tensor f32(double... v) {
    return Tensor.fromArray(v).to(DType.FLOAT32);
  }

  private static Tensor longs(long... v) {
    return Tensor.fromArray(v);
  }

  private static void refused(String message, Executable call) {
    Throwable e = assertThrows(RuntimeException.class, call);
    assertTrue(e.getMessage().contains(message), () -> "expected '" + message + "' in: " + e.getMessage());
  }

  private static boolean[] close(Tensor a, Tensor b, double rtol, double atol) {
    return a.isclose(b, rtol, atol, false).toBooleanArray();
  }

  /**
   * torch.isclose(torch.tensor([1.]), torch.tensor([1.], dtype=torch.float64)) raises "Float did
   * not match Double" (allclose too); isclose(tensor([1]), tensor([1.])) "Long did not match
   * Float". Both were compared after promotion (True).
   */
  @Test
  void iscloseOfTwoDtypesWasComparedAfterPromotion() {
    Tensor d = Tensor.fromArray(new double[] {1});
    refused("float32 did not match float64", () -> f32(1).isclose(d));
    refused("float32 did not match float64", () -> f32(1).allclose(d));
    refused("int64 did not match float32", () -> longs(1).isclose(f32(1)));
    assertTrue(f32(1, 2).allclose(f32(1, 2)));
  }

  /**
   * PyTorch counts a pair close only where the error |a - b| is finite:
   * isclose(tensor([inf]), tensor([1.]), atol=inf) is False, isclose(tensor([3e38]),
   * tensor([-3e38]), rtol=10) is False (the float32 difference overflows), and so is float16
   * 60000 against -60000 with rtol=3; isclose(tensor([5.]), tensor([1.]), atol=inf) is True. Here
   * the first three were True (only b's finiteness was checked, and inf <= inf).
   */
  @Test
  void anInfiniteErrorWasWithinAnInfiniteTolerance() {
    assertArrayEquals(new boolean[] {false}, close(f32(INF), f32(1), 0, INF));
    assertArrayEquals(new boolean[] {false}, close(f32(3e38), f32(-3e38), 10, 0));
    assertArrayEquals(new boolean[] {false}, close(f32(60000).to(DType.FLOAT16), f32(-60000).to(DType.FLOAT16), 3, 0));
    assertArrayEquals(new boolean[] {true}, close(f32(5), f32(1), 0, INF));
    assertArrayEquals(new boolean[] {false}, close(f32(1), f32(INF), 0, INF));
    // equal infinities stay close, opposite ones do not: [True, True, False, False]
    assertArrayEquals(new boolean[] {true, true, false, false},
        close(f32(INF, -INF, INF, 1), f32(INF, -INF, -INF, INF), 1e-5, 1e-8));
  }

  /**
   * PyTorch measures the error of bool and integer tensors in float32: isclose(tensor([True,
   * False]), tensor([True, True]), atol=2) is [True, True] (here [True, False]: bools were only
   * compared equal); uint8 0 against 255 with atol=1 is False (here True: 0 - 255 wrapped to 1);
   * int64 -2^63 against 2^63-1 with atol=1 is False (here True, wrapped); 16777217 against
   * 16777216 with atol=0.5 is True (float32 rounds both to 16777216; here False). With rtol = atol
   * = 0 the comparison is exact: 2^62 against 2^62 + 1 is False.
   */
  @Test
  void boolsAndIntegersWereComparedInTheirOwnType() {
    Tensor t = Tensor.fromArray(new boolean[] {true, false}), tt = Tensor.fromArray(new boolean[] {true, true});
    assertArrayEquals(new boolean[] {true, true}, close(t, tt, 1e-5, 2));
    assertArrayEquals(new boolean[] {true, false}, close(t, tt, 1e-5, 1e-8));
    assertTrue(Tensor.fromArray(new boolean[] {true}).allclose(Tensor.fromArray(new boolean[] {false}), 0, 2));
    Tensor u0 = longs(0).to(DType.UINT8), u255 = longs(255).to(DType.UINT8);
    assertArrayEquals(new boolean[] {false}, close(u0, u255, 0, 1));
    assertArrayEquals(new boolean[] {false}, close(u255, u0, 0, 1));
    assertArrayEquals(new boolean[] {true}, close(u0, u255, 0, 255));
    assertArrayEquals(new boolean[] {false}, close(u0, u255, 0, 254.9));
    assertArrayEquals(new boolean[] {true}, close(longs(0).to(DType.INT8), longs(-128).to(DType.INT8), 0, 128));
    assertArrayEquals(new boolean[] {false}, close(longs(Long.MIN_VALUE), longs(Long.MAX_VALUE), 0, 1));
    assertArrayEquals(new boolean[] {true}, close(longs(16777217), longs(16777216), 0, 0.5));
    assertArrayEquals(new boolean[] {false}, close(longs(1L << 62), longs((1L << 62) + 1), 0, 0));
    assertArrayEquals(new boolean[] {true}, close(longs(1L << 62), longs((1L << 62) + 1), 0, 0.5));
    Tensor ten = longs(10).to(DType.INT32), minusTen = longs(-10).to(DType.INT32);
    assertArrayEquals(new boolean[] {true}, close(ten, minusTen, 2, 0));
    assertArrayEquals(new boolean[] {false}, close(ten, minusTen, 1.9, 0));
    assertArrayEquals(new boolean[] {true, true}, close(longs(100, 101), longs(100, 100), 0.01, 0));
  }

  /** torch.isclose(x, x, rtol=-1) raises "rtol must be greater than or equal to zero, but got -1" (atol likewise; NaN too). */
  @Test
  void negativeTolerancesAreRefusedInTorchsWords() {
    refused("rtol must be greater than or equal to zero, but got -1", () -> f32(1).isclose(f32(1), -1, 0, false));
    refused("atol must be greater than or equal to zero, but got -1", () -> f32(1).isclose(f32(1), 0, -1, false));
    refused("rtol must be greater than or equal to zero, but got NaN", () -> f32(1).isclose(f32(1), Double.NaN, 0, false));
  }

  /**
   * torch.addmm(torch.ones(2, 2, dtype=torch.float64), torch.ones(2, 3), torch.ones(3, 2)) raises
   * "self and mat2 must have the same dtype, but got Double and Float", with beta=0 too, and for
   * an int64 self; the input was converted silently ([[4., 4.], [4., 4.]] in float32).
   */
  @Test
  void addmmConvertedAnInputOfAnotherDtype() {
    Tensor m1 = Tensor.ones(2, 3), m2 = Tensor.ones(3, 2);
    refused("self and mat2 must have the same dtype, but got float64 and float32",
        () -> Tensor.ones(new long[] {2, 2}, DType.FLOAT64).addmm(m1, m2));
    refused("self and mat2 must have the same dtype, but got float64 and float32",
        () -> Tensor.ones(new long[] {2, 2}, DType.FLOAT64).addmm(m1, m2, 0, 1));
    refused("self and mat2 must have the same dtype, but got int64 and float32",
        () -> Tensor.ones(new long[] {2, 2}, DType.INT64).addmm(m1, m2));
  }

  /**
   * torch.addmm(torch.ones(1, 2, 2), torch.ones(2, 3), torch.ones(3, 2), beta=0) raises (expand:
   * "the number of sizes provided (2) must be greater or equal to the number of dimensions in the
   * tensor (3)"), as it does with beta=1; with beta 0 the [1, 2, 2] input was accepted and a
   * [2, 2] result returned. A NaN input with beta=0 is still ignored: [[3., 3.], [3., 3.]].
   */
  @Test
  void addmmWithBetaZeroAcceptedAnInputOfMoreDims() {
    Tensor m1 = Tensor.ones(2, 3), m2 = Tensor.ones(3, 2);
    assertThrows(IllegalArgumentException.class, () -> Tensor.ones(1, 2, 2).addmm(m1, m2, 0, 1));
    assertThrows(IllegalArgumentException.class, () -> Tensor.ones(1, 2, 2).addmm(m1, m2));
    // addmm(ones(3, 2), ones(1, 3), ones(3, 2), beta=0): "The expanded size of the tensor (1) must match the existing size (3) at non-singleton dimension 0"
    refused("The expanded size of the tensor (1) must match the existing size (3) at non-singleton dimension 0",
        () -> Tensor.ones(3, 2).addmm(Tensor.ones(1, 3), m2, 0, 1));
    assertArrayEquals(new float[] {3, 3, 3, 3}, Tensor.full(new long[] {2, 2}, Double.NaN).addmm(m1, m2, 0, 1).toFloatArray());
    assertArrayEquals(new float[] {4, 5, 4, 5}, f32(1, 2).addmm(m1, m2).toFloatArray());
  }

  /**
   * torch.baddbmm(torch.ones(1, 2, 2), torch.ones(1, 2, 0), torch.ones(1, 0, 2), alpha=inf) is
   * all 1 (an empty product is 0 whatever alpha is, as addmm's); here NaN (0 · inf).
   */
  @Test
  void baddbmmOfAnEmptyProductScaledItsZerosByAnInfiniteAlpha() {
    Tensor r = Tensor.ones(1, 2, 2).baddbmm(Tensor.ones(1, 2, 0), Tensor.ones(1, 0, 2), 1, INF);
    assertArrayEquals(new float[] {1, 1, 1, 1}, r.toFloatArray());
    assertArrayEquals(new float[] {2, 2, 2, 2}, Tensor.ones(2, 2).addmm(Tensor.ones(2, 0), Tensor.ones(0, 2), 2, INF).toFloatArray());
    // a non-empty product still takes alpha: baddbmm(ones(1,1,1), ones(1,1,1), ones(1,1,1), alpha=inf, beta=0) is inf
    assertEquals(INF, Tensor.ones(1, 1, 1).baddbmm(Tensor.ones(1, 1, 1), Tensor.ones(1, 1, 1), 0, INF).item());
  }

  /**
   * F.linear(torch.ones(2, 3), torch.ones(4, 3), torch.ones(4, dtype=torch.float64)) raises "self
   * and mat2 must have the same dtype, but got Double and Float" (a [2, 4] float64 bias and an
   * int64 bias too); the bias was converted silently.
   */
  @Test
  void linearConvertedABiasOfAnotherDtype() {
    Tensor x = Tensor.ones(2, 3), w = Tensor.ones(4, 3);
    refused("self and mat2 must have the same dtype, but got float64 and float32",
        () -> Tensor.linear(x, w, Tensor.ones(new long[] {4}, DType.FLOAT64)));
    refused("self and mat2 must have the same dtype, but got float64 and float32",
        () -> Tensor.linear(x, w, Tensor.ones(new long[] {2, 4}, DType.FLOAT64)));
    refused("self and mat2 must have the same dtype, but got int64 and float32",
        () -> Tensor.linear(Tensor.ones(5, 2, 3), w, Tensor.ones(new long[] {4}, DType.INT64)));
  }

  /**
   * F.linear(torch.ones(2, 3), torch.ones(4, 3), torch.ones(1)) broadcasts the bias: all 4., shape
   * [2, 4] ([5, 2, 4] for a [5, 2, 3] input, [4] for a [3] one), and the bias's gradient under
   * sum() is [8.]; a [1] bias was refused ("bias must have shape [4], got [1]").
   */
  @Test
  void linearRefusedABiasOfOneElement() {
    Tensor w = Tensor.ones(4, 3);
    Tensor x = Tensor.ones(2, 3).requiresGrad_(true), b = Tensor.ones(1).requiresGrad_(true);
    Tensor y = Tensor.linear(x, w, b);
    assertArrayEquals(new long[] {2, 4}, y.shape());
    assertArrayEquals(new float[] {4, 4, 4, 4, 4, 4, 4, 4}, y.toFloatArray());
    y.sum().backward();
    assertArrayEquals(new float[] {8}, b.grad().toFloatArray());
    assertArrayEquals(new float[] {4, 4, 4, 4, 4, 4}, x.grad().toFloatArray());
    assertArrayEquals(new long[] {5, 2, 4}, Tensor.linear(Tensor.ones(5, 2, 3), w, Tensor.ones(1)).shape());
    assertArrayEquals(new float[] {4, 4, 4, 4}, Tensor.linear(Tensor.ones(3), w, Tensor.ones(1)).toFloatArray());
    // F.linear(ones(5, 2, 3), ones(4, 3), ones(3)): "The expanded size of the tensor (4) must match the existing size (3) at
    // non-singleton dimension 1.  Target sizes: [10, 4].  Tensor sizes: [3]"
    // F.linear(ones(2, 3), ones(4, 3), ones(2, 1, 4)): "expand(torch.FloatTensor{[2, 1, 4]}, size=[2, 4]): the number of sizes
    // provided (2) must be greater or equal to the number of dimensions in the tensor (3)"; a [2, 4] bias is added: all 4.
    refused("the number of sizes provided (2) must be greater or equal to the number of dimensions in the tensor (3)",
        () -> Tensor.linear(Tensor.ones(2, 3), w, Tensor.ones(2, 1, 4)));
    assertArrayEquals(new float[] {4, 4, 4, 4, 4, 4, 4, 4}, Tensor.linear(Tensor.ones(2, 3), w, Tensor.ones(2, 4)).toFloatArray());
    refused("The expanded size of the tensor (4) must match the existing size (3) at non-singleton dimension 1.  Target sizes: [10, 4]."
        + "  Tensor sizes: [3]", () -> Tensor.linear(Tensor.ones(5, 2, 3), w, Tensor.ones(3)));
  }

  /**
   * torch.dot(torch.ones(3), torch.ones(3, dtype=torch.float64)) raises "dot : expected both
   * vectors to have same dtype, but found Float and Double"; torch.ones(4, 5) @ torch.ones(3)
   * raises "size mismatch, got input (4), mat (4x5), vec (3)"; torch.bmm(ones(2, 2, 3), ones(2, 4,
   * 2)) and torch.baddbmm(ones(1, 2, 2), ones(1, 2, 3), ones(1, 4, 2)) raise "Expected size for
   * first two dimensions of batch2 tensor to be: [2, 3] but got: [2, 4]." ([1, 3], [1, 4]), as
   * does bmm(ones(2, 2, 3), ones(1, 3, 2)) ([2, 3] but got: [1, 3]).
   */
  @Test
  void refusalsInTorchsWords() {
    refused("dot : expected both vectors to have same dtype, but found float32 and float64",
        () -> Tensor.ones(3).dot(Tensor.ones(new long[] {3}, DType.FLOAT64)));
    refused("size mismatch, got input (4), mat (4x5), vec (3)", () -> Tensor.ones(4, 5).matmul(Tensor.ones(3)));
    // shapes before dtypes: torch.mm(ones(2, 3), ones(4, 5, dtype=torch.float64)) and the same matmul raise "mat1 and mat2
    // shapes cannot be multiplied (2x3 and 4x5)"; ones(3) @ ones(4, dtype=torch.float64) raises dot's dtype words
    Tensor d45 = Tensor.ones(new long[] {4, 5}, DType.FLOAT64);
    refused("mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)", () -> Tensor.ones(2, 3).mm(d45));
    refused("mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)", () -> Tensor.ones(2, 3).matmul(d45));
    refused("dot : expected both vectors to have same dtype, but found float32 and float64",
        () -> Tensor.ones(3).matmul(Tensor.ones(new long[] {4}, DType.FLOAT64)));
    refused("expected m1 and m2 to have the same dtype, but got: float32 != float64",
        () -> Tensor.ones(2, 4).mm(d45));
    // torch.outer(ones(3), ones(1, 3)): "outer: Expected 1-D argument vec2, but got 2-D"; F.linear(ones(3, 4), tensor(1.)):
    // "both arguments to linear need to be at least 1D, but they are 2D and 0D" (F.linear(tensor(1.), ones(3)): "0D and 1D")
    refused("outer: Expected 1-D argument vec2, but got 2-D", () -> Tensor.ones(3).outer(Tensor.ones(1, 3)));
    refused("outer: Expected 1-D argument self, but got 2-D", () -> Tensor.ones(1, 3).outer(Tensor.ones(3)));
    refused("both arguments to linear need to be at least 1D, but they are 2D and 0D", () -> Tensor.linear(Tensor.ones(3, 4), Tensor.scalar(1.0), null));
    refused("both arguments to linear need to be at least 1D, but they are 0D and 1D", () -> Tensor.linear(Tensor.scalar(1.0), Tensor.ones(3), null));
    refused("mat1 and mat2 shapes cannot be multiplied (1x3 and 4x5)", () -> Tensor.ones(3).matmul(Tensor.ones(4, 5)));
    // matmul folds: ones(2,3,4) @ ones(5) "size mismatch, got input (6), mat (6x4), vec (5)"; @ ones(5, 6)
    // "(6x4 and 5x6)"; ones(4) @ ones(2,5,6), ones(3,4) @ ones(2,5,6) and ones(2,3,4) @ ones(2,5,6) "... to be: [2, 4]
    // but got: [2, 5]."; ones(2,1,3,4) @ ones(5,5,6) "[10, 4] but got: [10, 5]." (here "(6x4 and 10x6)" and the like)
    refused("size mismatch, got input (6), mat (6x4), vec (5)", () -> Tensor.ones(2, 3, 4).matmul(Tensor.ones(5)));
    refused("mat1 and mat2 shapes cannot be multiplied (6x4 and 5x6)", () -> Tensor.ones(2, 3, 4).matmul(Tensor.ones(5, 6)));
    refused("Expected size for first two dimensions of batch2 tensor to be: [2, 4] but got: [2, 5].",
        () -> Tensor.ones(4).matmul(Tensor.ones(2, 5, 6)));
    refused("Expected size for first two dimensions of batch2 tensor to be: [2, 4] but got: [2, 5].",
        () -> Tensor.ones(3, 4).matmul(Tensor.ones(2, 5, 6)));
    refused("Expected size for first two dimensions of batch2 tensor to be: [2, 4] but got: [2, 5].",
        () -> Tensor.ones(2, 3, 4).matmul(Tensor.ones(2, 5, 6)));
    refused("Expected size for first two dimensions of batch2 tensor to be: [10, 4] but got: [10, 5].",
        () -> Tensor.ones(2, 1, 3, 4).matmul(Tensor.ones(5, 5, 6)));
    refused("mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)", () -> Tensor.ones(2, 3).mm(Tensor.ones(4, 5)));
    refused("Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [2, 4].",
        () -> Tensor.ones(2, 2, 3).bmm(Tensor.ones(2, 4, 2)));
    refused("Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [1, 3].",
        () -> Tensor.ones(2, 2, 3).bmm(Tensor.ones(1, 3, 2)));
    refused("Expected size for first two dimensions of batch2 tensor to be: [1, 3] but got: [1, 4].",
        () -> Tensor.ones(1, 2, 2).baddbmm(Tensor.ones(1, 2, 3), Tensor.ones(1, 4, 2)));
    // baddbmm(ones(1, 1, 2, 2), ones(1, 2, 3), ones(1, 3, 2)): "expand(torch.FloatTensor{[1, 1, 2, 2]}, size=[1, 2, 2]): the
    // number of sizes provided (3) must be greater or equal to the number of dimensions in the tensor (4)"
    refused("the number of sizes provided (3) must be greater or equal to the number of dimensions in the tensor (4)",
        () -> Tensor.ones(1, 1, 2, 2).baddbmm(Tensor.ones(1, 2, 3), Tensor.ones(1, 3, 2)));
    // baddbmm(ones(3), ones(1, 2, 3), ones(1, 3, 2)): "The expanded size of the tensor (2) must match the existing size (3) at
    // non-singleton dimension 2.  Target sizes: [1, 2, 2].  Tensor sizes: [3]"
    refused("The expanded size of the tensor (2) must match the existing size (3) at non-singleton dimension 2.  Target sizes: [1, 2, 2]."
        + "  Tensor sizes: [3]", () -> Tensor.ones(3).baddbmm(Tensor.ones(1, 2, 3), Tensor.ones(1, 3, 2)));
    assertArrayEquals(new long[] {3, 2, 2}, Tensor.ones(2).baddbmm(Tensor.ones(3, 2, 3), Tensor.ones(3, 3, 2)).shape());
  }

  /**
   * torch.tensor([[float('nan'), 1e30]]).long() is [[-9223372036854775808, -9223372036854775808]]
   * on x86 (numpy's astype too); toLongArray2d reads through the same conversion as to(INT64).
   */
  @Test
  void toLongArray2dConvertsAsToDoes() {
    Tensor x = f32(Double.NaN, 1e30).view(1, 2);
    long[] viaTo = x.to(DType.INT64).toLongArray();
    assertArrayEquals(viaTo, x.toLongArray2d()[0]);
    assertArrayEquals(viaTo, x.toLongArray());
  }

  /** uint8 255 reads 255 (torch.tensor([255], dtype=torch.uint8).item() is 255), bfloat16 1.1 reads 1.1015625. */
  @Test
  void narrowTypesReadTheirValues() {
    assertEquals(255.0, longs(255).to(DType.UINT8).item());
    assertArrayEquals(new double[] {255, 0}, longs(255, 0).to(DType.UINT8).toDoubleArray());
    assertArrayEquals(new long[][] {{255, 0}}, longs(255, 0).to(DType.UINT8).view(1, 2).toLongArray2d());
    assertEquals(1.1015625, f32(1.1).to(DType.BFLOAT16).item());
    assertEquals(1.0, Tensor.fromArray(new boolean[] {true}).item());
  }

  private static Tensor grad(Tensor y, Tensor x) {
    return org.jtensor.autograd.Autograd.grad(y, java.util.List.of(x), true).get(0);
  }

  private static Tensor f32(long[] shape, double... v) {
    return Tensor.fromArray(v, shape).to(DType.FLOAT32).requiresGrad_(true);
  }

  /**
   * Double backward through linear, addmm and baddbmm (grad with create_graph, then backward of
   * the gradient's sum) matches torch.autograd.grad: linear x.grad [18, 16, 10, 18, 16, 10], W.grad
   * [-5, -5, -5, 15, 12, 36, 22, 20, 36, 32, 29, 53], b.grad [0, 12, 8, 12]; addmm (beta=3,
   * alpha=0.5, through m1) input [18, 6], m1 [1.5, 3.5, 1.5, 3.5], m2 [20, 17, 23, 18]; baddbmm
   * (through batch2) input [30, 30], batch1 [14, 17, 20, 27], batch2 [12, 12, 17, 17].
   */
  @Test
  void secondDerivativesOfTheProducts() {
    Tensor x = f32(new long[] {2, 3}, 1, 2, 3, 0.5, -1, 2);
    Tensor w = f32(new long[] {4, 3}, 1, 0, -1, 2, 1, 0, 0, 1, 1, 1, 1, 1), b = f32(new long[] {4}, 0.5, -0.5, 1, 2);
    grad(Tensor.linear(x, w, b).pow(2).sum(), x).sum().backward();
    assertArrayEquals(new float[] {18, 16, 10, 18, 16, 10}, x.grad().toFloatArray());
    assertArrayEquals(new float[] {-5, -5, -5, 15, 12, 36, 22, 20, 36, 32, 29, 53}, w.grad().toFloatArray());
    assertArrayEquals(new float[] {0, 12, 8, 12}, b.grad().toFloatArray());

    Tensor in = f32(new long[] {2}, 1, 2), m1 = f32(new long[] {2, 2}, 1, 2, 3, 4), m2 = f32(new long[] {2, 2}, 1, 0, 2, 1);
    grad(in.addmm(m1, m2, 3, 0.5).pow(2).sum(), m1).sum().backward();
    assertArrayEquals(new float[] {18, 6}, in.grad().toFloatArray());
    assertArrayEquals(new float[] {1.5f, 3.5f, 1.5f, 3.5f}, m1.grad().toFloatArray());
    assertArrayEquals(new float[] {20, 17, 23, 18}, m2.grad().toFloatArray());

    Tensor bi = f32(new long[] {1, 1, 2}, 1, 2), b1 = f32(new long[] {1, 2, 2}, 1, 2, 3, 4), b2 = f32(new long[] {1, 2, 2}, 1, 0, 2, 1);
    grad(bi.baddbmm(b1, b2, 3, 0.5).pow(2).sum(), b2).sum().backward();
    assertArrayEquals(new float[] {30, 30}, bi.grad().toFloatArray());
    assertArrayEquals(new float[] {14, 17, 20, 27}, b1.grad().toFloatArray());
    assertArrayEquals(new float[] {12, 12, 17, 17}, b2.grad().toFloatArray());
  }

  /** torch.allclose(tensor([nan]), tensor([nan]), equal_nan=True) is True (False without it); there was no equalNan form. */
  @Test
  void allcloseTakesEqualNan() {
    Tensor nan = f32(Double.NaN, 1);
    assertTrue(nan.allclose(f32(Double.NaN, 1), 1e-5, 1e-8, true));
    assertFalse(nan.allclose(f32(Double.NaN, 1), 1e-5, 1e-8, false));
    assertFalse(nan.allclose(f32(Double.NaN, 1)));
  }

  /**
   * PyTorch's baddbmm of 16-bit floats accumulates and adds beta·input in float32 and rounds once:
   * torch.baddbmm(tensor([[[-1.]]], dtype=torch.bfloat16), [[[1.0078125]]], [[[1.0234375]]]) is
   * 0.031494140625 (as addmm), float16 -1 + 1.0009765625 · 1.0029296875 is 0.003910064697265625,
   * and with alpha=0.5, beta=2 -1.498046875; here the product was rounded to the 16-bit type
   * before the sum (0.03125, 0.00390625, as bmm(a, b) + s). The gradients keep the dtype.
   */
  @Test
  void baddbmmOfSixteenBitFloatsRoundedTheProductBeforeTheSum() {
    Tensor s = f32(-1).view(1, 1, 1).to(DType.BFLOAT16);
    Tensor a = f32(1.0078125).view(1, 1, 1).to(DType.BFLOAT16), b = f32(1.0234375).view(1, 1, 1).to(DType.BFLOAT16);
    assertEquals(0.031494140625, s.baddbmm(a, b).item());
    assertEquals(0.031494140625, s.view(1, 1).addmm(a.view(1, 1), b.view(1, 1)).item());
    Tensor h = f32(-1).view(1, 1, 1).to(DType.FLOAT16).requiresGrad_(true);
    Tensor ha = f32(1.0009765625).view(1, 1, 1).to(DType.FLOAT16).requiresGrad_(true);
    Tensor hb = f32(1.0029296875).view(1, 1, 1).to(DType.FLOAT16);
    Tensor r = h.baddbmm(ha, hb);
    assertEquals(DType.FLOAT16, r.dtype());
    assertEquals(0.003910064697265625, r.item());
    assertEquals(-1.498046875, h.baddbmm(ha, hb, 2, 0.5).item());
    r.backward(Tensor.ones(new long[] {1, 1, 1}, DType.FLOAT16));
    assertEquals(DType.FLOAT16, h.grad().dtype());
    assertEquals(1.0, h.grad().item());
    assertEquals(DType.FLOAT16, ha.grad().dtype());
    assertEquals(1.0029296875, ha.grad().item());
  }

  /**
   * torch.baddbmm of three bool tensors raises '"baddbmm" not implemented for 'Bool''; here the
   * integer path multiplied the bool product by a long and returned an int64 tensor.
   */
  @Test
  void boolBaddbmmReturnedInt64() {
    Tensor b = Tensor.ones(new long[] {1, 2, 2}, DType.BOOL);
    Throwable e = assertThrows(UnsupportedOperationException.class, () -> b.baddbmm(b, b));
    assertTrue(e.getMessage().contains("\"baddbmm\" not implemented for 'Bool'"), e.getMessage());
  }

  /**
   * matmul's double backward with a 1-D operand and broadcast batch dims matches
   * torch.autograd.grad: v [1, 2, 3] @ y [2, 3, 2], grad of (v @ y)².sum() w.r.t. v, its sum
   * backward: v.grad [20, 20, 40], y.grad [12, 14, 16, 18, 20, 22, 24, 28, 32, 36, 40, 44]; x [1, 3]
   * @ y @ w [1, -1], grad w.r.t. y squared and summed: x.grad [-1040, 1280, 240], w.grad [-3920, -6160].
   */
  @Test
  void matmulSecondDerivativesWithVectorsAndBroadcastBatches() {
    Tensor v = f32(new long[] {3}, 1, 2, 3);
    Tensor y = f32(new long[] {2, 3, 2}, 1, 0, 0, 1, 1, 1, 2, 0, 0, 2, 2, 2);
    grad(v.matmul(y).pow(2).sum(), v).sum().backward();
    assertArrayEquals(new float[] {20, 20, 40}, v.grad().toFloatArray());
    assertArrayEquals(new float[] {12, 14, 16, 18, 20, 22, 24, 28, 32, 36, 40, 44}, y.grad().toFloatArray());
    Tensor x = f32(new long[] {1, 3}, 1, 2, 3), w = f32(new long[] {2}, 1, -1);
    Tensor y2 = f32(new long[] {2, 3, 2}, 1, 0, 0, 1, 1, 1, 2, 0, 0, 2, 2, 2);
    grad(x.matmul(y2).matmul(w).pow(2).sum(), y2).pow(2).sum().backward();
    assertArrayEquals(new float[] {-1040, 1280, 240}, x.grad().toFloatArray());
    assertArrayEquals(new float[] {-3920, -6160}, w.grad().toFloatArray());
  }
}
