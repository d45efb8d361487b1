package org.jtensor.ops;

import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.ValuesAndIndices;
import org.jtensor.core.ScalarTypes;
import org.jtensor.core.Shapes;
import org.jtensor.dispatch.Dispatcher;
import org.jtensor.dispatch.plan.SelectPacker;

/**
 * kthvalue, mode and nanmedian along a dim with PyTorch 2.13's CPU rules: the select kernel finds each line's
 * position (among equal values the one PyTorch's quickselect or sort leaves there; NaN largest),
 * and the value is gathered from it, so the gradient goes to that position alone, as PyTorch's.
 */
public final class Selection {
  private Selection() {}

  /** The k-th smallest (k from 1) along dim with its position. */
  public static ValuesAndIndices kthvalue(Tensor x, long k, int dim, boolean keepdim) {
    String op = "kthvalue";
    int d = lineDim(op, x, dim);
    long n = x.dim() == 0 ? 1 : x.shape()[d];
    if (k < 1 || k > n) throw new IllegalArgumentException(op + "(): selected number k out of range for dimension " + d);
    if (x.dtype() == DType.BOOL) throw ScalarTypes.notImplemented(op, "kthvalue_cpu", DType.BOOL);
    return pick(op, SelectPacker.KTHVALUE, x, d, k - 1, keepdim);
  }

  /** The most frequent value along dim (the smallest of equally frequent ones) with PyTorch's position of it. */
  public static ValuesAndIndices mode(Tensor x, int dim, boolean keepdim) {
    return pick("mode", SelectPacker.MODE, x, lineDim("mode", x, dim), 0, keepdim);
  }

  /** The lower median along dim of the values that are not NaN, with its position; an all-NaN line gives NaN. */
  public static ValuesAndIndices nanmedian(Tensor x, int dim, boolean keepdim) {
    int d = lineDim("nanmedian", x, dim);
    if (x.dtype() == DType.BOOL) throw ScalarTypes.notImplemented("nanmedian", "median_out", DType.BOOL);
    return pick("nanmedian", SelectPacker.NANMEDIAN, x, d, 0, keepdim);
  }

  /** The lower median of the elements that are not NaN (NaN when all are, or when there are none). */
  public static Tensor nanmedian(Tensor x) {
    String op = "nanmedian";
    if (x.dtype() == DType.BOOL) throw ScalarTypes.notImplemented(op, "median_cpu", DType.BOOL);
    if (x.numel() == 0 && x.dtype().isFloatingPoint()) {
      try (Tensor zero = x.sum()) {
        return zero.mul(Double.NaN);  // as median(): PyTorch's NaN, with an empty gradient
      }
    }
    if (x.numel() == 0) throw new IllegalArgumentException(op + "(): input must not be empty");  // PyTorch's integer answer is undefined
    // the value from the kernel on a detached copy, recorded as nanmedian() itself: PyTorch's
    // gradient is shared evenly by the elements equal to it (by the NaNs when it is NaN)
    org.jtensor.core.TensorImpl value;
    try (Tensor xd = x.detach(); Tensor flat = xd.reshape(-1); ValuesAndIndices m = nanmedian(flat, 0, false); Tensor v = m.values().clone()) {
      value = Handles.impl(v, op);
      value.retain();
    }
    return Handles.wrap(Recorder.recorded(Ops.NANMEDIAN_ALL, op, new org.jtensor.core.TensorImpl[] {Handles.impl(x, op)}, null, value));
  }

  /** dim wrapped; refused, in PyTorch's words, when that dim is empty, and on CUDA, which has no kernel yet. */
  private static int lineDim(String op, Tensor x, int dim) {
    int d = Shapes.wrapDim(op, dim, x.dim());
    if (x.dim() > 0 && x.shape()[d] == 0) throw new IllegalArgumentException(op + "(): Expected reduction dim " + d + " to have non-zero size.");
    if (x.device().type() == Device.Type.CUDA) throw new UnsupportedOperationException(op + "(): not implemented for CUDA");
    return d;
  }

  private static ValuesAndIndices pick(String op, int kind, Tensor x, int d, long k, boolean keepdim) {
    try (TensorScope s = TensorScope.open()) {
      Tensor xs = x.dim() == 0 ? x.reshape(1) : x;
      long[] shape = xs.shape().clone();
      shape[d] = 1;
      Tensor indices = Tensor.empty(shape, DType.INT64, x.device());
      if (indices.numel() > 0) Dispatcher.backend(x.device()).select(op, kind, d, k, Handles.impl(indices, op), Handles.impl(xs, op));
      Tensor values = xs.gather(d, indices);  // gather's gradient: the upstream at the chosen position
      if (x.dim() == 0) {
        values = values.reshape();
        indices = indices.reshape();
      } else if (!keepdim) {
        values = values.squeeze(d);
        indices = indices.squeeze(d);
      }
      return new ValuesAndIndices(s.keep(values), s.keep(indices));
    }
  }
}
