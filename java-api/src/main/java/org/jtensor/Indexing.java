package org.jtensor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jtensor.dispatch.Dispatcher;

/**
 * x[...] and x[...] = v with Python's semantics. Basic entries become views; integer-tensor and
 * bool-mask entries (advanced indexing) gather into a new tensor, with the broadcast index shape
 * placed where the advanced entries stand when they are adjacent, and in front otherwise.
 */
final class Indexing {
  private Indexing() {}

  /** The basic part applied as views, plus the advanced entries found along the way. */
  private static final class Plan implements AutoCloseable {
    TensorImpl view;
    final List<Integer> dims = new ArrayList<>();     // dim in view of each advanced index
    final List<long[]> values = new ArrayList<>();    // its values (row-major over its shape)
    final List<long[]> shapes = new ArrayList<>();

    @Override
    public void close() {
      view.release();
    }
  }

  static TensorImpl get(TensorImpl t, Index[] idx) {
    try (Plan p = plan("get", t, idx)) {
      if (p.dims.isEmpty()) {
        p.view.retain();
        return p.view;
      }
      Gathered g = offsets("get", p);
      TensorImpl out = DataOps.empty(g.shape, t.dtype(), t.device());
      try {
        if (g.offsets.length > 0) Dispatcher.backend(t.device()).gather("get", out, p.view, g.offsets);
        return out;
      } catch (RuntimeException e) {
        out.release();
        throw e;
      }
    }
  }

  static void set(TensorImpl t, Index[] idx, TensorImpl value) {
    try (Plan p = plan("set", t, idx)) {
      if (p.dims.isEmpty()) {
        DataOps.copyInto("set", p.view, value);
        return;
      }
      DataOps.checkWritable("set", p.view);
      Gathered g = offsets("set", p);
      long[] shape = Shapes.broadcastShapes("set", g.shape, value.sizes());
      if (!Arrays.equals(shape, g.shape)) {
        throw new IllegalArgumentException("set(): shape mismatch: value tensor of shape " + Shapes.str(value.sizes())
            + " cannot be broadcast to indexing result of shape " + Shapes.str(g.shape));
      }
      TensorImpl src = DataOps.empty(g.shape, t.dtype(), t.device());
      try {
        DataOps.copyInto("set", src, value);
        if (g.offsets.length > 0) Dispatcher.backend(t.device()).scatter("set", p.view, g.offsets, src);
        t.bumpVersion();
      } finally {
        src.release();
      }
    }
  }

  static void fill(TensorImpl t, Index[] idx, double v, boolean integral, long lv) {
    TensorImpl value = scalarTensor(t.dtype(), t.device(), v, integral, lv);
    try {
      set(t, idx, value);
    } finally {
      value.release();
    }
  }

  private static TensorImpl scalarTensor(DType dtype, Device device, double v, boolean integral, long lv) {
    if (integral) dtype.checkFits("set", lv);
    else dtype.checkFits("set", v);
    TensorImpl s = DataOps.empty(new long[0], dtype, device);
    if (integral) DataOps.fill("set", s, lv);
    else DataOps.fill("set", s, v);
    return s;
  }

  private static Plan plan(String op, TensorImpl t, Index[] idx) {
    int consumed = 0, ellipses = 0;
    for (Index i : idx) {
      if (i == null) throw new IllegalArgumentException(op + "(): index entries must not be null");
      switch (i.kind) {
        case AT: case SLICE: consumed++; break;
        case ELLIPSIS: ellipses++; break;
        case TENSOR: consumed += isMask(i.tensor) ? Math.max(i.tensor.dim(), 0) : 1; break;
        default: break;
      }
    }
    if (ellipses > 1) throw new IllegalArgumentException(op + "(): an index can only have a single ellipsis ('...')");
    if (consumed > t.dim()) {
      throw new IndexOutOfBoundsException(op + "(): too many indices for tensor of dimension " + t.dim());
    }
    Plan p = new Plan();
    t.retain();
    p.view = t;
    int d = 0;
    try {
      for (Index i : idx) {
        switch (i.kind) {
          case AT: replace(p, ViewOps.select(p.view, d, i.at)); break;
          case SLICE:
            if (i.step <= 0) throw new IllegalArgumentException(op + "(): step must be greater than zero, got " + i.step);
            replace(p, ViewOps.slice(p.view, d, i.start, i.end, i.step));
            d++;
            break;
          case NONE: replace(p, ViewOps.unsqueeze(p.view, d)); d++; break;
          case ELLIPSIS: d += t.dim() - consumed; break;
          case TENSOR: d = addTensorIndex(op, p, d, i.tensor); break;
          default: throw new AssertionError(i.kind);
        }
      }
      return p;
    } catch (RuntimeException e) {
      p.close();
      throw e;
    }
  }

  private static boolean isMask(Tensor t) {
    DType dt = t.dtype();
    return dt == DType.BOOL || dt == DType.UINT8;
  }

