package org.jtensor;

/** Tensor's indexing ops and scans, inherited by {@link Tensor}. */
abstract class TensorIndexing extends TensorLinalg {
  /** The entries of self along dim at the positions in index (a 1-D integer tensor). */
  public Tensor indexSelect(int dim, Tensor index) {
    return Tensor.wrap(IndexOps.indexSelect(impl("indexSelect"), dim, Tensor.implOf(index, "indexSelect")));
  }

  /** out[i][j][k] = self[i][index[i][j][k]][k] for dim 1 (and likewise for other dims). */
  public Tensor gather(int dim, Tensor index) {
    return Tensor.wrap(IndexOps.gather(impl("gather"), dim, Tensor.implOf(index, "gather")));
  }

  /** A copy of self with self[i][index[i][j][k]][k] = src[i][j][k] (dim 1); the last write wins. */
  public Tensor scatter(int dim, Tensor index, Tensor src) {
    return Tensor.wrap(IndexOps.scatter("scatter", impl("scatter"), dim, Tensor.implOf(index, "scatter"), Tensor.implOf(src, "scatter"), false, false));
  }

  public Tensor scatter_(int dim, Tensor index, Tensor src) {
    IndexOps.scatter("scatter_", impl("scatter_"), dim, Tensor.implOf(index, "scatter_"), Tensor.implOf(src, "scatter_"), false, true).release();
    return self();
  }

  /** Like scatter, but every src value adds into its slot. */
  public Tensor scatterAdd(int dim, Tensor index, Tensor src) {
    return Tensor.wrap(IndexOps.scatter("scatterAdd", impl("scatterAdd"), dim, Tensor.implOf(index, "scatterAdd"), Tensor.implOf(src, "scatterAdd"), true, false));
  }

  public Tensor scatterAdd_(int dim, Tensor index, Tensor src) {
    IndexOps.scatter("scatterAdd_", impl("scatterAdd_"), dim, Tensor.implOf(index, "scatterAdd_"), Tensor.implOf(src, "scatterAdd_"), true, true).release();
    return self();
  }

  /** self[..., index[j], ...] += alpha * source[..., j, ...] along dim. */
  public Tensor indexAdd_(int dim, Tensor index, Tensor source) {
    return indexAdd_(dim, index, source, 1.0);
  }

  public Tensor indexAdd_(int dim, Tensor index, Tensor source, double alpha) {
    IndexOps.indexAdd(impl("indexAdd_"), dim, Tensor.implOf(index, "indexAdd_"), Tensor.implOf(source, "indexAdd_"), alpha);
    return self();
  }

  /** value where mask (broadcast to self) is true, self elsewhere. */
  public Tensor maskedFill(Tensor mask, double value) {
    TensorImpl t = impl("maskedFill");
    checkMask("maskedFill", mask);
    Operand fill = fillValue("maskedFill", t.dtype(), value);
    TensorImpl out = DataOps.emptyLike(t, t.dtype(), t.device());
    try {
      DataOps.copyInto("maskedFill", out, t);
      ElementwiseOps.run(Ops.MASKED_FILL, "maskedFill", out, new double[0], Operand.of(Tensor.implOf(mask, "maskedFill")),
          fill, Operand.of(out));
      return Tensor.wrap(out);
    } catch (RuntimeException e) {
      out.release();
      throw e;
    }
  }

  public Tensor maskedFill_(Tensor mask, double value) {
    TensorImpl t = impl("maskedFill_");
    checkMask("maskedFill_", mask);
    ElementwiseOps.run(Ops.MASKED_FILL, "maskedFill_", t, new double[0], Operand.of(Tensor.implOf(mask, "maskedFill_")),
        fillValue("maskedFill_", t.dtype(), value), Operand.of(t));
    return self();
  }

  /** The fill value as the scalar kind that keeps self's dtype; it must fit that dtype. */
  private static Operand fillValue(String op, DType dtype, double value) {
    dtype.checkFits(op, value);
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
  public Tensor maskedSelect(Tensor mask) {
    checkMask("maskedSelect", mask);
    long[] shape = Shapes.broadcastShapes("maskedSelect", impl("maskedSelect").sizes(), mask.shape());
    try (Tensor x = self().expand(shape); Tensor m = mask.expand(shape)) {
      return x.get(Index.of(m));
    }
  }

  /** Coordinates of the non-zero elements: an int64 tensor of shape [count, dim]. */
  public Tensor nonzero() {
    return Tensor.wrap(Indexing.nonzero("nonzero", impl("nonzero")));
  }

  /** Running sum along dim; integers and bool give int64. */
  public Tensor cumsum(int dim) {
    return scan(Ops.CUMSUM, dim);
  }

  public Tensor cumprod(int dim) {
    return scan(Ops.CUMPROD, dim);
  }

  private Tensor scan(org.jtensor.dispatch.Op op, int dim) {
    TensorImpl t = impl(op.name);
    int d = Shapes.wrapDim(op.name, dim, t.dim());
    TensorImpl r = DataOps.emptyLike(t, op.reduceKind.out(t.dtype()), t.device());
    try {
      if (t.numel() > 0 && t.dim() > 0) org.jtensor.dispatch.Dispatcher.backend(t.device()).scan(op, d, r, t);
      else if (t.dim() == 0) DataOps.copyInto(op.name, r, t);
      return Tensor.wrap(r);
    } catch (RuntimeException e) {
      r.release();
      throw e;
    }
  }
}
