package org.jtensor.ops;

import java.util.Arrays;
import org.jtensor.core.Shapes;
import org.jtensor.core.TensorImpl;

/**
 * Views that pick positions of their base (narrow, select, slice, unfold, diagonal, asStrided):
 * each has a new offset or stepped strides, and its derivative reads both geometries. Like every
 * view op, each reads the tensor's metadata once and builds the view over that snapshot.
 */
public final class StridedViews {
  private StridedViews() {}

  /** A view that picks positions (slice, select, diagonal, unfold, asStrided): its derivative reads both geometries. */
  private static TensorImpl strided(org.jtensor.dispatch.Op op, TensorImpl t, TensorImpl.Meta m, long[] sz, long[] st, long off) {
    TensorImpl v = t.viewOf(op.name, m, sz, st, off);
    if (!Recorder.active(t)) return Recorder.unrecordedView(v);
    return Recorder.recorded(op, op.name, new TensorImpl[] {t}, new NodeArgs.Strided(m.strides.clone(), m.offset, st.clone(), off), v);
  }

  public static TensorImpl narrow(TensorImpl t, long dim, long start, long length) {
    TensorImpl.Meta m = t.meta();
    if (m.sizes.length == 0) throw new IllegalArgumentException("narrow(): narrow() cannot be applied to a 0-dim tensor.");
    if (length < 0) throw new IllegalArgumentException("narrow(): narrow(): length must be non-negative.");
    int d = Shapes.wrapDim("narrow", dim, m.sizes.length);
    long size = m.sizes[d];
    if (start < -size || start > size) {
      throw new IndexOutOfBoundsException("narrow(): start out of range (expected to be in range of [" + (-size)
          + ", " + size + "], but got " + start + ")");
    }
    if (start < 0) start += size;
    if (start > size - length) {
      throw new IllegalArgumentException("narrow(): start (" + start + ") + length (" + length
          + ") exceeds dimension size (" + size + ").");
    }
    return slice(t, d, start, start + length, 1);
  }

  public static TensorImpl select(TensorImpl t, long dim, long index) {
    TensorImpl.Meta m = t.meta();
    if (m.sizes.length == 0) throw new IllegalArgumentException("select(): select() cannot be applied to a 0-dim tensor.");
    int d = Shapes.wrapDim("select", dim, m.sizes.length);
    long size = m.sizes[d];
    if (index < -size || index >= size) {
      throw new IndexOutOfBoundsException("select(): index " + index + " out of range for tensor of size "
          + Shapes.str(m.sizes) + " at dimension " + d);
    }
    if (index < 0) index += size;
    long[] sz = ViewOps.remove(m.sizes, d), st = ViewOps.remove(m.strides, d);
    return strided(Ops.SELECT, t, m, sz, st, m.offset + index * m.strides[d]);
  }

  /** Python-style slicing with clamping; null start/end mean the ends, Long.MAX_VALUE means "to the end". */
  public static TensorImpl slice(TensorImpl t, long dim, Long startOrNull, Long endOrNull, long step) {
    TensorImpl.Meta m = t.meta();
    if (m.sizes.length == 0) throw new IllegalArgumentException("slice(): slice() cannot be applied to a 0-dim tensor.");
    if (step <= 0) throw new IllegalArgumentException("slice(): slice step must be positive, got " + step);
    int d = Shapes.wrapDim("slice", dim, m.sizes.length);
    long size = m.sizes[d];
    long start = startOrNull == null ? 0 : startOrNull, end = endOrNull == null ? size : endOrNull;
    if (start < 0) start += size;
    if (end < 0) end += size;
    if (start < 0) start = 0;
    else if (start >= size) start = size;
    if (end < start) end = start;
    else if (end >= size) end = size;
    long[] sz = m.sizes.clone(), st = m.strides.clone();
    sz[d] = end == start ? 0 : (end - start - 1) / step + 1;  // no overflow, whatever the step
    st[d] = steppedStride("slice", st[d], step, sz[d]);
    return strided(Ops.SLICE, t, m, sz, st, m.offset + start * m.strides[d]);
  }

