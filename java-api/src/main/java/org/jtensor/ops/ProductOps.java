package org.jtensor.ops;

import java.util.Arrays;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.core.ScalarTypes;
import org.jtensor.core.Shapes;
import org.jtensor.core.TensorImpl;

/**
 * PyTorch's products composed from jtensor's (kron, tensordot, inner, vdot, mv, addmv, addr,
 * addbmm): each checks its arguments under the name the user called, in PyTorch's words, then
 * runs views, elementwise ops and one GEMM, so autograd needs no derivative of its own.
 */
public final class ProductOps {
  private ProductOps() {}

  /** torch.kron: a's dims interleaved with b's (both padded to the larger rank) and multiplied, then merged pairwise. */
  public static Tensor kron(Tensor a, Tensor b) {
    TensorImpl x = Handles.implOf(a, "kron"), y = Handles.implOf(b, "kron");
    int n = Math.max(x.dim(), y.dim());
    long[] sa = padded(x.sizes(), n), sb = padded(y.sizes(), n);
    long[] ia = new long[2 * n], ib = new long[2 * n], out = new long[n];
    for (int d = 0; d < n; d++) {
      ia[2 * d] = sa[d];
      ia[2 * d + 1] = 1;
      ib[2 * d] = 1;
      ib[2 * d + 1] = sb[d];
      out[d] = sa[d] * sb[d];
    }
    try (TensorScope s = TensorScope.open()) {
      return s.keep(a.reshape(ia).mul(b.reshape(ib)).reshape(out));
    }
  }

  private static long[] padded(long[] sizes, int n) {
    long[] p = new long[n];
    Arrays.fill(p, 1);
    System.arraycopy(sizes, 0, p, n - sizes.length, sizes.length);
    return p;
  }

  /** torch.tensordot(a, b, dims): a's last dims against b's first dims. */
  public static Tensor tensordot(Tensor a, Tensor b, int dims) {
    TensorImpl x = Handles.implOf(a, "tensordot"), y = Handles.implOf(b, "tensordot");
    if (dims < 0) throw new IllegalArgumentException("tensordot(): tensordot expects dims >= 0, but got dims=" + dims);
    if (dims > x.dim() || dims > y.dim()) {
      throw new IllegalArgumentException("tensordot(): tensordot expects dims < ndim_a or ndim_b, but got dims=" + dims);
    }
    int[] da = new int[dims], db = new int[dims];
    for (int i = 0; i < dims; i++) {
      da[i] = i - dims;  // negative, as PyTorch names them in its refusals
      db[i] = i;
    }
    return tensordot("tensordot", a, b, da, db);
  }

  /**
   * torch.tensordot(a, b, (dimsA, dimsB)): a size-1 dim against any size is summed first, as
   * PyTorch's; the rest are contracted by one GEMM of [a's other dims, contracted] by [contracted, b's other dims].
   */
  public static Tensor tensordot(String op, Tensor a, Tensor b, int[] dimsA, int[] dimsB) {
    TensorImpl x = Handles.implOf(a, op), y = Handles.implOf(b, op);
    if (dimsA == null || dimsB == null) throw new IllegalArgumentException(op + "(): dims must not be null");
    if (dimsA.length != dimsB.length) throw new IllegalArgumentException(op + "(): both dimension lists should have same length");
    if (x.dtype() != y.dtype()) throw new IllegalArgumentException(op + "(): both inputs should have same dtype");
    if (dimsA.length > 0 && (x.dim() == 0 || y.dim() == 0)) throw Shapes.noDimensions(op, x.dim() == 0 ? dimsA[0] : dimsB[0]);
    try (TensorScope s = TensorScope.open()) {
      Tensor ta = a, tb = b;
      boolean[] ca = new boolean[x.dim()], cb = new boolean[y.dim()];
      int[] wa = new int[dimsA.length], wb = new int[dimsB.length];
      long csize = 1;
      for (int i = 0; i < dimsA.length; i++) {
        wa[i] = Shapes.wrapDim(op, dimsA[i], x.dim());
        wb[i] = Shapes.wrapDim(op, dimsB[i], y.dim());
        long s1 = x.sizes()[wa[i]], s2 = y.sizes()[wb[i]];
        if (s2 == 1) {
          ta = ta.sum(wa[i], true);  // broadcast: summed at once
        } else if (s1 == 1) {
          tb = tb.sum(wb[i], true);
        } else if (s1 != s2) {
          throw new IllegalArgumentException(op + "(): contracted dimensions need to match, but first has size " + s1 + " in dim "
              + dimsA[i] + " and second has size " + s2 + " in dim " + dimsB[i]);
        } else {
          csize *= s1;
        }
      }
      for (int i = 0; i < wa.length; i++) {
        if (ca[wa[i]]) throw new IllegalArgumentException(op + "(): dim " + wa[i] + " appears multiple times in the list of dims");
        if (cb[wb[i]]) throw new IllegalArgumentException(op + "(): dim " + wb[i] + " appears multiple times in the list of dims");
        ca[wa[i]] = true;
        cb[wb[i]] = true;
      }
      if (x.dtype() == DType.BOOL) throw ScalarTypes.notImplemented(op, "addmm_impl_cpu_", DType.BOOL);
      int[] pa = new int[x.dim()], pb = new int[y.dim()];
      long[] rsizes = new long[x.dim() + y.dim() - 2 * wa.length];
      int r = 0, ka = 0;
      long freeA = 1, freeB = 1;
      for (int d = 0; d < x.dim(); d++) {
        if (ca[d]) continue;
        pa[ka++] = d;
        rsizes[r++] = x.sizes()[d];
        freeA *= x.sizes()[d];
      }
      for (int w : wa) pa[ka++] = w;
      int kb = 0;
      for (int w : wb) pb[kb++] = w;
      for (int d = 0; d < y.dim(); d++) {
        if (cb[d]) continue;
        pb[kb++] = d;
        rsizes[r++] = y.sizes()[d];
        freeB *= y.sizes()[d];
      }
      Tensor ma = ta.permute(pa).reshape(freeA, csize), mb = tb.permute(pb).reshape(csize, freeB);
      return s.keep(Handles.wrap(LinalgOps.matmul("mm", Handles.impl(ma, op), Handles.impl(mb, op))).reshape(rsizes));
    }
  }

