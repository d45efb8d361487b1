package org.jtensor.nn;

import java.util.Arrays;
import org.jtensor.DType;
import org.jtensor.Tensor;

/**
 * One dim of interpolate's "bicubic" (ATen's HelperInterpCubic): output i reads the four inputs
 * around its source position src, clamped to the input, weighted by Keys' cubic convolution with
 * A = −0.75 at the distance t = src − floor(src). src is scale·i with alignCorners, else
 * scale·(i + 0.5) − 0.5, not clamped at 0 (unlike linear). The index math and the weights run in
 * the math type (float, double for float64), as ATen's, so the weights are PyTorch's.
 */
final class Bicubic {
  private Bicubic() {}

  private static final double A = -0.75;

  /** weightType: the input's dtype; ATen's generic kernel keeps the weights in it, so float16/bfloat16 weights are rounded to it. */
  static Tensor along(Tensor x, int d, long in, long out, double ratio, float fratio, boolean alignCorners, boolean dbl, DType weightType) {
    long[][] idx = new long[4][(int) out];
    double[][] w = new double[4][(int) out];
    for (int i = 0; i < out; i++) {
      long lo;
      double[] c;
      if (dbl) {
        double s = alignCorners ? (out > 1 ? (double) (in - 1) / (out - 1) : 0) : ratio;
        double src = alignCorners ? s * i : s * (i + 0.5) - 0.5;
        lo = Math.min((long) Math.floor((float) src), in - 1);  // guard_index_and_lambda: floorf
        c = weights(Math.min(Math.max(src - lo, 0), 1));
      } else {
        float s = alignCorners ? (out > 1 ? (float) (in - 1) / (float) (out - 1) : 0f) : fratio;
        float src = alignCorners ? s * (float) i : s * ((float) i + 0.5f) - 0.5f;
        lo = Math.min((long) Math.floor(src), in - 1);
        c = weights(Math.min(Math.max(src - (float) lo, 0f), 1f));
      }
      for (int j = 0; j < 4; j++) {
        idx[j][i] = Math.max(Math.min(lo - 1 + j, in - 1), 0);
        w[j][i] = c[j];
      }
    }
    long[] shape = new long[x.dim()];
    Arrays.fill(shape, 1);
    shape[d] = out;
    Tensor sum = null;
    for (int j = 0; j < 4; j++) {  // ((w0·x0 + w1·x1) + w2·x2) + w3·x3, ATen's order
      Tensor term = x.indexSelect(d, Tensor.fromArray(idx[j]).to(x.device()))
          .mul(Tensor.fromArray(w[j]).to(weightType).to(x.dtype()).to(x.device()).reshape(shape));
      sum = sum == null ? term : sum.add(term);
    }
    return sum;
  }

  /** get_cubic_upsample_coefficients in double. */
  private static double[] weights(double t) {
    double s = 1 - t;
    return new double[] {conv2(t + 1), conv1(t), conv1(s), conv2(s + 1)};
  }

  /** The same in float, each operation rounded to float as ATen's float arithmetic does. */
  private static double[] weights(float t) {
    float s = 1f - t, a = (float) A;
    return new double[] {conv2(t + 1f, a), conv1(t, a), conv1(s, a), conv2(s + 1f, a)};
  }

  private static double conv1(double x) {
    return ((A + 2) * x - (A + 3)) * x * x + 1;
  }

  private static double conv2(double x) {
    return ((A * x - 5 * A) * x + 8 * A) * x - 4 * A;
  }

  private static float conv1(float x, float a) {
    return ((a + 2f) * x - (a + 3f)) * x * x + 1f;
  }

  private static float conv2(float x, float a) {
    return ((a * x - 5f * a) * x + 8f * a) * x - 4f * a;
  }
}
