package org.jtensor.ops;

import java.util.Arrays;
import org.jtensor.DType;
import org.jtensor.dispatch.Dispatcher;
import org.jtensor.dispatch.GemmCall;
import org.jtensor.dispatch.Op;
import org.jtensor.core.TensorImpl;
import org.jtensor.core.Shapes;

/** matmul and its family, PyTorch's shape rules, all through one batched GEMM. */
public final class LinalgOps {
  private LinalgOps() {}

  /**
   * torch.matmul: 1-D operands are promoted to a row (left) or a column (right) and the added
   * dim is dropped from the result; leading (batch) dims broadcast.
   */
  private static final java.util.Set<String> UNCAST = java.util.Set.of("dot", "vdot", "mv", "addmv");

  public static TensorImpl matmul(String op, TensorImpl a, TensorImpl b) {
    // dot, vdot, mv and addmv are on no CPU autocast list (PyTorch's): they run in their inputs' dtype;
    // any other name must be in the autocast table, whose lookup refuses one it lacks
    if (UNCAST.contains(op)) return recordedProduct(op, a, b);
    return Autocasting.applyImpl(op, c -> recordedProduct(op, c[0], c[1]), a, b);
  }

  private static TensorImpl recordedProduct(String op, TensorImpl a, TensorImpl b) {
    Op entry = op.equals("mm") ? Ops.MM : op.equals("bmm") ? Ops.BMM : op.equals("dot") ? Ops.DOT : Ops.MATMUL;
    // each operand read through one snapshot (one for both in a.matmul(a)); autograd records on a and b
    TensorImpl[] f = TensorImpl.frozen(op, a, b);
    try {
      return Recorder.recorded(entry, op, new TensorImpl[] {a, b}, null, product(op, f[0], f[1]));
    } finally {
      TensorImpl.releaseFrozen(f);
    }
  }

  private static TensorImpl product(String op, TensorImpl a, TensorImpl b) {
    if (a.dim() == 0 || b.dim() == 0) {
      throw new IllegalArgumentException(op + "(): both arguments to matmul need to be at least 1D, but they are "
          + a.dim() + "D and " + b.dim() + "D");
    }
    if (a.dim() == 1 && b.dim() == 1 && a.dtype() != b.dtype()) {  // PyTorch's dot checks the dtypes first, in its words
      throw new IllegalArgumentException(op + "(): dot : expected both vectors to have same dtype, but found " + a.dtype() + " and "
          + b.dtype());
    }
    long k = a.sizes()[a.dim() - 1];
    long kb = b.dim() == 1 ? b.sizes()[0] : b.sizes()[b.dim() - 2];
    if (k != kb) {
      // PyTorch's words for the product it folds the operands into: mv, bmm over the broadcast batch, or mm
      if (a.dim() >= 2 && b.dim() == 1) {
        long rows = rowsOf(a);
        throw new IllegalArgumentException(op + "(): size mismatch, got input (" + rows + "), mat (" + rows + "x" + k + "), vec (" + kb + ")");
      }
      if (b.dim() >= 3) {
        long batches = 1;
        for (long s : Shapes.broadcastShapes(op, Arrays.copyOf(a.sizes(), Math.max(a.dim() - 2, 0)), Arrays.copyOf(b.sizes(), b.dim() - 2))) {
          batches *= s;
        }
        throw new IllegalArgumentException(op + "(): Expected size for first two dimensions of batch2 tensor to be: [" + batches + ", " + k
            + "] but got: [" + batches + ", " + kb + "].");
      }
      if (a.dim() == 1 && b.dim() == 1) {
        throw new IllegalArgumentException(op + "(): inconsistent tensor size, expected tensor [" + k + "] and src [" + kb
            + "] to have the same number of elements, but got " + k + " and " + kb + " elements respectively");
      }
      throw new IllegalArgumentException(op + "(): mat1 and mat2 shapes cannot be multiplied (" + rowsCols(a) + " and "
          + rowsCols(b) + ")");
    }
    checkDtypes(op, a, b);  // after the shapes, as PyTorch's mm and matmul ("shapes cannot be multiplied" for both)
    long m = a.dim() == 1 ? 1 : a.sizes()[a.dim() - 2];
    long n = b.dim() == 1 ? 1 : b.sizes()[b.dim() - 1];
    long[] batchA = Arrays.copyOf(a.sizes(), Math.max(a.dim() - 2, 0));
    long[] batchB = Arrays.copyOf(b.sizes(), Math.max(b.dim() - 2, 0));
    long[] batch = Shapes.broadcastShapes(op, batchA, batchB);
    long[] full = Arrays.copyOf(batch, batch.length + 2);
    full[batch.length] = m;
    full[batch.length + 1] = n;
    TensorImpl c = DataOps.empty(op, full, a.dtype(), a.device());
    try {
      gemm(op, a, b, c, batch, m, n, k, 1.0, 0.0);
      int drop = (a.dim() == 1 ? 1 : 0) + (b.dim() == 1 ? 1 : 0);
      if (drop == 0) return c;
      long[] shape = new long[full.length - drop];
      System.arraycopy(batch, 0, shape, 0, batch.length);
      int w = batch.length;
      if (a.dim() != 1) shape[w++] = m;
      if (b.dim() != 1) shape[w] = n;
      TensorImpl r = c.unsafeView(shape, Shapes.contiguousStrides(shape), 0);
      c.release();
      return r;
    } catch (RuntimeException e) {
      c.release();
      throw e;
    }
  }

