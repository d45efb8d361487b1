package org.jtensor.ops;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Index;
import org.jtensor.Tensor;
import org.jtensor.access.IndexTerm;
import org.jtensor.access.SharedSecrets;
import org.jtensor.dispatch.Dispatcher;
import org.jtensor.dispatch.IndexAdvanced;
import org.jtensor.core.TensorImpl;
import org.jtensor.core.Shapes;

/**
 * x[...] and x[...] = v with Python's semantics. Basic entries become views; integer-tensor and
 * bool-mask entries (advanced indexing) select through the index tensors themselves, which the
 * device's kernel reads and checks, with the broadcast index shape placed where the advanced
 * entries stand when they are adjacent, and in front otherwise. A mask becomes the columns of
 * its nonzero() coordinates.
 */
public final class AdvancedIndexOps {
  private AdvancedIndexOps() {}

  /** The basic part applied as views, plus the advanced entries found along the way. */
  private static final class Plan implements AutoCloseable {
    TensorImpl view;
    final List<Integer> dims = new ArrayList<>();          // dim in view of each advanced index
    final List<TensorImpl> indices = new ArrayList<>();    // int64 or int32, owned by the plan

    @Override
    public void close() {
      view.release();
      for (TensorImpl t : indices) t.release();
    }
  }

  public static TensorImpl get(TensorImpl t, Index[] idx) {
    try (Plan p = plan("get", t, idx)) {
      if (p.dims.isEmpty()) {
        p.view.retain();
        return p.view;
      }
      long[] shape = resultShape("get", p);
      TensorImpl out = gather(p, shape, p.view, t.dtype());
      if (!out.dtype().isFloatingPoint() || !Recorder.active(p.view)) return out;
      TensorImpl pos;
      try {  // the gradient goes back to the positions read: found by the same indexing of their numbers
        pos = positions(p, shape);
      } catch (RuntimeException e) {
        out.release();
        throw e;
      }
      try {
        return Recorder.recorded(Ops.INDEX, "get", new TensorImpl[] {p.view}, null, new TensorImpl[] {pos}, out);
      } finally {
        pos.release();
      }
    }
  }

  /** p's advanced entries applied to source (p.view, or a tensor of its shape): a new tensor of this shape. */
  private static TensorImpl gather(Plan p, long[] shape, TensorImpl source, DType dtype) {
    TensorImpl out = DataOps.empty("index", shape, dtype, source.device());
    try {
      Plan q = new Plan();
      q.view = source;
      q.dims.addAll(p.dims);
      q.indices.addAll(p.indices);
      IndexAdvanced call = call("get", q, false, shape, out, Shapes.contiguousStrides(shape));
      call.otherIsNew = true;
      if (out.numel() > 0) Dispatcher.backend(source.device()).indexAdvanced(call);
      return out;
    } catch (RuntimeException e) {
      out.release();
      throw e;
    }
  }

  /** For each element get reads, its row-major number within p.view (int64, the result's shape). */
  private static TensorImpl positions(Plan p, long[] shape) {
    TensorImpl numbers = numbered(p.view);
    try {
      return gather(p, shape, numbers, DType.INT64);
    } finally {
      numbers.release();
    }
  }

  public static void set(TensorImpl t, Index[] idx, TensorImpl value) {
    int lead = 0;  // Python's x[...] = v drops v's leading size-1 dims first (slicePrefix1sSize): x[0] = [5.] is taken
    while (lead < value.dim() && value.sizes()[lead] == 1) lead++;
    if (lead == 0) {
      setStripped(t, idx, value);
      return;
    }
    int[] dims = new int[lead];
    for (int k = 0; k < lead; k++) dims[k] = k;
    TensorImpl v = ViewOps.squeeze(value, dims);  // a view: the gradient goes back through it
    try {
      setStripped(t, idx, v);
    } finally {
      v.release();
    }
  }

