package org.jtensor;

import org.jtensor.core.TensorImpl;
import org.jtensor.core.Shapes;
import org.jtensor.ops.AdvancedIndexOps;
import org.jtensor.ops.DataOps;
import org.jtensor.ops.ElementwiseOps;
import org.jtensor.ops.IndexAlongOps;
import org.jtensor.ops.Operand;
import org.jtensor.ops.Ops;
import org.jtensor.ops.ScatterReduceOps;

/** Tensor's indexing ops, inherited by {@link Tensor}. */
public sealed interface IndexingMethods permits Tensor {
  private TensorImpl impl(String op) {
    return ((Tensor) this).impl(op);
  }

  private Tensor self() {
    return (Tensor) this;
  }

  /** x[idx...]: basic entries give a view, tensor entries a copy. */
  default Tensor get(Index... idx) {
    return Tensor.wrap(AdvancedIndexOps.get(impl("index"), idx));
  }

  /** x[idx...] = value, broadcasting value and converting its dtype. */
  default Tensor set(Index[] idx, Tensor value) {
    AdvancedIndexOps.set(impl("set"), idx, Tensor.implOf(value, "set"));
    return self();
  }

  /** x[idx...] = value, the index given last (varargs). */
  default Tensor set(Tensor value, Index... idx) {
    return set(idx, value);
  }

  default Tensor set(Number value, Index... idx) {
    return set(idx, value);
  }

  default Tensor set(Index[] idx, Number value) {
    TensorImpl t = impl("set");
    if (value == null) throw new IllegalArgumentException("set(): value must be a number or a tensor, not null");
    if (value instanceof Double || value instanceof Float) AdvancedIndexOps.fill(t, idx, value.doubleValue(), false, 0);
    else AdvancedIndexOps.fill(t, idx, 0, true, value.longValue());
    return self();
  }

  /** The entries of self along dim at the positions in index (a 1-D integer tensor). */
  /**
   * Each element repeated `repeats` times along dim, in place (torch.repeat_interleave): [a, b] → [a,
   * a, b, b]; a view expanded and reshaped, so the gradient sums the copies.
   */
  default Tensor repeatInterleave(long repeats, int dim) {
    Tensor self = (Tensor) this;
    if (repeats < 0) throw new IllegalArgumentException("repeatInterleave(): repeats can not be negative, got " + repeats);
    if (self.dim() == 0) throw zeroDimRepeat();
    int d = org.jtensor.core.Shapes.wrapDim("repeatInterleave", dim, self.dim());
    long[] shape = self.shape(), expanded = new long[shape.length + 1], out = shape.clone();
    for (int i = 0, j = 0; i < shape.length; i++) {
      expanded[j++] = shape[i];
      if (i == d) expanded[j++] = repeats;
    }
    if (repeats != 0 && shape[d] > Long.MAX_VALUE / repeats) {
      throw new IllegalArgumentException("repeatInterleave(): " + shape[d] + " elements repeated " + repeats + " times overflow a long");
    }
    out[d] = shape[d] * repeats;
    try (TensorScope s = TensorScope.open()) {
      return s.keep(self.unsqueeze(d + 1).expand(expanded).reshape(out));
    }
  }

  /** PyTorch's refusal of a dim for a 0-dim tensor (only the flattened form repeats one). */
  private static IllegalArgumentException zeroDimRepeat() {
    return new IllegalArgumentException("repeatInterleave(): Dimension out of range (expected to be in range of [-1, 0], but got 1); "
        + "a 0-dim tensor repeats only without a dim");
  }

  /** Every element of the flattened tensor repeated `repeats` times. */
  default Tensor repeatInterleave(long repeats) {
    try (TensorScope s = TensorScope.open()) {
      return s.keep(((Tensor) this).reshape(-1).repeatInterleave(repeats, 0));
    }
  }