  private static int addTensorIndex(String op, Plan p, int d, Tensor index) {
    if (!isMask(index)) {
      if (index.dtype() != DType.INT64 && index.dtype() != DType.INT32) {
        throw new IllegalArgumentException(op + "(): tensors used as indices must be long, int, byte or bool tensors, got "
            + index.dtype());
      }
      long size = p.view.sizes()[d];
      long[] v = index.toLongArray();
      for (int k = 0; k < v.length; k++) {
        if (v[k] < -size || v[k] >= size) {
          throw new IndexOutOfBoundsException(op + "(): index " + v[k] + " is out of bounds for dimension " + d
              + " with size " + size);
        }
        if (v[k] < 0) v[k] += size;
      }
      p.dims.add(d);
      p.values.add(v);
      p.shapes.add(index.shape());
      return d + 1;
    }
    if (index.dim() == 0) {  // x[True] adds a dim of size 1 and keeps it; x[False] makes it empty
      replace(p, ViewOps.unsqueeze(p.view, d));
      boolean keep = index.toLongArray()[0] != 0;
      p.dims.add(d);
      p.values.add(keep ? new long[] {0} : new long[0]);
      p.shapes.add(new long[] {keep ? 1 : 0});
      return d + 1;
    }
    long[] mshape = index.shape();
    for (int k = 0; k < mshape.length; k++) {
      if (mshape[k] != p.view.sizes()[d + k]) {
        throw new IndexOutOfBoundsException(op + "(): The shape of the mask " + Shapes.str(mshape) + " at index " + k
            + " does not match the shape of the indexed tensor " + Shapes.str(p.view.sizes()) + " at index " + (d + k));
      }
    }
    long[] m = index.toLongArray();
    int nnz = 0;
    for (long x : m) if (x != 0) nnz++;
    long[][] coords = new long[mshape.length][nnz];
    long[] strides = Shapes.contiguousStrides(mshape);
    for (int flat = 0, j = 0; flat < m.length; flat++) {
      if (m[flat] == 0) continue;
      for (int k = 0; k < mshape.length; k++) coords[k][j] = (flat / strides[k]) % mshape[k];
      j++;
    }
    for (int k = 0; k < mshape.length; k++) {
      p.dims.add(d + k);
      p.values.add(coords[k]);
      p.shapes.add(new long[] {nnz});
    }
    return d + mshape.length;
  }

  private static void replace(Plan p, TensorImpl next) {
    p.view.release();
    p.view = next;
  }

  private record Gathered(long[] shape, long[] offsets) {}

  /** Element offsets (from the view's data address) of every element of the result, row-major. */
  private static Gathered offsets(String op, Plan p) {
    TensorImpl v = p.view;
    int n = v.dim(), k = p.dims.size();
    long[] b = new long[0];
    for (long[] s : p.shapes) b = Shapes.broadcastShapes(op, b, s);
    long nb = Shapes.numel(op, b);
    long[] adv = new long[DataOps.checkedArrayLength(op, nb)];  // offset of each broadcast index tuple
    long[] bStrides = Shapes.contiguousStrides(b);
    for (int j = 0; j < k; j++) {
      long[] vals = p.values.get(j), shape = p.shapes.get(j);
      long stride = v.strides()[p.dims.get(j)];
      int off = b.length - shape.length;
      long[] sStrides = Shapes.contiguousStrides(shape);
      for (int e = 0; e < adv.length; e++) {
        long src = 0;  // position in this index's own (broadcast) array
        for (int q = 0; q < shape.length; q++) {
          if (shape[q] != 1) src += (e / bStrides[off + q]) % b[off + q] * sStrides[q];
        }
        adv[e] += vals[(int) src] * stride;
      }
    }
    boolean adjacent = true;
    for (int j = 1; j < k; j++) adjacent &= p.dims.get(j) == p.dims.get(j - 1) + 1;
    int first = p.dims.get(0);
    List<Integer> pre = new ArrayList<>(), post = new ArrayList<>();
    for (int d = 0; d < n; d++) {
      if (p.dims.contains(d)) continue;
      (adjacent && d < first ? pre : post).add(d);
    }
    long[] shape = new long[pre.size() + b.length + post.size()];
    int w = 0;
    for (int d : pre) shape[w++] = v.sizes()[d];
    for (long s : b) shape[w++] = s;
    for (int d : post) shape[w++] = v.sizes()[d];
    long[] preOff = restOffsets(v, pre), postOff = restOffsets(v, post);
    long total = Shapes.numel(op, shape);
    long[] out = new long[DataOps.checkedArrayLength(op, total)];
    int i = 0;
    for (long a : preOff) for (long x : adv) for (long c : postOff) out[i++] = a + x + c;
    return new Gathered(shape, out);
  }

  /** Offsets of every combination of the given (non-indexed) dims, row-major. */
  private static long[] restOffsets(TensorImpl v, List<Integer> dims) {
    long[] sizes = new long[dims.size()], strides = new long[dims.size()];
    for (int q = 0; q < sizes.length; q++) {
      sizes[q] = v.sizes()[dims.get(q)];
      strides[q] = v.strides()[dims.get(q)];
    }
    return IndexOps.offsets("index", sizes, strides);
  }
}
