package org.jtensor.ops;

import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.dispatch.Derivative;
import org.jtensor.dispatch.Op;
import org.jtensor.ops.NodeArgs.Along;
import org.jtensor.ops.NodeArgs.Cat;
import org.jtensor.ops.NodeArgs.Reduced;
import org.jtensor.ops.NodeArgs.Strided;

/**
 * An op's derivative as derivatives.yaml states one, beside the op in the registry: which of the
 * op's inputs and outputs backward needs ({@link #saves}), and the formula, written with Tensor
 * ops so that it runs on any device and can itself be differentiated (createGraph). The formula
 * gets the gradient of the output (already the output's shape) and returns one gradient per input,
 * null where none flows; broadcasting is summed away and dtypes converted by the caller.
 */
record Gradient(int saves, Formula formula) implements Derivative {
  /** Bits of saves: input k is 1 << k; the output is RESULT. */
  static final int SELF = 1, OTHER = 2, THIRD = 4, RESULT = 1 << 16;

  @FunctionalInterface
  interface Formula {
    Tensor[] apply(Context c, Tensor grad);
  }

  /** What a formula may read. Tensors it returns are new handles; the ones it gets are closed for it. */
  interface Context {
    /** Input k: a saved tensor, or a 0-dim tensor holding a scalar operand. */
    Tensor input(int k);

    /** The op's output (saved with RESULT). */
    Tensor result();

    /** Output k's gradient (0 is the one the formula gets); null when none flowed. */
    Tensor grad(int k);

    /** The op's scalar parameter k (alpha, a bound, a slope). */
    double param(int k);

    /** A scalar operand's value. */
    double scalar(int k);

    /** The op's arguments (its family's NodeArgs record, or a geometry), as the op recorded them. */
    <A> A args(Class<A> type);

    /** Tensor argument k saved with the node (an index, sort's positions), or null where the op passed none. */
    Tensor savedArg(int k);

    /** Whether input k needs a gradient: formulas skip the work for those that do not. */
    boolean needs(int k);

    long[] inputShape(int k);

    DType inputDtype(int k);
  }

  static Gradient of(int saves, Formula f) {
    return new Gradient(saves, f);
  }

  static Tensor[] grads(Tensor... g) {
    return g;
  }

  // ---- the vocabulary of the formulas in Ops: each a composition of Tensor ops ----

  /** Zero for every input (piecewise-constant ops). */
  static final Gradient ZERO = of(0, (c, g) -> {
    Tensor[] out = new Tensor[3];
    for (int k = 0; k < 3; k++) if (c.needs(k)) out[k] = Tensor.zerosLike(g);
    return out;
  });

  static Tensor oneMinus(Tensor t) {
    return t.neg().add(1.0);
  }

  /** grad · gelu'(x) as one kernel (Ops.GELU_BACKWARD), recorded when a graph of the backward is built. */
  static Tensor geluBackward(Tensor g, Tensor x) {
    return backwardKernel(Ops.GELU_BACKWARD, g, x);
  }

  /** relu's backward, one kernel: g where relu's result r is above 0, else 0 (PyTorch's threshold_backward). */
  static Tensor reluBackward(Tensor g, Tensor r) {
    return backwardKernel(Ops.RELU_BACKWARD, g, r);
  }

  /** trigamma(x) (Ops.TRIGAMMA), digamma's derivative. */
  static Tensor trigamma(Tensor x) {
    return Handles.wrap(ElementwiseOps.run(Ops.TRIGAMMA, "trigamma", null, ElementwiseOps.NO_PARAMS, Operand.of(Handles.implOf(x, "trigamma"))));
  }

  /** A (grad, saved) -> grad' kernel op run on two tensors. */
  private static Tensor backwardKernel(Op kernel, Tensor g, Tensor saved) {
    String op = kernel.name;
    return Handles.wrap(ElementwiseOps.run(kernel, op, null, ElementwiseOps.NO_PARAMS,
        Operand.of(Handles.implOf(g, op)), Operand.of(Handles.implOf(saved, op))));
  }

  /** gelu''(x) = φ(x)·(2 − x²). */
  static Tensor geluSecondDerivative(Tensor x) {
    return normalDensity(x).mul(x.mul(x).neg().add(2.0));
  }

