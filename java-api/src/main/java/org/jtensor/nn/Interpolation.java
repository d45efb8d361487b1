package org.jtensor.nn;

import java.util.Arrays;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;

/**
 * torch.nn.functional.interpolate for "nearest" (1 to 3 spatial dims) and "linear"/"bilinear"/
 * "trilinear", one spatial dim at a time (the linear kernels are separable): each output position
 * reads its source positions by indexSelect and, for the linear modes, mixes the two neighbours,
 * so the gradient is indexSelect's. Source coordinates follow PyTorch: nearest floor(dst·scale);
 * linear (dst + 0.5)·scale − 0.5 clamped at 0, or dst·(in − 1)/(out − 1) with alignCorners. The
 * scale is in/out for a size, 1/scaleFactor for a factor.
 */
final class Interpolation {
  private Interpolation() {}

  static Tensor interpolate(Tensor x, long[] size, double[] scaleFactor, String mode, boolean alignCorners) {
    String op = "interpolate";
    int spatial = x.dim() - 2;
    if (spatial < 1 || spatial > 3) throw new IllegalArgumentException(op + "(): expected a 3-D, 4-D or 5-D input, got " + x.dim() + "-D");
    boolean linear = switch (mode) {
      case "nearest" -> false;
      case "linear", "bilinear", "trilinear" -> true;
      default -> throw new IllegalArgumentException(op + "(): unsupported mode '" + mode + "' (nearest, linear, bilinear, trilinear)");
    };
    int wants = mode.equals("linear") ? 1 : mode.equals("bilinear") ? 2 : mode.equals("trilinear") ? 3 : spatial;
    if (wants != spatial) {
      throw new IllegalArgumentException(op + "(): Got " + x.dim() + "D input, but " + mode + " mode needs " + (wants + 2) + "D input");
    }
    if ((size == null) == (scaleFactor == null)) throw new IllegalArgumentException(op + "(): only one of size or scale_factor should be defined");
    long[] sizes = size == null ? null : expand(op, "size", size, spatial);
    double[] factors = scaleFactor == null ? null : expand(op, scaleFactor, spatial);
    if (!linear && alignCorners) {
      throw new IllegalArgumentException(op + "(): align_corners option can only be set with the interpolating modes: linear | bilinear | "
          + "bicubic | trilinear");
    }
    try (TensorScope s = TensorScope.open()) {
      Tensor r = x;
      for (int k = 0; k < spatial; k++) {
        int d = 2 + k;
        long in = x.shape()[d];
        long out = sizes != null ? sizes[k] : (long) Math.floor(in * factors[k]);
        if (out < 1) throw new IllegalArgumentException(op + "(): output size " + out + " along dim " + d + " is below 1");
        double scale = sizes != null ? (double) in / out : 1.0 / factors[k];
        r = linear ? linearAlong(r, d, in, out, scale, alignCorners) : nearestAlong(r, d, in, out, scale);
      }
      return s.keep(r == x ? x.clone() : r);
    }
  }

  private static Tensor nearestAlong(Tensor x, int d, long in, long out, double scale) {
    long[] idx = new long[(int) out];
    for (int i = 0; i < out; i++) idx[i] = Math.min((long) Math.floor(i * scale), in - 1);
    return x.indexSelect(d, Tensor.fromArray(idx).to(x.device()));
  }

  private static Tensor linearAlong(Tensor x, int d, long in, long out, double scale, boolean alignCorners) {
    long[] lo = new long[(int) out], hi = new long[(int) out];
    double[] w = new double[(int) out];
    for (int i = 0; i < out; i++) {
      double src = alignCorners ? (out > 1 ? i * (double) (in - 1) / (out - 1) : 0) : Math.max(0, (i + 0.5) * scale - 0.5);
      lo[i] = Math.min((long) Math.floor(src), in - 1);
      hi[i] = Math.min(lo[i] + 1, in - 1);
      w[i] = src - lo[i];
    }
    long[] shape = new long[x.dim()];
    Arrays.fill(shape, 1);
    shape[d] = out;
    Tensor weight = Tensor.fromArray(w).to(x.dtype()).to(x.device()).reshape(shape);
    Tensor a = x.indexSelect(d, Tensor.fromArray(lo).to(x.device())), b = x.indexSelect(d, Tensor.fromArray(hi).to(x.device()));
    return a.add(b.sub(a).mul(weight));
  }

  private static long[] expand(String op, String what, long[] v, int n) {
    if (v.length == 1) {
      long[] r = new long[n];
      Arrays.fill(r, v[0]);
      return r;
    }
    if (v.length != n) throw new IllegalArgumentException(op + "(): " + what + " has " + v.length + " values for " + n + " spatial dims");
    return v.clone();
  }

  private static double[] expand(String op, double[] v, int n) {
    if (v.length == 1) {
      double[] r = new double[n];
      Arrays.fill(r, v[0]);
      return r;
    }
    if (v.length != n) throw new IllegalArgumentException(op + "(): scale_factor has " + v.length + " values for " + n + " spatial dims");
    for (double f : v) if (!(f > 0)) throw new IllegalArgumentException(op + "(): scale_factor must be positive, got " + f);
    return v.clone();
  }
}