  /**
   * stride * step, the stride of a dim walked every step elements. With at most one element left
   * that stride never addresses anything, so a product past 64 bits (a step near Long.MAX_VALUE)
   * saturates instead of failing, where PyTorch's own product would overflow.
   */
  private static long steppedStride(String op, long stride, long step, long newSize) {
    long hi = Math.multiplyHigh(stride, step), lo = stride * step;
    if ((hi == 0 && lo >= 0) || (hi == -1 && lo < 0)) return lo;
    if (newSize > 1) throw new IllegalArgumentException(op + "(): stride " + stride + " times step " + step + " overflows 64 bits");
    return Long.MAX_VALUE;
  }

  public static TensorImpl unfold(TensorImpl t, long dim, long size, long step) {
    TensorImpl.Meta m = t.meta();
    int n = m.sizes.length;
    int d = Shapes.wrapDim("unfold", dim, n);
    long dimSize = n == 0 ? 1 : m.sizes[d];
    if (size > dimSize) {
      throw new IllegalArgumentException("unfold(): maximum size for tensor at dimension " + d + " is " + dimSize
          + " but size is " + size);
    }
    if (size < 0) throw new IllegalArgumentException("unfold(): size is " + size + " but must be >= 0");
    if (step <= 0) throw new IllegalArgumentException("unfold(): step is " + step + " but must be > 0");
    if (n == 0) return strided(Ops.UNFOLD, t, m, new long[] {size}, new long[] {1}, m.offset);
    long[] sz = Arrays.copyOf(m.sizes, n + 1), st = Arrays.copyOf(m.strides, n + 1);
    sz[d] = (dimSize - size) / step + 1;
    st[d] = steppedStride("unfold", m.strides[d], step, sz[d]);
    sz[n] = size;
    st[n] = m.strides[d];
    Shapes.checkDims("unfold", n + 1);
    return strided(Ops.UNFOLD, t, m, sz, st, m.offset);
  }

  public static TensorImpl diagonal(TensorImpl t, long offset, long dim1, long dim2) {
    TensorImpl.Meta m = t.meta();
    int n = m.sizes.length;
    int a = Shapes.wrapDim("diagonal", dim1, n), b = Shapes.wrapDim("diagonal", dim2, n);
    if (a == b) throw new IllegalArgumentException("diagonal(): diagonal dimensions cannot be identical " + dim1 + ", " + dim2);
    long sa = m.sizes[a], sb = m.sizes[b];
    long len = offset >= 0 ? Math.max(Math.min(sa, sb - offset), 0) : Math.max(Math.min(sa + offset, sb), 0);
    long off = m.offset;
    if (len > 0) off += offset >= 0 ? offset * m.strides[b] : -offset * m.strides[a];
    long[] sz = new long[n - 1], st = new long[n - 1];
    for (int d = 0, j = 0; d < n; d++) {
      if (d == a || d == b) continue;
      sz[j] = m.sizes[d];
      st[j++] = m.strides[d];
    }
    sz[n - 2] = len;
    st[n - 2] = m.strides[a] + m.strides[b];
    return strided(Ops.DIAGONAL, t, m, sz, st, off);
  }

  public static TensorImpl asStrided(TensorImpl t, long[] size, long[] stride, long offset) {
    TensorImpl.Meta m = t.meta();
    checkStridedGeometry("asStrided", size, stride, offset, m.dtype.itemSize(), m.storage.nbytes());
    return strided(Ops.AS_STRIDED, t, m, size.clone(), stride.clone(), offset);
  }

  /** as_strided's and set_'s rules: matching lengths, no negative stride or offset, inside the storage. */
  public static void checkStridedGeometry(String op, long[] size, long[] stride, long offset, int itemSize, long storageBytes) {
    if (size.length != stride.length) {
      throw new IllegalArgumentException(op + "(): mismatch in length of strides and shape: " + Shapes.str(size)
          + " vs " + Shapes.str(stride));
    }
    Shapes.checkDims(op, size.length);
    for (long s : stride) {
      if (s < 0) throw new IllegalArgumentException(op + "(): Negative strides are not supported at the moment, got strides: " + Shapes.str(stride));
    }
    if (offset < 0) throw new IllegalArgumentException(op + "(): Tensor: invalid storage offset " + offset);
    Shapes.numel(op, size);
    long need = Shapes.storageBytesNeeded(op, size, stride, offset, itemSize);
    if (need > storageBytes) {
      throw new IllegalArgumentException(op + "(): setStorage: sizes " + Shapes.str(size) + ", strides "
          + Shapes.str(stride) + ", storage offset " + offset + ", and itemsize " + itemSize
          + " requiring a storage size of " + need + " are out of bounds for storage of size " + storageBytes);
    }
  }
}
