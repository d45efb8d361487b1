package org.jtensor.ops;

import java.util.Arrays;
import org.jtensor.DType;
import org.jtensor.core.TensorImpl;
import org.jtensor.core.Shapes;

/**
 * View ops: new sizes, strides and offset over the same storage, never a copy. PyTorch's rules.
 * Each reads the tensor's metadata once ({@code Meta m = t.meta()}) and builds the view over that
 * snapshot's storage (viewOf), so a set_ on another thread gives a view of the tensor before or
 * after it, never one geometry over the other storage.
 */
public final class ViewOps {
  private ViewOps() {}

  static TensorImpl alias(TensorImpl t) {
    TensorImpl.Meta m = t.meta();
    return recorded(Ops.ALIAS, t, t.viewOf(Ops.ALIAS.name, m, m.sizes.clone(), m.strides.clone(), m.offset));
  }

  /** v, a view of t, recorded as op when autograd records: op's derivative (in Ops) maps v's gradient back to t. */
  private static TensorImpl recorded(org.jtensor.dispatch.Op op, TensorImpl t, TensorImpl v) {
    return recorded(op, t, v, null);
  }

  /** The same with the NodeArgs record op's derivative reads. */
  private static TensorImpl recorded(org.jtensor.dispatch.Op op, TensorImpl t, TensorImpl v, Object args) {
    return Recorder.recorded(op, op.name, new TensorImpl[] {t}, args, v);
  }

  /** The view of t with sizes shape that view() would give, or null when no strides can express it. */
  public static TensorImpl viewIfPossible(TensorImpl t, TensorImpl.Meta m, long[] shape) {
    long[] st = Shapes.viewStrides(m.sizes, m.strides, shape, m.numel);
    return st == null ? null : recorded(Ops.VIEW, t, t.viewOf(Ops.VIEW.name, m, shape, st, m.offset));
  }

  public static TensorImpl view(TensorImpl t, long[] size) {
    TensorImpl.Meta m = t.meta();
    long[] shape = Shapes.inferSize("view", size, m.numel);
    Shapes.checkDims("view", shape.length);
    long[] st = Shapes.viewStrides(m.sizes, m.strides, shape, m.numel);
    if (st == null) {
      throw new IllegalArgumentException("view(): view size is not compatible with input tensor's size and stride "
          + "(at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.");
    }
    return recorded(Ops.VIEW, t, t.viewOf(Ops.VIEW.name, m, shape, st, m.offset));
  }

  /** Reinterprets the bytes as another dtype (Tensor.view(dtype)). */
  public static TensorImpl viewDtype(TensorImpl t, DType to) {
    TensorImpl.Meta m = t.meta();
    int from = m.dtype.itemSize(), size = to.itemSize();
    long[] sz = m.sizes.clone(), st = m.strides.clone();
    long off = m.offset;
    String op = "view";
    if (from != size) {
      int n = sz.length;
      if (n == 0) {
        throw new IllegalArgumentException(op + "(): self.dim() cannot be 0 to view " + t.dtype() + " as " + to
            + " (different element sizes)");
      }
      if (st[n - 1] != 1) {
        throw new IllegalArgumentException(op + "(): self.stride(-1) must be 1 to view " + t.dtype() + " as " + to
            + " (different element sizes), but got " + st[n - 1]);
      }
      if (from > size) {
        int r = from / size;
        for (int d = 0; d < n - 1; d++) st[d] *= r;
        sz[n - 1] *= r;
        off *= r;
      } else {
        int r = size / from;
        if (sz[n - 1] % r != 0) {
          throw new IllegalArgumentException(op + "(): self.size(-1) must be divisible by " + r + " to view "
              + t.dtype() + " as " + to + " (different element sizes), but got " + sz[n - 1]);
        }
        if (off % r != 0) {
          throw new IllegalArgumentException(op + "(): self.storage_offset() must be divisible by " + r + " to view "
              + t.dtype() + " as " + to + " (different element sizes), but got " + off);
        }
        for (int d = 0; d < n - 1; d++) {
          if (st[d] % r != 0) {
            throw new IllegalArgumentException(op + "(): self.stride(" + d + ") must be divisible by " + r
                + " to view " + t.dtype() + " as " + to + " (different element sizes), but got " + st[d]);
          }
          st[d] /= r;
        }
        sz[n - 1] /= r;
        off /= r;
      }
    }
    Shapes.numel(op, sz);  // a size past 2^63 (expand(2^60, 4).view(int8)) is view's to name, before anything is retained
    // not differentiable and not a view to autograd, as PyTorch's (requires_grad False, _base None)
    return t.reinterpretOf(op, m, to, sz, st, off);
  }

