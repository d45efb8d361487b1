package org.jtensor.ops;

import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Tensor;
import org.jtensor.core.TensorImpl;
import org.jtensor.dispatch.Dispatcher;
import org.jtensor.dispatch.plan.GridSamplePacker.Sampling;

/**
 * grid_sample as one op with a native kernel (the grid_sample plan), forward and backward. nn's
 * GridSampling checks the user's arguments with PyTorch's messages; here the tensors are checked
 * against the sampling and made dense. The gradients are the backward kernel's, not themselves
 * differentiable: differentiating them again (PyTorch 2.13 can) is refused.
 */
public final class GridSampleOps {
  private GridSampleOps() {}

  /** input [n, c, (d,) h, w] sampled at grid [n, (outD,) outH, outW, 2 or 3] (both float32 or float64), recorded on both. */
  public static Tensor gridSample(String name, Tensor input, Tensor grid, Sampling s) {
    TensorImpl x = Handles.implOf(input, name), g = Handles.implOf(grid, name);
    TensorImpl[] f = TensorImpl.frozen(name, x, g);
    TensorImpl[] made = new TensorImpl[3];  // input, grid as the kernel reads them; out
    try {
      Device device = f[0].device();
      refuseCuda(name, device);
      DType dtype = f[0].dtype();
      WindowOps.requireShape(name, "input", f[0], s.inputShape());
      WindowOps.requireShape(name, "grid", f[1], s.gridShape());
      made[0] = DataOps.contiguousAs(name, f[0], dtype);
      made[1] = DataOps.contiguousAs(name, f[1], dtype);
      made[2] = DataOps.empty(name, s.outputShape(), dtype, device);
      Recorder.Pending rec = Recorder.active(x, g)
          ? Recorder.begin(Ops.GRID_SAMPLE, name, new TensorImpl[] {x, g}, null, s, null, null)
          : null;
      Recorder.complete(rec, () -> Dispatcher.backend(device).gridSample(name, s, made[0], made[1], made[2], null, null, null), made[2], null);
      TensorImpl out = made[2];
      made[2] = null;
      return Handles.wrap(out);
    } finally {
      TensorImpl.releaseFrozen(f);
      for (TensorImpl t : made) if (t != null) t.release();
    }
  }

  /** PyTorch's CPU kernel only: a CUDA tensor is refused before anything is allocated. */
  public static void refuseCuda(String name, Device device) {
    if (device.type() == Device.Type.CUDA) throw new UnsupportedOperationException(name + "(): not implemented for CUDA");
  }

  /** The derivative of Ops.GRID_SAMPLE: the backward kernel's input and grid gradients. */
  static Tensor[] backward(Gradient.Context c, Tensor grad) {
    Sampling s = c.args(Sampling.class);
    String name = "gridSampleBackward";
    Tensor input = c.input(0), grid = c.input(1);
    TensorImpl[] f = TensorImpl.frozen(name, Handles.implOf(grad, name), Handles.implOf(input, name), Handles.implOf(grid, name));
    TensorImpl[] made = new TensorImpl[5];  // grad, input, grid as the kernel reads them; gradInput, gradGrid
    try {
      DType dtype = f[1].dtype();
      Device device = f[1].device();
      WindowOps.requireShape(name, "gradient", f[0], s.outputShape());
      for (int k = 0; k < 3; k++) made[k] = DataOps.contiguousAs(name, f[k], dtype);
      if (c.needs(0)) made[3] = DataOps.empty(name, s.inputShape(), dtype, device);
      if (c.needs(1)) made[4] = DataOps.empty(name, s.gridShape(), dtype, device);
      Dispatcher.backend(device).gridSample(name, s, made[1], made[2], null, made[0], made[3], made[4]);
      Tensor[] out = new Tensor[2];
      for (int k = 0; k < 2; k++) {
        if (made[3 + k] == null) continue;
        // under createGraph (grad mode on here) a node whose own derivative refuses: PyTorch 2.13 has
        // one, jtensor does not, and an unrecorded gradient would silently drop its second-order terms
        TensorImpl r = made[3 + k];
        made[3 + k] = null;  // recorded() releases it if recording fails
        out[k] = Handles.wrap(Recorder.recorded(Ops.GRID_SAMPLE_BACKWARD, name, new TensorImpl[] {Handles.implOf(grad, name),
            Handles.implOf(input, name), Handles.implOf(grid, name)}, s, r));
      }
      return out;
    } finally {
      TensorImpl.releaseFrozen(f);
      for (TensorImpl t : made) if (t != null) t.release();
    }
  }
}
