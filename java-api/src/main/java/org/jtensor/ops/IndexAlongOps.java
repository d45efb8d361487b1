package org.jtensor.ops;

import java.util.List;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.autograd.GradMode;
import org.jtensor.dispatch.Op;
import org.jtensor.dispatch.Dispatcher;
import org.jtensor.dispatch.IndexAlong;
import org.jtensor.core.TensorImpl;
import org.jtensor.core.Shapes;

/**
 * indexSelect, gather, scatter(Add), indexAdd_ and cat with PyTorch's checks: Java checks shapes,
 * dtypes and devices and describes each call by strides (IndexAlong); the device's kernel reads
 * the index tensor itself and checks every value before a byte moves. A 0-dim tensor counts as
 * one dim of size 1 (PyTorch's ensure_nonempty_dim).
 */
public final class IndexAlongOps {
  private IndexAlongOps() {}

  /** A 0-dim tensor's sizes as one dim of size 1. */
  static long[] sizes(TensorImpl t) {
    return t.dim() == 0 ? new long[] {1} : t.sizes();
  }

  static long[] strides(TensorImpl t) {
    return t.dim() == 0 ? new long[] {0} : t.strides();
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

  static TensorImpl retained(TensorImpl t) {
    t.retain();
    return t;
  }

  /**
   * The entries of self along dim at the positions in index (a vector, or a scalar for a 0-dim
   * self), self and index each read through one snapshot (frozen views); autograd records on self.
   */
  public static TensorImpl indexSelect(TensorImpl self, int dim, TensorImpl index) {
    TensorImpl[] f = TensorImpl.frozen("indexSelect", self, index);
    try {
      return indexSelectFrozen(self, f[0], dim, f[1]);
    } finally {
      TensorImpl.releaseFrozen(f);
    }
  }

  private static TensorImpl indexSelectFrozen(TensorImpl original, TensorImpl self, int dim, TensorImpl index) {
    String op = "indexSelect";
    if (index.dim() > 1) throw new IllegalArgumentException(op + "(): Index is supposed to be a vector, got " + index.dim() + "D");
    requireIndexDtype(op, index, true);
    Devices.requireSame(op, self.device(), index.device());
    int d = Shapes.wrapDim(op, dim, self.dim());
    if (self.dim() == 0 && index.numel() != 1) {
      throw new IllegalArgumentException(op + "(): Index to scalar can have only 1 value, got " + index.numel() + " value(s)");
    }
    long[] shape = sizes(self).clone();
    shape[d] = index.numel();
    TensorImpl out = DataOps.empty("indexSelect", self.dim() == 0 ? new long[0] : shape, self.dtype(), self.device());
    try {
      run(new IndexAlong(op, IndexAlong.Mode.GATHER, d, shape, self, sizes(self), strides(self),
          index, sliceStrides(index, shape.length, d), out, contiguousStrides(shape)), true);
      return Recorder.recorded(Ops.INDEX_SELECT, op, new TensorImpl[] {original}, new NodeArgs.Along(d), new TensorImpl[] {index}, out);
    } catch (RuntimeException e) {
      out.release();
      throw e;
    }
  }

  /** out[i][j][k] = self[i][index[i][j][k]][k] (dim 1), out shaped as index; read as indexSelect reads. */
  public static TensorImpl gather(TensorImpl self, int dim, TensorImpl index) {
    TensorImpl[] f = TensorImpl.frozen("gather", self, index);
    try {
      return gatherFrozen(self, f[0], dim, f[1]);
    } finally {
      TensorImpl.releaseFrozen(f);
    }
  }

  private static TensorImpl gatherFrozen(TensorImpl original, TensorImpl self, int dim, TensorImpl index) {
    String op = "gather";
    requireIndexDtype(op, index, false);
    Devices.requireSame(op, self.device(), index.device());
    int d = Shapes.wrapDim(op, dim, self.dim());
    checkIndexShape(op, self, d, index, null);
    TensorImpl out = DataOps.empty("gather", index.sizes().clone(), self.dtype(), self.device());
    try {
      long[] shape = sizes(index);
      run(new IndexAlong(op, IndexAlong.Mode.GATHER, d, shape, self, sizes(self), strides(self),
          index, strides(index), out, contiguousStrides(shape)), true);
      return Recorder.recorded(Ops.GATHER, op, new TensorImpl[] {original}, new NodeArgs.Along(d), new TensorImpl[] {index}, out);
    } catch (RuntimeException e) {
      out.release();
      throw e;
    }
  }

  /**
   * self (a copy, or self itself in place) with self[i][index[i][j][k]][k] = src[i][j][k] (dim 1);
   * add accumulates. self, index and src are each read through one snapshot (frozen views; in
   * place, the kernel writes through self's); autograd records on self and src.
   */
  public static TensorImpl scatter(String op, TensorImpl self, int dim, TensorImpl index, TensorImpl src, boolean add, boolean inPlace) {
    TensorImpl[] f = TensorImpl.frozen(op, self, index, src);
    try {
      return scatter(op, self, src, f[0], dim, f[1], f[2], add, inPlace);
    } finally {
      TensorImpl.releaseFrozen(f);
    }
  }

  private static TensorImpl scatter(String op, TensorImpl original, TensorImpl originalSrc, TensorImpl self, int dim, TensorImpl index,
                                    TensorImpl src, boolean add, boolean inPlace) {
    requireIndexDtype(op, index, false);
    requireSameDtype(op, self, src, "src");
    Devices.requireSame(op, self.device(), index.device());
    Devices.requireSame(op, self.device(), src.device());
    int d = Shapes.wrapDim(op, dim, self.dim());
    checkIndexShape(op, self, d, index, src);
    if (inPlace) {
      DataOps.checkWritable(op, self);
      DataOps.checkNoOverlap(op, self, src);
    }
    TensorImpl out = inPlace ? retained(original) : DataOps.cloneAs(op, self, self.dtype(), self.device(), false);
    TensorImpl target = inPlace ? self : out;  // in place: written through the snapshot (it shares original's version)
    return Recorder.complete(() -> self.dtype().isFloatingPoint() && Recorder.active(original, originalSrc)
        ? Recorder.begin(add ? Ops.SCATTER_ADD : Ops.SCATTER, op, new TensorImpl[] {original, originalSrc}, null,
            new NodeArgs.Along(d), new TensorImpl[] {index}, inPlace ? original : null) : null, () -> {
      run(new IndexAlong(op, add ? IndexAlong.Mode.ACCUMULATE : IndexAlong.Mode.SCATTER, d, sizes(index), target, sizes(target),
          strides(target), index, strides(index), src, strides(src)), false);
      out.bumpVersion();
    }, out, out);
  }

  /**
   * self[..., index[j], ...] += alpha * source[..., j, ...] along dim, in place; self, index and
   * source each read through one snapshot (the kernel writes through self's); autograd records on
   * self and source.
   */
  public static void indexAdd(TensorImpl self, int dim, TensorImpl index, TensorImpl source, double alpha) {
    TensorImpl[] f = TensorImpl.frozen("indexAdd_", self, index, source);
    try {
      indexAdd(self, source, f[0], dim, f[1], f[2], alpha);
    } finally {
      TensorImpl.releaseFrozen(f);
    }
  }

  private static void indexAdd(TensorImpl original, TensorImpl originalSource, TensorImpl self, int dim, TensorImpl index,
                               TensorImpl source, double alpha) {
    String op = "indexAdd_";
    if (index.dim() > 1) throw new IllegalArgumentException(op + "(): Index is supposed to be a vector, got " + index.dim() + "D");
    requireIndexDtype(op, index, true);
    requireSameDtype(op, self, source, "source");
    Devices.requireSame(op, self.device(), index.device());
    Devices.requireSame(op, self.device(), source.device());
    self.dtype().checkScalar(op, alpha);
    int d = Shapes.wrapDim(op, dim, self.dim());
    DataOps.checkWritable(op, self);
    DataOps.checkNoOverlap(op, self, source);
    long[] want = sizes(self).clone();
    want[d] = index.numel();
    if (!java.util.Arrays.equals(want, sizes(source))) {
      throw new IllegalArgumentException(op + "(): source of shape " + Shapes.str(source.sizes()) + " must have shape "
          + Shapes.str(want) + " (self's, with dim " + d + " of size len(index))");
    }
    if (Shapes.numel(op, want) == 0) return;
    Recorder.Pending rec = self.dtype().isFloatingPoint() && Recorder.active(original, originalSource)
        ? Recorder.begin(Ops.INDEX_ADD, op, new TensorImpl[] {original, originalSource}, new double[] {alpha},
            new NodeArgs.Along(d), new TensorImpl[] {index}, original) : null;
    Recorder.complete(rec, () -> {
      try (TensorScope scope = TensorScope.open(); GradMode.Scope off = GradMode.noGrad()) {  // closes the scaled temporary
        Tensor src = Handles.wrap(retained(source));
        // an integer self takes alpha truncated toward zero (2.5 adds twice the source), as PyTorch's
        // static_cast; a bool one alpha != 0 (0.5 is true)
        long integral = self.dtype() == DType.BOOL ? (alpha != 0 ? 1 : 0) : (long) alpha;
        Tensor scaled = alpha == 1 ? src : self.dtype().isFloatingPoint() ? src.mul(alpha) : src.mul(integral);
        // bool * long promotes to int64: back to self's dtype (source && alpha != 0, PyTorch's
        // alpha.to<bool>()), since the kernel reads the values as elements of self's dtype
        if (scaled.dtype() != self.dtype()) scaled = scaled.to(self.dtype());
        TensorImpl values = Handles.impl(scaled, op);
        run(new IndexAlong(op, IndexAlong.Mode.ACCUMULATE, d, want, self, sizes(self), strides(self),
            index, sliceStrides(index, want.length, d), values, strides(values)), false);
        self.bumpVersion();  // the snapshot shares original's version counter
      }
    }, original, null);
  }


  /**
   * PyTorch's gather/scatter shape rules over nonempty dims: index has self's (and src's) number
   * of dims, is no larger than src in any dim and no larger than self outside dim.
   */
  static void checkIndexShape(String op, TensorImpl self, int d, TensorImpl index, TensorImpl src) {
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

  /** Runs one call on the device's kernel; outIsNew when other is the op's fresh output. */
  static void run(IndexAlong call, boolean otherIsNew) {
    call.otherIsNew = otherIsNew;
    Dispatcher.backend(call.self.device()).indexAlong(call);
  }

  /** A vector index's strides over an ndim iteration shape: its own along d, 0 elsewhere (one value per slice). */
  private static long[] sliceStrides(TensorImpl index, int ndim, int d) {
    long[] st = new long[ndim];
    st[d] = index.dim() == 0 ? 0 : index.strides()[0];
    return st;
  }

  private static long[] contiguousStrides(long[] shape) {
    long[] st = new long[shape.length];
    long s = 1;
    for (int k = shape.length - 1; k >= 0; k--) {
      st[k] = s;
      s *= Math.max(1, shape[k]);
    }
    return st;
  }

  /** torch.cat: same shapes except along dim, dtypes promoted; 1-D empty tensors are skipped. */
  public static TensorImpl cat(List<Tensor> tensors, int dim) {
    return cat("cat", tensors, dim);
  }

  /** cat as op (stack's own name for the checks it shares with cat). */
  public static TensorImpl cat(String op, List<Tensor> tensors, int dim) {
    if (tensors == null) throw new IllegalArgumentException(op + "(): tensors must not be null");
    if (tensors.isEmpty()) throw new IllegalArgumentException(op + "(): expected a non-empty list of Tensors");
    TensorImpl[] frozen = new TensorImpl[tensors.size()];  // each read through one snapshot; autograd records on the originals
    try {
      for (int i = 0; i < frozen.length; i++) frozen[i] = element(op, tensors, i).frozen(op);
      return catFrozen(op, tensors, frozen, dim);
    } finally {
      for (TensorImpl f : frozen) if (f != null) f.release();
    }
  }

  private static TensorImpl catFrozen(String op, List<Tensor> tensors, TensorImpl[] frozen, int dim) {
    TensorImpl ref = null;
    TypePromotion promo = TypePromotion.start();
    long total = 0;
    int d = 0;
    for (int i = 0; i < frozen.length; i++) {
      TensorImpl x = frozen[i];
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
        Devices.requireSame(op, ref.device(), x.device());
        for (int k = 0; k < x.dim(); k++) {
          if (k != d && x.sizes()[k] != ref.sizes()[k]) {
            throw new IllegalArgumentException(op + "(): Sizes of tensors must match except in dimension " + d
                + ". Expected size " + ref.sizes()[k] + " but got size " + x.sizes()[k] + " for tensor number " + i + " in the list.");
          }
        }
      }
      total += x.sizes()[d];
      if (total < 0) {
        throw new IllegalArgumentException(op + "(): the tensors' sizes in dimension " + d + " add up past 2^63-1 (at tensor number " + i + ")");
      }
    }
    DType dtype = promo.result();
    if (ref == null) return DataOps.empty(op, new long[] {0}, dtype, frozen[0].device());
    long[] shape = ref.sizes().clone();
    shape[d] = total;
    Shapes.numel(op, shape);  // an overflow is cat's to name
    TensorImpl out = DataOps.empty(op, shape, dtype, ref.device());
    try {
      long at = 0;
      for (TensorImpl x : frozen) {
        if (x.dim() == 1 && x.sizes()[0] == 0) continue;
        TensorImpl slot = StridedViews.slice(out, d, at, at + x.sizes()[d], 1);
        try {
          DataOps.copyInto(op, slot, x);
        } finally {
          slot.release();
        }
        at += x.sizes()[d];
      }
      return recordCat(tensors, frozen, d, out);
    } catch (RuntimeException e) {
      out.release();
      throw e;
    }
  }

  private static TensorImpl recordCat(List<Tensor> tensors, TensorImpl[] frozen, int d, TensorImpl out) {
    TensorImpl[] in = new TensorImpl[tensors.size()];
    long[] sizes = new long[in.length];
    for (int i = 0; i < in.length; i++) {
      in[i] = element("cat", tensors, i);
      sizes[i] = frozen[i].dim() == 1 && frozen[i].sizes()[0] == 0 ? 0 : frozen[i].sizes()[d];
    }
    return Recorder.recorded(Ops.CAT, "cat", in, new NodeArgs.Cat(d, sizes), out);
  }

  private static TensorImpl element(String op, List<Tensor> tensors, int i) {
    Tensor t = tensors.get(i);
    if (t == null) throw new IllegalArgumentException(op + "(): tensor at position " + i + " is null");
    return Handles.impl(t, op);
  }
}
