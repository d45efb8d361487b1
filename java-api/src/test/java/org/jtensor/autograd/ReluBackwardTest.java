package org.jtensor.autograd;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.junit.jupiter.api.Test;

/**
 * relu's backward is one kernel, PyTorch's threshold_backward on relu's result: the gradient where
 * the result is above 0 or NaN (relu keeps a NaN, and NaN <= 0 is false), 0 where it is 0 (±0 and
 * every negative input, -inf included); exact in every float dtype. Its second order is
 * GradCheckOpsTest's.
 */
class ReluBackwardTest extends ScopedTest {
  private static final float[] EDGES = {0f, -0f, Float.MIN_VALUE, -Float.MIN_VALUE, Float.POSITIVE_INFINITY,
      Float.NEGATIVE_INFINITY, Float.NaN, 1e-30f, -1e-30f, 3f, -3f};

  @Test
  void theGradientPassesWhereTheResultIsPositiveOrNan() {
    for (DType dt : new DType[] {DType.FLOAT32, DType.FLOAT64, DType.FLOAT16, DType.BFLOAT16}) {
      Tensor x = Tensor.cat(java.util.List.of(Tensor.randn(new long[] {1000}, new Generator(3)), Tensor.fromArray(EDGES)), 0).to(dt);
      Tensor g = Tensor.randn(new long[] {x.numel()}, new Generator(4)).to(dt);
      Tensor leaf = x.detach().requiresGrad_();
      leaf.relu().backward(g);
      double[] xs = x.toDoubleArray(), gs = g.toDoubleArray(), got = leaf.grad().toDoubleArray();
      for (int i = 0; i < xs.length; i++) {
        double want = xs[i] > 0 || Double.isNaN(xs[i]) ? gs[i] : 0;
        assertEquals(want, got[i], 0, dt + " at x = " + xs[i]);
      }
    }
  }

  @Test
  void aStridedGradientAndResultGiveTheSame() {
    Tensor x = Tensor.randn(new long[] {64, 48}, new Generator(5));
    Tensor g = Tensor.randn(new long[] {48, 64}, new Generator(6)).t();  // not contiguous: the general path
    Tensor leaf = x.detach().requiresGrad_();
    leaf.relu().backward(g);
    double[] want = g.mul(x.gt(0.0)).toDoubleArray(), got = leaf.grad().toDoubleArray();
    for (int i = 0; i < want.length; i++) assertEquals(want[i], got[i], 0, "at " + i);
  }
}
