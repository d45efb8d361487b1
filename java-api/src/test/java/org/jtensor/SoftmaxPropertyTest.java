package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The fused softmax/logSoftmax against a float64 reference over every dim of random shapes
 * (size-0 and size-1 dims included), contiguous, transposed and stepped inputs, each floating dtype, with
 * -inf, NaN and +inf elements and whole lines of -inf (NaN, as PyTorch).
 */
class SoftmaxPropertyTest extends ScopedTest {
  private static final DType[] FLOATS = {DType.FLOAT32, DType.FLOAT64, DType.FLOAT16, DType.BFLOAT16};

  @Test
  void matchesTheFloat64Reference() {
    Random rnd = new Random(23);
    int checked = 0;
    for (int trial = 0; trial < 240; trial++) {
      DType dt = FLOATS[trial % FLOATS.length];
      long[] shape = shape(rnd, trial);
      int d = rnd.nextInt(shape.length);
      Tensor x = input(rnd, dt, shape, d, trial % 3);
      checked += compare(x, x.softmax(d), d, false);
      checked += compare(x, x.logSoftmax(d - shape.length), d, true);  // a negative dim too
    }
    assertTrue(checked > 20000, "outputs checked: " + checked);
  }

  /**
   * Long lines in float32, contiguous and transposed (the kernel's line and blocked-lane walks):
   * within 5e-6 of float64 (a sum kept in float down a 16384-long strided line was off by 2e-5,
   * found against the GPU's tree sums).
   */
  @Test
  void longFloat32LinesStayAccurateInEveryLayout() {
    Tensor x = Tensor.randn(new long[] {33, 16384}, new Generator(41)).mul(3.0);
    Tensor ref64 = x.to(DType.FLOAT64);
    for (Tensor in : new Tensor[] {x, x.t().contiguous().t()}) {
      for (int d = 0; d < 2; d++) {
        double err = in.logSoftmax(d).to(DType.FLOAT64).sub(ref64.logSoftmax(d)).abs().amax().item();
        assertTrue(err < 5e-6, "logSoftmax dim " + d + " strides " + java.util.Arrays.toString(in.stride()) + ": off by " + err);
        double relErr = in.softmax(d).to(DType.FLOAT64).div(ref64.softmax(d)).sub(1.0).abs().amax().item();
        assertTrue(relErr < 5e-6, "softmax dim " + d + " strides " + java.util.Arrays.toString(in.stride()) + ": off by " + relErr);
      }
    }
  }

  @Test
  void scalarsEmptiesAndErrors() {
    assertEquals(1.0, Tensor.scalar(3.5).softmax(0).item());
    assertEquals(0.0, Tensor.scalar(3.5).logSoftmax(-1).item());
    assertTrue(Double.isNaN(Tensor.scalar(Double.NEGATIVE_INFINITY).softmax(0).item()), "a line of -inf is NaN");
    Tensor empty = Tensor.zeros(0, 3).softmax(1);
    assertArrayEquals(new long[] {0, 3}, empty.shape());
    assertArrayEquals(new long[] {4, 0}, Tensor.zeros(4, 0).logSoftmax(0).shape());
    UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, () -> Tensor.arange(4).softmax(0));
    assertEquals("softmax(): expected a floating point tensor, got int64", e.getMessage());
    IllegalArgumentException r = assertThrows(IllegalArgumentException.class, () -> Tensor.zeros(2, 3).logSoftmax(2));
    assertTrue(r.getMessage().startsWith("logSoftmax(): Dimension out of range"), r.getMessage());
  }

  /** 1 to 3 dims of 0 to 6, a few with one long dim (the kernel's blocked and parallel walks). */
  private static long[] shape(Random rnd, int trial) {
    long[] s = new long[1 + rnd.nextInt(3)];
    for (int i = 0; i < s.length; i++) s[i] = rnd.nextInt(20) == 0 ? 0 : 1 + rnd.nextInt(6);
    if (trial % 10 == 0) s[rnd.nextInt(s.length)] = 300 + rnd.nextInt(100);
    return s;
  }

  /**
   * Values in [-8, 8) with some -inf, NaN and +inf, a line of -inf along d; layout 0 contiguous, 1 a
   * transposed view, 2 every other element of a twice-as-long last dim (no dim of stride 1).
   */
  private static Tensor input(Random rnd, DType dt, long[] shape, int d, int layout) {
    int n = (int) RefView.arange(shape).numel();
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      int k = rnd.nextInt(200);
      v[i] = k == 0 ? Double.NEGATIVE_INFINITY : k == 1 ? Double.NaN : k == 2 ? Double.POSITIVE_INFINITY : rnd.nextDouble() * 16 - 8;
    }
    if (n > 0 && rnd.nextBoolean()) {  // the first line along d: all -inf
      long stride = 1;
      for (int i = shape.length - 1; i > d; i--) stride *= shape[i];
      for (long i = 0; i < shape[d]; i++) v[(int) (i * stride)] = Double.NEGATIVE_INFINITY;
    }
    int[] reverse = new int[shape.length];
    long[] reversed = new long[shape.length];
    for (int i = 0; i < shape.length; i++) {
      reverse[i] = shape.length - 1 - i;
      reversed[i] = shape[shape.length - 1 - i];
    }
    Tensor x = Tensor.fromArray(v, shape).to(dt);
    if (layout == 1) return x.permute(reverse).contiguous().permute(reverse);  // stored with the dims reversed
    if (layout == 2) {
      int last = shape.length - 1;
      long[] wide = shape.clone();
      wide[last] *= 2;
      Tensor w = Tensor.zeros(wide, dt);
      w.slice(last, 0, wide[last], 2).copy_(x);
      return w.slice(last, 0, wide[last], 2);
    }
    return x;
  }

  private static int compare(Tensor x, Tensor r, int d, boolean log) {
    long[] shape = x.shape();
    assertArrayEquals(shape, r.shape());
    assertEquals(x.dtype(), r.dtype());
    double[] in = x.to(DType.FLOAT64).contiguous().toDoubleArray(), out = r.to(DType.FLOAT64).contiguous().toDoubleArray();
    double tol = x.dtype() == DType.FLOAT64 ? 1e-12 : x.dtype() == DType.FLOAT32 ? 2e-6 : x.dtype() == DType.FLOAT16 ? 2e-3 : 1.6e-2;
    long stride = 1;
    for (int i = shape.length - 1; i > d; i--) stride *= shape[i];
    long len = shape[d];
    int count = 0;
    for (int e = 0; e < in.length; e++) {
      if ((e / stride) % Math.max(len, 1) != 0) continue;  // e starts a line along d
      double m = Double.NEGATIVE_INFINITY, s = 0;
      for (long i = 0; i < len; i++) m = Math.max(m, in[(int) (e + i * stride)]);
      for (long i = 0; i < len; i++) s += Math.exp(in[(int) (e + i * stride)] - m);
      for (long i = 0; i < len; i++) {
        int at = (int) (e + i * stride);
        double want = log ? in[at] - m - Math.log(s) : Math.exp(in[at] - m) / s;
        String what = (log ? "logSoftmax" : "softmax") + " " + x.dtype() + " dim " + d + " of " + java.util.Arrays.toString(shape);
        if (Double.isNaN(want) || Double.isInfinite(want)) assertEquals(want, out[at], what);
        else assertEquals(want, out[at], tol * (1 + Math.abs(want)), what);
        count++;
      }
    }
    return count;
  }
}