  /** Element i along dim repeated repeats[i] times (repeats 1-D int64 of dim's size, or one element for all). */
  default Tensor repeatInterleave(Tensor repeats, int dim) {
    Tensor self = (Tensor) this;
    int d = org.jtensor.core.Shapes.wrapDim("repeatInterleave", dim, self.dim());
    if (repeats.dim() > 1 || (repeats.dtype() != DType.INT32 && repeats.dtype() != DType.INT64)) {
      throw new IllegalArgumentException("repeatInterleave(): repeats must be a 0-D or 1-D int32 or int64 tensor, got " + repeats.dim() + "-D "
          + repeats.dtype());
    }
    if (self.dim() == 0) throw zeroDimRepeat();
    if (repeats.numel() == 1) return repeatInterleave(repeats.toLongArray()[0], d);
    long[] counts = repeats.toLongArray();
    if (counts.length != self.shape()[d]) {
      throw new IllegalArgumentException("repeatInterleave(): repeats must have the same size as input along dim, but got repeats.size(0) = "
          + counts.length + " and input.size(" + d + ") = " + self.shape()[d]);
    }
    long total = 0;
    for (long c : counts) {
      if (c < 0) throw new IllegalArgumentException("repeatInterleave(): repeats can not be negative");
      if (total > Integer.MAX_VALUE - c) throw new IllegalArgumentException("repeatInterleave(): the repeats add up to more than 2^31 - 1");
      total += c;
    }
    // the index in tensor memory (a huge total is the allocator's TensorOutOfMemoryException, not a Java
    // heap array's OutOfMemoryError): output position p takes element #{i : ends[i] <= p}, ends the running sums
    try (TensorScope s = TensorScope.open()) {
      Tensor ends = Tensor.fromArray(counts).cumsum(0);
      Tensor marks = Tensor.zeros(new long[] {total + 1}, DType.INT64);
      marks.indexAdd_(0, ends, Tensor.ones(new long[] {counts.length}, DType.INT64));
      Tensor index = marks.narrow(0, 0, total).cumsum(0);
      return s.keep(self.indexSelect(d, index.to(self.device())));
    }
  }

  default Tensor indexSelect(int dim, Tensor index) {
    return Tensor.wrap(IndexAlongOps.indexSelect(impl("indexSelect"), dim, Tensor.implOf(index, "indexSelect")));
  }

  /** out[i][j][k] = self[i][index[i][j][k]][k] for dim 1 (and likewise for other dims). */
  default Tensor gather(int dim, Tensor index) {
    return Tensor.wrap(IndexAlongOps.gather(impl("gather"), dim, Tensor.implOf(index, "gather")));
  }

  /** A copy of self with self[i][index[i][j][k]][k] = src[i][j][k] (dim 1); the last write wins. */
  default Tensor scatter(int dim, Tensor index, Tensor src) {
    return Tensor.wrap(IndexAlongOps.scatter("scatter", impl("scatter"), dim, Tensor.implOf(index, "scatter"), Tensor.implOf(src, "scatter"), false, false));
  }

  default Tensor scatter_(int dim, Tensor index, Tensor src) {
    IndexAlongOps.scatter("scatter_", impl("scatter_"), dim, Tensor.implOf(index, "scatter_"), Tensor.implOf(src, "scatter_"), false, true).release();
    return self();
  }

  /** scatter with one value for every indexed slot (torch's scatter_(dim, index, value)); it is cast to this dtype. */
  default Tensor scatter(int dim, Tensor index, double value) {
    try (Tensor src = filledLike("scatter", index, value)) {
      return scatter(dim, index, src);
    }
  }

  default Tensor scatter_(int dim, Tensor index, double value) {
    try (Tensor src = filledLike("scatter_", index, value)) {
      return scatter_(dim, index, src);
    }
  }

  /** value in index's shape, in this tensor's dtype and on its device: a scalar scatter's source. */
  private Tensor filledLike(String op, Tensor index, double value) {
    TensorImpl t = impl(op);
    t.dtype().checkScalar(op, value);  // refused under the caller's name, not full's
    return Tensor.full(Tensor.implOf(index, op).sizes().clone(), value, t.dtype(), t.device());
  }

