package org.jtensor;

import org.jtensor.core.TensorImpl;
import org.jtensor.dispatch.Op;
import org.jtensor.ops.DataOps;
import org.jtensor.ops.ElementwiseChecks;
import org.jtensor.ops.ElementwiseOps;
import org.jtensor.ops.Operand;
import org.jtensor.ops.Ops;

/**
 * clamp and lerp, PyTorch's names in Java case: the elementwise ops whose scalar arguments carry
 * their own promotion rules (a Python float bound promotes an integer tensor, a Python int one a
 * bool tensor; lerp does not promote). Inherited by {@link Tensor}.
 */
public sealed interface ClampMethods permits Tensor {
  private TensorImpl impl(String op) {
    return ((Tensor) this).impl(op);
  }

  private Tensor self() {
    return (Tensor) this;
  }

  private static Operand t(Tensor x, String op) {
    return Operand.of(Tensor.implOf(x, op));
  }

  /**
   * clamp(min, max) with Python float bounds: an integer or bool tensor gives float32 (clamp(0.0, 3.0)
   * too, as PyTorch's); a NaN bound is skipped (use clampMin/clampMax for one side).
   */
  default Tensor clamp(double min, double max) { return clampScalar(Ops.CLAMP, "clamp", min, max, true, null); }
  /** clamp(min, max) with Python int bounds: an integer tensor keeps its dtype (uint8 takes -1 as 255), bool gives int64. */
  default Tensor clamp(long min, long max) { return clampScalar(Ops.CLAMP, "clamp", min, max, false, new long[] {min, max, 1, 1}); }
  /** clamp_min: a NaN bound is a bound here (NaN everywhere, gradient 0), as PyTorch's. */
  default Tensor clampMin(double min) { return Double.isNaN(min) ? nanBound("clampMin") : clampScalar(Ops.CLAMP_MIN, "clampMin", min, Double.NaN, true, null); }
  default Tensor clampMin(long min) { return clampScalar(Ops.CLAMP_MIN, "clampMin", min, Double.NaN, false, new long[] {min, 0, 1, 0}); }
  /** clamp_max: a NaN bound is a bound here (NaN everywhere, gradient 0), as PyTorch's. */
  default Tensor clampMax(double max) { return Double.isNaN(max) ? nanBound("clampMax") : clampScalar(Ops.CLAMP_MAX, "clampMax", Double.NaN, max, true, null); }
  default Tensor clampMax(long max) { return clampScalar(Ops.CLAMP_MAX, "clampMax", Double.NaN, max, false, new long[] {0, max, 0, 1}); }

  /**
   * clamp_min(x, nan) / clamp_max(x, nan): NaN in the result type (a Python float promotes an
   * integer tensor to float32), with the zero gradient of PyTorch's (x >= nan is false): 0·x + NaN.
   */
  private Tensor nanBound(String op) {
    impl(op);
    try (Tensor zero = self().mul(0.0)) {
      return zero.add(Double.NaN);
    }
  }
  /** In place with Python float bounds: refused for an integer or bool tensor (the result would be float32), as PyTorch's. */
  default Tensor clamp_(double min, double max) { return clampInPlace("clamp_", min, max, true, null); }
  /** In place with Python int bounds: refused for a bool tensor (the result would be int64), as PyTorch's. */
  default Tensor clamp_(long min, long max) { return clampInPlace("clamp_", min, max, false, new long[] {min, max, 1, 1}); }

  /**
   * exact: Python int bounds as the integer kernels read them, with the has-min/has-max flags
   * (bounds()'s layout): an int64 bound past 2^53 as a double would round (clamp(0, 2^53 + 1) cut
   * 2^53 + 1 to 2^53; PyTorch leaves it). Null for Python float bounds.
   */
  private Tensor clampInPlace(String name, double min, double max, boolean floatBounds, long[] exact) {
    TensorImpl t = impl(name);
    DType result = clampResult(t.dtype(), min, max, floatBounds);
    if (result != t.dtype()) {
      throw new IllegalArgumentException(name + "(): " + ElementwiseChecks.cannotCast(result, t.dtype()));
    }
    checkBounds(name, result, min, max);
    ElementwiseOps.run(Ops.CLAMP, name, t, bounds(min, max), exact, Operand.of(t));
    return self();
  }
  /** clamp with tensor bounds, broadcast together with self. */
  default Tensor clamp(Tensor min, Tensor max) { return clampTensors("clamp", min, max); }

  /** torch.clip, clamp's alias: the same op, named as called. */
  default Tensor clip(double min, double max) { return clampScalar(Ops.CLAMP, "clip", min, max, true, null); }
  default Tensor clip(long min, long max) { return clampScalar(Ops.CLAMP, "clip", min, max, false, new long[] {min, max, 1, 1}); }
  default Tensor clip(Tensor min, Tensor max) { return clampTensors("clip", min, max); }
  default Tensor clip_(double min, double max) { return clampInPlace("clip_", min, max, true, null); }
  default Tensor clip_(long min, long max) { return clampInPlace("clip_", min, max, false, new long[] {min, max, 1, 1}); }

