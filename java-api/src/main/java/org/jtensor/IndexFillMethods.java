package org.jtensor;

import java.util.Arrays;
import java.util.stream.Collectors;
import org.jtensor.core.ScalarTypes;
import org.jtensor.core.Shapes;
import org.jtensor.core.TensorImpl;
import org.jtensor.ops.DataOps;

/**
 * Tensor's writes of whole slices picked by an index along a dim, or of the elements a mask picks:
 * indexFill (maskedFill with a mask true at the indexed positions of dim), indexCopy and
 * maskedScatter (advanced-index sets), so autograd
 * comes through those ops' derivatives. Indices are checked here, in PyTorch's words, before
 * anything is written. Inherited by {@link Tensor}.
 */
public sealed interface IndexFillMethods permits Tensor {
  private Tensor self() {
    return (Tensor) this;
  }

  /** torch.Tensor.index_fill: a copy with value at every position whose dim-th coordinate is in index (negatives count from the end). */
  default Tensor indexFill(int dim, Tensor index, double value) {
    try (Tensor mask = fillMask("indexFill", dim, index)) {
      return self().maskedFill(mask, value);
    }
  }

  default Tensor indexFill_(int dim, Tensor index, double value) {
    DataOps.checkWritable("indexFill_", self().impl("indexFill_"));  // refused under its own name, not maskedFill_'s
    try (Tensor mask = fillMask("indexFill_", dim, index)) {
      return self().maskedFill_(mask, value);
    }
  }

  /** index_fill with a 0-dim tensor value, which receives the filled positions' gradient; cast to this dtype. */
  default Tensor indexFill(int dim, Tensor index, Tensor value) {
    checkFillValue("indexFill", value);
    try (Tensor mask = fillMask("indexFill", dim, index)) {
      return self().maskedFill(mask, value);
    }
  }

  default Tensor indexFill_(int dim, Tensor index, Tensor value) {
    checkFillValue("indexFill_", value);
    DataOps.checkWritable("indexFill_", self().impl("indexFill_"));
    try (Tensor mask = fillMask("indexFill_", dim, index); Tensor filled = self().maskedFill(mask, value)) {
      return self().copy_(filled);
    }
  }

  /** torch.Tensor.index_copy: a copy with its slice index[i] along dim replaced by source's slice i (same dtype, indices in [0, size)). */
  default Tensor indexCopy(int dim, Tensor index, Tensor source) {
    Tensor out = self().clone();
    try {
      return copyInto(out, "indexCopy", dim, index, source);
    } catch (RuntimeException e) {
      out.close();
      throw e;
    }
  }

  default Tensor indexCopy_(int dim, Tensor index, Tensor source) {
    copyInto(self(), "indexCopy_", dim, index, source).close();
    return self();
  }

  /**
   * torch.Tensor.masked_scatter: a copy of this tensor broadcast with mask, whose positions where
   * mask is true take source's elements in row-major order (source needs at least that many).
   */
  default Tensor maskedScatter(Tensor mask, Tensor source) {
    String op = "maskedScatter";
    long[] shape = Shapes.broadcastShapes(op, Tensor.implOf(mask, op).sizes(), self().impl(op).sizes());  // ATen's expand_outplace(mask, self)
    try (Tensor wide = self().broadcastTo(shape)) {
      Tensor out = wide.contiguous();
      if (out.isAliasOf(self())) out = swap(out, out.clone());
      try {
        return scatterMasked(out, op, mask, source);
      } catch (RuntimeException e) {
        out.close();
        throw e;
      }
    }
  }

  default Tensor maskedScatter_(Tensor mask, Tensor source) {
    DataOps.checkWritable("maskedScatter_", self().impl("maskedScatter_"));
    return scatterMasked(self(), "maskedScatter_", mask, source);
  }

  private static Tensor swap(Tensor old, Tensor fresh) {
    old.close();
    return fresh;
  }

  /** ATen's masked_scatter_ checks, then dest[mask] = source's first count(mask) elements (read before the write, as ATen's). */
  private static Tensor scatterMasked(Tensor dest, String op, Tensor mask, Tensor source) {
    TensorImpl t = dest.impl(op), m = Tensor.implOf(mask, op), s = Tensor.implOf(source, op);
    if (t.dtype() != s.dtype()) {
      throw new IllegalArgumentException(op + "(): masked_scatter: expected self and source to have same dtypes but got"
          + ScalarTypes.name(t.dtype()) + " and " + ScalarTypes.name(s.dtype()));
    }
    if (m.dtype() != DType.BOOL) {
      throw new IllegalArgumentException(op + "(): masked_scatter_ only supports boolean masks, but got mask with dtype "
          + ScalarTypes.name(m.dtype()));
    }
    try (TensorScope scope = TensorScope.open()) {
      Tensor wide = Tensor.wrap(org.jtensor.ops.ViewOps.expand(op, m, t.sizes()));
      long count = wide.sum().toLongArray()[0];
      if (source.numel() < count) throw new IllegalArgumentException(op + "(): Number of elements of source < number of ones in mask");
      Tensor values = source.reshape(-1).narrow(0, 0, count);
      dest.set(new Index[] {Index.of(wide)}, values.isAliasOf(dest) ? values.clone() : values);
    }
    return dest;
  }

