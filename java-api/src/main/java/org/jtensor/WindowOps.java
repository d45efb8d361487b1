package org.jtensor;

import java.util.Arrays;
import org.jtensor.core.TensorImpl;
import org.jtensor.dispatch.Dispatcher;
import org.jtensor.dispatch.Windows;

/**
 * The ops over sliding windows that convolution and pooling (nn.Functional) are made of, each one
 * native kernel per device: im2col (PyTorch's F.unfold) and col2im (F.fold), each the other's
 * derivative, and max pooling with indices, whose derivative scatters the gradient to the indices.
 * The caller (nn's Convolution, Pooling) has checked the geometry against the user's arguments;
 * here the tensors are checked against the geometry. Inputs are read through one snapshot each.
 */
public final class WindowOps {
  private WindowOps() {}

  /** [batch, channels · windowSize, positions]: each window of image (w.imageShape()) as a column. */
  public static Tensor im2col(Tensor image, Windows w) {
    return Tensor.wrap(im2col(Tensor.implOf(image, "im2col"), w));
  }

  /** image-shaped (w.imageShape()): per element, the sum of the entries of columns (w.columnsShape()) that read it. */
  public static Tensor col2im(Tensor columns, Windows w) {
    return Tensor.wrap(col2im(Tensor.implOf(columns, "col2im"), w));
  }

  /** Each window's maximum (w.pooledShape(), differentiable; any dtype but bool) and its position in its plane (int64). */
  public static ValuesAndIndices maxPool(Tensor image, Windows w, String name) {
    TensorImpl[] r = maxPool(Tensor.implOf(image, name), w, name);
    return new ValuesAndIndices(Tensor.wrap(r[0]), Tensor.wrap(r[1]));
  }

  static TensorImpl im2col(TensorImpl x, Windows w) {
    TensorImpl f = x.frozen();
    try {
      require("im2col", "input", f, w.imageShape());
      TensorImpl cols = DataOps.empty(w.columnsShape(), f.dtype(), f.device());
      try {
        Dispatcher.backend(f.device()).windows("im2col", false, w, f, cols);
        return Recorder.recorded(Ops.IM2COL, "im2col", new TensorImpl[] {x}, new Object[] {w}, cols);
      } catch (RuntimeException e) {
        cols.release();
        throw e;
      }
    } finally {
      f.release();
    }
  }

  static TensorImpl col2im(TensorImpl x, Windows w) {
    TensorImpl f = x.frozen();
    TensorImpl dense = null;
    try {
      require("col2im", "input", f, w.columnsShape());
      if (!f.isContiguous()) dense = DataOps.cloneAs(f, f.dtype(), f.device(), true);  // the kernel reads columns row-major
      TensorImpl image = DataOps.empty(w.imageShape(), f.dtype(), f.device());
      try {
        Dispatcher.backend(f.device()).windows("col2im", true, w, image, dense != null ? dense : f);
        return Recorder.recorded(Ops.COL2IM, "col2im", new TensorImpl[] {x}, new Object[] {w}, image);
      } catch (RuntimeException e) {
        image.release();
        throw e;
      }
    } finally {
      f.release();
      if (dense != null) dense.release();
    }
  }

  /** {values, indices}; autograd records values on x, the indices saved for the backward scatter. */
  static TensorImpl[] maxPool(TensorImpl x, Windows w, String name) {
    TensorImpl f = x.frozen();
    TensorImpl values = null, indices = null;
    try {
      requireShape(name, "input", f, w.imageShape());
      if (f.dtype() == DType.BOOL) throw new UnsupportedOperationException(name + "(): \"max_pool\" not implemented for 'Bool'");
      values = DataOps.empty(w.pooledShape(), f.dtype(), f.device());
      indices = DataOps.empty(w.pooledShape(), DType.INT64, f.device());
      Dispatcher.backend(f.device()).maxPool(name, w, f, values, indices);
      TensorImpl v = values;
      values = null;  // recorded() releases it when recording fails
      v = Recorder.recorded(Ops.MAX_POOL, name, new TensorImpl[] {x}, new Object[] {w, indices}, v);  // the node saves indices
      TensorImpl[] r = {v, indices};
      indices = null;
      return r;
    } finally {
      f.release();
      if (values != null) values.release();
      if (indices != null) indices.release();
    }
  }

  private static void requireShape(String op, String what, TensorImpl t, long[] shape) {
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
