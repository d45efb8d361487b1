package org.jtensor;

import org.jtensor.autograd.GradMode;
import org.jtensor.core.ScalarTypes;
import org.jtensor.core.Shapes;
import org.jtensor.core.TensorImpl;
import org.jtensor.ops.LikeFactories;
import org.jtensor.ops.Ops;
import org.jtensor.ops.PoissonSampler;
import org.jtensor.ops.Recorder;

/**
 * PyTorch's factories shaped after another tensor (full_like, rand_like, randn_like, randint_like)
 * and the derived sequences (logspace, vander), called as {@code Tensor.fullLike(t, 2.0)}: a
 * superclass of {@link Tensor} (through TensorFactories, TensorJoins, TensorIndexFactories and TensorFunctions) because a class's
 * static methods are inherited and an interface's are not; it has no instances of its own.
 */
public abstract sealed class DerivedFactories extends WindowFactories permits TensorFunctions {
  DerivedFactories() {}

  /** torch.full_like: t's shape, dtype and device, every element value (a Python float: cast to t's dtype). */
  public static Tensor fullLike(Tensor t, double value) { return LikeFactories.fullLike(t, value); }

  /** full_like with a Python int. */
  public static Tensor fullLike(Tensor t, long value) { return LikeFactories.fullLike(t, value); }

  /** torch.rand_like: uniform in [0, 1) in t's shape, floating dtype and device, from the default generator. */
  public static Tensor randLike(Tensor t) { return randLike(t, Generator.defaultGenerator()); }

  public static Tensor randLike(Tensor t, Generator g) { return LikeFactories.randomLike("randLike", t, false, g); }

  /** torch.randn_like: standard normal in t's shape, floating dtype and device. */
  public static Tensor randnLike(Tensor t) { return randnLike(t, Generator.defaultGenerator()); }

  public static Tensor randnLike(Tensor t, Generator g) { return LikeFactories.randomLike("randnLike", t, true, g); }

  /** torch.randint_like(t, high): integers uniform in [0, high) in t's shape and dtype (CPU). */
  public static Tensor randintLike(Tensor t, long high) { return randintLike(t, 0, high, Generator.defaultGenerator()); }

  public static Tensor randintLike(Tensor t, long low, long high) { return randintLike(t, low, high, Generator.defaultGenerator()); }

  public static Tensor randintLike(Tensor t, long low, long high, Generator g) { return LikeFactories.randintLike(t, low, high, g); }

  /**
   * torch.normal(mean, std, generator): one draw from N(mean, std²) per element of the broadcast of mean and std,
   * in mean's dtype (floating): standard normals scaled by std and shifted by mean, as PyTorch's. The gradients
   * reaching mean and std are zeros, as PyTorch's (a draw, not a reparameterisation: use mean + std·randn for that).
   */
  public static Tensor normal(Tensor mean, Tensor std, Generator g) { return normal(mean, std, mean, g); }

  public static Tensor normal(Tensor mean, Tensor std) { return normal(mean, std, Generator.defaultGenerator()); }

  /** A tensor mean and a Python-float std (which must be ≥ 0). */
  public static Tensor normal(Tensor mean, double std, Generator g) {
    Tensor.implOf(mean, "normal");
    if (!(std >= 0)) throw new IllegalArgumentException("normal(): expects std >= 0.0, but found std " + std);
    try (Tensor s = Tensor.scalar(std, mean.dtype().isFloatingPoint() ? mean.dtype() : DType.FLOAT64)) {
      return normal(mean, s, mean, g);
    }
  }

  public static Tensor normal(Tensor mean, double std) { return normal(mean, std, Generator.defaultGenerator()); }

  /** A Python-float mean and a tensor std: std's dtype. */
  public static Tensor normal(double mean, Tensor std, Generator g) {
    Tensor.implOf(std, "normal");
    try (Tensor m = Tensor.scalar(mean, std.dtype().isFloatingPoint() ? std.dtype() : DType.FLOAT64)) {
      return normal(m, std, std, g);
    }
  }