  /** d/dx x·Φ(x) = Φ(x) + x·φ(x). */
  static Tensor geluDerivative(Tensor x) {
    Tensor cdf = x.mul(1 / Math.sqrt(2)).erf().add(1.0).mul(0.5);
    return cdf.add(x.mul(normalDensity(x)));
  }

  /** φ(x), the standard normal density. */
  private static Tensor normalDensity(Tensor x) {
    return x.mul(x).mul(-0.5).exp().mul(1 / Math.sqrt(2 * Math.PI));
  }

  /** d/dx of 0.5·x·(1 + tanh(k·(x + 0.044715·x³))), k = √(2/π). */
  static Tensor geluTanhDerivative(Tensor x) {
    double k = Math.sqrt(2 / Math.PI), a = 0.044715;
    Tensor x2 = x.mul(x);
    Tensor t = x.add(x2.mul(x).mul(a)).mul(k).tanh();
    Tensor inner = x2.mul(3 * a).add(1.0).mul(k);
    return t.add(1.0).mul(0.5).add(x.mul(0.5).mul(oneMinus(t.mul(t))).mul(inner));
  }

  /** d/dx x·σ(x) = σ(x)·(1 + x·(1 − σ(x))). */
  static Tensor siluDerivative(Tensor x) {
    Tensor s = x.sigmoid();
    return s.mul(x.mul(oneMinus(s)).add(1.0));
  }

  /** σ(βx) below the threshold, 1 above it (where softplus is x). */
  static Tensor softplusDerivative(Tensor x, double beta, double threshold) {
    Tensor bx = x.mul(beta);
    return Tensor.where(bx.gt(threshold), Tensor.onesLike(x), bx.sigmoid());
  }

  /** 1 where x lies within the bounds (those that are set), 0 elsewhere. */
  static Tensor inBounds(Tensor x, double min, double max, boolean hasMin, boolean hasMax) {
    Tensor ok = x.eq(x);  // all true, except NaN (whose gradient PyTorch also drops)
    if (hasMin) ok = ok.logicalAnd(x.ge(min));
    if (hasMax) ok = ok.logicalAnd(x.le(max));
    return ok;
  }

  /**
   * d(x^y)/dx = y·x^(y−1), 0 where y is 0: g · (y · x^(y−1)) in PyTorch's order (g · y first
   * overflows: g = 1e30, y = 1e10 at x = 0.5 gave inf · 0 = NaN, PyTorch 0).
   */
  static Tensor powSelf(Tensor g, Tensor x, Tensor y) {
    Tensor d = g.mul(y.mul(x.pow(y.sub(1.0))));
    return Tensor.where(y.eq(0.0), Tensor.zerosLike(d), d);
  }

  /**
   * d(x^y)/dy = x^y·ln x, 0 where x is 0 and y ≥ 0: PyTorch's g · where(x == 0 and y ≥ 0, 0, x^y · ln x),
   * with ln x in the result's dtype (an integer x's log was float32 under a float64 exponent).
   */
  static Tensor powExponent(Tensor g, Tensor x, Tensor y, Tensor result) {
    Tensor d = result.mul(x.to(result.dtype()).log());
    return g.mul(Tensor.where(x.eq(0.0).logicalAnd(y.ge(0.0)), Tensor.zerosLike(d), d));
  }

  /**
   * atan2(y, x): y's gradient g·x / (x² + y²), x's -g·y / (x² + y²), with 1 / (x² + y²) taken as 0
   * where x² + y² is 0, as PyTorch's atan2_backward: at (0, 0) both are 0, not 0 · inf = NaN.
   */
  static Tensor[] atan2(Tensor g, Tensor y, Tensor x, boolean needY, boolean needX) {
    Tensor denom = x.mul(x).add(y.mul(y));
    Tensor recip = Tensor.where(denom.eq(0.0), 0.0, denom.reciprocal());
    return grads(needY ? g.mul(x).mul(recip) : null, needX ? g.mul(y.neg()).mul(recip) : null);
  }

