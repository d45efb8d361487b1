package org.jtensor.ops;

import java.util.Arrays;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.core.ScalarTypes;
import org.jtensor.core.Shapes;
import org.jtensor.dispatch.Dispatcher;

/**
 * searchsorted and bucketize with PyTorch 2.13's rules: boundaries and values promote to their
 * result type, the boundaries are one sorted row for every value or one row per leading index of
 * the values, the answer is int64 (int32 when asked) with no gradient, and the search kernel
 * compares as PyTorch's (a NaN value goes last, as if NaN were the largest).
 */
public final class Searching {
  private Searching() {}

  /** torch.searchsorted(sortedSequence, values, out_int32, right, side, sorter): side and sorter may be null. */
  public static Tensor searchsorted(String op, Tensor seq, Tensor values, boolean outInt32, boolean right, String side, Tensor sorter) {
    Handles.implOf(seq, op);  // a null or closed argument refused by name
    Handles.implOf(values, op);
    if (sorter != null) Handles.implOf(sorter, op);
    if (side != null) {
      if (!side.equals("left") && !side.equals("right")) throw new IllegalArgumentException(op + "(): side can only be 'left' or 'right' but got " + side);
      if (right && !side.equals("right")) {
        throw new IllegalArgumentException(op + "(): side and right can't be set to opposites, got side of " + side + " while right was True");
      }
    }
    boolean upper = right || "right".equals(side);
    if (!seq.device().equals(values.device())) {
      throw new IllegalArgumentException(op + "(): boundaries and input value tensors should be on the same device, but got boundaries tensor device: "
          + seq.device() + " and input value tensor device: " + values.device());
    }
    if (sorter != null) checkSorter(op, seq, sorter);
    if (values.dim() == 0 && seq.dim() != 1) {
      throw new IllegalArgumentException(op + "(): input value can be a scalar only when boundaries tensor dimension is 1, but we got boundaries tensor dim("
          + seq.dim() + ") and input value's dim(0) numel(1)");
    }
    if (seq.dim() == 0) throw new IllegalArgumentException(op + "(): boundaries tensor should have positive dimension, but got 0 dimension");
    long[] bs = seq.shape(), vs = values.shape();
    if (seq.dim() != 1 && (bs.length != vs.length || !Arrays.equals(bs, 0, bs.length - 1, vs, 0, vs.length - 1))) {
      throw new IllegalArgumentException(op + "(): boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries tensor and input value tensor must match, but we got boundaries tensor "
          + Shapes.str(bs) + " and input value tensor " + Shapes.str(vs));
    }
    long len = bs[bs.length - 1];
    if (outInt32 && len >= Integer.MAX_VALUE) {
      throw new IllegalArgumentException(op + "(): the size of boundaries' last dimension should be less than " + Integer.MAX_VALUE + ", but we got " + len);
    }
    DType common = seq.resultType(values);
    if (common == DType.BOOL) throw ScalarTypes.notImplemented(op, "searchsorted_out_cpu", DType.BOOL);
    try (TensorScope s = TensorScope.open()) {
      Tensor out = Tensor.zeros(vs, outInt32 ? DType.INT32 : DType.INT64, values.device());
      if (values.numel() == 0 || len == 0) return s.keep(out);  // an empty row: every value goes first
      // contiguous copies in the common dtype, owned here: what the kernel reads cannot change under it
      Tensor b = seq.detach().to(common).contiguous(), v = values.detach().to(common).contiguous();
      Tensor so = sorter == null ? null : sorter.detach().contiguous();
      long inner = values.dim() == 0 ? 1 : vs[vs.length - 1];
      Dispatcher.backend(seq.device()).search(op, upper, seq.dim() == 1, inner, seq.numel() / len, len, Handles.impl(out, op),
          Handles.impl(v, op), Handles.impl(b, op), so == null ? null : Handles.impl(so, op));
      return s.keep(out);
    }
  }

  private static void checkSorter(String op, Tensor seq, Tensor sorter) {
    if (!sorter.device().equals(seq.device())) {
      throw new IllegalArgumentException(op + "(): sorter and boundaries tensors should be on the same device, but got sorter tensor device: "
          + sorter.device() + " and boundaries tensor device: " + seq.device());
    }
    if (!Arrays.equals(sorter.shape(), seq.shape())) {  // PyTorch's message has no space before "and"
      throw new IllegalArgumentException(op + "(): boundary and sorter must have the same size, but got boundary tensor "
          + Shapes.str(seq.shape()) + "and got sorter tensor " + Shapes.str(sorter.shape()));
    }
    if (sorter.dtype() != DType.INT64) {
      throw new IllegalArgumentException(op + "(): sorter must be a tensor of long dtype but got dtype " + ScalarTypes.name(sorter.dtype()));
    }
    if (sorter.numel() > 0) {
      try (Tensor lo = sorter.amin(); Tensor hi = sorter.amax()) {
        if (lo.itemLong() < 0 || hi.itemLong() >= seq.shape()[seq.dim() - 1]) throw new IndexOutOfBoundsException(op + "(): sorter index out of range");
      }
    }
  }

  /** torch.bucketize(input, boundaries, out_int32, right): boundaries must be 1-D. */
  public static Tensor bucketize(Tensor input, Tensor boundaries, boolean outInt32, boolean right) {
    Handles.implOf(boundaries, "bucketize");
    if (boundaries.dim() != 1) throw new IllegalArgumentException("bucketize(): boundaries tensor must be 1 dimension, but got dim(" + boundaries.dim() + ")");
    return searchsorted("bucketize", boundaries, input, outInt32, right, null, null);
  }
}