  public static TensorImpl transpose(TensorImpl t, long d0, long d1) {
    TensorImpl.Meta m = t.meta();
    int n = m.sizes.length;
    int a = Shapes.wrapDim("transpose", d0, n), b = Shapes.wrapDim("transpose", d1, n);
    long[] sz = m.sizes.clone(), st = m.strides.clone();
    if (n > 0) {
      swap(sz, a, b);
      swap(st, a, b);
    }
    return recorded(Ops.TRANSPOSE, t, t.viewOf(Ops.TRANSPOSE.name, m, sz, st, m.offset), new NodeArgs.Transpose(n > 0 ? a : 0, n > 0 ? b : 0));
  }

  public static TensorImpl t(TensorImpl t) {
    if (t.dim() > 2) {
      throw new IllegalArgumentException("t(): expects a tensor with <= 2 dimensions, but self is " + t.dim() + "D");
    }
    return t.dim() < 2 ? alias(t) : transpose(t, 0, 1);
  }

  public static TensorImpl mT(TensorImpl t) {
    if (t.dim() == 0) return alias(t);  // PyTorch: the identity on 0-D (deprecated there, still accepted)
    if (t.dim() < 2) {
      throw new IllegalArgumentException("mT(): tensor.mT is only supported on matrices or batches of matrices. Got "
          + t.dim() + "-D tensor.");
    }
    return transpose(t, -2, -1);
  }

  public static TensorImpl permute(TensorImpl t, int[] dims) {
    TensorImpl.Meta m = t.meta();
    int n = m.sizes.length;
    if (dims.length != n) {
      throw new IllegalArgumentException("permute(): number of dimensions in the tensor input does not match the length of "
          + "the desired ordering of dimensions i.e. input.dim() = " + n + " is not equal to len(dims) = " + dims.length);
    }
    long[] sz = new long[n], st = new long[n];
    int[] wrapped = new int[n];
    boolean[] seen = new boolean[n];
    for (int i = 0; i < n; i++) {
      int d = wrapped[i] = Shapes.wrapDim("permute", dims[i], n);
      if (seen[d]) throw new IllegalArgumentException("permute(): duplicate dims are not allowed.");
      seen[d] = true;
      sz[i] = m.sizes[d];
      st[i] = m.strides[d];
    }
    return recorded(Ops.PERMUTE, t, t.viewOf(Ops.PERMUTE.name, m, sz, st, m.offset), new NodeArgs.Permute(wrapped));
  }

  public static TensorImpl movedim(TensorImpl t, int[] src, int[] dst) {
    return movedim("movedim", t, src, dst);
  }

  /** movedim, refusing as op (moveaxis, its alias). */
  public static TensorImpl movedim(String op, TensorImpl t, int[] src, int[] dst) {
    int n = t.dim();
    if (src.length != dst.length) {
      throw new IllegalArgumentException(op + "(): Invalid source or destination dims: source ("
          + Arrays.toString(src) + " dims) should contain the same number of dims as destination ("
          + Arrays.toString(dst) + " dims)");
    }
    int[] order = new int[Math.max(n, 1)];
    Arrays.fill(order, -1);
    boolean[] used = new boolean[Math.max(n, 1)];
    for (int i = 0; i < src.length; i++) {
      int s = Shapes.wrapDim(op, src[i], n), d = Shapes.wrapDim(op, dst[i], n);
      if (used[s]) throw new IllegalArgumentException(op + "(): repeated dim in `source` (" + Arrays.toString(src) + ")");
      if (order[d] != -1) throw new IllegalArgumentException(op + "(): repeated dim in `destination` (" + Arrays.toString(dst) + ")");
      used[s] = true;
      order[d] = s;
    }
    if (n == 0) return alias(t);
    int next = 0;
    for (int d = 0; d < n; d++) {
      if (order[d] != -1) continue;
      while (used[next]) next++;
      order[d] = next++;
    }
    return permute(t, order);
  }