  /** Like scatter, but every src value adds into its slot. */
  default Tensor scatterAdd(int dim, Tensor index, Tensor src) {
    return Tensor.wrap(IndexAlongOps.scatter("scatterAdd", impl("scatterAdd"), dim, Tensor.implOf(index, "scatterAdd"), Tensor.implOf(src, "scatterAdd"), true, false));
  }

  default Tensor scatterAdd_(int dim, Tensor index, Tensor src) {
    IndexAlongOps.scatter("scatterAdd_", impl("scatterAdd_"), dim, Tensor.implOf(index, "scatterAdd_"), Tensor.implOf(src, "scatterAdd_"), true, true).release();
    return self();
  }

  /**
   * torch.scatter_reduce: a copy of self where every src value along index combines into its slot by
   * reduce ("sum", "prod", "mean", "amax" or "amin"); with includeSelf false the slots written drop
   * self's value. prod, amax and amin run on CPU only.
   */
  default Tensor scatterReduce(int dim, Tensor index, Tensor src, String reduce, boolean includeSelf) {
    return Tensor.wrap(ScatterReduceOps.scatterReduce("scatterReduce", impl("scatterReduce"), dim, Tensor.implOf(index, "scatterReduce"),
        Tensor.implOf(src, "scatterReduce"), reduce, includeSelf, false));
  }

  /** scatterReduce with includeSelf true, PyTorch's default. */
  default Tensor scatterReduce(int dim, Tensor index, Tensor src, String reduce) {
    return scatterReduce(dim, index, src, reduce, true);
  }

  default Tensor scatterReduce_(int dim, Tensor index, Tensor src, String reduce, boolean includeSelf) {
    ScatterReduceOps.scatterReduce("scatterReduce_", impl("scatterReduce_"), dim, Tensor.implOf(index, "scatterReduce_"),
        Tensor.implOf(src, "scatterReduce_"), reduce, includeSelf, true).release();
    return self();
  }

  default Tensor scatterReduce_(int dim, Tensor index, Tensor src, String reduce) {
    return scatterReduce_(dim, index, src, reduce, true);
  }

  /** self[..., index[j], ...] += alpha * source[..., j, ...] along dim. */
  default Tensor indexAdd_(int dim, Tensor index, Tensor source) {
    return indexAdd_(dim, index, source, 1.0);
  }

  default Tensor indexAdd_(int dim, Tensor index, Tensor source, double alpha) {
    IndexAlongOps.indexAdd(impl("indexAdd_"), dim, Tensor.implOf(index, "indexAdd_"), Tensor.implOf(source, "indexAdd_"), alpha);
    return self();
  }

  /** torch.triu: the elements of the last two dims on and above diagonal (0 the main one, 1 above it, -1 below), zeros elsewhere. */
  default Tensor triu(long diagonal) {
    try (Tensor below = triangleMask("triu", diagonal, false)) {
      return maskedFill(below, 0);
    }
  }

  /** torch.tril: the elements of the last two dims on and below diagonal, zeros elsewhere. */
  default Tensor tril(long diagonal) {
    try (Tensor above = triangleMask("tril", diagonal, true)) {
      return maskedFill(above, 0);
    }
  }

  default Tensor triu_(long diagonal) {
    DataOps.checkWritable("triu_", impl("triu_"));  // refused under its own name, not maskedFill_'s
    try (Tensor below = triangleMask("triu_", diagonal, false)) {
      return maskedFill_(below, 0);
    }
  }

  default Tensor tril_(long diagonal) {
    DataOps.checkWritable("tril_", impl("tril_"));  // refused under its own name, not maskedFill_'s
    try (Tensor above = triangleMask("tril_", diagonal, true)) {
      return maskedFill_(above, 0);
    }
  }

