package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.function.BinaryOperator;
import org.junit.jupiter.api.Test;

/**
 * A hostile review of binary and ternary elementwise math's values at special points, forward and
 * gradient, against PyTorch 2.13 (CPU); each expectation is PyTorch's answer to the same call.
 */
class BinaryValuesHostileTest extends ScopedTest {
  private static final double INF = Double.POSITIVE_INFINITY, NAN = Double.NaN;

  private static Tensor f32(double... v) {
    return Tensor.fromArray(v).to(DType.FLOAT32);
  }

  /** The gradients of op(a, b).backward(g): a's, then b's. */
  private static double[][] grads(BinaryOperator<Tensor> op, Tensor a, Tensor b, Tensor g) {
    a.requiresGrad_(true);
    b.requiresGrad_(true);
    op.apply(a, b).backward(g);
    return new double[][] {a.grad().toDoubleArray(), b.grad().toDoubleArray()};
  }

  /**
   * atan2(y, x) at (0, 0): PyTorch's gradient is 0 for both (its 1 / (x² + y²) is taken as 0 where
   * x² + y² is 0), also where the squares underflow, (1e-30, 0) in float32; here g / 0 times 0 was NaN.
   */
  @Test
  void atan2GradientWasNaNWhereXSquaredPlusYSquaredIsZero() {
    double[][] g = grads(Tensor::atan2, f32(0, 1e-30, 0, 3), f32(0, 0, 1e-30, 0), f32(1, 1, 1, 1));
    assertArrayEquals(new double[] {0, 0, 0, 0}, g[0]);
    assertArrayEquals(new double[] {-0.0, -0.0, -0.0, -1 / 3.0}, g[1], 1e-7);
    assertEquals(-0.0, g[1][0]);  // -g·y·0: torch gives -0. at y = +0
    double[][] d = grads(Tensor::atan2, Tensor.fromArray(new double[] {0, -0.0}), Tensor.fromArray(new double[] {0, 0}),
        Tensor.fromArray(new double[] {2, 2}));
    assertArrayEquals(new double[] {0, 0}, d[0]);
    assertArrayEquals(new double[] {-0.0, 0.0}, d[1]);
    double[][] n = grads(Tensor::atan2, f32(0), f32(0), f32(INF));  // inf · 0: NaN in PyTorch too
    assertEquals(NAN, n[0][0]);
  }

  /**
   * maximum/minimum backward is PyTorch's where(x == y, g / 2, g) with 0 written where an input lost.
   * A NaN pair loses on neither side, so both get g (torch: [1., 1., .5] for each; here 0); an
   * infinite g gave the loser inf · 0 = NaN (torch: 0).
   */
  @Test
  void maximumAndMinimumGradientsDroppedNaNPairsAndMadeNaNFromAnInfiniteGradient() {
    double[][] g = grads(Tensor::maximum, f32(NAN, 1, 2), f32(1, NAN, 2), f32(1, 1, 1));
    assertArrayEquals(new double[] {1, 1, 0.5}, g[0]);
    assertArrayEquals(new double[] {1, 1, 0.5}, g[1]);
    g = grads(Tensor::minimum, f32(NAN, 1, 2), f32(1, NAN, 2), f32(1, 1, 1));
    assertArrayEquals(new double[] {1, 1, 0.5}, g[0]);
    assertArrayEquals(new double[] {1, 1, 0.5}, g[1]);
    g = grads(Tensor::maximum, f32(1, 3), f32(2, 2), f32(INF, INF));
    assertArrayEquals(new double[] {0, INF}, g[0]);
    assertArrayEquals(new double[] {INF, 0}, g[1]);
    g = grads(Tensor::minimum, f32(1, 3), f32(2, 2), f32(INF, INF));
    assertArrayEquals(new double[] {INF, 0}, g[0]);
    assertArrayEquals(new double[] {0, INF}, g[1]);
    g = grads(Tensor::maximum, f32(1, 5, 3), f32(3), f32(1, 1, 1));  // broadcast: b's gradient summed
    assertArrayEquals(new double[] {0, 1, 0.5}, g[0]);
    assertArrayEquals(new double[] {1.5}, g[1]);
  }

