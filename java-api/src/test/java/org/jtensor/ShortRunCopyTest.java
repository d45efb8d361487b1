package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Test;

/**
 * Note [Short contiguous runs]: a copy whose innermost dim is contiguous on both sides but short
 * (a transformer's head split and merge) copies run by run, stepping its pointers. Permutations of
 * 3 to 5 dims large enough to split over the threads (so a thread starts mid-index), with an offset
 * source, a broadcast dim and every element size, against the permutation computed in Java.
 */
class ShortRunCopyTest extends ScopedTest {
  @Test
  void permutedCopiesMatchTheIndexArithmetic() {
    ThreadCounts.each(t -> {
      for (DType dt : new DType[] {DType.FLOAT32, DType.INT8, DType.BFLOAT16, DType.INT64}) {
        check(dt, new long[] {32, 64, 3, 4, 16}, new int[] {2, 0, 3, 1, 4});  // a GPT head split
        check(dt, new long[] {32, 4, 64, 16}, new int[] {0, 2, 1, 3});        // and the merge back
        check(dt, new long[] {7, 300, 5}, new int[] {1, 0, 2});               // odd sizes, 5-element runs
      }
    });
  }

  @Test
  void aBroadcastDimAndAnOffsetSourceCopyToo() {
    Tensor base = Tensor.arange(0, 1 + 3 * 16, 1, DType.FLOAT32);
    Tensor src = base.narrow(0, 1, 3 * 16).view(3, 1, 16).expand(3, 1000, 16).transpose(0, 1);  // [1000, 3, 16]
    Tensor out = src.contiguous();
    float[] got = out.toFloatArray();
    float[] want = new float[got.length];
    for (int i = 0; i < 1000; i++) {
      for (int j = 0; j < 3; j++) for (int e = 0; e < 16; e++) want[(i * 3 + j) * 16 + e] = 1 + j * 16 + e;
    }
    assertArrayEquals(want, got);
  }

  /** x of shape, offset by one element in its storage, permuted by perm and made contiguous. */
  private static void check(DType dt, long[] shape, int[] perm) {
    int n = 1;
    for (long s : shape) n *= (int) s;
    Tensor base = Tensor.arange(0, n + 1, 1, DType.INT64).remainder(100).to(dt);
    Tensor x = base.narrow(0, 1, n).view(shape);
    double[] src = x.toDoubleArray();
    double[] got = x.permute(perm).contiguous().toDoubleArray();
    long[] outShape = new long[shape.length];
    for (int i = 0; i < perm.length; i++) outShape[i] = shape[perm[i]];
    long[] srcStrides = org.jtensor.core.Shapes.contiguousStrides(shape);
    double[] want = new double[n];
    long[] o = new long[shape.length];
    for (int e = 0; e < n; e++) {
      long rem = e, at = 0;
      for (int d = shape.length - 1; d >= 0; d--) {
        o[d] = rem % outShape[d];
        rem /= outShape[d];
      }
      for (int d = 0; d < shape.length; d++) at += o[d] * srcStrides[perm[d]];
      want[e] = src[(int) at];
    }
    assertArrayEquals(want, got, 0, dt + " " + java.util.Arrays.toString(shape) + " permuted " + java.util.Arrays.toString(perm)
        + " on " + Threads.getNumThreads() + " threads");
  }
}
