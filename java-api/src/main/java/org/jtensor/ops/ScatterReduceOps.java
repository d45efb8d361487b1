package org.jtensor.ops;

import java.util.Locale;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.autograd.GradMode;
import org.jtensor.core.Shapes;
import org.jtensor.core.TensorImpl;
import org.jtensor.dispatch.IndexAlong;

/**
 * torch.scatter_reduce as PyTorch builds it (scatter_reduce_two): a copy of self (self itself in
 * place) whose indexed slots, when include_self is false, first take the reduction's identity;
 * then every src value along index combines into its slot, in index order (the index kernel's
 * accumulate, prod, amax and amin modes); mean then divides each slot by how many values it
 * met (floor division for integers). Autograd records on self and src (Ops.SCATTER_REDUCE).
 */
public final class ScatterReduceOps {
  private ScatterReduceOps() {}

  /** The five reductions, by the names PyTorch takes. */
  public enum Reduce {
    SUM, PROD, MEAN, AMAX, AMIN;

    static Reduce of(String op, String name) {
      if (name != null) {
        for (Reduce r : values()) if (r.name().toLowerCase(Locale.ROOT).equals(name)) return r;
      }
      throw new IllegalArgumentException(op + "(): reduce argument must be either sum, prod, mean, amax or amin, got " + name);
    }

    String word() {
      return name().toLowerCase(Locale.ROOT);
    }

    IndexAlong.Mode mode() {
      return switch (this) {
        case SUM, MEAN -> IndexAlong.Mode.ACCUMULATE;
        case PROD -> IndexAlong.Mode.PROD;
        case AMAX -> IndexAlong.Mode.AMAX;
        case AMIN -> IndexAlong.Mode.AMIN;
      };
    }
  }

  public static TensorImpl scatterReduce(String op, TensorImpl self, int dim, TensorImpl index, TensorImpl src, String reduce,
                                         boolean includeSelf, boolean inPlace) {
    Reduce r = Reduce.of(op, reduce);
    TensorImpl[] f = TensorImpl.frozen(op, self, index, src);
    try {
      return scatterReduce(op, self, src, f[0], dim, f[1], f[2], r, includeSelf, inPlace);
    } finally {
      TensorImpl.releaseFrozen(f);
    }
  }

  private static TensorImpl scatterReduce(String op, TensorImpl original, TensorImpl originalSrc, TensorImpl self, int dim,
                                          TensorImpl index, TensorImpl src, Reduce r, boolean includeSelf, boolean inPlace) {
    if (index.numel() != 0 && index.dtype() != DType.INT64 && index.dtype() != DType.INT32) {
      throw new IllegalArgumentException(op + "(): Expected dtype int32/int64 for index, got " + index.dtype());
    }
    if (src.dtype() != self.dtype()) {
      throw new IllegalArgumentException(op + "(): Expected self.dtype to be equal to src.dtype, got " + self.dtype() + " and "
          + src.dtype());
    }
    Devices.requireSame(op, self.device(), index.device());
    Devices.requireSame(op, self.device(), src.device());
    int d = Shapes.wrapDim(op, dim, self.dim());
    IndexAlongOps.checkIndexShape(op, self, d, index, src);
    if (r == Reduce.MEAN && self.dtype() == DType.BOOL) {
      throw new UnsupportedOperationException(op + "(): reduce='mean' not implemented for BOOL");
    }
    if (self.device().type() == Device.Type.CUDA && r.mode() != IndexAlong.Mode.ACCUMULATE) {
      throw new UnsupportedOperationException(op + "(): reduce='" + r.word() + "' not implemented for CUDA");
    }
    if (inPlace) {
      DataOps.checkWritable(op, self);
      DataOps.checkNoOverlap(op, self, src);
    }
    TensorImpl out = inPlace ? IndexAlongOps.retained(original) : DataOps.cloneAs(op, self, self.dtype(), self.device(), false);
    return Recorder.complete(() -> self.dtype().isFloatingPoint() && Recorder.active(original, originalSrc)
        ? Recorder.begin(Ops.SCATTER_REDUCE, op, new TensorImpl[] {original, originalSrc}, null,
            new NodeArgs.ScatterReduce(d, r, includeSelf), new TensorImpl[] {index}, inPlace ? original : null) : null, () -> {
      // in place the work happens on a copy that is copied back: self may not change unless all of it succeeds
      TensorImpl work = inPlace ? DataOps.cloneAs(op, self, self.dtype(), self.device(), false) : out;
      try {
        reduceInto(op, work, d, index, src, r, includeSelf);
        if (inPlace) DataOps.copyInto(op, self, work);
      } finally {
        if (inPlace) work.release();
      }
      out.bumpVersion();
    }, out, out);
  }

  /** The reduction, into work (a fresh tensor no one else sees). */
  private static void reduceInto(String op, TensorImpl work, int d, TensorImpl index, TensorImpl src, Reduce r, boolean includeSelf) {
    long[] shape = IndexAlongOps.sizes(index);
    if (Shapes.numel(op, shape) == 0) return;
    try (TensorScope scope = TensorScope.open(); GradMode.Scope off = GradMode.noGrad()) {
      if (!includeSelf) {  // PyTorch's self.scatter_(dim, index, identity)
        TensorImpl init = Handles.impl(identity(r, work.dtype(), work.device(), index.sizes().clone()), op);
        IndexAlongOps.run(new IndexAlong(op, IndexAlong.Mode.SCATTER, d, shape, work, IndexAlongOps.sizes(work),
            IndexAlongOps.strides(work), index, IndexAlongOps.strides(index), init, IndexAlongOps.strides(init)), false);
      }
      IndexAlongOps.run(new IndexAlong(op, r.mode(), d, shape, work, IndexAlongOps.sizes(work), IndexAlongOps.strides(work),
          index, IndexAlongOps.strides(index), src, IndexAlongOps.strides(src)), false);
      if (r == Reduce.MEAN) {
        Tensor w = Handles.wrap(IndexAlongOps.retained(work));
        Tensor count = counts(w, d, Handles.wrap(IndexAlongOps.retained(index)), Handles.wrap(IndexAlongOps.retained(src)),
            includeSelf);
        Tensor mean = w.dtype().isFloatingPoint() ? w.div(count) : w.div(count, "floor");
        DataOps.copyInto(op, work, Handles.impl(mean, op));
      }
    }
  }

