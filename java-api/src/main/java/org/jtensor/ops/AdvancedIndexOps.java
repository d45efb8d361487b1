package org.jtensor.ops;

import java.util.Arrays;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Index;
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

  public static TensorImpl get(TensorImpl t, Index[] idx) {
    try (IndexPlan p = IndexPlan.plan("get", t, idx)) {
      if (p.dims.isEmpty()) {
        p.view.retain();
        return p.view;
      }
      long[] shape = IndexPlan.resultShape("get", p);
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
  private static TensorImpl gather(IndexPlan p, long[] shape, TensorImpl source, DType dtype) {
    TensorImpl out = DataOps.empty("index", shape, dtype, source.device());
    try {
      IndexPlan q = new IndexPlan();
      q.view = source;
      q.dims.addAll(p.dims);
      q.indices.addAll(p.indices);
      IndexAdvanced call = IndexPlan.call("get", q, false, shape, out, Shapes.contiguousStrides(shape));
      call.otherIsNew = true;
      if (out.numel() > 0) Dispatcher.backend(source.device()).indexAdvanced(call);
      return out;
    } catch (RuntimeException e) {
      out.release();
      throw e;
    }
  }

  /** For each element get reads, its row-major number within p.view (int64, the result's shape). */
  private static TensorImpl positions(IndexPlan p, long[] shape) {
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
    try (IndexPlan p = IndexPlan.plan("set", t, idx)) {
      if (p.dims.isEmpty()) {
        DataOps.copyInto("set", p.view, value);
        return;
      }
      DataOps.checkWritable("set", p.view);
      DataOps.checkNoOverlap("set", t, value);  // as PyTorch's index_put_, though the values are staged below
      separateIndices(p);
      long[] shape = IndexPlan.resultShape("set", p);
      long[] broadcast = Shapes.broadcastShapes("set", shape, value.sizes());
      if (!Arrays.equals(broadcast, shape)) {
        throw new IllegalArgumentException("set(): shape mismatch: value tensor of shape " + Shapes.str(value.sizes())
            + " cannot be broadcast to indexing result of shape " + Shapes.str(shape));
      }
      TensorImpl src = DataOps.empty("set", shape, t.dtype(), t.device());  // the values converted and broadcast
      try {
        DataOps.copyInto("set", src, value);
        if (src.numel() > 0) Dispatcher.backend(t.device()).indexAdvanced(IndexPlan.call("set", p, true, shape, src, src.strides()));
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
  private static void separateIndices(IndexPlan p) {
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

}
