package org.jtensor.ops;

import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.core.ScalarTypes;
import org.jtensor.core.TensorImpl;

/** torch.full_like, rand_like, randn_like, randint_like, logspace and vander, composed from jtensor's factories and ops. */
public final class LikeFactories {
  private LikeFactories() {}

  /** t's shape, dtype and device, every element value (cast to the dtype as fill_ casts it). */
  public static Tensor fullLike(Tensor t, Number value) {
    DType dtype = Handles.implOf(t, "fullLike").dtype();
    boolean real = value instanceof Double || value instanceof Float;
    if (real) dtype.checkFits("fullLike", value.doubleValue());  // refused under the name the user called, before anything is made
    else dtype.checkFits("fullLike", value.longValue());
    try (TensorScope s = TensorScope.open()) {
      Tensor r = Tensor.emptyLike(t);
      return s.keep(real ? r.fill_(value.doubleValue()) : r.fill_(value.longValue()));
    }
  }

  /** rand_like (normal false) or randn_like: t's shape, dtype and device, floating dtypes only, drawn from g. */
  public static Tensor randomLike(String op, Tensor t, boolean normal, Generator g) {
    TensorImpl x = Handles.implOf(t, op);
    if (!x.dtype().isFloatingPoint()) throw ScalarTypes.notImplemented(op, normal ? "normal_kernel_cpu" : "check_uniform_bounds", x.dtype());
    // rand's and randn's own draws, as PyTorch's rand_like equals rand under one seed (uniform_ into
    // float32 reads the stream otherwise); drawn on the CPU, whose draws CUDA's equal, then moved
    Tensor drawn = Handles.wrap(Factories.random(op, x.sizes(), x.dtype(), g, normal));
    if (x.device().equals(Device.CPU)) return drawn;
    try (drawn) {
      return drawn.to(x.device());
    }
  }

  /** randint_like: integers uniform in [low, high) in t's shape and dtype, drawn from g; CPU only. */
  public static Tensor randintLike(Tensor t, long low, long high, Generator g) {
    TensorImpl x = Handles.implOf(t, "randintLike");
    if (x.device().type() != Device.Type.CPU) throw new UnsupportedOperationException("randintLike(): not implemented for " + x.device().type());
    return Tensor.randint(low, high, x.sizes(), x.dtype(), g);
  }

  /** torch.logspace: base^(PyTorch's linspace of the exponents, each half from its nearer end), computed in double and cast to dtype. */
  public static Tensor logspace(double start, double end, long steps, double base, DType dtype) {
    if (steps < 0) throw new IllegalArgumentException("logspace(): number of steps must be non-negative");
    if (steps > Integer.MAX_VALUE) throw new IllegalArgumentException("logspace(): steps " + steps + " is too many");
    double first = inDtype(start, dtype), last = inDtype(end, dtype);  // start and end in dtype, as PyTorch's
    double[] v = new double[(int) steps];
    double step = (last - first) / (steps - 1);
    long halfway = steps / 2;
    for (int i = 0; i < steps; i++) {
      v[i] = steps == 1 ? Math.pow(base, first) : Math.pow(base, i < halfway ? first + step * i : last - step * (steps - i - 1));
    }
    try (Tensor d = Tensor.fromArray(v)) {
      return d.to(dtype);
    }
  }

  private static double inDtype(double v, DType dtype) {
    if (!dtype.isFloatingPoint()) return (long) v;
    if (dtype == DType.FLOAT64) return v;
    try (Tensor t = Tensor.scalar(v, dtype)) {
      return t.item();
    }
  }

  /** torch.vander: columns x^(n−1), ..., x^0 (x^0 first when increasing); int and bool x give int64, as PyTorch's cumprod. */
  public static Tensor vander(Tensor x, Long n, boolean increasing) {
    TensorImpl t = Handles.implOf(x, "vander");
    if (t.dim() != 1) throw new IllegalArgumentException("vander(): x must be a one-dimensional tensor.");
    long cols = n == null ? t.sizes()[0] : n;
    if (cols < 0) throw new IllegalArgumentException("vander(): N must be non-negative.");
    DType dtype = t.dtype().isFloatingPoint() ? t.dtype() : DType.INT64;  // promote_types(x, int64)
    try (TensorScope s = TensorScope.open()) {
      long rows = t.sizes()[0];
      Tensor one = Tensor.ones(new long[] {rows, Math.min(cols, 1)}, dtype, x.device());
      Tensor r = cols <= 1 ? one : Tensor.cat(java.util.List.of(one, x.to(dtype).unsqueeze(1).expand(rows, cols - 1).cumprod(1)), 1);
      return s.keep(increasing ? r : r.flip(1));
    }
  }
}
