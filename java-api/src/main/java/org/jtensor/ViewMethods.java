package org.jtensor;

import java.util.ArrayList;
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

  /** torch.roll: elements shifted along each dim, wrapping around; no dims: over the flattened tensor, shape kept. */
  default Tensor roll(long[] shifts, int[] dims) {
    Tensor self = self();
    if (dims.length == 0) {
      if (shifts.length != 1) {
        throw new IllegalArgumentException("roll(): shifts and dimensions must align. shifts: " + shifts.length + ", dims:0");
      }
      try (TensorScope s = TensorScope.open()) {
        return s.keep(freshAs(self.flatten(0, -1).roll(shifts, new int[] {0}), self.shape()));  // a new tensor, not a view
      }
    }
    if (shifts.length != dims.length) {
      throw new IllegalArgumentException("roll(): shifts and dimensions must align. shifts: " + shifts.length + ", dims:" + dims.length);
    }
    if (self.dim() == 0) {  // PyTorch's IndexError, before a dim of no shape is read
      throw Shapes.noDimensions("roll", dims[0]);
    }
    try (TensorScope s = TensorScope.open()) {
      Tensor r = self;
      for (int i = 0; i < dims.length; i++) {
        int d = Shapes.wrapDim("roll", dims[i], self.dim());
        long n = self.shape()[d];
        long k = n == 0 ? 0 : Math.floorMod(shifts[i], n);
        if (k != 0) r = Tensor.cat(List.of(r.narrow(d, n - k, k), r.narrow(d, 0, n - k)), d);
      }
      return s.keep(r == self ? self.clone() : r);
    }
  }

  default Tensor roll(long shift, int dim) {
    return roll(new long[] {shift}, new int[] {dim});
  }

  /** torch.flip: a copy with the elements' order reversed along each of dims (each named once). */
  default Tensor flip(int... dims) {
    Tensor self = self();
    int n = self.dim();
    boolean[] seen = new boolean[Math.max(n, 1)];
    try (TensorScope s = TensorScope.open()) {
      Tensor r = self;
      for (int dim : dims) {
        int d = Shapes.wrapDim("flip", dim, n);
        if (seen[d]) throw new IllegalArgumentException("flip(): dim " + d + " appears multiple times in the list of dims");
        seen[d] = true;
        long size = n == 0 ? 1 : self.shape()[d];
        if (size > 1) r = r.indexSelect(d, Tensor.arange(size - 1, -1, -1, DType.INT64).to(self.device()));
      }
      return s.keep(r == self ? self.clone() : r);
    }
  }

  /**
   * torch.Tensor.repeat: a copy tiled repeats[i] times along dim i; with more repeats than dims,
   * the tensor is first seen with leading dims of size 1.
   */
  default Tensor repeat(long... repeats) {
    Tensor self = self();
    long[] shape = self.shape();
    int k = repeats.length;
    if (k < shape.length) {
      throw new IllegalArgumentException("repeat(): Number of dimensions of repeat dims can not be smaller than number of "
          + "dimensions of tensor");
    }
    long[] padded = new long[k], out = new long[k], pairs = new long[2 * k], tiled = new long[2 * k];
    java.util.Arrays.fill(padded, 1);
    System.arraycopy(shape, 0, padded, k - shape.length, shape.length);
    for (int i = 0; i < k; i++) out[i] = padded[i] * repeats[i];
    for (int i = 0; i < k; i++) {
      if (repeats[i] < 0) {
        throw new IllegalArgumentException("repeat(): Trying to create tensor with negative dimension " + out[i] + ": "
            + java.util.Arrays.toString(out));
      }
      pairs[2 * i] = 1;
      pairs[2 * i + 1] = padded[i];
      tiled[2 * i] = repeats[i];
      tiled[2 * i + 1] = padded[i];
    }
    try (TensorScope s = TensorScope.open()) {  // [1, s0, 1, s1, ...] expanded to [r0, s0, r1, s1, ...], copied, then viewed
      Tensor copy = self.reshape(pairs).expand(tiled).contiguous();
      if (copy.isAliasOf(self)) copy = copy.clone();  // every repeat 1: still a copy, as PyTorch's
      return s.keep(freshAs(copy, out));  // not a view of the copy: _base None, as PyTorch's
    }
  }

  /** torch.tile: repeat, with dims padded by leading 1s when fewer than the tensor's dims. */
  default Tensor tile(long... dims) {
    int n = self().dim();
    if (dims.length >= n) return repeat(dims);
    long[] padded = new long[n];
    java.util.Arrays.fill(padded, 1);
    System.arraycopy(dims, 0, padded, n - dims.length, dims.length);
    return repeat(padded);
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
    return wrapAll(SplitOps.split(impl("split"), splitSize, dim));
  }

  default List<Tensor> split(long[] splitSizes, int dim) {
    return wrapAll(SplitOps.splitWithSizes(impl("split"), splitSizes, dim));
  }

  default List<Tensor> chunk(int chunks, int dim) {
    return wrapAll(SplitOps.chunk(impl("chunk"), chunks, dim));
  }

  default List<Tensor> unbind(int dim) {
    return wrapAll(SplitOps.unbind(impl("unbind"), dim));
  }

  /** Splits into `sections` parts as equal as possible, the first ones larger. */
  default List<Tensor> tensorSplit(int sections, int dim) {
    return wrapAll(SplitOps.tensorSplit(impl("tensorSplit"), sections, dim));
  }

  /** Splits before each of the given indices along dim. */
  default List<Tensor> tensorSplit(long[] indices, int dim) {
    return wrapAll(SplitOps.tensorSplitAt(impl("tensorSplit"), indices, dim));
  }

  /**
   * r, a tensor this op has just made (seen by no one else), as shape without being a view of it,
   * as PyTorch's _unsafe_view: the result of a copying op (repeat, roll) is no view (_base None).
   */
  private static Tensor freshAs(Tensor r, long[] shape) {
    TensorImpl t = r.impl("reshape");
    TensorImpl.Meta m = t.meta();
    if (!m.contiguous || t.base() != null) return r.reshape(shape);  // not expected; the plain path
    return Tensor.wrap(Recorder.recorded(Ops.RESHAPE, "reshape", new TensorImpl[] {t}, null,
        t.unsafeView(shape.clone(), Shapes.contiguousStrides(shape), m.offset)));
  }

  private static List<Tensor> wrapAll(List<TensorImpl> impls) {
    List<Tensor> out = new ArrayList<>(impls.size());
    for (TensorImpl t : impls) out.add(Tensor.wrap(t));
    return out;
  }
}