  private static void checkFillValue(String op, Tensor value) {
    if (Tensor.implOf(value, op).dim() != 0) {
      throw new IllegalArgumentException(op + "(): index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
          + value.dim() + " dimension(s).");
    }
  }

  /** A bool mask true at index's positions of dim, shaped to broadcast against this tensor (0-dim for a 0-dim one). */
  private Tensor fillMask(String op, int dim, Tensor index) {
    TensorImpl t = self().impl(op), ix = Tensor.implOf(index, op);
    int d = Shapes.wrapDim(op, dim, t.dim());
    if (ix.dtype() != DType.INT64) throw new IllegalArgumentException(op + "(): index_fill_(): Expected dtype int64 for index.");
    if (ix.dim() > 1) throw new IllegalArgumentException(op + "(): Index has to be a vector/scalar");
    long size = t.dim() == 0 ? 1 : t.sizes()[d];
    long[] at = index.toLongArray();
    for (int i = 0; i < at.length; i++) {
      if (at[i] < -size || at[i] >= size) {
        throw new IndexOutOfBoundsException(op + "(): index " + at[i] + " is out of bounds for dimension " + d + " with size " + size);
      }
      if (at[i] < 0) at[i] += size;
    }
    long[] shape = new long[Math.max(t.dim() - d, 0)];
    Arrays.fill(shape, 1);
    if (shape.length > 0) shape[0] = size;
    try (Tensor marks = Tensor.zeros(new long[] {size}, DType.BOOL, t.device()); Tensor host = Tensor.fromArray(at);
         Tensor where = host.to(t.device())) {
      if (at.length > 0) marks.set(1, Index.of(where));
      return marks.reshape(shape);
    }
  }

  /** ATen's index_copy_ checks, in its order, then dest[..., index, ...] = source through an advanced-index set. */
  private Tensor copyInto(Tensor dest, String op, int dim, Tensor index, Tensor source) {
    TensorImpl t = self().impl(op), ix = Tensor.implOf(index, op), s = Tensor.implOf(source, op);
    int d = Shapes.wrapDim(op, dim, t.dim());
    if (ix.dim() > 1) throw new IndexOutOfBoundsException(op + "(): Index should have dimension 1 or 0 (got " + ix.dim() + ")");
    long n = ix.numel();
    if (s.dim() == 0 && n != 1) {
      throw new IndexOutOfBoundsException(op + "(): When source is scalar, index should have one element (got " + n + ")");
    }
    if (s.dim() != t.dim() && s.dim() != 0 && t.dim() != 0) {
      throw new IndexOutOfBoundsException(op + "(): When source and destination are not scalars, their dimensionality must match. "
          + "Source dimensionality (" + s.dim() + "), destination dimensionality (" + t.dim() + ")");
    }
    if (ix.dtype() != DType.INT64) {
      throw new IllegalArgumentException(op + "(): Expected a long tensor for index, but got " + ScalarTypes.name(ix.dtype()));
    }
    if (s.dtype() != t.dtype()) {
      throw new IllegalArgumentException(op + "(): self and source expected to have the same dtype, but got (self) "
          + ScalarTypes.name(t.dtype()) + " and (source) " + ScalarTypes.name(s.dtype()));
    }
    String selfSlice = sliceShape(t.sizes(), d), sourceSlice = sliceShape(s.sizes(), d);
    if (!selfSlice.equals(sourceSlice)) {
      throw new IllegalArgumentException(op + "(): Source/destination tensor must have same slice shapes. Destination slice shape: "
          + selfSlice + " at dimension " + d + " and source slice shape: " + sourceSlice + " at dimension 0.");
    }
    if (s.dim() != 0 && n != s.sizes()[d]) {
      throw new IndexOutOfBoundsException(op + "(): Number of indices (" + n + ") should be equal to source.size(dim) ("
          + s.sizes()[d] + ")");
    }
    long size = t.dim() == 0 ? 1 : t.sizes()[d];
    for (long i : index.toLongArray()) {
      if (i < 0 || i >= size) {
        throw new IndexOutOfBoundsException(op + "(): index " + i + " is out of bounds for dimension " + d + " with size " + size);
      }
    }
    TensorImpl written = dest.impl(op);
    DataOps.checkWritable(op, written);
    DataOps.checkNoOverlap(op, written, s);  // as PyTorch's index_copy_; the out-of-place form writes a fresh clone
    if (t.dim() == 0) return dest.copy_(source).same(op);
    Index[] at = new Index[d + 1];
    Arrays.fill(at, Index.all());
    try (Tensor flat = index.reshape(-1)) {
      at[d] = Index.of(flat);
      dest.set(at, source);
    }
    return dest.same(op);
  }

  /** sizes without dim d, printed as c10 prints a vector: the numbers with spaces between. */
  private static String sliceShape(long[] sizes, int d) {
    return java.util.stream.IntStream.range(0, sizes.length).filter(i -> i != d).mapToObj(i -> Long.toString(sizes[i]))
        .collect(Collectors.joining(" "));
  }
}
