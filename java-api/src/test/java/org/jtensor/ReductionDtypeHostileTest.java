package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.function.Function;
import org.jtensor.autograd.Autograd;
import org.junit.jupiter.api.Test;

/**
 * A hostile review of reductions' dtype and option arguments against PyTorch 2.13 (CPU): each
 * expectation is PyTorch's answer to the same call, noted beside it.
 */
class ReductionDtypeHostileTest extends ScopedTest {
  private static final double NAN = Double.NaN;

  private static Tensor f32(double... v) {
    return Tensor.fromArray(v).to(DType.FLOAT32);
  }

  private static double[] grad(Function<Tensor, Tensor> f, double... v) {
    Tensor x = f32(v).requiresGrad_(true);
    f.apply(x).sum().backward();
    return x.grad().toDoubleArray();
  }

  /** The derivative of sum(d f(x) / dx): autograd.grad with create_graph, then again. */
  private static double[] secondGrad(Function<Tensor, Tensor> f, double... v) {
    Tensor x = f32(v).requiresGrad_(true);
    Tensor g = Autograd.grad(f.apply(x).sum(), List.of(x), true).get(0);
    return Autograd.grad(g.sum(), List.of(x), false).get(0).toDoubleArray();
  }

  /**
   * x = tensor([2., 0., 3.]): grad of grad of x.prod() is [3., 5., 2.]; with two zeros ([2., 0., 0.])
   * [0., 2., 2.]. The backward divided by x where x is 0 (masked by where, whose gradient then
   * met 0 / 0), so every element was NaN; with two zeros the zeros' gradients were constants.
   */
  @Test
  void prodSecondDerivativeWithZerosWasNaN() {
    assertArrayEquals(new double[] {3, 5, 2}, secondGrad(Tensor::prod, 2, 0, 3));
    assertArrayEquals(new double[] {0, 2, 2}, secondGrad(Tensor::prod, 2, 0, 0));
    assertArrayEquals(new double[] {0, 0, 0}, secondGrad(Tensor::prod, 0, 0, 0));
    assertArrayEquals(new double[] {5, 4, 3}, secondGrad(Tensor::prod, 1, 2, 3));  // no zero: as before
    // along a dim: rows [0., 2., 0.] and [1., 0., 3.] give [[2., 0., 2.], [3., 4., 1.]]
    assertArrayEquals(new double[] {2, 0, 2, 3, 4, 1}, secondGrad(x -> x.reshape(2, 3).prod(new int[] {1}, false), 0, 2, 0, 1, 0, 3));
  }

  /**
   * cumprod's second derivative with zeros, against PyTorch 2.13: grad of grad of cumprod([1., 0., 3.]).sum()
   * is [4, 5, 1]; jtensor gave [4, 4, 1], its backward holding constant zeros after the first zero where the
   * gradient is x_k·(...) with x_k the zero. Also (float64; g = grad((cumprod(x) * w).sum(), x,
   * create_graph=True), then grad((g * g).sum(), x)) along either dim of a [2, 5] with two zeros a row.
   */
  @Test
  void cumprodSecondDerivativeLostTheTermsAfterTheFirstZero() {
    assertArrayEquals(new double[] {4, 5, 1}, secondGrad(x -> x.cumprod(0), 1, 0, 3));
    double[] ones = {1, 1, 1};
    assertCumprod(new double[] {1, 0, 3}, new long[] {3}, ones, 0, new double[] {1, 4, 0}, new double[] {32, 8, 8});
    double[] x = {2, 0, 3, 0, 5, 1.5, -2, 0, 4, 1}, w = {1, 2, -1, 0.5, 3, 0.5, 1, 1, -2, 1};
    assertCumprod(x, new long[] {2, 5}, w, 1, new double[] {1, -2, 0, 0, 0, -1.5, 1.5, 9, 0, 0},
        new double[] {4, -2, 8, -372, 0, 111, -84, -31.5, 54, -216});
    double[] xt = new double[10], wt = new double[10], gt = {1, -1.5, -2, 1.5, 0, 9, 0, 0, 0, 0},
        ht = {4, 111, -2, -84, 8, -31.5, -372, 54, 0, -216};
    for (int i = 0; i < 2; i++) {
      for (int j = 0; j < 5; j++) {
        xt[j * 2 + i] = x[i * 5 + j];
        wt[j * 2 + i] = w[i * 5 + j];
      }
    }
    assertCumprod(xt, new long[] {5, 2}, wt, 0, gt, ht);  // along dim 0 of the transpose
    Tensor plain = Tensor.fromArray(new double[] {1, 0, 3}).requiresGrad_(true);
    plain.cumprod(0).sum().backward();  // a first-order backward keeps the linear formula: same values
    assertArrayEquals(new double[] {1, 4, 0}, plain.grad().toDoubleArray());
  }

