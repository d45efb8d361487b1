package org.jtensor.ops;

import java.util.Arrays;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Tensor;
import org.jtensor.autograd.GradMode;
import org.jtensor.core.TensorImpl;
import org.jtensor.dispatch.Dispatcher;
import org.jtensor.dispatch.plan.NormGroups;

/**
 * Batch, layer and group norm as one op with a fused kernel per device (the norm plan): per
 * statistics group ({@link NormGroups}) the mean and 1/√(var + eps), saved for backward as PyTorch
 * saves them, and the output in the same pass over cache-resident data; the backward is one kernel
 * for the input's, weight's and bias's gradients. nn's Normalization checks the user's arguments
 * with PyTorch's messages; here the tensors are checked against the grouping.
 */
public final class NormOps {
  private NormOps() {}

  /** The output and the statistics it used: mean and rstd = 1/√(var + eps), [g.units()], float64. */
  public record Result(Tensor output, Tensor mean, Tensor rstd) {}

  /** y = (x − mean)·rstd·weight + bias with each group's own statistics (training); weight and bias [g.c()] or null. */
  public static Result normalize(String name, Tensor x, NormGroups g, Tensor weight, Tensor bias, double eps) {
    TensorImpl[] r = run(name, impl(x, name), g, impl(weight, name), impl(bias, name), null, null, eps);
    return new Result(Handles.wrap(r[0]), Handles.wrap(r[1]), Handles.wrap(r[2]));
  }

  /** The same with given statistics (batch norm in eval: the running mean and 1/√(running var + eps)), constants to autograd. */
  public static Tensor normalizeWith(String name, Tensor x, NormGroups g, Tensor mean, Tensor rstd, Tensor weight, Tensor bias) {
    TensorImpl[] r = run(name, impl(x, name), g, impl(weight, name), impl(bias, name), impl(mean, name), impl(rstd, name), 0);
    r[1].release();
    r[2].release();
    return Handles.wrap(r[0]);
  }

  /**
   * The dtype of the saved statistics, whatever the input's: float64. PyTorch saves them in the
   * accumulate type (float32 for float32 input); a float32 mean is off by up to half its ulp, which
   * shifts every normalized value where the mean is large against the spread (activations after a
   * ReLU, unnormalized features), so the kernels keep it in double and subtract it in two parts.
   */
  public static final DType STATS_DTYPE = DType.FLOAT64;

  private static TensorImpl impl(Tensor t, String name) {
    return t == null ? null : Handles.implOf(t, name);
  }

  /** {y, mean, rstd}, y recorded on x, weight and bias with mean and rstd saved for backward. */
  private static TensorImpl[] run(String name, TensorImpl x, NormGroups g, TensorImpl w, TensorImpl b, TensorImpl givenMean,
                                  TensorImpl givenRstd, double eps) {
    boolean fixed = givenMean != null;
    TensorImpl[] f = TensorImpl.frozen(name, x, w, b, givenMean, givenRstd);
    TensorImpl[] made = new TensorImpl[6];  // xc, wc, bc, mean, rstd, y
    try {
      DType dtype = f[0].dtype(), stats = STATS_DTYPE;
      Device device = f[0].device();
      if (!dtype.isFloatingPoint()) {
        throw new UnsupportedOperationException(name + "(): expected a floating point input, got " + dtype);
      }
      if (f[0].numel() != g.numel()) {
        throw new IllegalArgumentException(name + "(): input of shape " + Arrays.toString(f[0].sizes()) + " does not hold " + g);
      }
      requireVector(name, "weight", f[1], g.c(), device);
      requireVector(name, "bias", f[2], g.c(), device);
      requireVector(name, "mean", f[3], g.units(), device);
      requireVector(name, "rstd", f[4], g.units(), device);
      made[0] = DataOps.contiguousAs(name, f[0], dtype);
      made[1] = DataOps.contiguousAs(name, f[1], dtype);
      made[2] = DataOps.contiguousAs(name, f[2], dtype);
      made[3] = fixed ? DataOps.contiguousAs(name, f[3], stats) : DataOps.empty(name, g.statsShape(), stats, device);
      made[4] = fixed ? DataOps.contiguousAs(name, f[4], stats) : DataOps.empty(name, g.statsShape(), stats, device);
      made[5] = DataOps.empty(name, f[0].sizes(), dtype, device);
      Recorder.Pending rec = Recorder.active(x, w, b)
          ? Recorder.begin(Ops.NORM, name, new TensorImpl[] {x, w, b}, null, new NodeArgs.Norm(g, fixed, eps, w != null),
              new TensorImpl[] {made[3], made[4]}, null)
          : null;
      Recorder.complete(rec, () -> Dispatcher.backend(device).norm(name, g, fixed, eps, made[0], made[1], made[2], made[3], made[4], made[5]),
          made[5], null);  // on failure, made[] is released by the finally below
      TensorImpl[] out = {made[5], made[3], made[4]};
      made[3] = made[4] = made[5] = null;
      return out;
    } finally {
      TensorImpl.releaseFrozen(f);
      for (TensorImpl t : made) if (t != null) t.release();
    }
  }

