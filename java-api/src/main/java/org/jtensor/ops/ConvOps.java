package org.jtensor.ops;

import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.autograd.GradMode;
import org.jtensor.core.TensorImpl;
import org.jtensor.dispatch.Dispatcher;
import org.jtensor.dispatch.plan.ConvPacker;
import org.jtensor.dispatch.plan.ConvShape;
import org.jtensor.dispatch.plan.Windows;

/**
 * Convolution as one registry op (Ops.CONVOLUTION) with direct kernels: no im2col columns and no
 * GEMM packing in the forward or either gradient (vectorized/convolution.cpp, Note [Flat padded
 * planes], and conv_lanes.cpp, Note [Channels in lanes]). nn's Convolution has checked the arguments and calls it where the device
 * convolves directly; elsewhere, and for a gradient that is itself to be differentiated, the same
 * convolution is im2col and a GEMM ({@link #referenceGradients}).
 */
public final class ConvOps {
  private ConvOps() {}

  /** Whether x's device has the direct kernels for x's dtype. */
  public static boolean directOn(Tensor x) {
    return Dispatcher.backend(x.device()).convolvesDirectly(x.dtype());
  }

  /** The convolution of x (s.inputShape(), any layout) with weight and bias (null: none), recorded as one op on them. */
  public static Tensor direct(String name, Tensor x, Tensor weight, Tensor bias, ConvShape s) {
    TensorImpl ix = Handles.implOf(x, name), iw = Handles.implOf(weight, name), ib = bias == null ? null : Handles.implOf(bias, name);
    TensorImpl[] in = ib == null ? new TensorImpl[] {ix, iw} : new TensorImpl[] {ix, iw, ib};  // autograd records on these
    TensorImpl[] f = TensorImpl.frozen(name, ix, iw, ib);
    TensorImpl[] dense = new TensorImpl[3];
    TensorImpl out = null;
    try {
      WindowOps.requireShape(name, "input", f[0], s.inputShape());
      WindowOps.requireShape(name, "weight", f[1], s.weightShape());
      if (f[2] != null) WindowOps.requireShape(name, "bias", f[2], new long[] {s.outChannels()});
      DType dtype = f[0].dtype();
      for (int i = 0; i < 3; i++) dense[i] = DataOps.contiguousAs(name, f[i], dtype);
      TensorImpl y = out = DataOps.empty(name, s.outputShape(), dtype, f[0].device());
      Recorder.runRecorded(Ops.CONVOLUTION, name, in, s, null, y,
          () -> Dispatcher.backend(f[0].device()).convolution(name, ConvPacker.FORWARD, s, dense[0], dense[1], dense[2], y));
      TensorImpl result = out;
      out = null;
      return Handles.wrap(result);
    } finally {
      TensorImpl.releaseFrozen(f);
      for (TensorImpl t : dense) if (t != null) t.release();
      if (out != null) out.release();
    }
  }

  /** Ops.CONVOLUTION's derivative: the gradient kernels, or under createGraph im2col and GEMMs in differentiable ops. */
  static Tensor[] backward(Gradient.Context c, Tensor grad) {
    ConvShape s = c.args(ConvShape.class);
    Tensor x = c.input(0), w = c.input(1);
    Tensor gb = c.needs(2) ? grad.sum(spatialAndBatchDims(s)) : null;
    if (GradMode.isEnabled() || !s.takesDirectInputGradient() && c.needs(0)) {
      Tensor[] r = referenceGradients(s, x, w, grad, c.needs(0), c.needs(1));
      return new Tensor[] {r[0], r[1], gb};
    }
    String name = "convolution_backward";
    TensorImpl[] f = TensorImpl.frozen(name, Handles.implOf(grad, name), Handles.implOf(x, name), Handles.implOf(w, name));
    TensorImpl[] made = new TensorImpl[3];  // grad, x and w as the kernels read them
    Tensor[] r = {null, null, gb};
    boolean returned = false;
    try {
      DType dtype = f[1].dtype();
      Device device = f[1].device();
      for (int i = 0; i < 3; i++) made[i] = DataOps.contiguousAs(name, f[i], dtype);
      var backend = Dispatcher.backend(device);
      boolean composeX = false, composeW = false;  // a gradient the kernel declined (an infinite or NaN operand)
      if (c.needs(0)) {
        TensorImpl gx = DataOps.empty(name, s.inputShape(), dtype, device);
        r[0] = Handles.wrap(gx);
        composeX = !backend.convolution(name, ConvPacker.INPUT_GRAD, s, gx, made[2], null, made[0]);
      }
      if (c.needs(1)) {
        TensorImpl gw = DataOps.empty(name, s.weightShape(), dtype, device);
        r[1] = Handles.wrap(gw);
        composeW = !backend.convolution(name, ConvPacker.WEIGHT_GRAD, s, made[1], gw, null, made[0]);
      }
      if (composeX || composeW) {
        Tensor[] composed = referenceGradients(s, x, w, grad, composeX, composeW);
        for (int i = 0; i < 2; i++) {
          if (composed[i] == null) continue;
          r[i].close();
          r[i] = composed[i];
        }
      }
      returned = true;
      return r;
    } finally {
      TensorImpl.releaseFrozen(f);
      for (TensorImpl t : made) if (t != null) t.release();
      if (!returned) for (Tensor t : r) if (t != null) t.close();
    }
  }

  /**
   * The input's and weight's gradients (each null where not wanted) as im2col and GEMMs per group,
   * in differentiable ops: gradW = grad · columnsᵀ summed over the batch, gradX = col2im(Wᵀ · grad).
   */
  static Tensor[] referenceGradients(ConvShape s, Tensor x, Tensor w, Tensor grad, boolean wantX, boolean wantW) {
    Windows win = new Windows(s.batch(), s.channels(), s.inSizes(), s.outSizes(), s.kernel(), s.stride(), s.padBefore(), s.dilation());
    long n = s.batch(), g = s.groups(), og = s.outChannels() / g, rows = s.channels() / g * win.windowSize(), l = win.positions();
    try (TensorScope scope = TensorScope.open()) {
      Tensor gy = grad.reshape(n, g, og, l);
      Tensor gw = null, gx = null;
      if (wantW) {
        Tensor columns = WindowOps.im2col(x, win, "convolution_backward").view(n, g, rows, l);
        gw = scope.keep(gy.matmul(columns.transpose(-1, -2)).sum(0).reshape(s.weightShape()));
      }
      if (wantX) {
        Tensor columns = w.reshape(g, og, rows).transpose(1, 2).matmul(gy).reshape(n, g * rows, l);
        gx = scope.keep(WindowOps.col2im(columns, win, "convolution_backward"));
      }
      return new Tensor[] {gx, gw};
    }
  }

  /** The dims a bias's gradient sums over: batch and every spatial dim. */
  private static int[] spatialAndBatchDims(ConvShape s) {
    int[] dims = new int[1 + s.spatialDims()];
    for (int d = 1; d < dims.length; d++) dims[d] = d + 1;
    return dims;
  }
}