  private static void setStripped(TensorImpl t, Index[] idx, TensorImpl value) {
    Recorder.Pending rec = null;
    if (t.dtype().isFloatingPoint() && Recorder.active(t, value)) {
      // which of t's elements the assignment writes, by their row-major numbers: the same index read from the numbers
      TensorImpl numbers = numbered(t);
      TensorImpl pos = null;
      try {
        pos = get(numbers, idx);
        rec = Recorder.begin(Ops.INDEX_PUT, "set", new TensorImpl[] {t, value}, null, null, new TensorImpl[] {pos}, t);
      } finally {
        numbers.release();
        if (pos != null) pos.release();
      }
    }
    Recorder.complete(rec, () -> assign(t, idx, value), t, null);
  }

  private static void assign(TensorImpl t, Index[] idx, TensorImpl value) {
    try (Plan p = plan("set", t, idx)) {
      if (p.dims.isEmpty()) {
        DataOps.copyInto("set", p.view, value);
        return;
      }
      DataOps.checkWritable("set", p.view);
      DataOps.checkNoOverlap("set", t, value);  // as PyTorch's index_put_, though the values are staged below
      separateIndices(p);
      long[] shape = resultShape("set", p);
      long[] broadcast = Shapes.broadcastShapes("set", shape, value.sizes());
      if (!Arrays.equals(broadcast, shape)) {
        throw new IllegalArgumentException("set(): shape mismatch: value tensor of shape " + Shapes.str(value.sizes())
            + " cannot be broadcast to indexing result of shape " + Shapes.str(shape));
      }
      TensorImpl src = DataOps.empty("set", shape, t.dtype(), t.device());  // the values converted and broadcast
      try {
        DataOps.copyInto("set", src, value);
        if (src.numel() > 0) Dispatcher.backend(t.device()).indexAdvanced(call("set", p, true, shape, src, src.strides()));
        t.bumpVersion();
      } finally {
        src.release();
      }
    }
  }

  /**
   * The kernel checks every index, then writes while it reads them again: an index in the bytes it
   * writes could change in between and send a write outside the storage. Refused as PyTorch refuses
   * it; an alias too strided to tell is copied first.
   */
  private static void separateIndices(Plan p) {
    for (int j = 0; j < p.indices.size(); j++) {
      TensorImpl x = p.indices.get(j);
      DataOps.checkNoOverlap("set", p.view, x);
      if (DataOps.overlap(p.view, x) == DataOps.Overlap.TOO_HARD) {
        p.indices.set(j, DataOps.cloneAs("set", x, x.dtype(), x.device(), true));
        x.release();
      }
    }
  }

  /** 0, 1, 2, ... in t's shape (int64, row-major): indexing it tells which of t's elements an index reaches. */
  private static TensorImpl numbered(TensorImpl t) {
    long[] sizes = t.sizes();
    TensorImpl flat = Factories.arange(0, t.numel(), 1, DType.INT64, t.device());
    try {
      return flat.unsafeView(sizes.clone(), Shapes.contiguousStrides(sizes), 0);
    } finally {
      flat.release();
    }
  }

  public static void fill(TensorImpl t, Index[] idx, double v, boolean integral, long lv) {
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
    TensorImpl s = DataOps.empty("set", new long[0], dtype, device);
    if (integral) DataOps.fill("set", s, lv);
    else DataOps.fill("set", s, v);
    return s;
  }

