package org.jtensor.nn;

import org.bytedeco.javacpp.DoublePointer;
import org.bytedeco.javacpp.FloatPointer;
import org.bytedeco.pytorch.TensorOptions;
import org.bytedeco.pytorch.global.torch;
import org.jtensor.Tensor;

/** Moves values between jtensor and libtorch (org.bytedeco:pytorch) for the tests that compare the two. */
final class LibtorchPeer {
  private LibtorchPeer() {}

  static {
    torch.manual_seed(0);
    // The peer is libtorch's own kernels, not oneDNN's: on some hosts oneDNN's AVX-512 convolutions
    // in this build answer wrongly (conv_transpose2d's output[0] 0.0 where the sum it stands for is
    // 0.0804, jtensor's value; conv3d input gradients off by 2x), and which kernel oneDNN picks
    // depends on the CPU, so a host could fail jtensor for libtorch's fault.
    torch.globalContext().setUserEnabledMkldnn(false);
  }

  /** A float32 libtorch tensor with t's values and shape (a copy). */
  static org.bytedeco.pytorch.Tensor of(Tensor t) {
    return of(t.toDoubleArray(), t.shape());
  }

  static org.bytedeco.pytorch.Tensor of(double[] v, long... shape) {
    float[] f = new float[v.length];
    for (int i = 0; i < v.length; i++) f[i] = (float) v[i];
    try (FloatPointer p = new FloatPointer(f)) {
      return torch.from_blob(p, shape, new TensorOptions(torch.ScalarType.Float)).clone();
    }
  }

  /** A float64 libtorch leaf with t's values and shape (a copy): a reference run in double. */
  static org.bytedeco.pytorch.Tensor leaf64(Tensor t) {
    try (DoublePointer p = new DoublePointer(t.toDoubleArray())) {
      return torch.from_blob(p, t.shape(), new TensorOptions(torch.ScalarType.Double)).clone().requires_grad_(true);
    }
  }

  static org.bytedeco.pytorch.Tensor longs(long[] v) {
    try (org.bytedeco.javacpp.LongPointer p = new org.bytedeco.javacpp.LongPointer(v)) {
      return torch.from_blob(p, new long[] {v.length}, new TensorOptions(torch.ScalarType.Long)).clone();
    }
  }

  static org.bytedeco.pytorch.Tensor leaf(Tensor t) {
    return of(t).requires_grad_(true);
  }

  /** Every value of t, in row-major order, as doubles. */
  static double[] values(org.bytedeco.pytorch.Tensor t) {
    long n = t.numel();
    try (DoublePointer p = new DoublePointer(n)) {
      org.bytedeco.pytorch.Tensor view = torch.from_blob(p, t.sizes().vec().get(), new TensorOptions(torch.ScalarType.Double));
      view.copy_(t.detach());
      double[] out = new double[(int) n];
      p.get(out);
      return out;
    }
  }
}
