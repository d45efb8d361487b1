package org.jtensor;

import java.util.List;
import org.jtensor.dispatch.Dispatcher;

/**
 * indexSelect, gather, scatter(Add), indexAdd_ and cat with PyTorch's checks: Java checks every
 * index and every shape, computes element offsets, and native code only moves (or adds) the
 * bytes, checking each offset against the storage once more. A 0-dim tensor counts as one dim
 * of size 1 (PyTorch's ensure_nonempty_dim).
 */
final class IndexOps {
  private IndexOps() {}

  /** Row-major offsets of every element of shape under strides. */
  static long[] offsets(String op, long[] shape, long[] strides) {
    long[] out = new long[DataOps.checkedArrayLength(op, Shapes.numel(op, shape))];
    for (int e = 0; e < out.length; e++) {
      long rem = e, off = 0;
      for (int d = shape.length - 1; d >= 0; d--) {
        off += (rem % shape[d]) * strides[d];
        rem /= shape[d];
      }
      out[e] = off;
    }
    return out;
  }

  /** A 0-dim tensor's sizes as one dim of size 1. */
  private static long[] sizes(TensorImpl t) {
    return t.dim() == 0 ? new long[] {1} : t.sizes();
  }

  private static long[] strides(TensorImpl t) {
    return t.dim() == 0 ? new long[] {0} : t.strides();
  }

  /**
   * Offsets into t of every element of shape (t's dims, nonempty), its position along dim d taken
   * from idx: idx[e] for element e (gather, scatter) or, per slice, idx[i_d] (indexSelect, indexAdd_).
   */
  private static long[] offsetsAlong(String op, TensorImpl t, long[] shape, int d, long[] idx, boolean perElement) {
    long[] st = strides(t).clone();
    long stride = st[d];
    st[d] = 0;
    long[] offs = offsets(op, shape, st);
    long inner = 1;
    for (int k = d + 1; k < shape.length; k++) inner *= shape[k];
    for (int e = 0; e < offs.length; e++) {
      offs[e] += (perElement ? idx[e] : idx[(int) ((e / inner) % idx.length)]) * stride;
    }
    return offs;
  }

  /** The index's values, each checked against size and wrapped when negative. */
  private static long[] indexValues(String op, TensorImpl index, long size, int dim) {
    long[] v;
    try (Tensor t = Tensor.wrap(retained(index))) {
      v = t.toLongArray();
    }
    for (int i = 0; i < v.length; i++) {
      if (v[i] < -size || v[i] >= size) {
        throw new IndexOutOfBoundsException(op + "(): index " + v[i] + " is out of bounds for dimension " + dim + " with size " + size);
      }
      if (v[i] < 0) v[i] += size;
    }
    return v;
  }

  private static void requireIndexDtype(String op, TensorImpl index, boolean int32Too) {
    DType t = index.dtype();
    if (t != DType.INT64 && !(int32Too && t == DType.INT32)) {
      throw new IllegalArgumentException(op + "(): Expected dtype int64" + (int32Too ? " or int32" : "") + " for index, got " + t);
    }
  }

  private static void requireSameDtype(String op, TensorImpl self, TensorImpl src, String what) {
    if (src.dtype() != self.dtype()) {
      throw new IllegalArgumentException(op + "(): Expected self.dtype to be equal to " + what + ".dtype, got " + self.dtype()
          + " and " + src.dtype());
    }
  }

  private static void requireSameDevice(String op, TensorImpl a, TensorImpl b) {
    if (!a.device().equals(b.device())) {
      throw new IllegalArgumentException(op + "(): Expected all tensors to be on the same device, but found " + a.device()
          + " and " + b.device());
    }
  }

  private static TensorImpl retained(TensorImpl t) {
    t.retain();
    return t;
  }

  /** The entries of self along dim at the positions in index (a vector, or a scalar for a 0-dim self). */
  static TensorImpl indexSelect(TensorImpl self, int dim, TensorImpl index) {
    String op = "indexSelect";
    if (index.dim() > 1) throw new IllegalArgumentException(op + "(): Index is supposed to be a vector, got " + index.dim() + "D");
    requireIndexDtype(op, index, true);
    requireSameDevice(op, self, index);
    int d = Shapes.wrapDim(op, dim, self.dim());
    if (self.dim() == 0 && index.numel() != 1) {
      throw new IllegalArgumentException(op + "(): Index to scalar can have only 1 value, got " + index.numel() + " value(s)");
    }
    long[] idx = indexValues(op, index, sizes(self)[d], d);
    long[] shape = sizes(self).clone();
    shape[d] = idx.length;
    long[] offs = idx.length == 0 ? new long[0] : offsetsAlong(op, self, shape, d, idx, false);
    return gatherInto(op, self, self.dim() == 0 ? new long[0] : shape, offs);
  }

