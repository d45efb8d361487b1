package org.jtensor.ops;

import java.util.ArrayList;
import java.util.List;
import org.jtensor.DType;
import org.jtensor.Index;
import org.jtensor.Tensor;
import org.jtensor.access.IndexTerm;
import org.jtensor.access.SharedSecrets;
import org.jtensor.core.Shapes;
import org.jtensor.core.TensorImpl;
import org.jtensor.dispatch.Dispatcher;
import org.jtensor.dispatch.IndexAdvanced;

/**
 * One x[...] as {@link AdvancedIndexOps} runs it: the basic entries applied as views, the advanced
 * entries (index tensors, a mask's nonzero() columns) found along the way, and the shapes and
 * strides of the kernel's call over the result.
 */
final class IndexPlan implements AutoCloseable {
  TensorImpl view;
  final List<Integer> dims = new ArrayList<>();          // dim in view of each advanced index
  final List<TensorImpl> indices = new ArrayList<>();    // int64 or int32, owned by the plan

  @Override
  public void close() {
    view.release();
    for (TensorImpl t : indices) t.release();
  }

  static IndexPlan plan(String op, TensorImpl t, Index[] idx) {
    int consumed = 0, ellipses = 0;
    IndexTerm[] terms = new IndexTerm[idx.length];
    for (int k = 0; k < idx.length; k++) {
      if (idx[k] == null) throw new IllegalArgumentException(op + "(): index entries must not be null");
      IndexTerm i = terms[k] = SharedSecrets.api().term(idx[k]);
      switch (i.kind()) {
        case AT: case SLICE: consumed++; break;
        case ELLIPSIS: ellipses++; break;
        case TENSOR: consumed += isMask(i.tensor()) ? Math.max(i.tensor().dim(), 0) : 1; break;
        default: break;
      }
    }
    if (ellipses > 1) throw new IllegalArgumentException(op + "(): an index can only have a single ellipsis ('...')");
    if (consumed > t.dim()) {
      if (t.dim() == 0 && terms.length == 1 && terms[0].kind() == IndexTerm.Kind.AT) {  // PyTorch's words for s[0]
        throw new IndexOutOfBoundsException(op + "(): invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
            + "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number");
      }
      if (t.dim() == 0 && terms.length == 1 && terms[0].kind() == IndexTerm.Kind.SLICE) {  // and for s[:]
        throw new IndexOutOfBoundsException(op + "(): slice() cannot be applied to a 0-dim tensor.");
      }
      throw new IndexOutOfBoundsException(op + "(): too many indices for tensor of dimension " + t.dim());
    }
    IndexPlan p = new IndexPlan();
    // An alias of t over one snapshot (recorded, so gradients flow back to t): every later read of
    // the indexed tensor's geometry, and the kernel, see that snapshot whatever set_ does to t.
    p.view = ViewOps.alias(t);
    int d = 0, shown = 0;  // d: the dim in p.view; shown: as PyTorch's messages count it (selected dims too)
    try {
      for (IndexTerm i : terms) {
        int before = d;
        switch (i.kind()) {
          case AT: replace(p, StridedViews.select(p.view, d, inRange(op, p.view, d, shown, i.at()))); shown++; break;
          case SLICE:
            if (i.step() <= 0) throw new IllegalArgumentException(op + "(): step must be greater than zero, got " + i.step());
            replace(p, StridedViews.slice(p.view, d, i.start(), i.end(), i.step()));
            d++;
            break;
          case NONE: replace(p, ViewOps.unsqueeze(p.view, d)); d++; break;
          case ELLIPSIS: d += t.dim() - consumed; break;
          case TENSOR:
            if (isScalarIndex(i.tensor())) {
              replace(p, selectAt(op, p.view, d, shown, i.tensor()));
              shown++;
            } else {
              d = addTensorIndex(op, p, d, i.tensor());
            }
            break;
          default: throw new AssertionError(i.kind());
        }
        shown += d - before;
      }
      return p;
    } catch (RuntimeException e) {
      p.close();
      throw e;
    }
  }

  /** A 0-dim integer (not uint8) tensor indexes as the integer it holds, as PyTorch's applySlicing: a select, a view. */
  private static boolean isScalarIndex(Tensor t) {
    DType dt = t.dtype();
    return t.dim() == 0 && dt != DType.UINT8 && dt != DType.BOOL && !dt.isFloatingPoint();
  }

  private static TensorImpl selectAt(String op, TensorImpl view, int d, int shown, Tensor index) {
    TensorImpl x = Handles.impl(index, op);
    return StridedViews.select(view, d, inRange(op, view, d, shown, Dispatcher.backend(x.device()).loadLong(op, x, 0)));
  }

  /** at, refused in PyTorch's words (IndexError) where it is outside dim d of view (PyTorch's dim `shown`). */
  private static long inRange(String op, TensorImpl view, int d, int shown, long at) {
    long size = view.sizes()[d];
    if (at < -size || at >= size) {
      throw new IndexOutOfBoundsException(op + "(): index " + at + " is out of bounds for dimension " + shown + " with size " + size);
    }
    return at;
  }

  private static boolean isMask(Tensor t) {
    DType dt = t.dtype();
    return dt == DType.BOOL || dt == DType.UINT8;
  }

