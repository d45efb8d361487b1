package org.jtensor;

import org.jtensor.dispatch.Op;
import org.jtensor.core.ScalarTypes;
import org.jtensor.core.Shapes;
import org.jtensor.core.TensorImpl;
import org.jtensor.ops.Autocasting;
import org.jtensor.ops.ElementwiseOps;
import org.jtensor.ops.Operand;
import org.jtensor.ops.Ops;
import org.jtensor.ops.ReductionOps;

/**
 * Tensor's reductions and normalizations, inherited by {@link Tensor}. A dims argument that is
 * empty reduces every dim, as in PyTorch (but for any and all, where it reduces none, as there). Composite ones (mean, var, std, norm, logsumexp)
 * are built from the kernels in a scope that closes their temporaries.
 */
public sealed interface ReductionMethods permits Tensor {
  private TensorImpl impl(String op) {
    return ((Tensor) this).impl(op);
  }

  private Tensor self() {
    return (Tensor) this;
  }

  private Tensor reduce(Op op, int[] dims, boolean keepdim, double divisor) {
    return Tensor.wrap(ReductionOps.reduce(op, op.name, impl(op.name), dims, keepdim, divisor));
  }

  private static int[] one(int dim) {
    return new int[] {dim};
  }

  /** Sums this tensor down to size, from which it must broadcast (Tensor.sum_to_size). */
  default Tensor sumToSize(long... size) {
    TensorImpl t = impl("sumToSize");
    long[] s = t.sizes();
    int lead = s.length - size.length;
    int[] dims = new int[s.length];
    int n = 0;
    boolean ok = lead >= 0;
    for (int d = 0; ok && d < s.length; d++) {
      if (d < lead) dims[n++] = d;
      else if (size[d - lead] == 1 && s[d] != 1) dims[n++] = d;
      else if (size[d - lead] != s[d]) ok = false;
    }
    if (!ok) {
      throw new IllegalArgumentException("sumToSize(): size " + Shapes.str(size) + " is not expandable to size " + Shapes.str(s));
    }
    if (n == 0) return self().same("sumToSize");
    try (Tensor kept = sum(java.util.Arrays.copyOf(dims, n), true)) {
      return kept.reshape(size);
    }
  }

  // ---- scans ----
  /** Running sum along dim; integers and bool give int64. */
  default Tensor cumsum(int dim) {
    return Tensor.wrap(ReductionOps.scan(Ops.CUMSUM, impl("cumsum"), dim));
  }

  default Tensor cumprod(int dim) {
    return Tensor.wrap(ReductionOps.scan(Ops.CUMPROD, impl("cumprod"), dim));
  }

