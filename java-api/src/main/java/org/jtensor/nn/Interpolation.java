package org.jtensor.nn;

import java.util.Arrays;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.autograd.GradMode;
import org.jtensor.core.ScalarTypes;

/**
 * torch.nn.functional.interpolate for "nearest" and "nearest-exact" (1 to 3 spatial dims),
 * "linear"/"bilinear"/"trilinear", "bicubic" and "area", one spatial dim at a time (the kernels
 * are separable): each output position reads its source positions by indexSelect and, but for
 * nearest, mixes its neighbours (two, or four for bicubic), so the gradient is indexSelect's.
 * Source coordinates follow PyTorch: nearest floor(dst·scale), nearest-exact floor((dst + 0.5)·scale);
 * linear (dst + 0.5)·scale − 0.5 clamped at 0, or dst·(in − 1)/(out − 1) with alignCorners, an
 * output as long as its input a copy; bicubic the same unclamped, with Keys' A = −0.75 weights
 * over four neighbours clamped to the input. "area" is adaptive average pooling to the output size.
 * The scale is in/out for a size, 1/scaleFactor for a factor, all of it in ATen's math type (float
 * but for float64), so each output reads PyTorch's sources.
 */
final class Interpolation {
  private Interpolation() {}

  private enum Kind { NEAREST, NEAREST_EXACT, LINEAR, CUBIC, AREA }

  static Tensor interpolate(Tensor x, long[] size, double[] scaleFactor, String mode, boolean alignCorners) {
    String op = "interpolate";
    int spatial = x.dim() - 2;
    if (spatial < 1 || spatial > 3) throw new IllegalArgumentException(op + "(): expected a 3-D, 4-D or 5-D input, got " + x.dim() + "-D");
    Kind kind = switch (mode) {
      case "nearest" -> Kind.NEAREST;
      case "nearest-exact" -> Kind.NEAREST_EXACT;
      case "linear", "bilinear", "trilinear" -> Kind.LINEAR;
      case "bicubic" -> Kind.CUBIC;
      case "area" -> Kind.AREA;
      default -> throw new IllegalArgumentException(op + "(): unsupported mode '" + mode
          + "' (nearest, nearest-exact, linear, bilinear, bicubic, trilinear, area)");
    };
    boolean linear = kind == Kind.LINEAR || kind == Kind.CUBIC;  // the interpolating modes, which mix neighbours
    int wants = mode.equals("linear") ? 1 : mode.equals("bilinear") || mode.equals("bicubic") ? 2 : mode.equals("trilinear") ? 3 : spatial;
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
    if (kind == Kind.CUBIC && x.dtype() == DType.UINT8) {  // PyTorch rounds through its own fixed-point uint8 kernel
      throw new UnsupportedOperationException(op + "(): bicubic of uint8 is not supported here; convert to float32 first");
    }
    if ((linear || kind == Kind.AREA) && !x.dtype().isFloatingPoint()) {
      throw ScalarTypes.notImplemented(op, kind == Kind.AREA ? "adaptive_avg_pool" + spatial + "d" : "upsample_" + mode + spatial + "d", x.dtype());
    }
    if (!linear && !x.dtype().isFloatingPoint() && x.dtype() != DType.UINT8) {  // PyTorch 2.13's nearest kernels: floating types and uint8
      throw ScalarTypes.notImplemented(op, "upsample_nearest" + spatial + "d", x.dtype());
    }
    if (x.shape()[1] == 0) {  // PyTorch's upsample shape check: only the batch may be empty
      throw new IllegalArgumentException(op + "(): Non-empty " + x.dim() + "D data tensor expected but got a tensor with sizes "
          + Arrays.toString(x.shape()));
    }
    long[] in = Arrays.copyOfRange(x.shape(), 2, x.dim()), out = new long[spatial];
    for (int k = 0; k < spatial; k++) {
      double o = sizes != null ? sizes[k] : Math.floor(in[k] * factors[k]);
      if (!(o <= Integer.MAX_VALUE - 8)) {  // indices and weights are Java arrays of one entry per output position
        throw new IllegalArgumentException(op + "(): output size " + (sizes != null ? Long.toString(sizes[k]) : Double.toString(o))
            + " along dim " + (2 + k) + " is too large");
      }
      out[k] = (long) o;
      if (in[k] < 1 || out[k] < 1) {
        throw new IllegalArgumentException(op + "(): Input and output sizes should be greater than 0, but got input size " + in[k]
            + " and output size " + out[k] + " along dim " + (2 + k));
      }
    }
    if (kind == Kind.AREA) return Pooling.adaptiveAvgPool(spatial, x, out);
    // ATen's index math runs in the op's math type: float for float32, float16 and bfloat16, double
    // for float64; float16 and bfloat16 are interpolated in float32 and rounded once at the end.
    boolean half = x.dtype() == DType.FLOAT16 || x.dtype() == DType.BFLOAT16;
    try (TensorScope s = TensorScope.open()) {
      // PyTorch's half bicubic rounds its weights to the half type forward but not backward: the
      // gradient flows through a float-weight pass, the values are the rounded pass's (the two
      // differ by an ulp or two, so their half difference is exact)
      boolean split = kind == Kind.CUBIC && half && x.requiresGrad() && GradMode.isEnabled();
      Tensor r;
      try (GradMode.Scope off = GradMode.enabled(!split && GradMode.isEnabled())) {
        r = separable(x, kind, sizes, factors, in, out, alignCorners, x.dtype());
      }
      if (split) {
        Tensor g = separable(x, kind, sizes, factors, in, out, alignCorners, DType.FLOAT32);
        r = g.add(r.sub(g.detach()));
      }
      return s.keep(r == x ? x.clone() : r);
    }
  }