  private static Plan plan(String op, TensorImpl t, Index[] idx) {
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
      throw new IndexOutOfBoundsException(op + "(): too many indices for tensor of dimension " + t.dim());
    }
    Plan p = new Plan();
    // An alias of t over one snapshot (recorded, so gradients flow back to t): every later read of
    // the indexed tensor's geometry, and the kernel, see that snapshot whatever set_ does to t.
    p.view = ViewOps.alias(t);
    int d = 0;
    try {
      for (IndexTerm i : terms) {
        switch (i.kind()) {
          case AT: replace(p, ViewOps.select(p.view, d, i.at())); break;
          case SLICE:
            if (i.step() <= 0) throw new IllegalArgumentException(op + "(): step must be greater than zero, got " + i.step());
            replace(p, ViewOps.slice(p.view, d, i.start(), i.end(), i.step()));
            d++;
            break;
          case NONE: replace(p, ViewOps.unsqueeze(p.view, d)); d++; break;
          case ELLIPSIS: d += t.dim() - consumed; break;
          case TENSOR:
            if (isScalarIndex(i.tensor())) replace(p, selectAt(op, p.view, d, i.tensor()));
            else d = addTensorIndex(op, p, d, i.tensor());
            break;
          default: throw new AssertionError(i.kind());
        }
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

  private static TensorImpl selectAt(String op, TensorImpl view, int d, Tensor index) {
    TensorImpl x = Handles.impl(index, op);
    long at = Dispatcher.backend(x.device()).loadLong(op, x, 0), size = view.sizes()[d];
    if (at < -size || at >= size) {
      throw new IndexOutOfBoundsException(op + "(): index " + at + " is out of bounds for dimension " + d + " with size " + size);
    }
    return ViewOps.select(view, d, at);
  }

  private static boolean isMask(Tensor t) {
    DType dt = t.dtype();
    return dt == DType.BOOL || dt == DType.UINT8;
  }

  private static int addTensorIndex(String op, Plan p, int d, Tensor index) {
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
    TensorImpl coords = nonzero(op, x);
    try {
      for (int k = 0; k < mshape.length; k++) {
        p.indices.add(ViewOps.select(coords, 1, k));
        p.dims.add(d + k);
      }
    } finally {
      coords.release();
    }
    return d + mshape.length;
  }

  /** The coordinates of t's non-zero elements, [count, t.dim()] int64, counted and gathered natively. */
  public static TensorImpl nonzero(String op, TensorImpl original) {
    TensorImpl t = original.frozen(op);  // counted and written from one snapshot
    try {
      return nonzeroFrozen(op, t);
    } finally {
      t.release();
    }
  }

  private static TensorImpl nonzeroFrozen(String op, TensorImpl t) {
    var backend = Dispatcher.backend(t.device());
    long count = backend.countNonzero(op, t);
    TensorImpl out = DataOps.empty(op, new long[] {count, t.dim()}, DType.INT64, t.device());
    try {
      if (count > 0 && backend.nonzero(op, t, out) != count) {
        throw new IllegalStateException(op + "(): the tensor changed on another thread while its non-zero elements were read");
      }
      return out;
    } catch (RuntimeException e) {
      out.release();
      throw e;
    }
  }

  private static void replace(Plan p, TensorImpl next) {
    p.view.release();
    p.view = next;
  }

  /** The broadcast shape of the index tensors. */
  private static long[] indexShape(String op, Plan p) {
    long[] b = new long[0];
    for (TensorImpl x : p.indices) b = Shapes.broadcastShapes(op, b, x.sizes());
    return b;
  }

  /** The advanced entries' broadcast shape goes where they stand when they are adjacent, else in front. */
  private static boolean adjacent(Plan p) {
    for (int j = 1; j < p.dims.size(); j++) if (p.dims.get(j) != p.dims.get(j - 1) + 1) return false;
    return true;
  }

  /** The view's dims the indices leave alone, before and after the broadcast index shape in the result. */
  private static List<List<Integer>> restDims(Plan p) {
    boolean adjacent = adjacent(p);
    int first = p.dims.get(0);
    List<Integer> pre = new ArrayList<>(), post = new ArrayList<>();
    for (int d = 0; d < p.view.dim(); d++) {
      if (p.dims.contains(d)) continue;
      (adjacent && d < first ? pre : post).add(d);
    }
    return List.of(pre, post);
  }

  private static long[] resultShape(String op, Plan p) {
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
  private static IndexAdvanced call(String op, Plan p, boolean put, long[] shape, TensorImpl other, long[] otherStrides) {
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