  private static void assertCumprod(double[] v, long[] shape, double[] w, int dim, double[] wantGrad, double[] wantSecond) {
    Tensor x = Tensor.fromArray(v, shape).requiresGrad_(true), weights = Tensor.fromArray(w, shape);
    Tensor g = Autograd.grad(x.cumprod(dim).mul(weights).sum(), List.of(x), true).get(0);
    assertArrayEquals(wantGrad, g.toDoubleArray(), 1e-12, "first derivative");
    assertArrayEquals(wantSecond, Autograd.grad(g.mul(g).sum(), List.of(x), false).get(0).toDoubleArray(), 1e-12, "second");
  }

  /**
   * torch.tensor([1., nan, 3.]).max().backward() gives [0., 1., 0.] (evenly_distribute_backward
   * picks the NaNs); min() too. Here max() was amax(), whose x == result mask never holds at NaN:
   * [nan, nan, nan]. amax() itself gives NaN everywhere in PyTorch as well, and stays so.
   */
  @Test
  void maxAndMinOfEveryElementGaveANaNGradientWhereOneIsNaN() {
    assertArrayEquals(new double[] {0, 1, 0}, grad(Tensor::max, 1, NAN, 3));
    assertArrayEquals(new double[] {0, 1, 0}, grad(Tensor::min, 1, NAN, 3));
    assertArrayEquals(new double[] {0, 0.5, 0.5}, grad(Tensor::max, 1, NAN, NAN));
    assertArrayEquals(new double[] {0.5, 0, 0.5}, grad(Tensor::max, 3, 1, 3));  // ties share, as before
    double[] a = grad(Tensor::amax, 1, NAN, 3);
    for (double v : a) assertEquals(NAN, v);
  }

  /** x = tensor([[0., nan], [3., 0.]]): x.any(()) and x.all(()) are x != 0, shape [2, 2] (uint8 stays uint8); here every dim was reduced. */
  @Test
  void anyAndAllOverAnEmptyDimsListReducedEveryDim() {
    Tensor x = f32(0, NAN, 3, 0).reshape(2, 2);
    for (Tensor r : new Tensor[] {x.any(new int[0], false), x.all(new int[0], true)}) {
      assertEquals(DType.BOOL, r.dtype());
      assertArrayEquals(new long[] {2, 2}, r.shape());
      assertArrayEquals(new double[] {0, 1, 1, 0}, r.toDoubleArray());
    }
    Tensor u = f32(1, 0).to(DType.UINT8).all(new int[0], false);
    assertEquals(DType.UINT8, u.dtype());
    assertArrayEquals(new double[] {1, 0}, u.toDoubleArray());
    assertEquals(0.0, x.all().item());  // no dims: every element, as before
    assertEquals(1.0, x.any(null, false).item());
  }