  /** One pass per spatial dim, the last first (ATen's order of the products), in x's dtype at the end; weightType: see Bicubic. */
  private static Tensor separable(Tensor x, Kind kind, long[] sizes, double[] factors, long[] in, long[] out, boolean alignCorners,
                                  DType weightType) {
    boolean dbl = x.dtype() == DType.FLOAT64, half = x.dtype() == DType.FLOAT16 || x.dtype() == DType.BFLOAT16;
    boolean linear = kind == Kind.LINEAR || kind == Kind.CUBIC;
    int spatial = in.length;
    Tensor r = linear && half ? x.to(DType.FLOAT32) : x;
    for (int k = spatial - 1; k >= 0; k--) {
      double scale = sizes != null ? (double) in[k] / out[k] : 1.0 / factors[k];  // compute_scales_value, in double and in float
      float fscale = sizes != null ? (float) in[k] / (float) out[k] : (float) (1.0 / factors[k]);
      r = switch (kind) {
        case LINEAR -> linearAlong(r, 2 + k, in[k], out[k], scale, fscale, alignCorners, dbl);
        case CUBIC -> Bicubic.along(r, 2 + k, in[k], out[k], scale, fscale, alignCorners, dbl, weightType);
        case NEAREST_EXACT -> nearestExactAlong(r, 2 + k, in[k], out[k], scale, fscale, dbl, spatial == 2);
        default -> nearestAlong(r, 2 + k, in[k], out[k], scale, fscale, dbl, spatial == 2);
      };
    }
    return r.dtype() != x.dtype() ? r.to(x.dtype()) : r;
  }

  /**
   * ATen's nearest_idx: floorf(dst · scale), the product in the math type. PyTorch 2.13's 2-D
   * forward also takes nearest_idx's shortcuts (its 1-D and 3-D forwards do not): an output as long
   * as the input copies it and one twice as long reads dst / 2, whatever the scale factor says
   * (5 by 1.1 is [0, 1, 2, 3, 4], not [0, 0, 1, 2, 3]; 2 by 2.3 is [0, 0, 1, 1]).
   */
  private static Tensor nearestAlong(Tensor x, int d, long in, long out, double scale, float fs, boolean dbl, boolean shortcuts) {
    long[] idx = new long[(int) out];
    for (int i = 0; i < out; i++) {
      float src = dbl ? (float) (i * scale) : (float) i * fs;
      idx[i] = shortcuts && out == in ? i : shortcuts && out == 2 * in ? i >> 1 : Math.min((long) Math.floor(src), in - 1);
    }
    return x.indexSelect(d, Tensor.fromArray(idx).to(x.device()));
  }