  // ---- sum, prod, mean ----
  default Tensor sum() { return sum(null, false); }
  default Tensor sum(int dim) { return sum(one(dim), false); }
  /** The sum over several dims, which are dropped (sum(dims) in PyTorch). */
  default Tensor sum(int... dims) { return sum(dims, false); }
  default Tensor sum(int dim, boolean keepdim) { return sum(one(dim), keepdim); }
  /** Integers and bool sum to int64. */
  default Tensor sum(int[] dims, boolean keepdim) {
    return reduce(Ops.SUM, dims, keepdim, 1.0);
  }
  default Tensor prod() { return prod(null, false); }
  default Tensor prod(int dim) { return prod(one(dim), false); }
  default Tensor prod(int dim, boolean keepdim) { return prod(one(dim), keepdim); }
  default Tensor prod(int[] dims, boolean keepdim) {
    return Autocasting.apply("prod", c -> ((ReductionMethods) c[0]).reduce(Ops.PROD, dims, keepdim, 1.0), (Tensor) this);
  }
  default Tensor mean() { return mean(null, false); }
  default Tensor mean(int dim) { return mean(one(dim), false); }
  default Tensor mean(int dim, boolean keepdim) { return mean(one(dim), keepdim); }
  default Tensor mean(int[] dims, boolean keepdim) {
    TensorImpl t = impl("mean");
    if (!t.dtype().isFloatingPoint()) {
      throw new IllegalArgumentException("mean(): could not infer output dtype. Input dtype must be either a floating point "
          + "or complex dtype. Got: " + ScalarTypes.name(t.dtype()));
    }
    long n = ReductionOps.count(t, dims);
    return reduce(Ops.MEAN, dims, keepdim, n);  // the sum divided by n (0 / 0 = NaN when empty), as PyTorch's
  }
  default Tensor nansum() { return nansum(null, false); }
  default Tensor nansum(int dim) { return nansum(one(dim), false); }
  default Tensor nansum(int dim, boolean keepdim) { return nansum(one(dim), keepdim); }
  /** The sum with NaNs counted as 0 (torch.nansum); integers and bool sum to int64, as sum(). */
  default Tensor nansum(int[] dims, boolean keepdim) {
    TensorImpl t = impl("nansum");
    ReductionOps.checkDims("nansum", t.dim(), dims);  // named as called: sum() would name itself
    if (!t.dtype().isFloatingPoint()) return sum(dims, keepdim);
    double inf = Double.POSITIVE_INFINITY;
    try (Tensor zeroed = Tensor.wrap(ElementwiseOps.run(Ops.NAN_TO_ZERO, "nansum", null, new double[] {0, inf, -inf}, Operand.of(t)))) {
      return zeroed.sum(dims, keepdim);
    }
  }
  default Tensor nanmean() { return nanmean(null, false); }
  default Tensor nanmean(int dim) { return nanmean(one(dim), false); }
  default Tensor nanmean(int dim, boolean keepdim) { return nanmean(one(dim), keepdim); }
  /** The mean of the elements that are not NaN (torch.nanmean): nansum over their count; floating tensors only. */
  default Tensor nanmean(int[] dims, boolean keepdim) {
    TensorImpl t = impl("nanmean");
    if (!t.dtype().isFloatingPoint()) {
      throw new IllegalArgumentException("nanmean(): expected input to have floating point or complex dtype but got " + ScalarTypes.name(t.dtype()));
    }
    ReductionOps.checkDims("nanmean", t.dim(), dims);
    Tensor x = (Tensor) this;
    try (Tensor sum = nansum(dims, keepdim); Tensor nan = x.isnan(); Tensor kept = nan.logicalNot(); Tensor count = kept.sum(dims, keepdim)) {
      return sum.div(count);
    }
  }

  // ---- extremes ----
  default Tensor amax() { return amax(null, false); }
  default Tensor amax(int dim) { return amax(one(dim), false); }
  default Tensor amax(int dim, boolean keepdim) { return amax(one(dim), keepdim); }
  default Tensor amax(int[] dims, boolean keepdim) { return reduce(Ops.AMAX, dims, keepdim, 1.0); }
  default Tensor amin() { return amin(null, false); }
  default Tensor amin(int dim) { return amin(one(dim), false); }
  default Tensor amin(int dim, boolean keepdim) { return amin(one(dim), keepdim); }
  default Tensor amin(int[] dims, boolean keepdim) { return reduce(Ops.AMIN, dims, keepdim, 1.0); }
  /** The largest element (NaN if any is NaN), 0-dim. */
  default Tensor max() { return reduce(Ops.MAX_ALL, null, false, 1.0); }
  default Tensor min() { return reduce(Ops.MIN_ALL, null, false, 1.0); }
  /** max over dim: the values and the index of the first maximum (a NaN counts as the maximum). */
  default ValuesAndIndices max(int dim, boolean keepdim) { return pair(Ops.MAX, dim, keepdim); }
  default ValuesAndIndices max(int dim) { return pair(Ops.MAX, dim, false); }
  default ValuesAndIndices min(int dim, boolean keepdim) { return pair(Ops.MIN, dim, keepdim); }
  default ValuesAndIndices min(int dim) { return pair(Ops.MIN, dim, false); }
  /** Index of the first maximum in the flattened tensor, 0-dim int64. */
  default Tensor argmax() { return arg(Ops.ARGMAX, null, false); }
  default Tensor argmax(int dim, boolean keepdim) { return arg(Ops.ARGMAX, dim, keepdim); }
  default Tensor argmax(int dim) { return argmax(dim, false); }
  default Tensor argmin() { return arg(Ops.ARGMIN, null, false); }
  default Tensor argmin(int dim, boolean keepdim) { return arg(Ops.ARGMIN, dim, keepdim); }
  default Tensor argmin(int dim) { return argmin(dim, false); }

  private Tensor arg(Op op, Integer dim, boolean keepdim) {
    return Tensor.wrap(ReductionOps.argReduce(op, impl(op.name), dim, keepdim, false)[0]);
  }

  private ValuesAndIndices pair(Op op, int dim, boolean keepdim) {
    TensorImpl[] r = ReductionOps.argReduce(op, impl(op.name), dim, keepdim, true);
    return new ValuesAndIndices(Tensor.wrap(r[1]), Tensor.wrap(r[0]));
  }

