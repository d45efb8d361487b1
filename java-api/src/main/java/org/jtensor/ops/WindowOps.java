package org.jtensor.ops;

import java.util.Arrays;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.ValuesAndIndices;
import org.jtensor.core.ScalarTypes;
import org.jtensor.core.TensorImpl;
import org.jtensor.dispatch.Dispatcher;
import org.jtensor.dispatch.plan.Windows;

/**
 * The ops over sliding windows that convolution and pooling (nn.Functional) are made of, each one
 * native kernel per device: im2col (PyTorch's F.unfold) and col2im (F.fold), each the other's
 * derivative, and max pooling with indices, whose derivative scatters the gradient to the indices.
 * The caller (nn's Convolution, Pooling) has checked the geometry against the user's arguments;
 * here the tensors are checked against the geometry. Inputs are read through one snapshot each.
 */
public final class WindowOps {
  private WindowOps() {}

  /**
   * [batch, channels · windowSize, positions]: each window of image (w.imageShape()) as a column.
   * name is the op the user called (conv2d, unfold, avg_pool2d): errors say it.
   */
  public static Tensor im2col(Tensor image, Windows w, String name) {
    return Handles.wrap(unfoldOrFold(name, Handles.implOf(image, name), w, false));
  }

  /** image-shaped (w.imageShape()): per element, the sum of the entries of columns (w.columnsShape()) that read it; name as im2col's. */
  public static Tensor col2im(Tensor columns, Windows w, String name) {
    return Handles.wrap(unfoldOrFold(name, Handles.implOf(columns, name), w, true));
  }

  /** Each window's maximum (w.pooledShape(), differentiable; any dtype but bool) and its position in its plane (int64). */
  public static ValuesAndIndices maxPool(Tensor image, Windows w, String name) {
    TensorImpl[] r = maxPool(Handles.implOf(image, name), w, name);
    return new ValuesAndIndices(Handles.wrap(r[0]), Handles.wrap(r[1]));
  }

  /**
   * im2col (fold false: image to columns) or col2im (fold true: columns, read through their strides, to image), recorded on x;
   * op is the name the user called.
   */
  private static TensorImpl unfoldOrFold(String op, TensorImpl x, Windows w, boolean fold) {
    TensorImpl f = x.frozen(op);
    try {
      require(op, "input", f, fold ? w.columnsShape() : w.imageShape());
      TensorImpl out = DataOps.empty(op, fold ? w.imageShape() : w.columnsShape(), f.dtype(), f.device());
      try {
        Dispatcher.backend(f.device()).windows(op, fold, w, fold ? out : f, fold ? f : out);
        return Recorder.recorded(fold ? Ops.COL2IM : Ops.IM2COL, op, new TensorImpl[] {x}, w, out);
      } catch (RuntimeException e) {
        out.release();
        throw e;
      }
    } finally {
      f.release();
    }
  }

  /** {values, indices}; autograd records values on x, the indices saved for the backward scatter. */
  static TensorImpl[] maxPool(TensorImpl x, Windows w, String name) {
    TensorImpl f = x.frozen(name);
    TensorImpl values = null, indices = null;
    try {
      requireShape(name, "input", f, w.imageShape());
      if (f.dtype() == DType.BOOL) throw ScalarTypes.notImplemented(name, "max_pool", DType.BOOL);
      values = DataOps.empty(name, w.pooledShape(), f.dtype(), f.device());
      indices = DataOps.empty(name, w.pooledShape(), DType.INT64, f.device());
      Dispatcher.backend(f.device()).maxPool(name, w, f, values, indices);
      TensorImpl v = values;
      values = null;  // recorded() releases it when recording fails
      v = Recorder.recorded(Ops.MAX_POOL, name, new TensorImpl[] {x}, w, new TensorImpl[] {indices}, v);  // the node saves indices
      TensorImpl[] r = {v, indices};
      indices = null;
      return r;
    } finally {
      f.release();
      if (values != null) values.release();
      if (indices != null) indices.release();
    }
  }

  /**
   * Max pooling's input gradient: each window's gradient g (w.pooledShape()) summed at its index,
   * recorded (its own gradient is the upstream gradient read back at the indices: double backward).
   */
  static Tensor maxPoolBackward(Tensor g, Windows w, Tensor indices) {
    TensorImpl gi = Handles.implOf(g, "maxPoolBackward"), ii = Handles.implOf(indices, "maxPoolBackward");
    TensorImpl[] f = TensorImpl.frozen("maxPoolBackward", gi, ii);
    TensorImpl dense = null, denseIdx = null;
    try {
      requireShape("maxPoolBackward", "gradient", f[0], w.pooledShape());
      requireShape("maxPoolBackward", "indices", f[1], w.pooledShape());
      if (!f[0].isContiguous()) dense = DataOps.cloneAs("maxPoolBackward", f[0], f[0].dtype(), f[0].device(), true);
      if (!f[1].isContiguous()) denseIdx = DataOps.cloneAs("maxPoolBackward", f[1], f[1].dtype(), f[1].device(), true);
      TensorImpl out = DataOps.empty("maxPoolBackward", w.imageShape(), f[0].dtype(), f[0].device());
      try {
        Dispatcher.backend(out.device()).maxPoolBackward("maxPoolBackward", w, out, dense != null ? dense : f[0], denseIdx != null ? denseIdx : f[1]);
        return Handles.wrap(Recorder.recorded(Ops.MAX_POOL_BACKWARD, "maxPoolBackward", new TensorImpl[] {gi}, w, new TensorImpl[] {ii}, out));
      } catch (RuntimeException e) {
        out.release();
        throw e;
      }
    } finally {
      TensorImpl.releaseFrozen(f);
      if (dense != null) dense.release();
      if (denseIdx != null) denseIdx.release();
    }
  }

  /** t's shape is shape, or an IllegalArgumentException naming op and what (ConvOps checks its operands with it too). */
  static void requireShape(String op, String what, TensorImpl t, long[] shape) {
    if (!Arrays.equals(t.sizes(), shape)) {
      throw new IllegalArgumentException(op + "(): expected " + what + " of shape " + Arrays.toString(shape) + ", got "
          + Arrays.toString(t.sizes()));
    }
  }

  private static void require(String op, String what, TensorImpl t, long[] shape) {
    requireShape(op, what, t, shape);
    if (!t.dtype().isFloatingPoint()) {
      throw new UnsupportedOperationException(op + "(): expected a floating point " + what + ", got " + t.dtype());
    }
  }
}
