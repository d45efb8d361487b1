package org.jtensor.nn;

import java.util.Arrays;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;

/**
 * F.max_unpool1d/2d: each value written at its max-pool index in a zero plane of the output's size
 * (a scatter, so the gradient gathers back). The size is PyTorch's (in − 1)·stride − 2·padding +
 * kernel unless outputSize (the spatial sizes, or all of them) picks one within a stride of it.
 */
final class MaxUnpooling {
  private MaxUnpooling() {}

  static Tensor maxUnpool(int nsp, Tensor input, Tensor indices, long[] kernelSize, long[] stride, long[] padding, long[] outputSize) {
    String op = "maxUnpool" + nsp + "d";
    long[] k = WindowArgs.expand(op, "kernel_size", kernelSize, nsp);
    long[] st = stride == null ? k : WindowArgs.expand(op, "stride", stride, nsp);
    long[] pad = WindowArgs.expand(op, "padding", padding, nsp);
    int d = input.dim();
    if (d != nsp + 1 && d != nsp + 2) {
      throw new IllegalArgumentException(op + "(): Input to max_unpooling" + nsp + "d should be a " + (nsp + 1) + "d or " + (nsp + 2)
          + "d Tensor, but got a tensor with " + d + " dimensions.");
    }
    if (!Arrays.equals(indices.shape(), input.shape())) {
      throw new IllegalArgumentException(op + "(): Expected shape of indices to be same as that of the input tensor (" + Arrays.toString(input.shape())
          + ") but got indices tensor with shape: " + Arrays.toString(indices.shape()));
    }
    if (indices.dtype() != DType.INT64) throw new IllegalArgumentException(op + "(): elements in indices should be type int64 but got: " + indices.dtype());
    long[] in = input.shape(), out = new long[nsp];
    for (int i = 0; i < nsp; i++) {
      long def = (in[d - nsp + i] - 1) * st[i] - 2 * pad[i] + k[i];
      if (outputSize == null) {
        out[i] = def;
        continue;
      }
      long size = outputSize[outputSize.length - nsp + i];
      if (outputSize.length < nsp || size < def - st[i] || size > def + st[i]) {
        throw new IllegalArgumentException(op + "(): invalid output_size " + Arrays.toString(outputSize) + " (dim " + i + " must be between "
            + (def - st[i]) + " and " + (def + st[i]) + ")");
      }
      out[i] = size;
    }
    long plane = 1;
    for (long v : out) plane *= v;
    long[] lead = Arrays.copyOf(in, d - nsp), flat = Arrays.copyOf(lead, lead.length + 1), shape = Arrays.copyOf(lead, d);
    flat[lead.length] = plane;
    System.arraycopy(out, 0, shape, d - nsp, nsp);
    try (TensorScope s = TensorScope.open()) {
      if (indices.numel() > 0 && (indices.amin().item() < 0 || indices.amax().item() >= plane)) {
        long bad = (long) (indices.amin().item() < 0 ? indices.amin().item() : indices.amax().item());
        String sizes = String.join("x", Arrays.stream(out).mapToObj(Long::toString).toArray(String[]::new));
        throw new IndexOutOfBoundsException(op + "(): Found an invalid max index: " + bad + " (output volumes are of size " + sizes + ")");
      }
      long[] src = Arrays.copyOf(lead, lead.length + 1);
      src[lead.length] = in.length == 0 ? 1 : Arrays.stream(in, d - nsp, d).reduce(1, (a, b) -> a * b);
      Tensor zeros = Tensor.zeros(flat, input.dtype()).to(input.device());
      return s.keep(zeros.scatter(lead.length, indices.reshape(src), input.reshape(src)).reshape(shape));
    }
  }
}
