package org.jtensor;

import java.util.List;
import org.jtensor.core.Shapes;
import org.jtensor.core.TensorImpl;
import org.jtensor.ops.DataOps;
import org.jtensor.ops.Ops;
import org.jtensor.ops.Recorder;
import org.jtensor.ops.SplitOps;
import org.jtensor.ops.StridedViews;
import org.jtensor.ops.ViewOps;

/**
 * Tensor's views (PyTorch's view ops) and splits: each result shares this tensor's storage; only
 * reshape copies, when no strides can express the new shape. Inherited by {@link Tensor}; the
 * stride arithmetic is in {@link ViewOps} and {@link Shapes}.
 */
public sealed interface ViewMethods permits Tensor {
  private TensorImpl impl(String op) {
    return ((Tensor) this).impl(op);
  }

  private Tensor self() {
    return (Tensor) this;
  }

  default Tensor view(long... size) {
    return Tensor.wrap(ViewOps.view(impl("view"), size));
  }

  default Tensor view(DType dtype) {
    return Tensor.wrap(ViewOps.viewDtype(impl("view"), dtype));
  }

  default Tensor viewAs(Tensor other) {
    return view(other.shape());
  }

  /** A view when the strides allow one, otherwise a contiguous copy. */
  default Tensor reshape(long... shape) {
    TensorImpl t = impl("reshape");
    TensorImpl.Meta m = t.meta();  // the shape inferred, viewed or copied: all from one snapshot
    long[] s = Shapes.inferSize("reshape", shape, m.numel);
    Shapes.checkDims("reshape", s.length);
    TensorImpl v = ViewOps.viewIfPossible(t, m, s);
    if (v != null) return Tensor.wrap(v);
    TensorImpl c = DataOps.cloneAs("reshape", t, m, t.dtype(), m.storage.device(), true);
    try {
      return Tensor.wrap(Recorder.recorded(Ops.RESHAPE, "reshape", new TensorImpl[] {t}, null,
          c.unsafeView(s, Shapes.contiguousStrides(s), 0)));
    } finally {
      c.release();
    }
  }

  default Tensor reshapeAs(Tensor other) {
    return reshape(other.shape());
  }

  default Tensor flatten() {
    return flatten(0, -1);
  }

  default Tensor flatten(int startDim, int endDim) {
    TensorImpl t = impl("flatten");
    int s = Shapes.wrapDim("flatten", startDim, t.dim()), e = Shapes.wrapDim("flatten", endDim, t.dim());  // 0-dim: [-1, 0]
    if (t.dim() == 0) return reshape(1);
    if (s > e) throw new IllegalArgumentException("flatten(): flatten() has invalid args: start_dim cannot come after end_dim");
    if (s == e) return self().same("flatten");
    long[] shape = new long[t.dim() - (e - s)];
    long merged = 1;
    for (int d = s; d <= e; d++) merged *= t.sizes()[d];
    for (int d = 0, j = 0; d < t.dim(); d++) {
      if (d < s || d > e) shape[j++] = t.sizes()[d];
      else if (d == s) shape[j++] = merged;
    }
    return reshape(shape);
  }

  default Tensor unflatten(int dim, long... sizes) {
    TensorImpl t = impl("unflatten");
    if (t.dim() == 0) {  // PyTorch wraps dim with no scalar allowance here
      throw Shapes.noDimensions("unflatten", dim);
    }
    int d = Shapes.wrapDim("unflatten", dim, t.dim());
    if (sizes.length == 0) throw new IllegalArgumentException("unflatten(): sizes must be non-empty");
    long[] inferred;
    try {
      inferred = Shapes.inferSize("unflatten", sizes, t.sizes()[d]);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("unflatten(): Provided sizes " + Shapes.str(sizes)
          + " don't multiply up to the size of dim " + dim + " (" + t.sizes()[d]
          + ") in the input tensor (" + e.getMessage() + ")");
    }
    long[] shape = new long[t.dim() - 1 + inferred.length];
    for (int i = 0, j = 0; i < t.dim(); i++) {
      if (i == d) for (long s : inferred) shape[j++] = s;
      else shape[j++] = t.sizes()[i];
    }
    return view(shape);
  }