  private static int addTensorIndex(String op, IndexPlan p, int d, Tensor index) {
    TensorImpl x = Handles.impl(index, op);
    if (!isMask(index)) {
      if (x.dtype() != DType.INT64 && x.dtype() != DType.INT32) {
        throw new IllegalArgumentException(op + "(): tensors used as indices must be long, int, byte or bool tensors, got "
            + x.dtype());
      }
      p.indices.add(x.frozen(op));  // the index tensor read through one snapshot too
      p.dims.add(d);
      return d + 1;
    }
    if (x.dim() == 0) {  // x[True] adds a dim of size 1 and keeps it; x[False] makes it empty
      replace(p, ViewOps.unsqueeze(p.view, d));
      boolean keep = Dispatcher.backend(x.device()).countNonzero(op, x) != 0;
      TensorImpl at = DataOps.empty(op, new long[] {keep ? 1 : 0}, DType.INT64, p.view.device());
      p.indices.add(at);
      if (keep) DataOps.fill(op, at, 0L);
      p.dims.add(d);
      return d + 1;
    }
    long[] mshape = x.sizes();
    for (int k = 0; k < mshape.length; k++) {
      if (mshape[k] != p.view.sizes()[d + k]) {
        throw new IndexOutOfBoundsException(op + "(): The shape of the mask " + Shapes.str(mshape) + " at index " + k
            + " does not match the shape of the indexed tensor " + Shapes.str(p.view.sizes()) + " at index " + (d + k));
      }
    }
    TensorImpl coords = AdvancedIndexOps.nonzero(op, x);
    try {
      for (int k = 0; k < mshape.length; k++) {
        p.indices.add(StridedViews.select(coords, 1, k));
        p.dims.add(d + k);
      }
    } finally {
      coords.release();
    }
    return d + mshape.length;
  }

  private static void replace(IndexPlan p, TensorImpl next) {
    p.view.release();
    p.view = next;
  }

  /** The broadcast shape of the index tensors. */
  static long[] indexShape(String op, IndexPlan p) {
    long[] b = new long[0];
    for (TensorImpl x : p.indices) {
      try {
        b = Shapes.broadcastShapes(op, b, x.sizes());
      } catch (IllegalArgumentException e) {  // PyTorch's IndexError, naming every index tensor's shape
        StringBuilder shapes = new StringBuilder();
        for (TensorImpl y : p.indices) shapes.append(shapes.length() == 0 ? "" : ", ").append(Shapes.str(y.sizes()));
        throw new IndexOutOfBoundsException(op + "(): shape mismatch: indexing tensors could not be broadcast together with shapes " + shapes);
      }
    }
    return b;
  }

  /** The advanced entries' broadcast shape goes where they stand when they are adjacent, else in front. */
  private static boolean adjacent(IndexPlan p) {
    for (int j = 1; j < p.dims.size(); j++) if (p.dims.get(j) != p.dims.get(j - 1) + 1) return false;
    return true;
  }

  /** The view's dims the indices leave alone, before and after the broadcast index shape in the result. */
  private static List<List<Integer>> restDims(IndexPlan p) {
    boolean adjacent = adjacent(p);
    int first = p.dims.get(0);
    List<Integer> pre = new ArrayList<>(), post = new ArrayList<>();
    for (int d = 0; d < p.view.dim(); d++) {
      if (p.dims.contains(d)) continue;
      (adjacent && d < first ? pre : post).add(d);
    }
    return List.of(pre, post);
  }

  static long[] resultShape(String op, IndexPlan p) {
    long[] b = indexShape(op, p);
    List<List<Integer>> rest = restDims(p);
    long[] shape = new long[rest.get(0).size() + b.length + rest.get(1).size()];
    int w = 0;
    for (int d : rest.get(0)) shape[w++] = p.view.sizes()[d];
    for (long s : b) shape[w++] = s;
    for (int d : rest.get(1)) shape[w++] = p.view.sizes()[d];
    return shape;
  }

  /** The call over the result's shape: self's strides on the dims it keeps, each index's on the broadcast block. */
  static IndexAdvanced call(String op, IndexPlan p, boolean put, long[] shape, TensorImpl other, long[] otherStrides) {
    long[] b = indexShape(op, p);
    List<List<Integer>> rest = restDims(p);
    int at = rest.get(0).size();  // where the broadcast block starts in the result
    long[] selfStrides = new long[shape.length];
    int w = 0;
    for (int d : rest.get(0)) selfStrides[w++] = p.view.strides()[d];
    w += b.length;
    for (int d : rest.get(1)) selfStrides[w++] = p.view.strides()[d];
    List<IndexAdvanced.Index> indices = new ArrayList<>();
    for (int j = 0; j < p.indices.size(); j++) {
      TensorImpl x = p.indices.get(j);
      long[] st = new long[shape.length];
      int off = at + b.length - x.dim();
      for (int q = 0; q < x.dim(); q++) st[off + q] = x.sizes()[q] == 1 ? 0 : x.strides()[q];
      indices.add(new IndexAdvanced.Index(x, p.dims.get(j), st));
    }
    return new IndexAdvanced(op, put, shape, p.view, selfStrides, other, otherStrides, indices);
  }
}