  /** out[i][j][k] = self[i][index[i][j][k]][k] (dim 1), out shaped as index. */
  static TensorImpl gather(TensorImpl self, int dim, TensorImpl index) {
    String op = "gather";
    requireIndexDtype(op, index, false);
    requireSameDevice(op, self, index);
    int d = Shapes.wrapDim(op, dim, self.dim());
    checkIndexShape(op, self, d, index, null);
    long[] idx = indexValues(op, index, sizes(self)[d], d);
    long[] offs = idx.length == 0 ? new long[0] : offsetsAlong(op, self, sizes(index), d, idx, true);
    return gatherInto(op, self, index.sizes().clone(), offs);
  }

  /** self (a copy, or self itself in place) with self[i][index[i][j][k]][k] = src[i][j][k] (dim 1); add accumulates. */
  static TensorImpl scatter(String op, TensorImpl self, int dim, TensorImpl index, TensorImpl src, boolean add, boolean inPlace) {
    requireIndexDtype(op, index, false);
    requireSameDtype(op, self, src, "src");
    requireSameDevice(op, self, index);
    requireSameDevice(op, self, src);
    int d = Shapes.wrapDim(op, dim, self.dim());
    checkIndexShape(op, self, d, index, src);
    if (inPlace) DataOps.checkWritable(op, self);
    long[] idx = indexValues(op, index, sizes(self)[d], d);
    TensorImpl out = inPlace ? retained(self) : DataOps.cloneAs(self, self.dtype(), self.device(), false);
    TensorImpl values = null;
    try {
      if (idx.length > 0) {
        long[] offs = offsetsAlong(op, out, sizes(index), d, idx, true);
        values = gatherInto(op, src, sizes(index).clone(), offsets(op, sizes(index), strides(src)));
        writeAt(op, out, offs, values, add);
      }
      return out;
    } catch (RuntimeException e) {
      out.release();
      throw e;
    } finally {
      if (values != null) values.release();
    }
  }

  /** self[..., index[j], ...] += alpha * source[..., j, ...] along dim, in place. */
  static void indexAdd(TensorImpl self, int dim, TensorImpl index, TensorImpl source, double alpha) {
    String op = "indexAdd_";
    if (index.dim() > 1) throw new IllegalArgumentException(op + "(): Index is supposed to be a vector, got " + index.dim() + "D");
    requireIndexDtype(op, index, true);
    requireSameDtype(op, self, source, "source");
    requireSameDevice(op, self, index);
    requireSameDevice(op, self, source);
    if (!self.dtype().isFloatingPoint() && alpha != Math.rint(alpha)) {
      throw new IllegalArgumentException(op + "(): For integral input tensors, argument alpha must not be a floating point number.");
    }
    int d = Shapes.wrapDim(op, dim, self.dim());
    DataOps.checkWritable(op, self);
    long[] want = sizes(self).clone();
    want[d] = index.numel();
    if (!java.util.Arrays.equals(want, sizes(source))) {
      throw new IllegalArgumentException(op + "(): source of shape " + Shapes.str(source.sizes()) + " must have shape "
          + Shapes.str(want) + " (self's, with dim " + d + " of size len(index))");
    }
    long[] idx = indexValues(op, index, sizes(self)[d], d);
    if (idx.length == 0 || Shapes.numel(op, want) == 0) return;
    long[] offs = offsetsAlong(op, self, want, d, idx, false);
    try (TensorScope scope = TensorScope.open()) {  // closes the scaled and contiguous temporaries
      Tensor src = Tensor.wrap(retained(source));
      Tensor scaled = alpha == 1 ? src : self.dtype().isFloatingPoint() ? src.mul(alpha) : src.mul((long) alpha);
      Tensor dense = scaled.to(self.dtype()).contiguous();
      writeAt(op, self, offs, dense.impl(op), true);
    }
  }