  public static Tensor normal(double mean, Tensor std) { return normal(mean, std, Generator.defaultGenerator()); }

  private static Tensor normal(Tensor mean, Tensor std, Tensor typed, Generator g) {
    String op = "normal";
    TensorImpl m = Tensor.implOf(mean, op), s = Tensor.implOf(std, op);
    if (g == null) throw new IllegalArgumentException(op + "(): generator must not be null");
    long[] shape = Shapes.broadcastShapes(op, m.sizes(), s.sizes());
    DType dtype = typed.dtype();
    if (!dtype.isFloatingPoint()) throw ScalarTypes.notImplemented(op, "normal_kernel_cpu", dtype);
    if (s.numel() > 0) {
      try (Tensor min = std.min()) {
        if (!(min.item() >= 0)) throw new IllegalArgumentException(op + "(): normal expects all elements of std >= 0.0");
      }
    }
    Tensor out = Tensor.empty(shape, dtype, typed.device());
    try (GradMode.Scope off = GradMode.noGrad()) {
      out.normal_(0, 1, g).mul_(std).add_(mean);
    } catch (RuntimeException e) {
      out.close();
      throw e;
    }
    TensorImpl drawn = out.impl(op);
    drawn.retain();  // the result's own reference: out's handle closes
    out.close();
    return Tensor.wrap(Recorder.recorded(Ops.NORMAL, op, new TensorImpl[] {m, s}, null, drawn));
  }

  /**
   * torch.poisson(rates, generator): a Poisson count for each rate (floating, each ≥ 0), in rates' dtype; CPU.
   * The rates' gradient is zeros, as PyTorch's. Same distribution as PyTorch's, not its values.
   */
  public static Tensor poisson(Tensor rates, Generator g) {
    String op = "poisson";
    TensorImpl r = Tensor.implOf(rates, op);
    if (g == null) throw new IllegalArgumentException(op + "(): generator must not be null");
    if (r.device().type() == Device.Type.CUDA) throw new UnsupportedOperationException(op + "(): not implemented for CUDA");
    if (!r.dtype().isFloatingPoint()) throw ScalarTypes.notImplemented(op, "poisson_cpu", r.dtype());
    double[] rate = rates.toDoubleArray();
    for (double x : rate) if (!(x >= 0)) throw new IllegalArgumentException(op + "(): invalid Poisson rate, expected rate to be non-negative");
    TensorImpl out;
    try (Tensor counts = Tensor.fromArray(PoissonSampler.sample(rate, g), rates.shape()); Tensor typed = counts.to(r.dtype())) {
      out = typed.impl(op);
      out.retain();  // the result's own reference: typed's handle closes
    }
    return Tensor.wrap(Recorder.recorded(Ops.POISSON, op, new TensorImpl[] {r}, null, out));
  }

  public static Tensor poisson(Tensor rates) { return poisson(rates, Generator.defaultGenerator()); }

  /** torch.logspace: steps values base^e, e evenly from start to end, float32. */
  public static Tensor logspace(double start, double end, long steps) { return logspace(start, end, steps, 10, DType.FLOAT32); }

  public static Tensor logspace(double start, double end, long steps, double base) { return logspace(start, end, steps, base, DType.FLOAT32); }

  public static Tensor logspace(double start, double end, long steps, double base, DType dtype) {
    return LikeFactories.logspace(start, end, steps, base, dtype);
  }

  /** torch.vander(x): the Vandermonde matrix of a 1-D x, columns x^(n−1) down to x^0, n = len(x). */
  public static Tensor vander(Tensor x) { return vander(x, null, false); }

  /** torch.vander(x, N, increasing): N columns (null: len(x)); increasing puts x^0 first. int and bool x give int64. */
  public static Tensor vander(Tensor x, Long n, boolean increasing) { return LikeFactories.vander(x, n, increasing); }
}