  /**
   * maximum/minimum, as PyTorch's where(x == y, g / 2, g) with zeros written where an input lost:
   * a NaN pair (neither lost) passes g to both, and an infinite g gives the loser 0, not inf · 0.
   */
  static Tensor[] maxMin(Tensor g, Tensor x, Tensor y, boolean max) {
    Tensor split = Tensor.where(x.eq(y), g.div(2.0), g);
    Tensor xLost = max ? x.lt(y) : x.gt(y), yLost = max ? x.gt(y) : x.lt(y);
    return grads(Tensor.where(xLost, 0.0, split), Tensor.where(yLost, 0.0, split));
  }

  /** fmax/fmin: self takes g where it was taken (self >= other, or <=, or other NaN), other elsewhere; selected, not masked by a multiply. */
  static Tensor[] fmaxFmin(Tensor g, Tensor x, Tensor y, boolean max, boolean needX, boolean needY) {
    Tensor selfTaken = (max ? x.ge(y) : x.le(y)).logicalOr(y.isnan());
    return grads(needX ? Tensor.where(selfTaken, g, 0.0) : null, needY ? Tensor.where(selfTaken, 0.0, g) : null);
  }

  /** clamp(x, min, max) with tensor bounds: x's gradient inside, min's below, max's above. */
  static Tensor[] clampTensors(Context c, Tensor g) {
    // as PyTorch's clamp_backward_min_max: with min > max the result is max, so max takes g there
    // and min none; g is selected, not multiplied by a mask (an infinite g would give inf · 0 = NaN)
    Tensor x = c.input(0), lo = c.input(1), hi = c.input(2);
    return grads(c.needs(0) ? Tensor.where(x.ge(lo).logicalAnd(x.le(hi)), g, 0.0) : null,
        c.needs(1) ? Tensor.where(x.lt(lo).logicalAnd(lo.lt(hi)), g, 0.0) : null,
        c.needs(2) ? Tensor.where(x.gt(hi).logicalOr(hi.lt(lo)), g, 0.0) : null);
  }

  // ---- reductions: args are a NodeArgs.Reduced as ReductionOps records it ----

  /** g laid back over the input's shape: reduced dims restored as size 1, then expanded. */
  static Tensor expandBack(Context c, Tensor g) {
    boolean[] reduced = c.args(Reduced.class).dims();
    long[] shape = c.inputShape(0);
    long[] kept = shape.clone();
    for (int d = 0; d < kept.length; d++) if (reduced[d]) kept[d] = 1;
    return g.reshape(kept).expand(shape);
  }

  /** sum and mean (a sum divided by the count; PyTorch's mean_backward divides g too). */
  static Tensor[] sumBackward(Context c, Tensor g) {
    double divisor = c.args(Reduced.class).divisor();
    Tensor e = expandBack(c, g);
    return grads(divisor == 1 ? e : e.div(divisor));
  }

  /** amax/amin: the gradient is shared evenly by the elements that equal the extreme. */
  static Tensor[] extremeBackward(Context c, Tensor g) {
    Tensor x = c.input(0);
    Tensor mask = x.eq(expandBack(c, c.result()));
    Tensor count = mask.sum(dimsOf(c.args(Reduced.class).dims()), true);
    return grads(expandBack(c, g).mul(mask).div(count));
  }

  /** max()/min() of every element: shared by the elements equal to the result, or by the NaNs when it is NaN. */
  static Tensor[] evenlyDistributeBackward(Context c, Tensor g) {
    Tensor x = c.input(0), r = c.result();
    Tensor mask = r.isnan().item() != 0 ? x.isnan() : x.eq(r);
    // where, not g · mask: PyTorch's CPU masked_fill leaves 0 outside the mask for an inf or NaN g (inf · 0 = NaN)
    return grads(Tensor.where(mask, g.div(mask.sum()).expand(c.inputShape(0)), 0.0));
  }