  // ---- any, all ----
  default Tensor any() { return any(null, false); }
  default Tensor any(int dim) { return any(one(dim), false); }
  default Tensor any(int dim, boolean keepdim) { return any(one(dim), keepdim); }
  default Tensor any(int[] dims, boolean keepdim) { return logical(Ops.ANY, dims, keepdim); }
  default Tensor all() { return all(null, false); }
  default Tensor all(int dim) { return all(one(dim), false); }
  default Tensor all(int dim, boolean keepdim) { return all(one(dim), keepdim); }
  default Tensor all(int[] dims, boolean keepdim) { return logical(Ops.ALL, dims, keepdim); }
  /**
   * any/all give bool, except over uint8, which keeps uint8 (PyTorch's backward-compatible rule).
   * An empty dims array reduces nothing here (PyTorch 2.13's any/all, unlike sum's), null every dim.
   */
  private Tensor logical(Op op, int[] dims, boolean keepdim) {
    boolean u8 = impl(op.name).dtype() == DType.UINT8;
    Tensor r = dims != null && dims.length == 0 ? self().ne(0L) : reduce(op, dims, keepdim, 1.0);
    if (!u8) return r;
    try (r) {
      return r.to(DType.UINT8);
    }
  }

  // ---- composites ----
  /**
   * Variance with Bessel's correction by default (correction = 1), accumulated in float64 and
   * rounded to the dtype at the end, as PyTorch's CPU Welford accumulates in double: squares that
   * underflow or a sum past float32's range do not change the answer.
   */
  default Tensor var() { return var(null, 1, false); }
  default Tensor var(int dim) { return var(one(dim), 1, false); }
  default Tensor var(int[] dims, long correction, boolean keepdim) {
    DType dtype = impl("var").dtype();
    try (TensorScope s = TensorScope.open()) {
      return s.keep(varianceInFloat64("var", dims, correction, keepdim).to(dtype));
    }
  }
  default Tensor std() { return std(null, 1, false); }
  default Tensor std(int dim) { return std(one(dim), 1, false); }
  /**
   * The square root of var's float64 variance, taken before rounding to the dtype (a variance past
   * float32's range still has a finite std); its gradient is 0 where the std is 0, as PyTorch's.
   */
  default Tensor std(int[] dims, long correction, boolean keepdim) {
    DType dtype = impl("std").dtype();
    try (TensorScope s = TensorScope.open()) {
      return s.keep(rootAwayFromZero(varianceInFloat64("std", dims, correction, keepdim), 2).to(dtype));
    }
  }