  /**
   * PyTorch's gather/scatter shape rules over nonempty dims: index has self's (and src's) number
   * of dims, is no larger than src in any dim and no larger than self outside dim.
   */
  private static void checkIndexShape(String op, TensorImpl self, int d, TensorImpl index, TensorImpl src) {
    long[] is = sizes(index), ss = sizes(self);
    if (is.length != ss.length) {
      throw new IllegalArgumentException(op + "(): Index tensor must have the same number of dimensions as self tensor, got "
          + index.dim() + " and " + self.dim());
    }
    long[] rs = src == null ? null : sizes(src);
    if (rs != null && rs.length != is.length) {
      throw new IllegalArgumentException(op + "(): Index tensor must have the same number of dimensions as src tensor, got "
          + index.dim() + " and " + src.dim());
    }
    if (index.numel() == 0) return;
    for (int k = 0; k < is.length; k++) {
      if (k != d && is[k] > ss[k]) {
        throw new IllegalArgumentException(op + "(): Size does not match at dimension " + k + " expected index "
            + Shapes.str(index.sizes()) + " to be smaller than self " + Shapes.str(self.sizes()) + " apart from dimension " + d);
      }
      if (rs != null && is[k] > rs[k]) {
        throw new IllegalArgumentException(op + "(): Expected index " + Shapes.str(index.sizes())
            + " to be smaller than src " + Shapes.str(src.sizes()) + " in every dimension (dimension " + k + ")");
      }
    }
  }

  private static TensorImpl gatherInto(String op, TensorImpl src, long[] shape, long[] offs) {
    TensorImpl out = DataOps.empty(shape, src.dtype(), src.device());
    try {
      if (offs.length > 0) Dispatcher.backend(src.device()).gather(op, out, src, offs);
      return out;
    } catch (RuntimeException e) {
      out.release();
      throw e;
    }
  }

  private static void writeAt(String op, TensorImpl dst, long[] offs, TensorImpl values, boolean add) {
    if (add) Dispatcher.backend(dst.device()).accumulate(op, dst, offs, values);
    else Dispatcher.backend(dst.device()).scatter(op, dst, offs, values);
    dst.bumpVersion();
  }

  /** torch.cat: same shapes except along dim, dtypes promoted; 1-D empty tensors are skipped. */
  static TensorImpl cat(List<Tensor> tensors, int dim) {
    String op = "cat";
    if (tensors == null) throw new IllegalArgumentException(op + "(): tensors must not be null");
    if (tensors.isEmpty()) throw new IllegalArgumentException(op + "(): expected a non-empty list of Tensors");
    TensorImpl ref = null;
    TypePromotion promo = TypePromotion.start();
    long total = 0;
    int d = 0;
    for (int i = 0; i < tensors.size(); i++) {
      TensorImpl x = element(op, tensors, i);
      promo.tensor(x);
      if (x.dim() == 1 && x.sizes()[0] == 0) continue;  // legacy: skipped
      if (x.dim() == 0) throw new IllegalArgumentException(op + "(): zero-dimensional tensor (at position " + i + ") cannot be concatenated");
      if (ref == null) {
        ref = x;
        d = Shapes.wrapDim(op, dim, x.dim());
      } else {
        if (x.dim() != ref.dim()) {
          throw new IllegalArgumentException(op + "(): Tensors must have same number of dimensions: got " + ref.dim() + " and " + x.dim());
        }
        requireSameDevice(op, ref, x);
        for (int k = 0; k < x.dim(); k++) {
          if (k != d && x.sizes()[k] != ref.sizes()[k]) {
            throw new IllegalArgumentException(op + "(): Sizes of tensors must match except in dimension " + d
                + ". Expected size " + ref.sizes()[k] + " but got size " + x.sizes()[k] + " for tensor number " + i + " in the list.");
          }
        }
      }
      total += x.sizes()[d];
    }
    DType dtype = promo.result();
    if (ref == null) return DataOps.empty(new long[] {0}, dtype, element(op, tensors, 0).device());
    long[] shape = ref.sizes().clone();
    shape[d] = total;
    TensorImpl out = DataOps.empty(shape, dtype, ref.device());
    try {
      long at = 0;
      for (int i = 0; i < tensors.size(); i++) {
        TensorImpl x = element(op, tensors, i);
        if (x.dim() == 1 && x.sizes()[0] == 0) continue;
        TensorImpl slot = ViewOps.narrow(out, d, at, x.sizes()[d]);
        try {
          DataOps.copyInto(op, slot, x);
        } finally {
          slot.release();
        }
        at += x.sizes()[d];
      }
      return out;
    } catch (RuntimeException e) {
      out.release();
      throw e;
    }
  }

  private static TensorImpl element(String op, List<Tensor> tensors, int i) {
    Tensor t = tensors.get(i);
    if (t == null) throw new IllegalArgumentException(op + "(): tensor at position " + i + " is null");
    return t.impl(op);
  }
}
