package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.Random;
import org.bytedeco.pytorch.T_TensorTensor_T;
import org.bytedeco.pytorch.global.torch;
import org.jtensor.DType;
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
  /** A random pooling: kernel 1-3, stride 1-3, padding up to half the kernel, dilation 1-2 (or 1), an input the window fits. */
  private record Params(long[] kernel, long[] stride, long[] padding, long[] dilation, long[] in) {
    static Params random(Random rnd, int nsp, boolean dilated) {
      Params p = new Params(new long[nsp], new long[nsp], new long[nsp], new long[nsp], new long[nsp]);
      for (int d = 0; d < nsp; d++) {
        p.kernel[d] = 1 + rnd.nextInt(3);
        p.stride[d] = 1 + rnd.nextInt(3);
        p.padding[d] = rnd.nextInt((int) (p.kernel[d] / 2) + 1);
        p.dilation[d] = dilated ? 1 + rnd.nextInt(2) : 1;
        p.in[d] = p.dilation[d] * (p.kernel[d] - 1) + 1 + rnd.nextInt(5);
      }
      return p;
    }
  }

  @Test
  void randomPoolingsMatchLibtorch() {
    Random rnd = new Random(7);
    Generator g = new Generator(7);
    for (int trial = 0; trial < 120; trial++) {
      int nsp = 1 + trial % 3;
      Params p = Params.random(rnd, nsp, true);
      long[] kernel = p.kernel, stride = p.stride, padding = p.padding, dilation = p.dilation, in = p.in;
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

  @Test
  void randomAveragePoolsMatchLibtorch() {
    Random rnd = new Random(11);
    Generator g = new Generator(11);
    for (int trial = 0; trial < 90; trial++) {
      int nsp = 1 + trial % 3;
      Params p = Params.random(rnd, nsp, false);
      long[] kernel = p.kernel, stride = p.stride, padding = p.padding, in = p.in;
      boolean ceil = rnd.nextBoolean(), includePad = rnd.nextBoolean(), unbatched = rnd.nextInt(5) == 0;
      long[] shape = ConvolutionLibtorchTest.concat(unbatched ? new long[] {3} : new long[] {2, 3}, in);
      try (TensorScope s = TensorScope.open()) {
        Tensor x = ConvolutionLibtorchTest.layout(Tensor.randn(shape, g), trial % 3, unbatched ? 0 : 1).requiresGrad_();
        Tensor got = nsp == 1 ? Functional.avgPool1d(x, kernel, stride, padding, ceil, includePad)
            : nsp == 2 ? Functional.avgPool2d(x, kernel, stride, padding, ceil, includePad) : Functional.avgPool3d(x, kernel, stride, padding, ceil, includePad);
        org.bytedeco.pytorch.Tensor tx = LibtorchPeer.leaf(x);
        org.bytedeco.pytorch.Tensor want = nsp == 1 ? torch.avg_pool1d(tx, kernel, stride, padding, ceil, includePad)
            : nsp == 2 ? torch.avg_pool2d(tx, kernel, stride, padding, ceil, includePad, new org.bytedeco.pytorch.LongOptional())
            : torch.avg_pool3d(tx, kernel, stride, padding, ceil, includePad, new org.bytedeco.pytorch.LongOptional());
        String what = "avg_pool" + nsp + "d " + Arrays.toString(shape) + " kernel " + Arrays.toString(kernel) + " stride "
            + Arrays.toString(stride) + " padding " + Arrays.toString(padding) + " ceil " + ceil + " count_include_pad " + includePad;
        assertEquals(Arrays.toString(want.sizes().vec().get()), Arrays.toString(got.shape()), what);
        assertArrayEquals(LibtorchPeer.values(want), got.toDoubleArray(), 1e-5, what);
        Tensor up = Tensor.randn(got.shape(), g);
        got.mul(up).sum().backward();
        want.mul(LibtorchPeer.of(up)).sum().backward();
        assertArrayEquals(LibtorchPeer.values(tx.grad()), x.grad().toDoubleArray(), 1e-5, what + ": grad");
      }
    }
  }

  @Test
  void adaptiveAveragePoolsMatchLibtorch() {
    Generator g = new Generator(12);
    long[][] cases = {{7, 5, 3, 2}, {6, 6, 1, 1}, {5, 9, 5, 9}, {3, 4, 7, 6}, {10, 1, 4, 1}};  // in H, W, out H, W
    for (long[] c : cases) {
      try (TensorScope s = TensorScope.open()) {
        Tensor x = Tensor.randn(new long[] {2, 3, c[0], c[1]}, g).requiresGrad_();
        Tensor got = Functional.adaptiveAvgPool2d(x, new long[] {c[2], c[3]});
        org.bytedeco.pytorch.Tensor tx = LibtorchPeer.leaf(x);
        org.bytedeco.pytorch.Tensor want = torch.adaptive_avg_pool2d(tx, new long[] {c[2], c[3]});
        String what = "adaptive_avg_pool2d " + Arrays.toString(c);
        assertEquals(Arrays.toString(want.sizes().vec().get()), Arrays.toString(got.shape()), what);
        assertArrayEquals(LibtorchPeer.values(want), got.toDoubleArray(), 1e-5, what);
        Tensor up = Tensor.randn(got.shape(), g);
        got.mul(up).sum().backward();
        want.mul(LibtorchPeer.of(up)).sum().backward();
        assertArrayEquals(LibtorchPeer.values(tx.grad()), x.grad().toDoubleArray(), 1e-5, what + ": grad");
        Tensor one = Functional.adaptiveAvgPool1d(x.detach().flatten(2, 3), new long[] {c[2]});
        org.bytedeco.pytorch.Tensor one1 = torch.adaptive_avg_pool1d(LibtorchPeer.of(x.detach().flatten(2, 3)), new long[] {c[2]});
        assertArrayEquals(LibtorchPeer.values(one1), one.toDoubleArray(), 1e-5, "adaptive_avg_pool1d " + Arrays.toString(c));
      }
    }
  }

  @Test
  void adaptiveMaxPoolMatchesLibtorchWithIndicesAndGradient() {
    Generator g = new Generator(13);
    long[][] cases = {{7, 5, 3, 2}, {6, 6, 1, 1}, {5, 9, 5, 9}, {3, 4, 7, 6}, {10, 1, 4, 1}};  // in H, W, out H, W
    for (long[] c : cases) {
      for (boolean batched : new boolean[] {true, false}) {
        try (TensorScope s = TensorScope.open()) {
          long[] shape = batched ? new long[] {2, 3, c[0], c[1]} : new long[] {3, c[0], c[1]};
          Tensor x = Tensor.randn(shape, g).requiresGrad_();
          org.jtensor.ValuesAndIndices got = Functional.adaptiveMaxPool2dWithIndices(x, new long[] {c[2], c[3]});
          org.bytedeco.pytorch.Tensor tx = LibtorchPeer.leaf(x);
          T_TensorTensor_T want = torch.adaptive_max_pool2d(tx, new long[] {c[2], c[3]});
          String what = "adaptive_max_pool2d " + Arrays.toString(shape) + " to " + c[2] + "x" + c[3];
          assertEquals(Arrays.toString(want.get0().sizes().vec().get()), Arrays.toString(got.values().shape()), what);
          assertArrayEquals(LibtorchPeer.values(want.get0()), got.values().toDoubleArray(), 0, what);
          assertArrayEquals(LibtorchPeer.values(want.get1()), got.indices().toDoubleArray(), 0, what + ": indices");
          Tensor up = Tensor.randn(got.values().shape(), g);
          got.values().mul(up).sum().backward();
          want.get0().mul(LibtorchPeer.of(up)).sum().backward();
          assertArrayEquals(LibtorchPeer.values(tx.grad()), x.grad().toDoubleArray(), 1e-6, what + ": grad");
        }
      }
    }
    try (TensorScope s = TensorScope.open()) {  // ties and NaN: the same element chosen
      Tensor x = Tensor.fromArray(new double[] {1, 3, 3, 0, 2, Double.NaN, 3, 1, 3, 3, 0, 2, 1, 1, 1, 1}, 1, 1, 4, 4).to(DType.FLOAT32);
      T_TensorTensor_T want = torch.adaptive_max_pool2d(LibtorchPeer.of(x), new long[] {3, 3});
      org.jtensor.ValuesAndIndices got = Functional.adaptiveMaxPool2dWithIndices(x, new long[] {3, 3});
      assertArrayEquals(LibtorchPeer.values(want.get0()), got.values().toDoubleArray(), 0, "ties and NaN: values");
      assertArrayEquals(LibtorchPeer.values(want.get1()), got.indices().toDoubleArray(), 0, "ties and NaN: indices");
      assertThrows(IllegalArgumentException.class, () -> Functional.adaptiveMaxPool2d(x, new long[] {-1, 2}));
      Tensor nans = Tensor.fromArray(new double[] {1, Double.NaN, 2, Double.NaN, 5, Double.NaN, 0, 7, 8, 9, Double.NaN, 1,
          3, 3, Double.NaN, 2, 0, 1, 4, 4}, 1, 1, 4, 5).to(DType.FLOAT32);  // several NaN a window: PyTorch takes the last
      for (long[] out : new long[][] {{1, 1}, {2, 2}, {3, 4}, {5, 7}}) {
        T_TensorTensor_T wantNan = torch.adaptive_max_pool2d(LibtorchPeer.of(nans), out);
        ValuesAndIndices gotNan = Functional.adaptiveMaxPool2dWithIndices(nans, out);
        assertArrayEquals(LibtorchPeer.values(wantNan.get1()), gotNan.indices().toDoubleArray(), 0, "NaN indices to " + Arrays.toString(out));
      }
      assertArrayEquals(new long[] {0, 2, 2, 2}, Functional.adaptiveMaxPool2d(Tensor.zeros(0, 2, 4, 4), new long[] {2}).shape());
      assertArrayEquals(new long[] {2, 0, 3}, Functional.adaptiveMaxPool2d(Tensor.zeros(2, 4, 4), new long[] {0, 3}).shape());
      assertThrows(IllegalArgumentException.class, () -> Functional.adaptiveMaxPool2d(Tensor.zeros(1, 0, 4, 4), new long[] {2}));
      assertThrows(IllegalArgumentException.class, () -> Functional.adaptiveMaxPool2d(Tensor.zeros(4, 4), new long[] {2}));
    }
    try (AdaptiveMaxPool2d m = new AdaptiveMaxPool2d(1); TensorScope s = TensorScope.open()) {
      Tensor x = Tensor.randn(new long[] {2, 3, 5, 4}, g);
      assertArrayEquals(x.amax(new int[] {2, 3}, true).toDoubleArray(), m.forward(x).toDoubleArray(), 0);
    }
  }

  /** Ties (small integers), NaN and infinities: the same maximum and the same index as libtorch (the first of equals, the last NaN). */
  @Test
  void tiesNansAndInfinitiesPickWhatLibtorchPicks() {
    Random rnd = new Random(13);
    double[] v = new double[2 * 3 * 9 * 8];
    for (int i = 0; i < v.length; i++) {
      int k = rnd.nextInt(12);
      v[i] = k == 0 ? Double.NaN : k == 1 ? Double.NEGATIVE_INFINITY : k == 2 ? Double.POSITIVE_INFINITY : rnd.nextInt(3);
    }
    try (TensorScope s = TensorScope.open()) {
      Tensor x = Tensor.fromArray(v, 2, 3, 9, 8).to(org.jtensor.DType.FLOAT32);
      for (boolean ceil : new boolean[] {false, true}) {
        long[] k = {3, 2}, st = {2}, p = {1}, d = {1, 2};
        ValuesAndIndices got = Functional.maxPool2dWithIndices(x, k, st, p, d, ceil);
        T_TensorTensor_T want = torch.max_pool2d_with_indices(LibtorchPeer.of(x), k, new long[] {2, 2}, new long[] {1, 1}, d, ceil);
        assertArrayEquals(LibtorchPeer.values(want.get0()), got.values().toDoubleArray(), 0, "values, ceil " + ceil);
        assertArrayEquals(LibtorchPeer.values(want.get1()), got.indices().toDoubleArray(), 0, "indices, ceil " + ceil);
      }
      // MaxPool2d(2)'s own path (2 x 2, stride 2, the odd last row dropped), and the general one for a transposed input
      for (Tensor in : new Tensor[] {x, x.transpose(2, 3).contiguous().transpose(2, 3)}) {
        ValuesAndIndices got = Functional.maxPool2dWithIndices(in, new long[] {2, 2}, new long[] {2, 2}, new long[] {0, 0}, new long[] {1, 1}, false);
        T_TensorTensor_T want = torch.max_pool2d_with_indices(LibtorchPeer.of(in), new long[] {2, 2}, new long[] {2, 2}, new long[] {0, 0},
            new long[] {1, 1}, false);
        assertArrayEquals(LibtorchPeer.values(want.get0()), got.values().toDoubleArray(), 0, "2 x 2 values, strides " + Arrays.toString(in.stride()));
        assertArrayEquals(LibtorchPeer.values(want.get1()), got.indices().toDoubleArray(), 0, "2 x 2 indices, strides " + Arrays.toString(in.stride()));
      }
      // MaxPool2d(2) rows of 4 to 20 outputs, in vectors of 4, 8 and 16 with an overlapping last one, both dtypes
      for (int width : new int[] {9, 16, 29, 32, 40, 41}) {
        double[] w = new double[2 * 2 * 5 * width];
        for (int i = 0; i < w.length; i++) {
          int k = rnd.nextInt(12);
          w[i] = k == 0 ? Double.NaN : k == 1 ? Double.NEGATIVE_INFINITY : k == 2 ? -0.0 : rnd.nextInt(3);
        }
        for (org.jtensor.DType dt : new org.jtensor.DType[] {org.jtensor.DType.FLOAT32, org.jtensor.DType.FLOAT64}) {
          Tensor in = Tensor.fromArray(w, 2, 2, 5, width).to(dt);
          ValuesAndIndices got = Functional.maxPool2dWithIndices(in, new long[] {2, 2}, new long[] {2, 2}, new long[] {0, 0}, new long[] {1, 1}, false);
          T_TensorTensor_T want = torch.max_pool2d_with_indices(LibtorchPeer.of(in), new long[] {2, 2}, new long[] {2, 2}, new long[] {0, 0},
              new long[] {1, 1}, false);
          String what = "2 x 2 of width " + width + " " + dt;
          assertArrayEquals(LibtorchPeer.values(want.get0()), got.values().toDoubleArray(), 0, what + ": values");
          assertArrayEquals(LibtorchPeer.values(want.get1()), got.indices().toDoubleArray(), 0, what + ": indices");
        }
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
