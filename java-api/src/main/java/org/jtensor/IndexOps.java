package org.jtensor;

import java.util.List;
import org.jtensor.dispatch.Dispatcher;

/**
 * index_select, gather, scatter(_add), index_add_ and cat: Java checks every index and computes
 * element offsets; native code only moves (or adds) the bytes.
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

  /**
   * Offsets into t of every element of shape, its position along dim d taken from idx: idx[e] for
   * element e (gather, scatter) or, per slice, idx[i_d] (index_select, index_add_).
   */
  private static long[] offsetsAlong(String op, TensorImpl t, long[] shape, int d, long[] idx, boolean perElement) {
    long[] st = t.strides().clone();
    if (st.length > 0) st[d] = 0;
    long[] offs = offsets(op, shape, st);
    long stride = t.dim() == 0 ? 0 : t.strides()[d];
    long inner = 1;
    for (int k = d + 1; k < shape.length; k++) inner *= shape[k];
    for (int e = 0; e < offs.length; e++) {
      offs[e] += (perElement ? idx[e] : idx[(int) ((e / inner) % Math.max(idx.length, 1))]) * stride;
    }
    return offs;
  }

  static long[] indexValues(String op, TensorImpl index, long size, int dim) {
    if (index.dtype() != DType.INT64 && index.dtype() != DType.INT32) {
      throw new IllegalArgumentException(op + "(): Expected dtype int64 (or int32) for index, got " + index.dtype());
    }
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

  private static TensorImpl retained(TensorImpl t) {
    t.retain();
    return t;
  }

  static TensorImpl indexSelect(TensorImpl self, int dim, TensorImpl index) {
    String op = "index_select";
    if (index.dim() > 1) throw new IllegalArgumentException(op + "(): Index is supposed to be a vector, got " + index.dim() + "D");
    int d = Shapes.wrapDim(op, dim, self.dim());
    long size = self.dim() == 0 ? 1 : self.sizes()[d];
    long[] idx = indexValues(op, index, size, d);
    long[] shape = self.sizes().clone();
    if (self.dim() > 0) shape[d] = idx.length;
    return gatherInto(op, self, shape, offsetsAlong(op, self, shape, d, idx, false));
  }

  /** out[i][j][k] = self[i][index[i][j][k]][k] (dim 1), out shaped as index. */
  static TensorImpl gather(TensorImpl self, int dim, TensorImpl index) {
    String op = "gather";
    int d = checkIndexShape(op, self, dim, index, null);
    long[] idx = indexValues(op, index, self.dim() == 0 ? 1 : self.sizes()[d], d);
    return gatherInto(op, self, index.sizes().clone(), offsetsAlong(op, self, index.sizes(), d, idx, true));
  }

  /** self (a copy) with self[i][index[i][j][k]][k] = src[i][j][k] (dim 1); add accumulates. */
  static TensorImpl scatter(TensorImpl self, int dim, TensorImpl index, TensorImpl src, boolean add, boolean inPlace) {
    String op = add ? "scatter_add" : "scatter";
    int d = checkIndexShape(op, self, dim, index, src);
    long[] idx = indexValues(op, index, self.dim() == 0 ? 1 : self.sizes()[d], d);
    TensorImpl out = inPlace ? retained(self) : DataOps.cloneAs(self, self.dtype(), self.device(), false);
    TensorImpl values = null;
    try {
      long[] offs = offsetsAlong(op, out, index.sizes(), d, idx, true);
      TensorImpl srcT = src.dtype() == self.dtype() ? retained(src) : DataOps.cloneAs(src, self.dtype(), src.device(), false);
      try {
        values = gatherInto(op, srcT, index.sizes().clone(), offsets(op, index.sizes(), srcT.strides()));
      } finally {
        srcT.release();
      }
      writeAt(op, out, offs, values, add);
      return out;
    } catch (RuntimeException e) {
      out.release();
      throw e;
    } finally {
      if (values != null) values.release();
    }
  }

  /** self[..., index[j], ...] += source[..., j, ...] along dim, in place. */
  static void indexAdd(TensorImpl self, int dim, TensorImpl index, TensorImpl source, double alpha) {
    String op = "index_add_";
    int d = Shapes.wrapDim(op, dim, self.dim());
    if (index.dim() > 1) throw new IllegalArgumentException(op + "(): Index is supposed to be a vector");
    long[] idx = indexValues(op, index, self.dim() == 0 ? 1 : self.sizes()[d], d);
    long[] want = self.sizes().clone();
    if (want.length > 0) want[d] = idx.length;
    if (!java.util.Arrays.equals(want, source.sizes())) {
      throw new IllegalArgumentException(op + "(): source of shape " + Shapes.str(source.sizes()) + " must have shape "
          + Shapes.str(want) + " (self with dim " + d + " of size len(index))");
    }
    long[] offs = offsetsAlong(op, self, want, d, idx, false);
    try (Tensor src = Tensor.wrap(retained(source)); Tensor scaled = alpha == 1 ? src.to(self.dtype()) : src.mul(alpha).to(self.dtype());
         Tensor dense = scaled.contiguous()) {
      writeAt(op, self, offs, dense.impl(op), true);
    }
  }

  private static int checkIndexShape(String op, TensorImpl self, int dim, TensorImpl index, TensorImpl src) {
    int d = Shapes.wrapDim(op, dim, self.dim());
    if (index.dim() != self.dim() && !(index.dim() <= 1 && self.dim() <= 1)) {
      throw new IllegalArgumentException(op + "(): Index tensor must have the same number of dimensions as input tensor");
    }
    for (int k = 0; k < index.dim(); k++) {
      if (k != d && index.sizes()[k] > self.sizes()[k]) {
        throw new IllegalArgumentException(op + "(): Size does not match at dimension " + k + " expected index "
            + Shapes.str(index.sizes()) + " to be smaller than self " + Shapes.str(self.sizes()) + " apart from dimension " + d);
      }
      if (src != null && index.sizes()[k] > src.sizes()[k]) {
        throw new IllegalArgumentException(op + "(): Expected index " + Shapes.str(index.sizes())
            + " to be smaller than src " + Shapes.str(src.sizes()));
      }
    }
    return d;
  }

  private static TensorImpl gatherInto(String op, TensorImpl src, long[] shape, long[] offs) {
    TensorImpl out = DataOps.empty(shape, src.dtype(), src.device());
    if (offs.length > 0) {
      src.checkInBounds(op);
      Dispatcher.backend(src.device()).gather(out, src, offs);
    }
    return out;
  }

  private static void writeAt(String op, TensorImpl dst, long[] offs, TensorImpl values, boolean add) {
    DataOps.checkWritable(op, dst);
    dst.checkInBounds(op);
    if (offs.length > 0) {
      if (add) Dispatcher.backend(dst.device()).accumulate(dst, offs, values);
      else Dispatcher.backend(dst.device()).scatter(dst, offs, values);
    }
    dst.bumpVersion();
  }

  /** torch.cat: same shapes except along dim, dtypes promoted; 1-D empty tensors are skipped. */
  static TensorImpl cat(List<Tensor> tensors, int dim) {
    String op = "cat";
    if (tensors.isEmpty()) throw new IllegalArgumentException(op + "(): expected a non-empty list of Tensors");
    TensorImpl ref = null;
    TypePromotion promo = TypePromotion.start();
    long total = 0;
    int d = 0;
    for (Tensor t : tensors) {
      TensorImpl x = t.impl(op);
      promo.tensor(x);
      if (x.dim() == 1 && x.sizes()[0] == 0) continue;  // legacy: skipped
      if (x.dim() == 0) throw new IllegalArgumentException(op + "(): zero-dimensional tensor cannot be concatenated");
      if (ref == null) {
        ref = x;
        d = Shapes.wrapDim(op, dim, x.dim());
      } else {
        if (x.dim() != ref.dim()) {
          throw new IllegalArgumentException(op + "(): Tensors must have same number of dimensions: got " + ref.dim() + " and " + x.dim());
        }
        if (!x.device().equals(ref.device())) throw new IllegalArgumentException(op + "(): Expected all tensors to be on the same device");
        for (int k = 0; k < x.dim(); k++) {
          if (k != d && x.sizes()[k] != ref.sizes()[k]) {
            throw new IllegalArgumentException(op + "(): Sizes of tensors must match except in dimension " + d
                + ". Expected size " + ref.sizes()[k] + " but got size " + x.sizes()[k] + " for tensor number "
                + tensors.indexOf(t) + " in the list.");
          }
        }
      }
      total += x.sizes()[d];
    }
    DType dtype = promo.result();
    if (ref == null) return DataOps.empty(new long[] {0}, dtype, tensors.get(0).impl(op).device());
    long[] shape = ref.sizes().clone();
    shape[d] = total;
    TensorImpl out = DataOps.empty(shape, dtype, ref.device());
    try {
      long at = 0;
      for (Tensor t : tensors) {
        TensorImpl x = t.impl(op);
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
}