  /**
   * prod: result / x where x is not zero; where it is, the product of the others. Written to be
   * differentiated again (PyTorch's second derivative): the division reads 1 at zeros (x / 0 there,
   * masked by where, gave its gradient 0 · inf = NaN), and with exactly two zeros each one's
   * gradient is the other zero's value times the nonzero product (0, whose derivative is not).
   */
  static Tensor[] prodBackward(Context c, Tensor g) {
    Tensor x = c.input(0);
    int[] dims = dimsOf(c.args(Reduced.class).dims());
    Tensor ge = expandBack(c, g);
    Tensor isZero = x.eq(0.0);
    Tensor ones = Tensor.onesLike(x);
    Tensor plain = ge.mul(expandBack(c, c.result())).div(Tensor.where(isZero, ones, x));
    Tensor others = Tensor.where(isZero, ones, x).prod(dims, true);
    Tensor zeros = isZero.sum(dims, true);
    Tensor otherZero = Tensor.where(isZero, x, 0.0).sum(dims, true).sub(x);  // the other zero's value (two zeros)
    Tensor factor = Tensor.where(zeros.eq(1L), ones, Tensor.where(zeros.eq(2L), otherZero, 0.0));
    Tensor atZero = ge.mul(others.expand(c.inputShape(0))).mul(factor);
    return grads(Tensor.where(isZero, atZero, plain));
  }

  /** max/min along a dim with indices (the saved argument): the gradient goes to the selected positions. */
  static Tensor[] selectedBackward(Context c, Tensor g) {
    Reduced r = c.args(Reduced.class);
    Tensor idx = c.savedArg(0);
    int dim = dimsOf(r.dims())[0];
    boolean keepdim = r.keepdim();
    Tensor gk = keepdim ? g : g.unsqueeze(dim);
    Tensor ik = keepdim ? idx : idx.unsqueeze(dim);
    return grads(Tensor.zeros(c.inputShape(0), g.dtype(), g.device()).scatter(dim, ik, gk));
  }

  /** Max pooling's backward, differentiated in its upstream gradient: the image-shaped g read back at each window's index. */
  static Tensor maxPoolBackwardBackward(Tensor g, org.jtensor.dispatch.plan.Windows w, Tensor indices) {
    return g.reshape(w.batch, w.channels, -1).gather(2, indices.reshape(w.batch, w.channels, -1)).reshape(w.pooledShape());
  }

  /** cumsum: the reversed running sum of g, Σ_{j≥i} g_j. */
  static Tensor[] cumsumBackward(Context c, Tensor g) {
    int dim = c.args(Along.class).dim();
    if (c.inputShape(0).length == 0) return grads(g.clone());
    return grads(reverseCumsum(g, dim));
  }

  /**
   * cumprod: Σ_{j≥i} g_j·r_j / x_i before a slice's first zero; at the first zero k,
   * Π_{k'<k} x_k' · Σ_{j≥k} g_j·Π_{k<k'≤j} x_k'; after it, zero (every product holds x_k = 0).
   */
  static Tensor[] cumprodBackward(Context c, Tensor g) {
    int dim = c.args(Along.class).dim();
    if (c.inputShape(0).length == 0) return grads(g.clone());
    Tensor x = c.input(0), r = c.result();
    Tensor zeros = x.eq(0.0);
    Tensor seen = zeros.cumsum(dim);                       // zeros up to and including each position
    Tensor before = seen.eq(0L);                           // positions before the first zero
    Tensor first = zeros.logicalAnd(seen.eq(1L));          // the first zero itself
    boolean anyZero = zeros.any().item() != 0;
    if (anyZero && org.jtensor.autograd.GradMode.isEnabled()) return grads(cumprodBackwardDifferentiable(x, g, dim));
    // masked by where, not by a product: an inf or NaN g_j after the zero (g_j · 0 = NaN) stays out
    // of the positions before it, and those after it read 0 whatever the first zero's term is
    Tensor w = Tensor.where(before, g.mul(r), 0.0);
    Tensor grad = Tensor.where(before, reverseCumsum(w, dim).div(Tensor.where(before, x, Tensor.onesLike(x))), 0.0);
    if (anyZero) {
      Tensor ones = Tensor.onesLike(x);
      Tensor prefix = Tensor.where(before, x, ones).prod(new int[] {dim}, true);      // Π_{k'<k} x
      Tensor suffix = Tensor.where(before.logicalOr(first), ones, x).cumprod(dim);    // Π_{k<k'≤j} x
      Tensor tail = Tensor.where(before, 0.0, g.mul(suffix)).sum(new int[] {dim}, true);
      grad = Tensor.where(first, prefix.mul(tail), grad);
    }
    return grads(grad);
  }