  /** torch.inner: a 0-dim operand multiplies; else the last dims contract. */
  public static Tensor inner(Tensor a, Tensor b) {
    TensorImpl x = Handles.implOf(a, "inner"), y = Handles.implOf(b, "inner");
    if (x.dim() == 0 || y.dim() == 0) return a.mul(b);
    if (x.sizes()[x.dim() - 1] != y.sizes()[y.dim() - 1]) {
      throw new IllegalArgumentException("inner(): inner() the last dimension must match on both input tensors but got shapes "
          + Shapes.str(x.sizes()) + " and " + Shapes.str(y.sizes()));
    }
    return tensordot("inner", a, b, new int[] {-1}, new int[] {-1});
  }

  /** torch.vdot on real tensors: dot (the conjugate of a real vector is itself). */
  public static Tensor vdot(Tensor a, Tensor b) {
    TensorImpl x = Handles.implOf(a, "vdot"), y = Handles.implOf(b, "vdot");
    if (x.dim() != 1 || y.dim() != 1) {
      throw new IllegalArgumentException("vdot(): 1D tensors expected, but got " + x.dim() + "D and " + y.dim() + "D tensors");
    }
    if (x.dtype() == DType.BOOL && y.dtype() == DType.BOOL) throw ScalarTypes.notImplemented("vdot", "dot", DType.BOOL);
    return Handles.wrap(LinalgOps.matmul("vdot", x, y));
  }

  /** torch.mv: a matrix times a vector. */
  public static Tensor mv(Tensor mat, Tensor vec) {
    TensorImpl m = Handles.implOf(mat, "mv"), v = Handles.implOf(vec, "mv");
    checkMv("mv", 1, v.dtype(), m, v);
    return Handles.wrap(LinalgOps.matmul("mv", m, v));
  }

  /** PyTorch's addmv checks (mv's too: its input is an empty vector of vec's dtype). */
  private static void checkMv(String op, int inputDims, DType input, TensorImpl m, TensorImpl v) {
    if (m.dim() != 2 || v.dim() != 1 || inputDims > 1) {
      throw new IllegalArgumentException(op + "(): vector + matrix @ vector expected, got " + inputDims + ", " + m.dim() + ", " + v.dim());
    }
    if (m.sizes()[1] != v.sizes()[0]) throw sizeMismatch(op, m.sizes()[0], m, v);
    if (input != m.dtype() || m.dtype() != v.dtype()) {
      throw new IllegalArgumentException(op + "(): addmv input tensors must have the same dtype, but got " + ScalarTypes.name(input)
          + ", " + ScalarTypes.name(m.dtype()) + ", and " + ScalarTypes.name(v.dtype()));
    }
    if (m.dtype() == DType.BOOL) throw ScalarTypes.notImplemented(op, "addmv_impl_cpu", DType.BOOL);
  }

  private static IllegalArgumentException sizeMismatch(String op, long input, TensorImpl m, TensorImpl v) {
    return new IllegalArgumentException(op + "(): size mismatch, got input (" + input + "), mat (" + m.sizes()[0] + "x" + m.sizes()[1]
        + "), vec (" + v.sizes()[0] + ")");
  }