  /** How many values each slot of like met: 1 for self (when it counts) plus one per src value; at least 1. */
  static Tensor counts(Tensor like, int d, Tensor index, Tensor src, boolean includeSelf) {
    Tensor count = includeSelf ? Tensor.onesLike(like) : Tensor.zerosLike(like);
    count = count.scatterAdd(d, index.dtype() == DType.INT64 ? index : index.to(DType.INT64), Tensor.onesLike(src));
    return count.maskedFill(count.eq(0L), 1.0);
  }

  /** The value an indexed slot starts from when self does not take part. */
  private static Tensor identity(Reduce r, DType dtype, Device device, long[] shape) {
    boolean max = r == Reduce.AMAX;
    switch (r) {
      case SUM, MEAN -> {
        return Tensor.full(shape, 0L, dtype, device);
      }
      case PROD -> {
        return Tensor.full(shape, 1L, dtype, device);
      }
      default -> {
        if (dtype.isFloatingPoint()) return Tensor.full(shape, max ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY, dtype, device);
        if (dtype == DType.BOOL) return Tensor.full(shape, max ? 0L : 1L, dtype, device);
        long[] range = integerRange(dtype);
        return Tensor.full(shape, max ? range[0] : range[1], dtype, device);
      }
    }
  }

  private static long[] integerRange(DType dtype) {
    return switch (dtype) {
      case UINT8 -> new long[] {0, 255};
      case INT8 -> new long[] {Byte.MIN_VALUE, Byte.MAX_VALUE};
      case INT16 -> new long[] {Short.MIN_VALUE, Short.MAX_VALUE};
      case INT32 -> new long[] {Integer.MIN_VALUE, Integer.MAX_VALUE};
      default -> new long[] {Long.MIN_VALUE, Long.MAX_VALUE};
    };
  }

  /** PyTorch's scatter_reduce_backward (derivatives.yaml): inputs self and src, the result, index saved. */
  static Tensor[] backward(Gradient.Context c, Tensor grad) {
    NodeArgs.ScatterReduce a = c.args(NodeArgs.ScatterReduce.class);
    int d = a.dim();
    Tensor index = c.savedArg(0);
    if (index.dtype() != DType.INT64) index = index.to(DType.INT64);  // gather and scatterAdd take int64 only
    Tensor self = c.input(0);
    Tensor src = region(c.input(1), index.shape());  // the src values that took part
    Tensor result = c.result();
    Tensor gSelf;
    Tensor gSrc;
    switch (a.reduce()) {
      case SUM -> {
        gSelf = grad;
        gSrc = grad.gather(d, index);
      }
      case MEAN -> {
        Tensor n = counts(grad, d, index, src, a.includeSelf());
        gSelf = grad.div(n);
        gSrc = grad.gather(d, index).div(n.gather(d, index));
      }
      case PROD -> {
        // the product of the others, computed without dividing by a zero (PyTorch's masked results)
        Tensor maskedSelf = self.maskedFill(self.eq(0L), 1.0);
        gSelf = grad.mul(maskedSelf.scatterReduce(d, index, src, "prod", a.includeSelf())).div(maskedSelf);
        Tensor srcZero = src.eq(0L);
        Tensor zeros = Tensor.zerosLike(self).scatterAdd(d, index, srcZero.to(self.dtype())).gather(d, index);
        Tensor singleZero = srcZero.logicalAnd(zeros.eq(1L));
        Tensor others = self.scatterReduce(d, index, src.maskedFill(singleZero, 1.0), "prod", a.includeSelf());
        gSrc = Tensor.where(singleZero, grad.mul(others).gather(d, index),
            grad.mul(result).gather(d, index).div(src.maskedFill(srcZero, 1.0)));
      }
      default -> {  // amax, amin: shared evenly among the values equal to the result
        Tensor value = result.gather(d, index);
        Tensor selfIs = self.eq(result).to(self.dtype());
        Tensor srcIs = src.eq(value).to(self.dtype());
        Tensor share = grad.div(selfIs.scatterAdd(d, index, srcIs));
        gSelf = selfIs.mul(share);
        gSrc = srcIs.mul(share.gather(d, index));
      }
    }
    if (!a.includeSelf()) gSelf = gSelf.scatter(d, index, 0.0);
    return Gradient.grads(c.needs(0) ? gSelf : null, c.needs(1) ? padded(gSrc, c.inputShape(1)) : null);
  }

  /** t's leading block of the given shape (index may be smaller than src in every dim). */
  private static Tensor region(Tensor t, long[] shape) {
    for (int k = 0; k < shape.length; k++) if (t.shape()[k] != shape[k]) t = t.narrow(k, 0, shape[k]);
    return t;
  }

  /** g in the leading block of zeros shaped like src. */
  private static Tensor padded(Tensor g, long[] shape) {
    if (java.util.Arrays.equals(g.shape(), shape)) return g;
    Tensor z = Tensor.zeros(shape, g.dtype(), g.device());
    region(z, g.shape()).copy_(g);
    return z;
  }
}