  /**
   * clamp(x, min, max) with min > max is max everywhere, and PyTorch's clamp_backward_min_max gives
   * max the whole gradient and min none: x = [2, 0, 5], min 3, max 1 gives min [0, 0, 0], max
   * [1, 1, 1] (here min [1, 1, 0], max [1, 0, 1]: x = 2 counted twice). And every clamp selects g
   * (where), so an infinite g gives 0 outside the bounds, not inf · 0 = NaN.
   */
  @Test
  void clampGradientsWentToMinWhereMinExceedsMaxAndMadeNaNFromAnInfiniteGradient() {
    Tensor x = f32(2, 0, 5).requiresGrad_(true), lo = f32(3, 3, 3).requiresGrad_(true), hi = f32(1, 1, 1).requiresGrad_(true);
    x.clamp(lo, hi).backward(f32(1, 1, 1));
    assertArrayEquals(new double[] {0, 0, 0}, x.grad().toDoubleArray());
    assertArrayEquals(new double[] {0, 0, 0}, lo.grad().toDoubleArray());
    assertArrayEquals(new double[] {1, 1, 1}, hi.grad().toDoubleArray());
    Tensor y = f32(2, 0, 5).requiresGrad_(true), a = f32(1, 1, 1).requiresGrad_(true), b = f32(3, 3, 3).requiresGrad_(true);
    y.clamp(a, b).backward(f32(INF, INF, INF));
    assertArrayEquals(new double[] {INF, 0, 0}, y.grad().toDoubleArray());
    assertArrayEquals(new double[] {0, INF, 0}, a.grad().toDoubleArray());
    assertArrayEquals(new double[] {0, 0, INF}, b.grad().toDoubleArray());
    Tensor s = f32(2, 0, 5).requiresGrad_(true);
    s.clamp(1.0, 3.0).backward(f32(INF, INF, INF));
    assertArrayEquals(new double[] {INF, 0, 0}, s.grad().toDoubleArray());
    Tensor m = f32(2, 0, 5).requiresGrad_(true);
    m.clampMin(1.0).backward(f32(INF, INF, INF));
    assertArrayEquals(new double[] {INF, 0, INF}, m.grad().toDoubleArray());
    Tensor n = f32(2, 0, 5).requiresGrad_(true);
    n.clampMax(1L).backward(f32(INF, INF, INF));
    assertArrayEquals(new double[] {0, INF, 0}, n.grad().toDoubleArray());
  }

  /**
   * A 0-dim int64 divisor does not promote an int8 tensor: the kernel reads it wrapped to int8, and
   * tensor(256) is 0 there. PyTorch raises ZeroDivisionError for int8 % tensor(256), floor_divide and
   * div(trunc/floor); here the zero test read the int64 value, and the result was a silent 0.
   */
  @Test
  void aZeroDimDivisorThatWrapsToZeroDividedSilently() {
    Tensor x = Tensor.fromArray(new byte[] {5, -7});
    Tensor d = Tensor.scalar(256L);
    assertThrows(ArithmeticException.class, () -> x.remainder(d));
    assertThrows(ArithmeticException.class, () -> x.floorDivide(d));
    assertThrows(ArithmeticException.class, () -> x.div(d, "trunc"));
    ArithmeticException e = assertThrows(ArithmeticException.class, () -> x.div(d, "floor"));
    assertEquals("div(): ZeroDivisionError: integer division or modulo by zero", e.getMessage());
    Tensor u = Tensor.fromArray(new byte[] {5}).to(DType.UINT8);
    assertThrows(ArithmeticException.class, () -> u.remainder(Tensor.scalar(-256L)));
    // a divisor that wraps to a nonzero value divides by it, as PyTorch: -255 is 1 in int8, 257 is 1
    assertArrayEquals(new long[] {0, 0}, x.remainder(Tensor.scalar(-255L)).to(DType.INT64).toLongArray());
    assertArrayEquals(new long[] {5, -7}, x.floorDivide(Tensor.scalar(257L)).to(DType.INT64).toLongArray());
  }