  /**
   * PyTorch 2.13's 2-D forward takes ATen's nearest_exact_idx: floorf((dst + 0.5) · scale), the scale
   * in float whatever the dtype, the product in double. Its 1-D and 3-D forwards take the generic
   * kernel's floorf(src + 0.5) with src = max(scale · (dst + 0.5) − 0.5, 0) in the math type (one
   * rounding in float: ATen's build fuses it); the two differ (2 to 41 in float32: dst 20 reads 1 in
   * 1-D, 0 in 2-D). Clamped to the input; no shortcuts.
   */
  private static Tensor nearestExactAlong(Tensor x, int d, long in, long out, double scale, float fs, boolean dbl, boolean twoD) {
    long[] idx = new long[(int) out];
    for (int i = 0; i < out; i++) {
      float src;
      if (twoD) src = (float) ((i + 0.5) * fs);
      else if (dbl) src = (float) (Math.max(scale * (i + 0.5) - 0.5, 0) + 0.5);
      else src = Math.max(Math.fma(fs, i + 0.5f, -0.5f), 0f) + 0.5f;
      idx[i] = Math.min((long) Math.floor(src), in - 1);
    }
    return x.indexSelect(d, Tensor.fromArray(idx).to(x.device()));
  }

  /**
   * ATen's compute_source_index_and_lambda: an output as long as the input copies it; else the
   * source index in the math type, its floor (clamped to the input) and λ clamped to [0, 1]; the
   * output is (1 − λ)·x[lo] + λ·x[hi], which stays finite wherever both neighbours are.
   */
  private static Tensor linearAlong(Tensor x, int d, long in, long out, double ratio, float fratio, boolean alignCorners, boolean dbl) {
    long[] lo = new long[(int) out], hi = new long[(int) out];
    double[] w = new double[(int) out];
    double scale = alignCorners ? (out > 1 ? (double) (in - 1) / (out - 1) : 0) : ratio;
    float fs = alignCorners ? (out > 1 ? (float) (in - 1) / (float) (out - 1) : 0f) : fratio;
    for (int i = 0; i < out; i++) {
      if (out == in) {
        lo[i] = hi[i] = i;
        continue;
      }
      double src;
      if (dbl) src = alignCorners ? scale * i : Math.max(0, scale * (i + 0.5) - 0.5);
      else src = alignCorners ? fs * (float) i : Math.max(0f, fs * ((float) i + 0.5f) - 0.5f);
      lo[i] = Math.min((long) Math.floor((float) src), in - 1);
      hi[i] = lo[i] + (lo[i] < in - 1 ? 1 : 0);
      w[i] = dbl ? Math.min(Math.max(src - lo[i], 0), 1) : Math.min(Math.max((float) src - (float) lo[i], 0f), 1f);
    }
    long[] shape = new long[x.dim()];
    Arrays.fill(shape, 1);
    shape[d] = out;
    Tensor w1 = Tensor.fromArray(w).to(x.dtype()).to(x.device()).reshape(shape), w0 = w1.neg().add(1.0);
    Tensor a = x.indexSelect(d, Tensor.fromArray(lo).to(x.device())), b = x.indexSelect(d, Tensor.fromArray(hi).to(x.device()));
    return a.mul(w0).add(b.mul(w1));
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
    if (v.length != 1 && v.length != n) {
      throw new IllegalArgumentException(op + "(): scale_factor has " + v.length + " values for " + n + " spatial dims");
    }
    for (double f : v) if (!(f > 0 && f < Double.POSITIVE_INFINITY)) throw new IllegalArgumentException(op + "(): scale_factor must be positive and finite, got " + f);
    if (v.length == n) return v.clone();
    double[] r = new double[n];
    Arrays.fill(r, v[0]);
    return r;
  }
}
