package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * nonzero against a plain loop over the values, not against itself: row-major coordinates of every
 * element that is not zero, over tensors past the kernel's 32,768-element chunks (so several chunks'
 * counts are prefix-summed), strided and offset views, every dtype family, and all or no elements set.
 */
class NonzeroReferenceTest {
  /** Row-major coordinates of the non-zero entries of values laid out in shape (contiguous, row-major). */
  private static long[] coordinates(double[] values, long[] shape) {
    int nd = shape.length, count = 0;
    for (double v : values) if (v != 0) count++;
    long[] out = new long[count * nd];
    int at = 0;
    for (int i = 0; i < values.length; i++) {
      if (values[i] == 0) continue;
      long rest = i;
      for (int d = nd - 1; d >= 0; d--) {
        out[at * nd + d] = rest % shape[d];
        rest /= shape[d];
      }
      at++;
    }
    return out;
  }

  private static void check(String what, Tensor t) {
    try (TensorScope s = TensorScope.open()) {
      double[] values = t.to(DType.FLOAT64).toDoubleArray();  // row-major whatever t's strides
      long[] want = coordinates(values, t.shape());
      Tensor got = t.nonzero();
      assertArrayEquals(new long[] {want.length / Math.max(1, t.dim()), t.dim()}, got.shape(), what + ": shape");
      assertArrayEquals(want, got.toLongArray(), what + ": coordinates");
    }
  }

  @Test
  void matchesAPlainLoopAcrossChunks() {
    Random rnd = new Random(21);
    Generator g = new Generator(21);
    try (TensorScope s = TensorScope.open()) {
      for (long[] shape : new long[][] {{100_003}, {7, 130, 97}, {3, 2, 5, 4001}, {1, 65_536}}) {
        long n = Arrays.stream(shape).reduce(1, (a, b) -> a * b);
        double density = rnd.nextDouble();
        Tensor mask = Tensor.rand(shape, DType.FLOAT32, g).lt(density);
        check("float32 " + Arrays.toString(shape) + " density " + density, Tensor.randn(shape, g).mul(mask));
        check("bool " + Arrays.toString(shape), mask);
        check("int64 " + Arrays.toString(shape), mask.to(DType.INT64).mul(Tensor.randint(1, 5, shape, g)));
        check("all set " + n, Tensor.ones(shape));
        check("none set " + n, Tensor.zeros(shape));
      }
      Tensor base = Tensor.randint(0, 3, new long[] {40, 300, 9}, g).to(DType.INT32);
      check("permuted", base.permute(2, 0, 1));
      check("stepped slice", base.slice(1, 1, 299, 3));
      check("offset view", base.select(2, 4));
      check("float16 with -0", Tensor.fromArray(new double[] {0, -0.0, 1, 0, -2, 0.5}, 2, 3).to(DType.FLOAT16));
      check("NaN counts as set", Tensor.fromArray(new double[] {0, Double.NaN, 0, 0}, 4));
    }
  }
}
