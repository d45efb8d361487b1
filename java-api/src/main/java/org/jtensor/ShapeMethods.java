package org.jtensor;

import java.util.List;
import org.jtensor.core.Shapes;
import org.jtensor.ops.SplitOps;
import org.jtensor.ops.ViewOps;

/**
 * Tensor's NumPy-named shape ops (broadcastTo, moveaxis, ravel, fliplr, flipud, rot90, hsplit,
 * vsplit, dsplit) and combinations, each
 * composed from the views and copies of {@link ViewMethods} and {@link RearrangeMethods}, so
 * autograd needs nothing of its own. Inherited by {@link Tensor}.
 */
public sealed interface ShapeMethods permits Tensor {
  private Tensor self() {
    return (Tensor) this;
  }

  /** torch.broadcast_to: expand's view, refused in broadcastTo's name. */
  default Tensor broadcastTo(long... shape) {
    return Tensor.wrap(ViewOps.expand("broadcastTo", self().impl("broadcastTo"), shape));
  }

  /** torch.moveaxis: movedim's view, under NumPy's name. */
  default Tensor moveaxis(int source, int destination) {
    return moveaxis(new int[] {source}, new int[] {destination});
  }

  default Tensor moveaxis(int[] source, int[] destination) {
    return Tensor.wrap(ViewOps.movedim("moveaxis", self().impl("moveaxis"), source, destination));
  }

  /** torch.ravel: contiguous().view(-1) as ATen's: a view of a contiguous tensor, else a flat copy. */
  default Tensor ravel() {
    try (Tensor c = self().contiguous()) {
      return c.view(-1);
    }
  }

  /** torch.fliplr: flip(1), for 2-D and up. */
  default Tensor fliplr() {
    if (self().dim() < 2) throw new IllegalArgumentException("fliplr(): Input must be >= 2-d.");
    return self().flip(1);
  }

  /** torch.flipud: flip(0), for 1-D and up. */
  default Tensor flipud() {
    if (self().dim() < 1) throw new IllegalArgumentException("flipud(): Input must be >= 1-d.");
    return self().flip(0);
  }

  /** torch.rot90(x): one turn in the plane of dims 0 and 1. */
  default Tensor rot90() {
    return rot90(1, 0, 1);
  }

  /**
   * torch.rot90: a copy turned k quarter turns from dims[0] towards dims[1] (k may be negative).
   * Transpose then flip, as ATen's flip then transpose_ gives the same elements; this one's
   * result is contiguous where PyTorch's odd k leaves it transposed.
   */
  default Tensor rot90(long k, int... dims) {
    Tensor self = self();
    int n = self.dim();
    if (dims.length != 2) throw new IllegalArgumentException("rot90(): expected total rotation dims == 2, but got dims = " + dims.length);
    if (n < 2) throw new IllegalArgumentException("rot90(): expected total dims >= 2, but got total dims = " + n);
    if (dims[0] == dims[1] || Math.abs(dims[0] - dims[1]) == n) {
      throw new IllegalArgumentException("rot90(): expected rotation dims to be different, but got dim0 = " + dims[0]
          + " and dim1 = " + dims[1]);
    }
    int d0 = Shapes.wrapDim("rot90", dims[0], n), d1 = Shapes.wrapDim("rot90", dims[1], n);
    switch ((int) Math.floorMod(k, 4L)) {
      case 1:
        try (Tensor t = self.transpose(d0, d1)) {
          return t.flip(d0);
        }
      case 2:
        return self.flip(d0, d1);
      case 3:
        try (Tensor t = self.transpose(d0, d1)) {
          return t.flip(d1);
        }
      default:
        return self.isContiguous() ? self.clone() : self.contiguous();  // ATen's clone(Contiguous)
    }
  }

  /** torch.hsplit: tensorSplit into equal sections along dim 1 (dim 0 of a 1-D tensor); views. */
  default List<Tensor> hsplit(long sections) {
    return nsplit("hsplit", 1, sections, null);
  }

  /** torch.hsplit at indices along dim 1 (dim 0 of a 1-D tensor); views. */
  default List<Tensor> hsplit(long... indices) {
    return nsplit("hsplit", 1, 0, indices);
  }

  /** torch.vsplit: along dim 0, for 2-D and up. */
  default List<Tensor> vsplit(long sections) {
    return nsplit("vsplit", 2, sections, null);
  }

  default List<Tensor> vsplit(long... indices) {
    return nsplit("vsplit", 2, 0, indices);
  }

  /** torch.dsplit: along dim 2, for 3-D and up. */
  default List<Tensor> dsplit(long sections) {
    return nsplit("dsplit", 3, sections, null);
  }

  default List<Tensor> dsplit(long... indices) {
    return nsplit("dsplit", 3, 0, indices);
  }

  /**
   * torch.combinations: the [count, r] rows of r elements of this 1-D tensor taken in index order,
   * each position used once (or, withReplacement, again): ATen's meshgrid of r copies, masked
   * where the grid's indices increase (or do not decrease), then stacked.
   */
  default Tensor combinations(int r, boolean withReplacement) {
    String op = "combinations";
    Tensor self = self();
    if (self.impl(op).dim() != 1) throw new IllegalArgumentException(op + "(): Expect a 1D vector, but got shape " + Shapes.str(self.shape()));
    if (r < 0) throw new IllegalArgumentException(op + "(): Expect a non-negative number, but got " + r);
    if (r == 0) return Tensor.empty(new long[] {0}, self.dtype(), self.device());
    try (TensorScope s = TensorScope.open()) {
      Tensor[] copies = new Tensor[r], positions = new Tensor[r];
      java.util.Arrays.fill(copies, self);
      java.util.Arrays.fill(positions, Tensor.arange(self.numel()).to(self.device()));
      List<Tensor> grids = Tensor.meshgrid("ij", copies), at = Tensor.meshgrid("ij", positions);
      Tensor mask = Tensor.ones(at.get(0).shape(), DType.BOOL, self.device());
      for (int k = 0; k + 1 < r; k++) mask = mask.logicalAnd(withReplacement ? at.get(k).le(at.get(k + 1)) : at.get(k).lt(at.get(k + 1)));
      List<Tensor> columns = new java.util.ArrayList<>(r);
      for (Tensor g : grids) columns.add(g.maskedSelect(mask));
      return s.keep(Tensor.stack(columns, 1));
    }
  }

  default Tensor combinations() {
    return combinations(2, false);
  }

  /** ATen's h/v/dsplit: at least minDims dims; sections must divide the dim's size; else split at indices. */
  private List<Tensor> nsplit(String op, int minDims, long sections, long[] indices) {
    var t = self().impl(op);
    int n = t.dim();
    if (n < minDims) {
      throw new IllegalArgumentException(op + "(): torch." + op + " requires a tensor with at least " + minDims
          + " dimension, but got a tensor with " + n + " dimensions!");
    }
    int dim = minDims == 1 ? (n == 1 ? 0 : 1) : minDims == 2 ? 0 : 2;
    if (indices != null) return Tensor.wrapAll(SplitOps.tensorSplitAt(op, t, indices, dim));
    long size = t.sizes()[dim];
    if (sections == 0 || size % sections != 0) {
      throw new IllegalArgumentException(op + "(): torch." + op + " attempted to split along dimension " + dim
          + ", but the size of the dimension " + size + " is not divisible by the split_size " + sections + "!");
    }
    return Tensor.wrapAll(SplitOps.tensorSplit(op, t, sections, dim));
  }
}