  /** c (already shaped batch + [m, n]) = alpha * a @ b + beta * c. */
  static void gemm(String op, TensorImpl a, TensorImpl b, TensorImpl c, long[] batch, long m, long n, long k, double alpha, double beta) {
    TensorImpl ac = null, bc = null;  // each a new reference: a itself, or a copy BLAS can read
    try {
      ac = blasReady(op, a, a.dim() == 1);
      bc = blasReady(op, b, false);
      int ad = ac.dim(), bd = bc.dim(), cd = c.dim();
      long aRow = ad == 1 ? 0 : ac.strides()[ad - 2], aCol = ac.strides()[ad - 1];
      long bRow = bd == 1 ? bc.strides()[0] : bc.strides()[bd - 2], bCol = bd == 1 ? 0 : bc.strides()[bd - 1];
      GemmCall call = new GemmCall(ac, aRow, aCol, bc, bRow, bCol, c, c.strides()[cd - 2], c.strides()[cd - 1], m, n, k,
          batch, batchStrides(ac, batch), batchStrides(bc, batch), Arrays.copyOf(c.strides(), batch.length), alpha, beta);
      if (m > 0 && n > 0) Dispatcher.backend(c.device()).gemm(op, call);
      c.bumpVersion();
    } finally {
      if (ac != null) ac.release();
      if (bc != null) bc.release();
    }
  }

  /** BLAS needs a unit stride in one of the two matrix dims; anything else is copied once. Returns a new reference. */
  private static TensorImpl blasReady(String op, TensorImpl t, boolean vector) {
    int d = t.dim();
    boolean ok = t.isContiguous() || d < 2 || t.strides()[d - 1] == 1 || t.strides()[d - 2] == 1;
    if (ok || vector) {
      t.retain();
      return t;
    }
    return DataOps.cloneAs(op, t, t.dtype(), t.device(), true);
  }

  /** t's strides over the broadcast batch dims (0 where t has no such dim or size 1). */
  private static long[] batchStrides(TensorImpl t, long[] batch) {
    int tb = Math.max(t.dim() - 2, 0);
    long[] st = new long[batch.length];
    for (int i = 0; i < tb; i++) {
      int d = batch.length - tb + i;
      st[d] = t.sizes()[i] == 1 ? 0 : t.strides()[i];
    }
    return st;
  }

  static void checkDtypes(String op, TensorImpl a, TensorImpl b) {
    if (a.dtype() != b.dtype()) {
      throw new IllegalArgumentException(op + "(): expected m1 and m2 to have the same dtype, but got: " + a.dtype() + " != " + b.dtype());
    }
    Devices.requireSame(op, a.device(), b.device());
  }

  /** The rows a product folds t into: the product of every dim but the last. */
  static long rowsOf(TensorImpl t) {
    long rows = 1;
    for (int d = 0; d < t.dim() - 1; d++) rows *= t.sizes()[d];
    return rows;
  }

  private static String rowsCols(TensorImpl t) {
    if (t.dim() == 1) return "1x" + t.sizes()[0];
    return rowsOf(t) + "x" + t.sizes()[t.dim() - 1];
  }

