package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.Random;
import org.bytedeco.pytorch.T_TensorTensor_T;
import org.bytedeco.pytorch.global.torch;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.ValuesAndIndices;
import org.junit.jupiter.api.Test;

/**
 * max_pool1d/2d/3d against libtorch's max_pool*d_with_indices over random kernels, strides,
 * paddings, dilations and ceil modes, batched and not, contiguous and channels-last: the shape,
 * the maxima and their indices exactly; the input's gradient is each window's upstream gradient
 * summed at its index (checked against a plain loop here; GradCheckOpsTest checks it by finite differences).
 */
class PoolingLibtorchTest {
  @Test
  void randomPoolingsMatchLibtorch() {
    Random rnd = new Random(7);
    Generator g = new Generator(7);
    for (int trial = 0; trial < 120; trial++) {
      int nsp = 1 + trial % 3;
      long[] kernel = new long[nsp], stride = new long[nsp], padding = new long[nsp], dilation = new long[nsp], in = new long[nsp];
      for (int d = 0; d < nsp; d++) {
        kernel[d] = 1 + rnd.nextInt(3);
        stride[d] = 1 + rnd.nextInt(3);
        padding[d] = rnd.nextInt((int) (kernel[d] / 2) + 1);
        dilation[d] = 1 + rnd.nextInt(2);
        in[d] = dilation[d] * (kernel[d] - 1) + 1 + rnd.nextInt(5);
      }
      boolean ceil = rnd.nextBoolean(), unbatched = rnd.nextInt(5) == 0;
      long[] shape = ConvolutionLibtorchTest.concat(unbatched ? new long[] {3} : new long[] {2, 3}, in);
      try (TensorScope s = TensorScope.open()) {
        Tensor x = ConvolutionLibtorchTest.layout(Tensor.randn(shape, g), trial % 3, unbatched ? 0 : 1).requiresGrad_();
        ValuesAndIndices got = Pooling.maxPool(nsp, x, kernel, stride, padding, dilation, ceil);
        T_TensorTensor_T want = nsp == 1 ? torch.max_pool1d_with_indices(LibtorchPeer.of(x), kernel, stride, padding, dilation, ceil)
            : nsp == 2 ? torch.max_pool2d_with_indices(LibtorchPeer.of(x), kernel, stride, padding, dilation, ceil)
            : torch.max_pool3d_with_indices(LibtorchPeer.of(x), kernel, stride, padding, dilation, ceil);
        String what = "max_pool" + nsp + "d " + Arrays.toString(shape) + " kernel " + Arrays.toString(kernel) + " stride "
            + Arrays.toString(stride) + " padding " + Arrays.toString(padding) + " dilation " + Arrays.toString(dilation) + " ceil " + ceil;
        assertEquals(Arrays.toString(want.get0().sizes().vec().get()), Arrays.toString(got.values().shape()), what);
        assertArrayEquals(LibtorchPeer.values(want.get0()), got.values().toDoubleArray(), 0, what);
        assertArrayEquals(LibtorchPeer.values(want.get1()), got.indices().toDoubleArray(), 0, what + ": indices");
        Tensor up = Tensor.randn(got.values().shape(), g);
        got.values().mul(up).sum().backward();
        assertArrayEquals(scattered(shape, nsp, got.indices(), up), x.grad().toDoubleArray(), 1e-6, what + ": grad");
      }
    }
  }

  /** The expected input gradient: up summed into each (batch, channel) plane at the indices. */
  private static double[] scattered(long[] shape, int nsp, Tensor indices, Tensor up) {
    long planeSize = 1, total = 1;
    for (int d = 0; d < shape.length; d++) {
      total *= shape[d];
      if (d >= shape.length - nsp) planeSize *= shape[d];
    }
    long[] idx = indices.contiguous().toLongArray();
    double[] g = up.contiguous().toDoubleArray(), want = new double[(int) total];
    long planes = total / planeSize, perPlane = idx.length / planes;
    for (int i = 0; i < idx.length; i++) want[(int) ((i / perPlane) * planeSize + idx[i])] += g[i];
    return want;
  }
}