  public static TensorImpl unsqueeze(TensorImpl t, long dim) {
    TensorImpl.Meta m = t.meta();
    int n = m.sizes.length;
    if (dim < -(n + 1) || dim > n) {
      throw new IllegalArgumentException("unsqueeze(): Dimension out of range (expected to be in range of ["
          + (-(n + 1)) + ", " + n + "], but got " + dim + ")");
    }
    int d = (int) (dim < 0 ? dim + n + 1 : dim);
    Shapes.checkDims("unsqueeze", n + 1);
    long stride = d >= n ? 1 : m.sizes[d] * m.strides[d];
    return recorded(Ops.UNSQUEEZE, t, t.viewOf(Ops.UNSQUEEZE.name, m, insert(m.sizes, d, 1), insert(m.strides, d, stride), m.offset));
  }

  /** squeeze() with no dims removes every size-1 dim; with dims, only those listed that have size 1. */
  public static TensorImpl squeeze(TensorImpl t, int[] dims) {
    TensorImpl.Meta m = t.meta();
    int n = m.sizes.length;
    boolean[] drop = new boolean[n];
    if (dims == null) {
      for (int d = 0; d < n; d++) drop[d] = m.sizes[d] == 1;
    } else {
      boolean[] seen = new boolean[Math.max(n, 1)];
      for (int dim : dims) {
        int d = Shapes.wrapDim("squeeze", dim, n);
        if (seen[d]) throw new IllegalArgumentException("squeeze(): dim " + d + " appears multiple times in the list of dims");
        seen[d] = true;
        if (n > 0) drop[d] = m.sizes[d] == 1;
      }
    }
    int k = 0;
    for (boolean b : drop) if (!b) k++;
    long[] sz = new long[k], st = new long[k];
    for (int d = 0, j = 0; d < n; d++) {
      if (drop[d]) continue;
      sz[j] = m.sizes[d];
      st[j++] = m.strides[d];
    }
    return recorded(Ops.SQUEEZE, t, t.viewOf(Ops.SQUEEZE.name, m, sz, st, m.offset));
  }

  public static TensorImpl expand(TensorImpl t, long[] size) {
    return expand("expand", t, t.meta(), size);
  }

  /** expand, refusing as op (broadcastTo, broadcastTensors). */
  public static TensorImpl expand(String op, TensorImpl t, long[] size) {
    return expand(op, t, t.meta(), size);
  }

  /** expand of the snapshot m of t (a caller that read t's shape from m). */
  static TensorImpl expand(TensorImpl t, TensorImpl.Meta m, long[] size) {
    return expand("expand", t, m, size);
  }

  private static TensorImpl expand(String op, TensorImpl t, TensorImpl.Meta m, long[] size) {
    int n = size.length, tn = m.sizes.length;
    if (n < tn) {
      throw new IllegalArgumentException(op + "(): " + Shapes.tooFewExpandSizes(n, tn));
    }
    Shapes.checkDims(op, n);
    long[] sz = new long[n], st = new long[n];
    for (int i = n - 1; i >= 0; i--) {
      int d = tn - n + i;
      long have = d >= 0 ? m.sizes[d] : 1;
      long stride = d >= 0 ? m.strides[d] : (i == n - 1 ? 1 : sz[i + 1] * st[i + 1]);
      long target = size[i];
      if (target == -1) {
        if (d < 0) {
          throw new IllegalArgumentException(op + "(): The expanded size of the tensor (-1) isn't allowed in a "
              + "leading, non-existing dimension " + i);
        }
        target = have;
      }
      if (target < 0) {
        throw new IllegalArgumentException(op + "(): the expanded size " + target + " at dimension " + i
            + " must be >= 0 (or -1 to keep the size)");
      }
      if (have != target) {
        if (have != 1) {
          throw new IllegalArgumentException(op + "(): " + Shapes.expandMismatch(target, have, i, size, m.sizes));
        }
        stride = 0;
      }
      sz[i] = target;
      st[i] = stride;
    }
    Shapes.numel(op, sz);
    return recorded(Ops.EXPAND, t, t.viewOf(Ops.EXPAND.name, m, sz, st, m.offset));
  }

  public static void swap(long[] a, int i, int j) {
    long x = a[i];
    a[i] = a[j];
    a[j] = x;
  }

  public static long[] remove(long[] a, int i) {
    long[] r = new long[a.length - 1];
    System.arraycopy(a, 0, r, 0, i);
    System.arraycopy(a, i + 1, r, i, a.length - i - 1);
    return r;
  }

  public static long[] insert(long[] a, int i, long v) {
    long[] r = new long[a.length + 1];
    System.arraycopy(a, 0, r, 0, i);
    r[i] = v;
    System.arraycopy(a, i, r, i + 1, a.length - i);
    return r;
  }
}