  /** torch.addmv: beta·self + alpha·(mat @ vec), self a vector of mat's rows or one element. */
  public static Tensor addmv(Tensor self, Tensor mat, Tensor vec, double beta, double alpha) {
    String op = "addmv";
    TensorImpl c = Handles.implOf(self, op), m = Handles.implOf(mat, op), v = Handles.implOf(vec, op);
    checkMv(op, c.dim(), c.dtype(), m, v);
    if (c.numel() != 1 && (c.dim() != 1 || c.sizes()[0] != m.sizes()[0])) throw sizeMismatch(op, c.numel(), m, v);
    LinalgOps.checkAlphaBeta(op, m.dtype(), beta, alpha);
    try (TensorScope s = TensorScope.open()) {
      if (m.dtype() == DType.FLOAT16 || m.dtype() == DType.BFLOAT16) {  // accumulated and scaled in float32, rounded once, as baddbmm
        return s.keep(addmv(self.to(DType.FLOAT32), mat.to(DType.FLOAT32), vec.to(DType.FLOAT32), beta, alpha).to(m.dtype()));
      }
      Tensor product = Handles.wrap(LinalgOps.matmul(op, m, v));
      return s.keep(scaledPlus(product, self, beta, alpha, m.sizes()[1] == 0));
    }
  }

  /**
   * alpha·product + beta·self as PyTorch's add-products (addmv, baddbmm): beta 0 ignores self (its
   * NaN and inf do not propagate), an empty contraction is 0 whatever alpha is, and an integral
   * product takes beta and alpha truncated toward zero. Called inside the caller's TensorScope, which
   * owns product and the intermediates (the result may be product itself).
   */
  public static Tensor scaledPlus(Tensor product, Tensor self, double beta, double alpha, boolean emptyContraction) {
    boolean integral = !product.dtype().isFloatingPoint();
    Tensor scaled = alpha == 1 || emptyContraction ? product : integral ? product.mul((long) alpha) : product.mul(alpha);
    if (beta == 0) return scaled;
    return integral ? scaled.add(self.mul((long) beta)) : scaled.add(self, beta);
  }

  /** torch.addr with Python-float scalars: refused for integral and bool results, as PyTorch's. */
  public static Tensor addr(Tensor self, Tensor vec1, Tensor vec2, double beta, double alpha) {
    DType rt = addrType(self, vec1, vec2);
    if (!rt.isFloatingPoint()) {
      // a Java double is a Python float, which PyTorch checks beta first
      throw new IllegalArgumentException("addr(): For integral input tensors, argument beta must not be a floating point number.");
    }
    return addrOf(self, vec1, vec2, rt, v1 -> v1.mul(alpha), t -> t.mul(beta), beta == 0);
  }

  /** torch.addr with Python-int scalars: a bool result is (beta ∧ self) ∨ (alpha ∧ vec1 ∧ vec2), as PyTorch's. */
  public static Tensor addr(Tensor self, Tensor vec1, Tensor vec2, long beta, long alpha) {
    DType rt = addrType(self, vec1, vec2);
    if (rt == DType.BOOL) {
      return addrOf(self, vec1, vec2, rt, v1 -> alpha != 0 ? v1 : Tensor.zerosLike(v1), t -> t, beta == 0);
    }
    return addrOf(self, vec1, vec2, rt, v1 -> v1.mul(alpha), t -> t.mul(beta), beta == 0);
  }

  private static DType addrType(Tensor self, Tensor vec1, Tensor vec2) {
    TensorImpl c = Handles.implOf(self, "addr"), x = Handles.implOf(vec1, "addr"), y = Handles.implOf(vec2, "addr");
    if (x.dim() != 1) throw new IllegalArgumentException("addr(): addr: Expected 1-D argument vec1, but got " + x.dim() + "-D");
    if (y.dim() != 1) throw new IllegalArgumentException("addr(): addr: Expected 1-D argument vec2, but got " + y.dim() + "-D");
    LinalgOps.requireBroadcastsTo("addr", c.sizes(), new long[] {x.sizes()[0], y.sizes()[0]});
    return TypePromotion.start().tensor(c).tensor(x).tensor(y).result();
  }

  /** (alpha·vec1) ⊗ vec2 + beta·self in the result type, elementwise as PyTorch's addr kernel. */
  private static Tensor addrOf(Tensor self, Tensor vec1, Tensor vec2, DType rt, java.util.function.UnaryOperator<Tensor> alphaTimes,
      java.util.function.UnaryOperator<Tensor> betaTimes, boolean betaZero) {
    try (TensorScope s = TensorScope.open()) {
      Tensor v1 = alphaTimes.apply(vec1.to(rt)).unsqueeze(1), v2 = vec2.to(rt).unsqueeze(0);
      Tensor outer = rt == DType.BOOL ? v1.logicalAnd(v2) : v1.mul(v2);
      if (betaZero) return s.keep(outer);
      Tensor scaledSelf = betaTimes.apply(self.to(rt));
      return s.keep(rt == DType.BOOL ? scaledSelf.logicalOr(outer) : scaledSelf.add(outer));
    }
  }