  default Tensor transpose(int dim0, int dim1) {
    return Tensor.wrap(ViewOps.transpose(impl("transpose"), dim0, dim1));
  }

  default Tensor swapaxes(int axis0, int axis1) {
    return transpose(axis0, axis1);
  }

  default Tensor swapdims(int dim0, int dim1) {
    return transpose(dim0, dim1);
  }

  default Tensor t() {
    return Tensor.wrap(ViewOps.t(impl("t")));
  }

  default Tensor mT() {
    return Tensor.wrap(ViewOps.mT(impl("mT")));
  }

  default Tensor permute(int... dims) {
    return Tensor.wrap(ViewOps.permute(impl("permute"), dims));
  }

  default Tensor movedim(int source, int destination) {
    return movedim(new int[] {source}, new int[] {destination});
  }

  default Tensor movedim(int[] source, int[] destination) {
    return Tensor.wrap(ViewOps.movedim(impl("movedim"), source, destination));
  }

  default Tensor narrow(int dim, long start, long length) {
    return Tensor.wrap(StridedViews.narrow(impl("narrow"), dim, start, length));
  }

  default Tensor select(int dim, long index) {
    return Tensor.wrap(StridedViews.select(impl("select"), dim, index));
  }

  /** Elements start, start+step, ... before end along dim; start and end clamp as Python slices do. */
  default Tensor slice(int dim, long start, long end, long step) {
    return Tensor.wrap(StridedViews.slice(impl("slice"), dim, start, end, step));
  }

  default Tensor slice(int dim, long start, long end) {
    return slice(dim, start, end, 1);
  }

  default Tensor unsqueeze(int dim) {
    return Tensor.wrap(ViewOps.unsqueeze(impl("unsqueeze"), dim));
  }

  default Tensor squeeze() {
    return Tensor.wrap(ViewOps.squeeze(impl("squeeze"), null));
  }

  default Tensor squeeze(int... dims) {
    return Tensor.wrap(ViewOps.squeeze(impl("squeeze"), dims));
  }

  default Tensor expand(long... size) {
    return Tensor.wrap(ViewOps.expand(impl("expand"), size));
  }

  default Tensor expandAs(Tensor other) {
    return expand(other.shape());
  }

  default Tensor unfold(int dim, long size, long step) {
    return Tensor.wrap(StridedViews.unfold(impl("unfold"), dim, size, step));
  }

  default Tensor diagonal() {
    return diagonal(0, 0, 1);
  }

  default Tensor diagonal(long offset, int dim1, int dim2) {
    return Tensor.wrap(StridedViews.diagonal(impl("diagonal"), offset, dim1, dim2));
  }

  default Tensor asStrided(long[] size, long[] stride) {
    TensorImpl t = impl("asStrided");
    return Tensor.wrap(StridedViews.asStrided(t, size, stride, t.storageOffset()));
  }

  default Tensor asStrided(long[] size, long[] stride, long storageOffset) {
    return Tensor.wrap(StridedViews.asStrided(impl("asStrided"), size, stride, storageOffset));
  }

  default List<Tensor> split(long splitSize, int dim) {
    return Tensor.wrapAll(SplitOps.split(impl("split"), splitSize, dim));
  }

  default List<Tensor> split(long[] splitSizes, int dim) {
    return Tensor.wrapAll(SplitOps.splitWithSizes(impl("split"), splitSizes, dim));
  }

  default List<Tensor> chunk(int chunks, int dim) {
    return Tensor.wrapAll(SplitOps.chunk(impl("chunk"), chunks, dim));
  }

  default List<Tensor> unbind(int dim) {
    return Tensor.wrapAll(SplitOps.unbind(impl("unbind"), dim));
  }

  /** Splits into `sections` parts as equal as possible, the first ones larger. */
  default List<Tensor> tensorSplit(int sections, int dim) {
    return Tensor.wrapAll(SplitOps.tensorSplit(impl("tensorSplit"), sections, dim));
  }

  /** Splits before each of the given indices along dim. */
  default List<Tensor> tensorSplit(long[] indices, int dim) {
    return Tensor.wrapAll(SplitOps.tensorSplitAt(impl("tensorSplit"), indices, dim));
  }
}