  /**
   * cumprod's gradient with zeros, as a function of x that is itself differentiable (a backward run
   * with createGraph, as PyTorch's cumprod_backward takes its O(n²) path under grad mode):
   * grad_i = Σ_{j≥i} g_j · Π_{k≤j, k≠i} x_k, each product formed without dividing by x_i. The masked
   * formula above is right in value, but after the first zero its entries are constant zeros where
   * they are x_k·(...) with x_k the zero, so a second derivative lost those terms.
   */
  private static Tensor cumprodBackwardDifferentiable(Tensor x, Tensor g, int dim) {
    int last = x.dim() - 1;
    long n = x.shape()[dim];
    Tensor xl = x.movedim(dim, last), gl = g.movedim(dim, last);
    long[] square = java.util.Arrays.copyOf(xl.shape(), xl.dim() + 1);
    square[last + 1] = n;
    Tensor rows = xl.unsqueeze(last).expand(square);                               // row i: x, ...
    Tensor eye = Tensor.eye(n, n, org.jtensor.DType.BOOL).to(x.device());
    Tensor withoutI = Tensor.where(eye, Tensor.onesLike(rows), rows);              // ... with x_i set to 1
    Tensor later = Tensor.ones(new long[] {n, n}, org.jtensor.DType.BOOL, x.device()).triu(0);  // j >= i
    Tensor terms = withoutI.cumprod(last + 1).mul(gl.unsqueeze(last)).mul(later);  // g_j Π_{k≤j, k≠i} x_k
    return terms.sum(new int[] {last + 1}, false).movedim(last, dim);
  }

  /** Σ_{j≥i} g_j, as PyTorch's reversed_cumsum (flip, cumsum, flip): total − cumsum + g cancelled (inf − inf = NaN, 1e8 + 1 − 1e8 = 0). */
  private static Tensor reverseCumsum(Tensor g, int dim) {
    return g.flip(dim).cumsum(dim).flip(dim);
  }

  static int[] dimsOf(boolean[] reduced) {
    int n = 0;
    for (boolean b : reduced) if (b) n++;
    int[] dims = new int[n];
    for (int d = 0, j = 0; d < reduced.length; d++) if (reduced[d]) dims[j++] = d;
    return dims;
  }

  // ---- views ----

  /** view, reshape, squeeze, unsqueeze: the same elements in the input's shape. */
  static final Gradient RESHAPE = of(0, (c, g) -> grads(g.reshape(c.inputShape(0))));

  /**
   * Any strided view (slice, select, diagonal, unfold, asStrided): the gradient is laid out over
   * the storage positions the view reads, summed where it reads one twice (overlapping windows),
   * and read back at the input's positions (as PyTorch's as_strided_backward). args: a
   * NodeArgs.Strided, both geometries as ViewOps records them.
   */
  static final Gradient STRIDED = of(0, (c, g) -> {
    Strided a = c.args(Strided.class);
    long[] inSizes = c.inputShape(0), inStrides = a.inStrides(), outStrides = a.outStrides();
    long inOffset = a.inOffset(), outOffset = a.outOffset();
    long span = Math.max(end(inSizes, inStrides, inOffset), end(g.shape(), outStrides, outOffset));
    if (!overlaps(inSizes, inStrides) && !overlaps(g.shape(), outStrides)) {
      // each storage position holds at most one input and one output element (select, narrow,
      // permute, diagonal): the output's gradient written at its positions, read back as the input
      Tensor storage = Tensor.zeros(new long[] {span}, g.dtype(), g.device());
      storage.asStrided(g.shape(), outStrides, outOffset).copy_(g);
      return grads(storage.asStrided(inSizes, inStrides, inOffset).contiguous());
    }
    Tensor positions = Tensor.arange(span).to(g.device());
    Tensor outPos = positions.asStrided(g.shape(), outStrides, outOffset).reshape(-1);
    Tensor inPos = positions.asStrided(inSizes, inStrides, inOffset).reshape(-1);
    Tensor storage = Tensor.zeros(new long[] {span}, g.dtype(), g.device()).scatterAdd(0, outPos, g.reshape(-1));
    Tensor gin = storage.gather(0, inPos);
    Tensor uses = Tensor.zeros(new long[] {span}, g.dtype(), g.device()).scatterAdd(0, inPos, Tensor.onesLike(gin));
    if (uses.amax().item() > 1) gin = gin.div(uses.gather(0, inPos));  // an input that overlaps itself
    return grads(gin.reshape(inSizes));
  });

