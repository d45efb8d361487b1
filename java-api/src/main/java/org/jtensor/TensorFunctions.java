package org.jtensor;

import java.util.List;
import org.jtensor.core.TensorImpl;
import org.jtensor.ops.Autocasting;
import org.jtensor.ops.Distances;
import org.jtensor.ops.Einsum;
import org.jtensor.ops.ElementwiseOps;
import org.jtensor.ops.LinearOp;
import org.jtensor.ops.MultiDot;
import org.jtensor.ops.Operand;
import org.jtensor.ops.Ops;
import org.jtensor.ops.ProductOps;
import org.jtensor.ops.Trapezoid;
import org.jtensor.ops.TypePromotion;

/**
 * PyTorch's functions of several tensors with no self among them (torch.einsum, torch.tensordot,
 * torch.linalg.multi_dot, torch.chain_matmul, torch.cdist, torch.trapezoid, torch.where, torch.isin,
 * torch.nn.functional.linear), called as {@code Tensor.tensordot(a, b, 2)}: a
 * superclass of {@link Tensor} (through TensorFactories, TensorJoins and TensorIndexFactories) because a class's static methods are
 * inherited and an interface's are not; it has no instances of its own.
 */
public abstract sealed class TensorFunctions extends DerivedFactories permits TensorIndexFactories {
  TensorFunctions() {}

  /** torch.tensordot(a, b, dims): a's last dims contracted with b's first dims (as many of each). */
  public static Tensor tensordot(Tensor a, Tensor b, int dims) {
    return ProductOps.tensordot(a, b, dims);
  }

  /**
   * torch.tensordot(a, b, (dimsA, dimsB)): dimsA[i] of a contracted with dimsB[i] of b (sizes equal,
   * or one of them 1: that dim is summed), through one GEMM; the result's dims are a's others, then b's.
   */
  public static Tensor tensordot(Tensor a, Tensor b, int[] dimsA, int[] dimsB) {
    return ProductOps.tensordot("tensordot", a, b, dimsA, dimsB);
  }

  /**
   * torch.linalg.multi_dot: the product of the chain in the cheapest order, as PyTorch's; the first
   * may be 1-D (a row vector) and the last 1-D (a column vector), their dims dropped from the result.
   */
  public static Tensor multiDot(List<Tensor> tensors) {
    return MultiDot.multiDot("multiDot", tensors);
  }

  /** torch.chain_matmul (deprecated in PyTorch for multi_dot): matrices only; one matrix is returned as a copy. */
  public static Tensor chainMatmul(Tensor... matrices) {
    return MultiDot.chainMatmul(matrices);
  }

  /**
   * torch.cdist(x1 [..., P, M], x2 [..., R, M], p, computeMode): the p-norm distance of every row
   * pair, [..., P, R], batch dims broadcast. computeMode (null: "use_mm_for_euclid_dist_if_necessary",
   * or "use_mm_for_euclid_dist", "donot_use_mm_for_euclid_dist") picks PyTorch's GEMM form for p = 2.
   */
  public static Tensor cdist(Tensor x1, Tensor x2, double p, String computeMode) {
    return Distances.cdist(x1, x2, p, computeMode);
  }

  public static Tensor cdist(Tensor x1, Tensor x2, double p) {
    return cdist(x1, x2, p, null);
  }

  public static Tensor cdist(Tensor x1, Tensor x2) {
    return cdist(x1, x2, 2, null);
  }

  /** torch.trapezoid(y, dx=1, dim=-1): the trapezoidal rule along dim with constant spacing. */
  public static Tensor trapezoid(Tensor y, double dx, int dim) { return Trapezoid.trapezoid("trapezoid", y, null, dx, dim, false); }

  /** torch.trapezoid(y, x, dim): with sample points x (1-D along dim, or broadcastable to y). */
  public static Tensor trapezoid(Tensor y, Tensor x, int dim) { return Trapezoid.trapezoid("trapezoid", y, x, 1, dim, false); }

  public static Tensor trapezoid(Tensor y) { return trapezoid(y, 1.0, -1); }

  /** torch.cumulative_trapezoid(y, dx, dim): the running trapezoidal integral, one element shorter along dim. */
  public static Tensor cumulativeTrapezoid(Tensor y, double dx, int dim) {
    return Trapezoid.trapezoid("cumulativeTrapezoid", y, null, dx, dim, true);
  }