  /**
   * pow's gradients in PyTorch's order: self's is g · (y · x^(y−1)), so g = 1e30 with y = 1e10 at
   * x = 0.5 gives 1e30 · 0 = 0 (here (g · y) · 0 = inf · 0 = NaN); the exponent's is
   * g · where(x == 0 and y ≥ 0, 0, x^y ln x), so an infinite g at x = 0 gives NaN there, as torch.
   */
  @Test
  void powGradientsMultipliedInAnotherOrderThanPyTorchs() {
    double[][] g = grads(Tensor::pow, f32(0.5), f32(1e10), f32(1e30));
    assertArrayEquals(new double[] {0}, g[0]);
    assertArrayEquals(new double[] {-0.0}, g[1]);
    g = grads(Tensor::pow, f32(2, 0), f32(0, 1), f32(INF, INF));
    assertArrayEquals(new double[] {0, INF}, g[0]);
    assertArrayEquals(new double[] {INF, NAN}, g[1]);
    g = grads(Tensor::pow, f32(0, 0, 0, 2), f32(0, 1, 2, 0), f32(1, 1, 1, 1));  // unchanged at base 0
    assertArrayEquals(new double[] {0, 1, 0, 0}, g[0]);
    assertArrayEquals(new double[] {0, 0, 0, Math.log(2)}, g[1], 1e-7);
  }

