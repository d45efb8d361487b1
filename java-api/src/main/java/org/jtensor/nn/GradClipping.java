package org.jtensor.nn;

import java.util.ArrayList;
import java.util.List;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.autograd.GradMode;
import org.jtensor.ops.DataOps;

/**
 * torch.nn.utils.clip_grad_norm_ and clip_grad_value_: the parameters' accumulated gradients
 * rescaled or clamped in place, as a training loop calls them between backward and the step.
 */
public final class GradClipping {
  private GradClipping() {}

  /** clip_grad_norm_ with the 2-norm: see {@link #clipGradNorm_(Iterable, double, double, boolean)}. */
  public static Tensor clipGradNorm_(Iterable<Tensor> parameters, double maxNorm) {
    return clipGradNorm_(parameters, maxNorm, 2.0, false);
  }

  /**
   * Scales every gradient by min(1, maxNorm / (total + 1e-6)), where total is the normType-norm
   * (infinity: the largest magnitude) of all the gradients together, and returns total, a 0-dim
   * tensor on the first gradient's device (0 when no parameter has a gradient). As PyTorch, the
   * scale is applied without reading total on the host, unless errorIfNonfinite asks to refuse a
   * NaN or infinite total before anything is scaled.
   */
  public static Tensor clipGradNorm_(Iterable<Tensor> parameters, double maxNorm, double normType, boolean errorIfNonfinite) {
    // PyTorch takes any order vector_norm takes, negative ones and -inf included (the smallest magnitude); NaN is refused here
    if (Double.isNaN(normType)) throw new IllegalArgumentException("clipGradNorm_(): norm_type must be a number, got nan");
    try (TensorScope s = TensorScope.open(); GradMode.Scope off = GradMode.noGrad()) {
      List<Tensor> grads = writableGrads("clipGradNorm_", parameters);
      if (grads.isEmpty()) return s.keep(Tensor.scalar(0.0));
      org.jtensor.Device device = grads.get(0).device();
      List<Tensor> norms = new ArrayList<>();
      // stack promotes, as PyTorch's: a float32 norm of 1e5 beside a float16 first gradient is not cast to float16 (inf) first
      for (Tensor g : grads) norms.add(g.norm(normType, null, false).to(device));
      Tensor total = Tensor.stack(norms, 0).norm(normType, null, false);
      if (errorIfNonfinite && !Double.isFinite(total.item())) {
        throw new IllegalStateException("clipGradNorm_(): The total norm of order " + pythonFloat(normType) + " for gradients from `parameters` is "
            + "non-finite, so it cannot be clipped. To disable this error and scale the gradients by the non-finite norm anyway, "
            + "set errorIfNonfinite to false");
      }
      Tensor coef = total.add(1e-6).reciprocal().mul(maxNorm).clampMax(1.0);
      for (Tensor g : grads) {
        Tensor c = coef.to(g.device());
        // PyTorch's g.mul_(coef) reads a 0-dim coef at its own precision for a float16/bfloat16 gradient (the product rounded
        // once); coef cast to float16 first put 1 ulp of error in a quarter of the gradients
        if (g.dtype() == DType.FLOAT16 || g.dtype() == DType.BFLOAT16) g.copy_(g.to(DType.FLOAT32).mul_(c.to(DType.FLOAT32)));
        else g.mul_(c.to(g.dtype()));
      }
      return s.keep(total);
    }
  }

  /** normType as PyTorch's message prints it (inf, not Java's Infinity). */
  private static String pythonFloat(double v) {
    return Double.isInfinite(v) ? (v > 0 ? "inf" : "-inf") : String.valueOf(v);
  }

  /** clip_grad_value_: every gradient clamped to [-clipValue, clipValue] in place. */
  public static void clipGradValue_(Iterable<Tensor> parameters, double clipValue) {
    if (!(clipValue >= 0)) throw new IllegalArgumentException("clipGradValue_(): clip_value must be non-negative, got " + clipValue);
    try (TensorScope s = TensorScope.open(); GradMode.Scope off = GradMode.noGrad()) {
      for (Tensor g : writableGrads("clipGradValue_", parameters)) g.clamp_(-clipValue, clipValue);
    }
  }

  /** The parameters' gradients, each checked writable before any is changed (a read-only one refused half-way left the others clipped). */
  private static List<Tensor> writableGrads(String op, Iterable<Tensor> parameters) {
    List<Tensor> grads = new ArrayList<>();
    for (Tensor p : parameters) {
      Tensor g = p.grad();
      if (g != null) grads.add(g);
    }
    for (Tensor g : grads) DataOps.checkWritable(op, g);
    return grads;
  }
}