  private Tensor clampTensors(String name, Tensor min, Tensor max) {
    return Tensor.wrap(ElementwiseOps.run(Ops.CLAMP_TENSORS, name, null, ElementwiseOps.NO_PARAMS, Operand.of(impl(name)), t(min, name), t(max, name)));
  }

  private Tensor clampScalar(Op op, String name, double min, double max, boolean floatBounds, long[] exact) {
    TensorImpl t = impl(name);
    DType result = clampResult(t.dtype(), min, max, floatBounds);
    if (result != t.dtype()) {  // a float bound promotes an integer tensor, an int bound a bool one
      checkBounds(name, result, min, max);
      TensorImpl f = DataOps.cloneAs(name, t, result, t.device(), false);
      try {
        return Tensor.wrap(ElementwiseOps.run(op, name, null, bounds(min, max), exact, Operand.of(f)));
      } finally {
        f.release();
      }
    }
    checkBounds(name, t.dtype(), min, max);
    return Tensor.wrap(ElementwiseOps.run(op, name, null, bounds(min, max), exact, Operand.of(t)));
  }

  /**
   * PyTorch's result type of clamp with scalar bounds (NaN is no bound here): a Python float bound
   * promotes an integer or bool tensor to float32, a Python int one a bool tensor to int64.
   */
  private static DType clampResult(DType self, double min, double max, boolean floatBounds) {
    if (self.isFloatingPoint() || (Double.isNaN(min) && Double.isNaN(max))) return self;
    if (floatBounds) return DType.DEFAULT_FLOAT;
    return self == DType.BOOL ? DType.INT64 : self;
  }

  /** Each present bound converts to the result's dtype without overflow, as PyTorch's checked conversion. */
  private static void checkBounds(String op, DType result, double min, double max) {
    if (!Double.isNaN(min)) result.checkScalar(op, min);
    if (!Double.isNaN(max)) result.checkScalar(op, max);
  }

  private static double[] bounds(double min, double max) {
    return new double[] {Double.isNaN(min) ? 0 : min, Double.isNaN(max) ? 0 : max, Double.isNaN(min) ? 0 : 1, Double.isNaN(max) ? 0 : 1};
  }

  /** self + weight * (end - self); float16/bfloat16 take the weight in float32, their math type, as PyTorch. */
  default Tensor lerp(Tensor end, double weight) { return lerp(Ops.LERP_SCALAR.name, end, weight); }

  /**
   * end and weight of self's dtype, as PyTorch's lerp requires (it does not promote), except a 0-dim
   * weight, which PyTorch takes whatever its dtype: it is converted to self's (its gradient goes
   * back in its own).
   */
  default Tensor lerp(Tensor end, Tensor weight) { return lerp(Ops.LERP.name, end, weight); }
  /** In place: end (and weight) broadcast to self's shape, of self's dtype. */
  default Tensor lerp_(Tensor end, double weight) { return lerp(Ops.LERP_SCALAR.inPlaceName, end, weight); }
  default Tensor lerp_(Tensor end, Tensor weight) { return lerp(Ops.LERP.inPlaceName, end, weight); }

  /** lerp as name says: lerp, or in place (writing self) as lerp_. */
  private Tensor lerp(String name, Tensor end, double weight) {
    TensorImpl s = impl(name), e = Tensor.implOf(end, name);
    sameDtypeAs(name, s, e, "end");
    s.dtype().opMath().checkFits(name, weight);
    return lerpRun(name, Ops.LERP_SCALAR, new double[] {weight}, s, e);
  }

  private Tensor lerp(String name, Tensor end, Tensor weight) {
    TensorImpl s = impl(name), e = Tensor.implOf(end, name), w = Tensor.implOf(weight, name);
    sameDtypeAs(name, s, e, "end");
    if (w.dim() == 0 && w.dtype() != s.dtype()) {
      try (Tensor converted = weight.to(s.dtype())) {
        return lerp(name, end, converted);
      }
    }
    sameDtypeAs(name, s, w, "weight");
    return lerpRun(name, Ops.LERP, ElementwiseOps.NO_PARAMS, s, e, w);
  }

  private Tensor lerpRun(String name, Op op, double[] params, TensorImpl s, TensorImpl... rest) {
    boolean inPlace = name.endsWith("_");
    Operand[] in = new Operand[rest.length + 1];
    in[0] = Operand.of(s);
    for (int k = 0; k < rest.length; k++) in[k + 1] = Operand.of(rest[k]);
    TensorImpl r = ElementwiseOps.run(op, name, inPlace ? s : null, params, in);
    return inPlace ? (Tensor) this : Tensor.wrap(r);
  }

  private static void sameDtypeAs(String op, TensorImpl self, TensorImpl other, String name) {
    if (other.dtype() != self.dtype()) {
      throw new IllegalArgumentException(op + "(): expected dtype " + self.dtype() + " for `" + name + "` but got dtype " + other.dtype());
    }
  }
}