  public static Tensor cumulativeTrapezoid(Tensor y, Tensor x, int dim) {
    return Trapezoid.trapezoid("cumulativeTrapezoid", y, x, 1, dim, true);
  }

  /**
   * torch.einsum: "ij,jk->ik", "bhqd,bhkd->bhqk", "ii->i", "...ij,...jk" (implicit output: the
   * ellipsis dims, then the letters used once, sorted); contractions through batched GEMMs,
   * differentiable. PyTorch's refusals for bad equations and shapes.
   */
  public static Tensor einsum(String equation, Tensor... operands) {
    return Einsum.einsum(equation, operands);
  }

  /** torch.nn.functional.linear: input @ weight.T + bias (bias may be null). */
  public static Tensor linear(Tensor input, Tensor weight, Tensor bias) {
    return Autocasting.apply("linear", c -> linearAs(c[0], c[1], c[2]), input, weight, bias);
  }

  private static Tensor linearAs(Tensor input, Tensor weight, Tensor bias) {
    TensorImpl w = Tensor.implOf(weight, "linear"), in = Tensor.implOf(input, "linear");
    if (in.dim() == 0 || w.dim() == 0) {  // PyTorch's words
      throw new IllegalArgumentException("linear(): both arguments to linear need to be at least 1D, but they are " + in.dim() + "D and "
          + w.dim() + "D");
    }
    if (w.dim() != 2 && w.dim() != 1) {
      throw new IllegalArgumentException("linear(): weight must be 1D or 2D, got " + w.dim() + "D");
    }
    if (w.dim() == 2 && bias != null && Tensor.implOf(bias, "linear").dim() != 1) {
      if (bias.dtype() != w.dtype()) throw org.jtensor.ops.LinearOp.biasDtype(Tensor.implOf(bias, "linear"), w);
      if (in.dim() == 2) {  // PyTorch's addmm: the bias expands to [rows, out] (a [2, 1, 4] bias is refused)
        org.jtensor.ops.LinalgOps.requireBroadcastsTo("linear", bias.shape(), new long[] {in.sizes()[0], w.sizes()[0]});
      }
      try (Tensor wt = weight.t(); Tensor y = input.matmul(wt)) {
        return y.add(bias);  // a bias that is not a row: broadcast as PyTorch does, op by op
      }
    }
    if (w.dim() == 2) return Tensor.wrap(LinearOp.linear(Tensor.implOf(input, "linear"), w, bias == null ? null : Tensor.implOf(bias, "linear")));
    try (Tensor wt = weight.t(); Tensor y = input.matmul(wt)) {
      return bias == null ? y.contiguous() : y.add(bias);
    }
  }

  /** where(condition, a, b): a where condition is true, else b; all three broadcast together. */
  public static Tensor where(Tensor condition, Tensor a, Tensor b) {
    return Tensor.wrap(ElementwiseOps.run(Ops.WHERE_OP, "where", null, new double[0], Operand.of(Tensor.implOf(condition, "where")),
        Operand.of(Tensor.implOf(a, "where")), Operand.of(Tensor.implOf(b, "where"))));
  }

  /** a where condition is true, else b; the result is the default float dtype, shaped as condition. */
  public static Tensor where(Tensor condition, double a, double b) {
    DType.DEFAULT_FLOAT.checkFits("where", b);  // refused as where, not as the Tensor.full() below
    try (Tensor fill = Tensor.full(Tensor.implOf(condition, "where").sizes().clone(), b)) {
      return Tensor.wrap(ElementwiseOps.run(Ops.WHERE_OP, "where", null, new double[0], Operand.of(Tensor.implOf(condition, "where")),
          Operand.of(a), Operand.of(fill.impl("where"))));
    }
  }

  /** a where condition is true, else b: where(condition, scalar, tensor), as torch.where(c, 1.0, x). */
  public static Tensor where(Tensor condition, double a, Tensor b) {
    Tensor.implOf(condition, "where");
    try (Tensor not = condition.logicalNot()) {
      return where(not, b, a);
    }
  }