  public static void requireDims(String op, String arg, TensorImpl t, int dims) {
    if (t.dim() != dims) {
      throw new IllegalArgumentException(op + "(): " + arg + " must be a " + (dims == 2 ? "matrix" : dims + "D tensor")
          + ", got a " + t.dim() + "D tensor");
    }
  }

  /**
   * PyTorch converts a product's alpha and beta to its math type (float32 for float16 and bfloat16,
   * the dtype itself otherwise) and refuses those that overflow it.
   */
  public static void checkAlphaBeta(String op, DType dtype, double beta, double alpha) {
    dtype.opMath().checkScalar(op, beta);
    dtype.opMath().checkScalar(op, alpha);
  }

  /** shape expands to target (no more dims, each dim equal or 1), as expand() requires; refused in PyTorch's words otherwise. */
  public static void requireBroadcastsTo(String op, long[] shape, long[] target) {
    if (shape.length > target.length) {
      throw new IllegalArgumentException(op + "(): expand(" + Shapes.str(shape) + ", size=" + Shapes.str(target) + "): "
          + Shapes.tooFewExpandSizes(target.length, shape.length));
    }
    for (int d = 0; d < shape.length; d++) {
      int t = target.length - shape.length + d;
      if (shape[d] != target[t] && shape[d] != 1) {
        throw new IllegalArgumentException(op + "(): " + Shapes.expandMismatch(target[t], shape[d], t, target, shape));
      }
    }
  }

  /** PyTorch's bmm and baddbmm refusal of batch2's first two dims. */
  public static void requireBatch2(String op, TensorImpl batch1, TensorImpl batch2) {
    long b = batch1.sizes()[0], k = batch1.sizes()[2];
    if (batch2.sizes()[0] != b || batch2.sizes()[1] != k) {
      throw new IllegalArgumentException(op + "(): Expected size for first two dimensions of batch2 tensor to be: [" + b + ", " + k
          + "] but got: [" + batch2.sizes()[0] + ", " + batch2.sizes()[1] + "].");
    }
  }

  /** beta * input + alpha * (m1 @ m2), input broadcast to the product's shape. */
  public static TensorImpl addmm(TensorImpl input, TensorImpl m1, TensorImpl m2, double beta, double alpha) {
    return Autocasting.applyImpl("addmm", c -> addmmAs(c[0], c[1], c[2], beta, alpha), input, m1, m2);
  }

  private static TensorImpl addmmAs(TensorImpl input, TensorImpl m1, TensorImpl m2, double beta, double alpha) {
    requireDims("addmm", "mat1", m1, 2);
    requireDims("addmm", "mat2", m2, 2);
    checkDtypes("addmm", m1, m2);
    if (input.dtype() != m2.dtype()) {  // PyTorch refuses it whatever beta is; it was converted silently
      throw new IllegalArgumentException("addmm(): self and mat2 must have the same dtype, but got " + input.dtype() + " and "
          + m2.dtype());
    }
    checkAlphaBeta("addmm", m1.dtype(), beta, alpha);
    if (m1.sizes()[1] != m2.sizes()[0]) {
      throw new IllegalArgumentException("addmm(): mat1 and mat2 shapes cannot be multiplied (" + m1.sizes()[0] + "x"
          + m1.sizes()[1] + " and " + m2.sizes()[0] + "x" + m2.sizes()[1] + ")");
    }
    long m = m1.sizes()[0], n = m2.sizes()[1];
    TensorImpl c = DataOps.empty("addmm", new long[] {m, n}, m1.dtype(), m1.device());
    return Recorder.complete(() -> m1.dtype().isFloatingPoint() && Recorder.active(input, m1, m2)
        ? Recorder.begin(Ops.ADDMM, "addmm", new TensorImpl[] {input, m1, m2}, new double[] {beta, alpha}, null, null, null) : null, () -> {
      if (beta != 0) DataOps.copyInto("addmm", c, input);
      else requireBroadcastsTo("addmm", input.sizes(), new long[] {m, n});  // ignored, but its shape must still expand to the product's
      gemm("addmm", m1, m2, c, new long[0], m, n, m1.sizes()[1], alpha, beta);
    }, c, c);
  }
}