  /**
   * PyTorch's pow(tensor, scalar) converts the exponent to an integer, float16 or bfloat16 tensor's
   * own dtype with its checked conversion: int8 ** 300, uint8 ** 256, float16 ** 70000 and bfloat16
   * ** 1e39 are refused ("value cannot be converted to type int8_t without overflow"). Here 300
   * wrapped to 44 (2 ** 300 was 0) and 70000 became inf. float32 takes any double (2 ** 1e39 is inf).
   */
  @Test
  void powScalarExponentsOutsideTheDtypeWereTaken() {
    Tensor i8 = Tensor.fromArray(new byte[] {2});
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> i8.pow(300L));
    assertEquals("pow(): value 300 cannot be converted to type int8 without overflow", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> i8.to(DType.UINT8).pow(256L));
    assertThrows(IllegalArgumentException.class, () -> f32(1).to(DType.FLOAT16).pow(70000.0));
    assertThrows(IllegalArgumentException.class, () -> f32(1).to(DType.FLOAT16).pow(70000L));
    assertThrows(IllegalArgumentException.class, () -> f32(2).to(DType.BFLOAT16).pow(1e39));
    assertEquals(INF, f32(2).pow(1e39).item());
    assertEquals(1.0, f32(1).to(DType.FLOAT16).pow(INF).item());  // an infinity converts
    assertEquals(Math.pow(2, 0.5), i8.pow(0.5).item(), 1e-6);     // a float exponent promotes: no check
    assertEquals(0, i8.pow(Tensor.scalar(300L)).item());           // a 0-dim tensor wraps, as PyTorch's
    assertEquals(-128, i8.pow(7L).item());                         // within range: wraps as before
  }

  /**
   * Long scalar parameters reach the kernel as doubles, exact only to 2^53: an int64 tensor clamped
   * to 2^53 + 1 (a nanosecond timestamp is past 2^60) was cut to 2^53, and add/sub with alpha
   * 2^53 + 1 added 2^53 · y. PyTorch keeps them exact: x.clamp(0, 2**53 + 1) leaves 2**53 + 1.
   */
  @Test
  void int64BoundsAndAlphaPastTwoToThe53WereRounded() {
    long big = (1L << 53) + 1, stamp = 1_700_000_000_000_000_001L;
    Tensor x = Tensor.fromArray(new long[] {big, stamp, 5});
    assertArrayEquals(new long[] {big, big, 5}, x.clamp(0L, big).toLongArray());
    assertArrayEquals(new long[] {big, big + 2, big}, x.clamp(big, big + 2).toLongArray());
    assertArrayEquals(new long[] {stamp, stamp, stamp}, x.clampMin(stamp).toLongArray());
    assertArrayEquals(new long[] {big, big, 5}, x.clampMax(big).toLongArray());
    Tensor y = Tensor.fromArray(new long[] {big, 5});
    assertArrayEquals(new long[] {big, 5}, y.clamp_(0L, big).toLongArray());
    assertArrayEquals(new long[] {big, big}, Tensor.fromArray(new boolean[] {true, false}).clamp(big, big + 2).toLongArray());
    assertThrows(IllegalArgumentException.class, () -> Tensor.fromArray(new int[] {1}).clamp(0L, big));
    assertArrayEquals(new double[] {1, 2}, f32(1, 2).clamp(0L, big).toDoubleArray());
    Tensor one = Tensor.fromArray(new long[] {1});
    assertEquals(big + 1, one.add(one, big).toLongArray()[0]);
    assertEquals(big + 1, one.add(Tensor.fromArray(new int[] {1}), big).toLongArray()[0]);
    assertEquals(1 - big, one.sub(one, big).toLongArray()[0]);
    assertEquals(big + 1, Tensor.fromArray(new long[] {1}).add_(one, big).toLongArray()[0]);
    assertEquals(1 - big, Tensor.fromArray(new long[] {1}).sub_(one, big).toLongArray()[0]);
    // the strided path and a broadcast 0-dim operand read the same exact parameters as the flat one
    Tensor grid = Tensor.fromArray(new long[] {big, 5, stamp, 1}, 2, 2).t();
    assertArrayEquals(new long[] {big, big, 5, 1}, grid.clamp(0L, big).contiguous().toLongArray());
    assertArrayEquals(new long[] {2 * big, big + stamp, big + 5, big + 1}, grid.add(Tensor.scalar(1L), big).contiguous().toLongArray());
  }

  /**
   * add/sub with an alpha round a + alpha·b once, as PyTorch's CPU kernels (Vectorized fmadd) and
   * CUDA's: with two roundings about one float32 element in eleven and one float64 in thirteen came out
   * an ulp away from PyTorch's (these four and three are such elements, PyTorch 2.13's values), and
   * add(inf, b, alpha = 3e38) was NaN where alpha·b overflows (PyTorch: inf). Found by the long fuzz run.
   */
  @Test
  void addAndSubWithAlphaRoundOnceAsPyTorch() {
    float[] a = {-0.07664429396390915f, 0.07152773439884186f, -0.05168096348643303f, 0.2043411135673523f};
    float[] b = {0.731959342956543f, -0.4401291310787201f, -2.7704546451568604f, -2.262479543685913f};
    Tensor x = Tensor.fromArray(a), y = Tensor.fromArray(b);
    assertArrayEquals(new float[] {-0.003448358504101634f, 0.02751482091844082f, -0.3287264406681061f, -0.021906843408942223f},
        x.add(y, 0.1).toFloatArray());
    assertArrayEquals(new float[] {-0.14984023571014404f, 0.11554064601659775f, 0.22536450624465942f, 0.43058907985687256f},
        x.sub(y, 0.1).toFloatArray());
    Tensor u = Tensor.fromArray(new double[] {0.24567773801973986, -0.01010824436922424, -0.0666021139444238});
    Tensor v = Tensor.fromArray(new double[] {-0.8932004172950956, -0.2904173739234889, -1.2385904337661158});
    assertArrayEquals(new double[] {0.1563576962902303, -0.03914998176157313, -0.19046115732103538}, u.add(v, 0.1).toDoubleArray());
    assertArrayEquals(new double[] {INF, INF, INF}, f32(INF).add(f32(-2.1875, -0.9375, 0.5625), 3e38).to(DType.FLOAT64).toDoubleArray());
  }
}