  /** torch.tensor(2.).sum((0, 0)) and .amax((0, -1)): "dim 0 appears multiple times in the list of dims"; here taken. */
  @Test
  void aZeroDimTensorTookItsDimTwice() {
    Tensor x = Tensor.scalar(2, DType.FLOAT32);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> x.sum(new int[] {0, 0}, false));
    assertEquals("sum(): dim 0 appears multiple times in the list of dims", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> x.amax(new int[] {0, -1}, false));
    assertEquals("amax(): dim 0 appears multiple times in the list of dims", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> x.mean(new int[] {0, 0}, false));
    assertEquals(2.0, x.sum(new int[] {-1}, false).item());  // once is fine
  }

  /**
   * torch.zeros(2, 0).max(): "max(): Expected reduction dim to be specified for input.numel() == 0.
   * Specify the reduction dim with the 'dim' argument." (amax(), min() alike); here "amax():
   * Expected reduction dim 1 to have non-zero size.", under amax's name for max().
   */
  @Test
  void maxOfAnEmptyTensorGaveAmaxsNameAndAnotherRule() {
    Tensor x = Tensor.zeros(2, 0);
    String rule = "(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.";
    assertEquals("max" + rule, assertThrows(IllegalArgumentException.class, x::max).getMessage());
    assertEquals("min" + rule, assertThrows(IllegalArgumentException.class, x::min).getMessage());
    assertEquals("amax" + rule, assertThrows(IllegalArgumentException.class, x::amax).getMessage());
    assertEquals("amin" + rule, assertThrows(IllegalArgumentException.class, () -> x.amin(new int[0], false)).getMessage());
    // naming the dims: "amax(): Expected reduction dim 1 to have non-zero size.", as before
    assertEquals("amax(): Expected reduction dim 1 to have non-zero size.",
        assertThrows(IllegalArgumentException.class, () -> x.amax(new int[] {0, 1}, false)).getMessage());
  }

  /**
   * torch.tensor([1., 2., 4.], dtype=float64).mean() is 2.3333333333333335 (7 / 3: PyTorch's CPU mean
   * is sum_out(...).div_(n)); the kernel multiplied by 1/3 instead, 2.333333333333333, and a float32
   * mean of ten differed from sum / 10 in about one row of six.
   */
  @Test
  void meanMultipliedByTheReciprocalInsteadOfDividing() {
    Tensor x = Tensor.fromArray(new double[] {1, 2, 4});
    assertEquals(7.0 / 3, x.mean().item());
    assertEquals(7.0 / 3, x.reshape(3, 1).mean(0).item());
    Tensor y = Tensor.arange(0, 10_000, 1, DType.FLOAT32).mul(0.001).reshape(1000, 10);
    assertArrayEquals(y.sum(1).div(10.0).toDoubleArray(), y.mean(1).toDoubleArray());
    assertEquals(Double.NaN, Tensor.zeros(2, 0).mean(1).toDoubleArray()[0]);  // 0 / 0, as before
    Tensor w = Tensor.fromArray(new double[] {1, 2, 4}).requiresGrad_(true);
    w.mean().backward();
    assertArrayEquals(new double[] {1.0 / 3, 1.0 / 3, 1.0 / 3}, w.grad().toDoubleArray());  // g / 3, as PyTorch's mean_backward
  }

  /** torch.zeros(3, 0).median() is tensor(nan) (float16 too, dtype kept, MedianBackward0); here refused. */
  @Test
  void medianOfAnEmptyFloatingTensorWasRefused() {
    Tensor m = Tensor.zeros(3, 0).median();
    assertArrayEquals(new long[0], m.shape());
    assertEquals(NAN, m.item());
    Tensor h = Tensor.zeros(0).to(DType.FLOAT16).median();
    assertEquals(DType.FLOAT16, h.dtype());
    assertEquals(NAN, h.item());
    Tensor x = Tensor.zeros(0).requiresGrad_(true);
    x.median().backward();
    assertArrayEquals(new long[] {0}, x.grad().shape());
  }

  /** PyTorch names the dtype by its C++ name: "... complex dtype. Got: Long" (jtensor said int64). */
  @Test
  void meanOfAnIntegerTensorNamesItsDtypeAsPyTorch() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Tensor.ones(2).to(DType.INT64).mean());
    assertEquals("mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Long", e.getMessage());
  }

  /**
   * float64 values whose sum passes the largest double: the mean was inf and var NaN. PyTorch 2.13:
   * eight 1.7e308 along a dim give var 0; [1.7e308, 1.6e308, 1.5e308, 1.7e308] give inf (the squared
   * deviations overflow), std too. Found by the long fuzz run (seed 9), through its reference.
   */
  @Test
  void varianceOfValuesWhoseSumOverflowsIsPyTorchs() {
    double[] eight = new double[8];
    java.util.Arrays.fill(eight, 1.7e308);
    Tensor x = Tensor.fromArray(eight).view(2, 4);
    assertArrayEquals(new double[] {0, 0}, x.var(1).toDoubleArray());
    assertArrayEquals(new double[] {0, 0}, x.std(new int[] {1}, 1, false).toDoubleArray());
    Tensor spread = Tensor.fromArray(new double[] {1.7e308, 1.6e308, 1.5e308, 1.7e308});
    assertEquals(Double.POSITIVE_INFINITY, spread.var().item());
    assertEquals(Double.POSITIVE_INFINITY, spread.std().item());
    // left different: ±1.7e308 alternating is inf here; PyTorch's Welford overflows its step (x - mean) to NaN
    double[] alternating = new double[48];
    for (int i = 0; i < alternating.length; i++) alternating[i] = i % 2 == 0 ? 1.7e308 : -1.7e308;
    assertEquals(Double.POSITIVE_INFINITY, Tensor.fromArray(alternating).var().item());
  }
}