  /**
   * Whether two elements of a geometry may share a storage position: false when, with the dims of
   * more than one element sorted by stride, each stride passes the reach of the dims before it.
   */
  private static boolean overlaps(long[] sizes, long[] strides) {
    java.util.List<long[]> dims = new java.util.ArrayList<>();
    for (int d = 0; d < sizes.length; d++) {
      if (sizes[d] == 0) return false;
      if (sizes[d] > 1) dims.add(new long[] {strides[d], sizes[d]});
    }
    dims.sort(java.util.Comparator.comparingLong(d -> d[0]));
    long reach = 0;  // the largest offset the smaller-stride dims reach
    for (long[] d : dims) {
      if (d[0] <= reach) return true;
      reach += (d[1] - 1) * d[0];
    }
    return false;
  }

  /** One past the last storage position a geometry reaches (0 when it has no elements). */
  private static long end(long[] sizes, long[] strides, long offset) {
    long last = offset;
    for (int d = 0; d < sizes.length; d++) {
      if (sizes[d] == 0) return 0;
      last += (sizes[d] - 1) * strides[d];
    }
    return last + 1;
  }

  static int[] inverse(int[] perm) {
    int[] inv = new int[perm.length];
    for (int i = 0; i < perm.length; i++) inv[perm[i]] = i;
    return inv;
  }

  // ---- matrix products ----

  /** matmul in every form: 1-D operands become a row (left) or a column (right), as the forward did. */
  static Tensor[] matmulBackward(Context c, Tensor g) {
    Tensor a = c.input(0), b = c.input(1);
    boolean aVec = a.dim() == 1, bVec = b.dim() == 1;
    Tensor g2 = bVec ? g.unsqueeze(g.dim()) : g;
    if (aVec) g2 = g2.unsqueeze(g2.dim() - 1);
    Tensor a2 = aVec ? a.unsqueeze(0) : a, b2 = bVec ? b.unsqueeze(1) : b;
    Tensor ga = null, gb = null;
    if (c.needs(0)) {
      ga = g2.matmul(b2.mT());
      if (aVec) ga = ga.squeeze(ga.dim() - 2);
    }
    if (c.needs(1)) {
      gb = a2.mT().matmul(g2);
      if (bVec) gb = gb.squeeze(gb.dim() - 1);
    }
    return grads(ga, gb);
  }

  /** linear: x's gradient g·W, W's gᵀ·x over every leading row, b's the column sums of g. */
  static Tensor[] linearBackward(Context c, Tensor g) {
    long[] ws = c.inputShape(1);
    Tensor g2 = g.reshape(-1, ws[0]);
    Tensor gx = c.needs(0) ? g2.matmul(c.input(1)).reshape(c.inputShape(0)) : null;
    Tensor gw = c.needs(1) ? g2.t().matmul(c.input(0).reshape(-1, ws[1])) : null;
    Tensor gb = c.needs(2) ? g2.sum(0) : null;
    return grads(gx, gw, gb);
  }

  /** cat: each input's slice of the gradient. */
  static Tensor[] catBackward(Context c, Tensor g) {
    Cat a = c.args(Cat.class);
    long[] sizes = a.sizes();
    Tensor[] out = new Tensor[sizes.length];
    long at = 0;
    for (int i = 0; i < sizes.length; i++) {
      if (sizes[i] == 0 && c.inputShape(i).length == 1) continue;  // a skipped empty 1-D input: no gradient
      if (c.needs(i)) out[i] = g.narrow(a.dim(), at, sizes[i]);
      at += sizes[i];
    }
    return out;
  }
}