  /** torch.addbmm: beta·self + alpha·Σ_b batch1[b] @ batch2[b], as one addmm over the batches laid side by side. */
  public static Tensor addbmm(Tensor self, Tensor batch1, Tensor batch2, double beta, double alpha) {
    String op = "addbmm";
    TensorImpl c = Handles.implOf(self, op), a = Handles.implOf(batch1, op), b = Handles.implOf(batch2, op);
    LinalgOps.requireDims(op, "batch1", a, 3);
    LinalgOps.requireDims(op, "batch2", b, 3);
    long n = a.sizes()[0], rows = a.sizes()[1], k = a.sizes()[2], cols = b.sizes()[2];
    if (b.sizes()[0] != n) {
      throw new IllegalArgumentException(op + "(): batch1 and batch2 must have same number of batches, got " + n + " and " + b.sizes()[0]);
    }
    if (b.sizes()[1] != k) {
      throw new IllegalArgumentException(op + "(): Incompatible matrix sizes for bmm (" + rows + "x" + k + " and " + b.sizes()[1] + "x"
          + cols + ")");
    }
    LinalgOps.requireBroadcastsTo(op, c.sizes(), new long[] {rows, cols});
    if (a.dtype() != b.dtype()) {
      throw new IllegalArgumentException(op + "(): mat1 and mat2 must have the same dtype, but got " + ScalarTypes.name(a.dtype()) + " and "
          + ScalarTypes.name(b.dtype()));
    }
    if (c.dtype() != b.dtype()) {
      throw new IllegalArgumentException(op + "(): self and mat2 must have the same dtype, but got " + ScalarTypes.name(c.dtype()) + " and "
          + ScalarTypes.name(b.dtype()));
    }
    if (a.dtype() == DType.BOOL) throw ScalarTypes.notImplemented(op, "addmm_impl_cpu_", DType.BOOL);
    try (TensorScope s = TensorScope.open()) {
      Tensor m1 = batch1.permute(1, 0, 2).reshape(rows, n * k), m2 = batch2.reshape(n * k, cols);
      return s.keep(Handles.wrap(LinalgOps.addmm(c, Handles.impl(m1, op), Handles.impl(m2, op), beta, alpha)));
    }
  }

  private static final long[] NEXT = {1, 2, 0}, AFTER_NEXT = {2, 0, 1};

  /**
   * torch.linalg.cross(a, b, dim), or torch.cross's default (dim null: the first dim of a of size 3):
   * a[i+1]·b[i+2] − a[i+2]·b[i+1] along dim, the other dims broadcast.
   */
  public static Tensor cross(Tensor a, Tensor b, Integer dim) {
    TensorImpl x = Handles.implOf(a, "cross"), y = Handles.implOf(b, "cross");
    int raw = dim == null ? firstOfSize3(x) : dim;
    if (x.dim() != y.dim()) throw new IllegalArgumentException("cross(): linalg.cross: inputs must have the same number of dimensions.");
    int d = Shapes.wrapDim("cross", raw, x.dim());
    long sx = x.dim() == 0 ? 1 : x.sizes()[d], sy = y.dim() == 0 ? 1 : y.sizes()[d];
    if (sx != 3 || sy != 3) {
      throw new IllegalArgumentException("cross(): linalg.cross: inputs dimension " + raw + " must have length 3. Got " + sx + " and " + sy);
    }
    Shapes.broadcastShapes("cross", x.sizes(), y.sizes());
    if (x.dtype() != y.dtype()) throw new IllegalArgumentException("cross(): " + ScalarTypes.expected(x.dtype(), y.dtype()));
    if (x.dtype() == DType.BOOL) throw ScalarTypes.notImplemented("cross", "cross", DType.BOOL);
    try (TensorScope s = TensorScope.open()) {
      Tensor next = Tensor.fromArray(NEXT).to(a.device()), afterNext = Tensor.fromArray(AFTER_NEXT).to(a.device());
      Tensor left = a.indexSelect(d, next).mul(b.indexSelect(d, afterNext));
      return s.keep(left.sub(a.indexSelect(d, afterNext).mul(b.indexSelect(d, next))));
    }
  }

  private static int firstOfSize3(TensorImpl x) {
    for (int d = 0; d < x.dim(); d++) if (x.sizes()[d] == 3) return d;
    throw new IllegalArgumentException("cross(): no dimension of size 3 in input");
  }
}