  /**
   * The derivative of Ops.NORM: the backward kernel, or, when the gradient is itself to be
   * differentiated (createGraph), the same formula in differentiable ops.
   */
  static Tensor[] backward(Gradient.Context c, Tensor grad) {
    NodeArgs.Norm a = c.args(NodeArgs.Norm.class);
    NormGroups g = a.groups();
    boolean fixed = a.fixed();
    Tensor x = c.input(0), w = a.hasWeight() ? c.input(1) : null, mean = c.savedArg(0), rstd = c.savedArg(1);
    if (GradMode.isEnabled()) return NormGradients.differentiable(c, grad, g, fixed, a.eps(), x, w, mean, rstd);
    String name = "normBackward";
    TensorImpl[] f = TensorImpl.frozen(name, impl(grad, name), impl(x, name), impl(w, name), impl(mean, name), impl(rstd, name));
    TensorImpl[] made = new TensorImpl[8];  // grad, x, weight, mean, rstd as the kernel reads them; gradX, gradWeight, gradBias
    try {
      DType dtype = f[1].dtype(), stats = STATS_DTYPE;
      Device device = f[1].device();
      for (int k = 0; k < 5; k++) made[k] = DataOps.contiguousAs(name, f[k], k >= 3 ? stats : dtype);
      if (c.needs(0)) made[5] = DataOps.empty(name, f[1].sizes(), dtype, device);
      if (c.needs(1)) made[6] = DataOps.empty(name, c.inputShape(1), dtype, device);  // the weight's and bias's own shapes ([c], or layer norm's normalized shape)
      if (c.needs(2)) made[7] = DataOps.empty(name, c.inputShape(2), dtype, device);
      Dispatcher.backend(device).normBackward(name, g, fixed, made[0], made[1], made[2], made[3], made[4], made[5], made[6], made[7]);
      Tensor[] out = new Tensor[3];
      for (int k = 0; k < 3; k++) {
        if (made[5 + k] == null) continue;
        out[k] = Handles.wrap(made[5 + k]);
        made[5 + k] = null;
      }
      return out;
    } finally {
      TensorImpl.releaseFrozen(f);
      for (TensorImpl t : made) if (t != null) t.release();
    }
  }

  private static void requireVector(String name, String what, TensorImpl t, long length, Device device) {
    if (t == null) return;
    if (t.numel() != length) {
      throw new IllegalArgumentException(name + "(): expected " + what + " of " + length + " elements, got shape " + Arrays.toString(t.sizes()));
    }
    if (!t.device().equals(device)) {
      throw new IllegalArgumentException(name + "(): expected " + what + " on the input's device " + device + ", got " + t.device());
    }
  }
}
