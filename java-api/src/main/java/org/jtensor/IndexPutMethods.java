package org.jtensor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jtensor.core.ScalarTypes;
import org.jtensor.core.Shapes;
import org.jtensor.core.TensorImpl;
import org.jtensor.ops.DataOps;

/**
 * Tensor's index_put: x[i0, i1, ...] = values (an advanced-index set) or, with accumulate, +=
 * values summing over repeated positions (indexAdd_ into a copy's leading dims flattened, so each
 * element adds its values in index order, as PyTorch's CPU kernel, and untouched elements keep
 * their bits, -0.0 included). Composed from those ops, so autograd needs nothing of its own. Inherited by {@link Tensor}.
 */
public sealed interface IndexPutMethods permits Tensor {
  private Tensor self() {
    return (Tensor) this;
  }

  default Tensor indexPut(Tensor[] indices, Tensor values) {
    return indexPut(indices, values, false);
  }

  /** torch.Tensor.index_put: a copy with the indexed elements set to (or, accumulating, increased by) values. */
  default Tensor indexPut(Tensor[] indices, Tensor values, boolean accumulate) {
    checkDtypes("indexPut", values);
    if (accumulate) return accumulated("indexPut", indices, values);
    Tensor out = self().clone();
    try {
      out.set(asIndex("indexPut", indices), values);
      return out;
    } catch (RuntimeException e) {
      out.close();
      throw e;
    }
  }

  default Tensor indexPut_(Tensor[] indices, Tensor values) {
    return indexPut_(indices, values, false);
  }

  default Tensor indexPut_(Tensor[] indices, Tensor values, boolean accumulate) {
    DataOps.checkWritable("indexPut_", self().impl("indexPut_"));
    checkDtypes("indexPut_", values);
    DataOps.checkNoOverlap("indexPut_", self().impl("indexPut_"), values.impl("indexPut_"));  // as PyTorch's index_put_
    if (!accumulate) return self().set(asIndex("indexPut_", indices), values);
    try (Tensor sum = accumulated("indexPut_", indices, values)) {
      return self().copy_(sum);
    }
  }

  private void checkDtypes(String op, Tensor values) {
    DType d = self().impl(op).dtype(), v = Tensor.implOf(values, op).dtype();
    if (d != v) {
      throw new IllegalArgumentException(op + "(): Index put requires the source and destination dtypes match, got "
          + ScalarTypes.name(d) + " for the destination and " + ScalarTypes.name(v) + " for the source.");
    }
  }

  private static Index[] asIndex(String op, Tensor[] indices) {
    if (indices == null || indices.length == 0) throw new IllegalArgumentException(op + "(): indices must hold at least one tensor");
    Index[] at = new Index[indices.length];
    for (int i = 0; i < at.length; i++) at[i] = Index.of(indices[i]);
    return at;
  }

  /** A copy of self with values added at the positions the indices name (a bool index as its nonzero coordinates). */
  private Tensor accumulated(String op, Tensor[] indices, Tensor values) {
    Tensor self = self();
    TensorImpl t = self.impl(op);
    if (indices == null || indices.length == 0) throw new IllegalArgumentException(op + "(): indices must hold at least one tensor");
    try (TensorScope scope = TensorScope.open()) {
      List<Tensor> columns = new ArrayList<>();  // one int64 index per dim it addresses
      for (Tensor ix : indices) {
        DType dt = Tensor.implOf(ix, op).dtype();
        if (dt == DType.BOOL || dt == DType.UINT8) {
          Tensor nz = ix.nonzero();
          for (int c = 0; c < ix.dim(); c++) columns.add(nz.select(1, c));
        } else if (dt == DType.INT64 || dt == DType.INT32) {
          columns.add(ix.to(DType.INT64));
        } else {
          throw new IllegalArgumentException(op + "(): tensors used as indices must be long, int, byte or bool tensors");
        }
      }
      int k = columns.size();
      if (k > t.dim()) throw new IndexOutOfBoundsException(op + "(): too many indices for tensor of dimension " + t.dim() + " (got " + k + ")");
      long[] b = new long[0];
      for (Tensor c : columns) b = broadcastIndices(op, b, c.shape(), columns);
      long[] sizes = t.sizes(), rest = Arrays.copyOfRange(sizes, k, sizes.length), target = concat(b, rest);
      if (!broadcastsTo(op, values.shape(), target)) {
        throw new IllegalArgumentException(op + "(): shape mismatch: value tensor of shape " + Shapes.str(values.shape())
            + " cannot be broadcast to indexing result of shape " + Shapes.str(target));
      }
      long n = Shapes.numel(op, b), lead = Shapes.numel(op, Arrays.copyOf(sizes, k));
      long[] lin = new long[(int) n];
      for (int j = 0; j < k; j++) {
        long[] at = columns.get(j).broadcastTo(b).contiguous().toLongArray();
        for (int e = 0; e < n; e++) {
          long i = at[e];
          if (i < -sizes[j] || i >= sizes[j]) {
            throw new IndexOutOfBoundsException(op + "(): index " + i + " is out of bounds for dimension " + j + " with size " + sizes[j]);
          }
          lin[e] = lin[e] * sizes[j] + (i < 0 ? i + sizes[j] : i);
        }
      }
      Tensor out = self.contiguous();  // a fresh row-major copy whose leading dims flatten to a view
      if (out.isAliasOf(self)) out = out.clone();
      out.view(concat(new long[] {lead}, rest)).indexAdd_(0, Tensor.fromArray(lin).to(t.device()),
          values.broadcastTo(target).reshape(concat(new long[] {n}, rest)));
      return scope.keep(out);
    }
  }

  private static long[] broadcastIndices(String op, long[] a, long[] b, List<Tensor> columns) {
    try {
      return Shapes.broadcastShapes(op, a, b);
    } catch (IllegalArgumentException e) {
      StringBuilder shapes = new StringBuilder();
      for (Tensor c : columns) shapes.append(shapes.length() == 0 ? "" : ", ").append(Shapes.str(c.shape()));
      throw new IndexOutOfBoundsException(op + "(): shape mismatch: indexing tensors could not be broadcast together with shapes " + shapes);
    }
  }

  private static boolean broadcastsTo(String op, long[] shape, long[] target) {
    try {
      return Arrays.equals(Shapes.broadcastShapes(op, shape, target), target);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static long[] concat(long[] a, long[] b) {
    long[] r = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    return r;
  }
}