  private Tensor varianceInFloat64(String op, int[] dims, long correction, boolean keepdim) {
    TensorImpl t = impl(op);
    requireFloat(op, t);
    long n = ReductionOps.count(t, dims);
    Tensor x = self().to(DType.FLOAT64);
    Tensor mean = x.mean(dims, true);
    // a sum past the largest double made the mean inf and every deviation NaN (eight 1.7e308 gave NaN;
    // PyTorch's Welford gives 0): then the mean of x/n, which cannot overflow (the next pass corrects its rounding)
    if (mean.isfinite().all().item() == 0) mean = x.div((double) Math.max(n, 1)).sum(dims, true);
    Tensor rough = x.sub(mean);
    // The mean rounds: for equal huge values x - mean is its rounding error, whose square overflowed
    // (std of three 3.8e299 was inf; PyTorch's Welford gives 0). Taking that error's own mean out
    // (the corrected two-pass form) leaves exact zeros there.
    Tensor dev = rough.sub(rough.mean(dims, true));
    Tensor sq = dev.mul(dev).sum(dims, keepdim);
    // an empty reduction is NaN whatever the correction (0 / 0), as PyTorch fills it
    return sq.div(n == 0 ? 0.0 : (double) Math.max(n - correction, 0));
  }
  /** The 2-norm of all elements. */
  default Tensor norm() { return norm(2.0, null, false); }
  /** p-norm over dims: p = inf is the largest |x|, p = 0 counts non-zeros. */
  default Tensor norm(double p, int[] dims, boolean keepdim) {
    DType dtype = impl("norm").dtype();
    requireFloat("norm", impl("norm"));
    if (Double.isInfinite(p) && ReductionOps.count(impl("norm"), dims) == 0) {  // amax/amin have no identity: PyTorch's words
      throw new IllegalArgumentException("norm(): cannot compute the " + (p > 0 ? "inf" : "-inf") + " norm on an empty tensor because the "
          + "operation does not have an identity");
    }
    try (TensorScope s = TensorScope.open()) {
      // float16/bfloat16 in float32, as PyTorch's accumulate type: 300² overflowed float16, 1e-4² underflowed
      boolean half = dtype.itemSize() == 2;
      Tensor x = half ? self().to(DType.FLOAT32) : self();
      Tensor a = x.abs();
      Tensor r;
      if (p == Double.POSITIVE_INFINITY) r = a.amax(dims, keepdim);
      else if (p == Double.NEGATIVE_INFINITY) r = a.amin(dims, keepdim);
      else if (p == 0) r = a.ne(0L).to(x.dtype()).sum(dims, keepdim);
      else if (p == 1) r = a.sum(dims, keepdim);
      else r = rootAwayFromZero(p == 2 ? a.mul(a).sum(dims, keepdim) : powAwayFromZero(a, p).sum(dims, keepdim), p);
      return s.keep(half ? r.to(dtype) : r);
    }
  }
  /** |x|^p; for 0 < p < 1 its derivative at 0 is infinite (times sign(0) = 0, NaN): PyTorch gives those elements 0. */
  private static Tensor powAwayFromZero(Tensor a, double p) {
    if (!(p > 0 && p < 1)) return a.pow(p);
    Tensor nonzero = a.ne(0.0);
    return Tensor.where(nonzero, Tensor.where(nonzero, a, 1.0).pow(p), 0.0);
  }
  /**
   * sum^(1/p), with the gradient 0 where the sum is 0 (a zero vector's norm), as PyTorch's norm; a
   * NaN or infinite sum stays as it is. The root's derivative at 0 is infinite, and times the zero
   * below it would be NaN: the root reads 1 where the sum is 0, and the outer where passes it no
   * gradient there.
   */
  private static Tensor rootAwayFromZero(Tensor sum, double p) {
    Tensor nonzero = sum.ne(0.0);  // NaN and infinity included: they propagate
    Tensor safe = Tensor.where(nonzero, sum, 1.0);
    return Tensor.where(nonzero, p == 2 ? safe.sqrt() : safe.pow(1.0 / p), 0.0);
  }

  /** log(sum(exp(x))) over dims, computed around the maximum so it neither overflows nor underflows. */
  default Tensor logsumexp(int dim) { return logsumexp(one(dim), false); }
  default Tensor logsumexp(int dim, boolean keepdim) { return logsumexp(one(dim), keepdim); }
  default Tensor logsumexp(int[] dims, boolean keepdim) {
    Tensor x = self();
    TensorImpl t = impl("logsumexp");
    try (TensorScope s = TensorScope.open()) {
      Tensor xf = t.dtype().isFloatingPoint() ? x : x.to(DType.DEFAULT_FLOAT);
      Tensor r;
      if (t.numel() == 0) {  // nothing to shift: the sum of no exp is 0, its log -inf
        r = xf.exp().sum(dims, true).log();
      } else {
        Tensor m = xf.amax(dims, true);
        Tensor mSafe = m.maskedFill(m.abs().eq(Double.POSITIVE_INFINITY), 0.0);  // an infinite max shifts by 0
        r = xf.sub(mSafe).exp().sum(dims, true).log().add(mSafe);
      }
      return s.keep(keepdim ? r : r.squeeze(ReductionOps.dimsOrAll(t, dims)).contiguous());
    }
  }
  /** softmax along dim: exp(x - max) / sum(exp(x - max)), one fused kernel. */
  default Tensor softmax(int dim) {
    return Tensor.wrap(ReductionOps.softmax(Ops.SOFTMAX, impl("softmax"), dim));
  }
  /** log_softmax along dim: (x - max) - log(sum(exp(x - max))), one fused kernel. */
  default Tensor logSoftmax(int dim) {
    return Tensor.wrap(ReductionOps.softmax(Ops.LOG_SOFTMAX, impl("logSoftmax"), dim));
  }

  /** PyTorch's refusals in its words: "std and var only support ...", linalg.vector_norm's for norm. */
  private static void requireFloat(String op, TensorImpl t) {
    if (t.dtype().isFloatingPoint()) return;
    throw new UnsupportedOperationException(op + "(): " + (op.equals("norm")
        ? "Expected a floating point or complex tensor as input. Got " + t.dtype()
        : "std and var only support floating point and complex dtypes, got " + t.dtype()));
  }
}