  /**
   * [rows, cols] on self's device: true where triu (above false) or tril (above true) writes zero,
   * that is where column - row is past diagonal. Compared as column against row + diagonal,
   * broadcast, so the one [rows, cols] tensor made is the bool mask itself (an int64 matrix of
   * column - row was 8 bytes an element more); the diagonal is first clamped to [-rows, cols],
   * past which the mask no longer changes, so row + diagonal cannot overflow.
   */
  private Tensor triangleMask(String op, long diagonal, boolean above) {
    TensorImpl t = impl(op);
    if (t.dim() < 2) throw new IllegalArgumentException(op + "(): input tensor must have at least 2 dimensions");
    long rows = t.sizes()[t.dim() - 2], cols = t.sizes()[t.dim() - 1];
    long d = Math.max(-rows, Math.min(cols, diagonal));
    try (Tensor cpuColumns = Tensor.arange(cols); Tensor cpuBounds = Tensor.arange(d, rows + d);
         Tensor c = cpuColumns.to(t.device()); Tensor r = cpuBounds.to(t.device()); Tensor bound = r.unsqueeze(1)) {
      return above ? c.gt(bound) : c.lt(bound);  // int64 against int64: exact past 2^24
    }
  }

  /** value where mask is true, self elsewhere; self and mask broadcast together (as PyTorch's out-of-place masked_fill). */
  default Tensor maskedFill(Tensor mask, double value) {
    TensorImpl t = impl("maskedFill");
    checkMask("maskedFill", mask);
    Operand fill = fillValue("maskedFill", t.dtype(), value);
    return Tensor.wrap(ElementwiseOps.run(Ops.MASKED_FILL, "maskedFill", null, ElementwiseOps.NO_PARAMS,
        Operand.of(Tensor.implOf(mask, "maskedFill")), fill, Operand.of(t)));
  }

  /** maskedFill with a 0-dim tensor value (which receives the masked positions' gradient), cast to this dtype. */
  default Tensor maskedFill(Tensor mask, Tensor value) {
    TensorImpl t = impl("maskedFill");
    checkMask("maskedFill", mask);
    if (Tensor.implOf(value, "maskedFill").dim() != 0) {
      throw new IllegalArgumentException("maskedFill(): only supports a 0-dimensional value tensor, but got tensor with "
          + value.dim() + " dimension(s).");
    }
    try (Tensor v = value.to(t.dtype())) {
      return Tensor.where(mask, v, self());
    }
  }

  default Tensor maskedFill_(Tensor mask, double value) {
    TensorImpl t = impl("maskedFill_");
    checkMask("maskedFill_", mask);
    ElementwiseOps.run(Ops.MASKED_FILL, "maskedFill_", t, new double[0], Operand.of(Tensor.implOf(mask, "maskedFill_")),
        fillValue("maskedFill_", t.dtype(), value), Operand.of(t));
    return self();
  }

  /** The fill value as the scalar kind that keeps self's dtype; it must fit that dtype (an integral one as a Python int: -1 into uint8 is 255). */
  private static Operand fillValue(String op, DType dtype, double value) {
    dtype.checkScalar(op, value);
    if (dtype == DType.BOOL) return Operand.of(value != 0);
    return dtype.isFloatingPoint() ? Operand.of(value) : Operand.of((long) value);
  }

  private static void checkMask(String op, Tensor mask) {
    DType dtype = Tensor.implOf(mask, op).dtype();
    if (dtype != DType.BOOL) {
      throw new IllegalArgumentException(op + "(): expected mask to be a bool tensor, got " + dtype);
    }
  }

  /** The elements where mask (broadcast with self) is true, as a 1-D tensor. */
  default Tensor maskedSelect(Tensor mask) {
    checkMask("maskedSelect", mask);
    long[] shape = Shapes.broadcastShapes("maskedSelect", impl("maskedSelect").sizes(), mask.shape());
    try (Tensor x = self().expand(shape); Tensor m = mask.expand(shape)) {
      return x.get(Index.of(m));
    }
  }

  /** Coordinates of the non-zero elements: an int64 tensor of shape [count, dim]. */
  default Tensor nonzero() {
    return Tensor.wrap(AdvancedIndexOps.nonzero("nonzero", impl("nonzero")));
  }

  /** torch.argwhere: nonzero's [count, dim] int64 coordinates. */
  default Tensor argwhere() {
    return Tensor.wrap(AdvancedIndexOps.nonzero("argwhere", impl("argwhere")));
  }

}