  public static Tensor where(Tensor condition, Tensor a, double b) {
    return Tensor.wrap(ElementwiseOps.run(Ops.WHERE_OP, "where", null, new double[0], Operand.of(Tensor.implOf(condition, "where")),
        Operand.of(Tensor.implOf(a, "where")), Operand.of(b)));
  }

  /** where with Python ints: int64, shaped as condition, as torch.where(c, 1, 0). */
  public static Tensor where(Tensor condition, long a, long b) {
    try (Tensor fill = Tensor.full(Tensor.implOf(condition, "where").sizes().clone(), b)) {
      return Tensor.wrap(ElementwiseOps.run(Ops.WHERE_OP, "where", null, new double[0], Operand.of(Tensor.implOf(condition, "where")),
          Operand.of(a), Operand.of(fill.impl("where"))));
    }
  }

  /** a where condition is true, else the Python int b: a's dtype when integral, as torch.where(c, int8, 0). */
  public static Tensor where(Tensor condition, Tensor a, long b) {
    return Tensor.wrap(ElementwiseOps.run(Ops.WHERE_OP, "where", null, new double[0], Operand.of(Tensor.implOf(condition, "where")),
        Operand.of(Tensor.implOf(a, "where")), Operand.of(b)));
  }

  /** the Python int a where condition is true, else b, as torch.where(c, 0, int8). */
  public static Tensor where(Tensor condition, long a, Tensor b) {
    Tensor.implOf(condition, "where");
    try (Tensor not = condition.logicalNot()) {
      return where(not, b, a);
    }
  }

  /**
   * torch.isin: whether each of elements equals some test element, as a bool tensor of elements'
   * shape; both compare in their promoted dtype (int64 16777217 is in float32 [16777216.]), NaN is in
   * nothing, -0.0 is 0.0. Bool refused, as PyTorch's. assumeUnique changes no answer (PyTorch's is
   * a speed hint); invert answers "not in".
   */
  public static Tensor isin(Tensor elements, Tensor testElements, boolean assumeUnique, boolean invert) {
    TensorImpl e = Tensor.implOf(elements, "isin"), s = Tensor.implOf(testElements, "isin");
    if (e.dtype() == DType.BOOL || s.dtype() == DType.BOOL) throw new IllegalArgumentException("isin(): Unsupported input type encountered for isin(): Bool");
    DType common = TypePromotion.start().tensor(e).tensor(s).result();
    try (TensorScope scope = TensorScope.open()) {
      Tensor flat = elements.to(common).reshape(-1);
      Tensor found;
      if (s.numel() == 0) {
        found = Tensor.zeros(flat.shape(), DType.BOOL, flat.device());
      } else {  // each element's place in the sorted test elements holds it, or nothing does
        Tensor sorted = testElements.to(common).reshape(-1).sort(0).values();
        found = sorted.gather(0, Tensor.searchsorted(sorted, flat).clampMax(s.numel() - 1)).eq(flat);
      }
      return scope.keep((invert ? found.logicalNot() : found).reshape(elements.shape()));
    }
  }

  public static Tensor isin(Tensor elements, Tensor testElements) {
    return isin(elements, testElements, false, false);
  }

  /** isin against one Python int, taken in elements' dtype as PyTorch's (int8's 258 is 2, uint8's -1 is 255). */
  public static Tensor isin(Tensor elements, long testElement) {
    Tensor.implOf(elements, "isin");  // a closed tensor refused as isin, before resultType reads it
    try (Tensor t = Tensor.scalar(testElement); Tensor c = t.to(isinScalarType(elements, elements.resultType(testElement)))) {
      return isin(elements, c, false, false);
    }
  }

  /** isin against one Python float: an integer elements tensor compares in float32 (2.5 is in nothing there). */
  public static Tensor isin(Tensor elements, double testElement) {
    Tensor.implOf(elements, "isin");
    try (Tensor c = Tensor.scalar(testElement, isinScalarType(elements, elements.resultType(testElement)))) {
      return isin(elements, c, false, false);
    }
  }

  private static DType isinScalarType(Tensor elements, DType promoted) {
    if (Tensor.implOf(elements, "isin").dtype() == DType.BOOL) throw new IllegalArgumentException("isin(): Unsupported input type encountered for isin(): Bool");
    return promoted;
  }
}
