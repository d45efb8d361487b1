package org.jtensor;

import java.util.Arrays;
import org.jtensor.core.Shapes;
import org.jtensor.core.TensorImpl;

/**
 * Tensor's gathers and out-of-place index writes that compose from ops jtensor has:
 * takeAlongDim (broadcast, then gather) and selectScatter, sliceScatter, diagonalScatter (a clone
 * whose view is overwritten by copy_, as ATen composes them), so autograd comes through gather's
 * and CopySlices' derivatives. Inherited by {@link Tensor}.
 */
public sealed interface IndexWriteMethods permits Tensor {
  private Tensor self() {
    return (Tensor) this;
  }

  /** torch.take_along_dim without a dim: the flattened tensor gathered at the flattened indices. */
  default Tensor takeAlongDim(Tensor indices) {
    Tensor.implOf(indices, "takeAlongDim");
    try (Tensor flat = self().reshape(-1); Tensor at = indices.reshape(-1)) {
      return flat.gather(0, at);
    }
  }

  /**
   * torch.take_along_dim: input and indices (int64, as many dims) broadcast against each other in
   * every dim but dim, then gather along dim. An index outside the dim is refused, as gather refuses
   * it (PyTorch 2.13 wraps it modulo the size when the inputs broadcast).
   */
  default Tensor takeAlongDim(Tensor indices, int dim) {
    String op = "takeAlongDim";
    TensorImpl t = self().impl(op), ix = Tensor.implOf(indices, op);
    if (t.dim() != ix.dim()) {
      throw new IllegalArgumentException(op + "(): torch.take_along_dim(): input and indices should have the same number of "
          + "dimensions, but got " + t.dim() + " dimensions for input, and " + ix.dim() + " dimensions for indices");
    }
    if (ix.dtype() != DType.INT64) {
      throw new IllegalArgumentException(op + "(): torch.take_along_dim(): dtype of indices should be Long but got "
          + org.jtensor.core.ScalarTypes.name(ix.dtype()));
    }
    if (t.dim() == 0) throw Shapes.noDimensions(op, dim);
    int d = Shapes.wrapDim(op, dim, t.dim());
    long[] selfSizes = t.sizes().clone(), indexSizes = ix.sizes().clone();
    selfSizes[d] = ix.sizes()[d];
    long[] indexShape = Shapes.broadcastShapes(op, selfSizes, ix.sizes());
    indexSizes[d] = t.sizes()[d];
    long[] selfShape = Shapes.broadcastShapes(op, indexSizes, t.sizes());
    try (Tensor x = self().broadcastTo(selfShape); Tensor at = indices.broadcastTo(indexShape)) {
      return x.gather(d, at);
    }
  }

  /** torch.select_scatter: a copy of this tensor with select(dim, index) replaced by src (of exactly that slice's shape). */
  default Tensor selectScatter(Tensor src, int dim, long index) {
    return scattered("selectScatter", src, c -> c.select(dim, index));
  }

  /** torch.slice_scatter over the whole of dim 0. */
  default Tensor sliceScatter(Tensor src) {
    return sliceScatter(src, 0, 0, Long.MAX_VALUE, 1);
  }

  /** torch.slice_scatter: slice(dim, start, end, step) replaced by src; start and end clamp as slice's do. */
  default Tensor sliceScatter(Tensor src, int dim, long start, long end, long step) {
    return scattered("sliceScatter", src, c -> c.slice(dim, start, end, step));
  }

  default Tensor diagonalScatter(Tensor src) {
    return diagonalScatter(src, 0, 0, 1);
  }

  /** torch.diagonal_scatter: diagonal(offset, dim1, dim2) replaced by src. */
  default Tensor diagonalScatter(Tensor src, long offset, int dim1, int dim2) {
    return scattered("diagonalScatter", src, c -> c.diagonal(offset, dim1, dim2));
  }

  /** ATen's *_scatter: clone, take the view, check src's shape against it, copy_ src (cast to this dtype) into it. */
  private Tensor scattered(String op, Tensor src, java.util.function.Function<Tensor, Tensor> view) {
    TensorImpl s = Tensor.implOf(src, op);
    self().impl(op);
    Tensor out = self().clone();
    try (Tensor slot = view.apply(out)) {
      if (!Arrays.equals(slot.shape(), s.sizes())) {
        throw new IllegalArgumentException(op + "(): expected src to have a size equal to the slice of self. src size = "
            + Shapes.str(s.sizes()) + ", slice size = " + Shapes.str(slot.shape()));
      }
      slot.copy_(src);
      return out;
    } catch (RuntimeException e) {
      out.close();
      throw e;
    }
  }
}
