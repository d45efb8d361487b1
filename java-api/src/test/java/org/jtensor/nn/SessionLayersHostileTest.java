package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.jtensor.DType;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.junit.jupiter.api.Test;

/** A hostile review of session 31's layers and module features, each case against PyTorch 2.13 (CPU). */
class SessionLayersHostileTest extends ScopedTest {
  /**
   * F.interpolate(x, size=[..., 41], mode='nearest-exact') of x = [0, 1] along the last dim (the
   * other dims kept at 2): the first output reading input 1 is dst 20 in 1-D and 3-D (the generic
   * kernel) and dst 21 in 2-D (nearest_exact_idx, float scale), for float32, float64 and float16.
   */
  @Test
  void nearestExactTakesEachDimsKernelIndex() {
    for (DType dt : new DType[] {DType.FLOAT32, DType.FLOAT64, DType.FLOAT16}) {
      for (int nd = 1; nd <= 3; nd++) {
        long[] shape = new long[nd + 2], size = new long[nd];
        java.util.Arrays.fill(shape, 1);
        java.util.Arrays.fill(size, 2);
        shape[nd + 1] = 2;
        size[nd - 1] = 41;
        long[] big = shape.clone();
        java.util.Arrays.fill(big, 2);
        Tensor x = Tensor.arange(0, 2, 1, dt).reshape(shape).expand(big).contiguous();
        float[] y = Functional.interpolate(x, size, "nearest-exact", false).toFloatArray();
        int first = 0;
        while (y[y.length - 41 + first] == 0) first++;
        assertEquals(nd == 2 ? 21 : 20, first, dt + " " + nd + "-d");
      }
    }
  }

  /**
   * F.interpolate(x, size=(9, 4), mode='bicubic') of a [1, 1, 5, 7] float16 and bfloat16 x (below):
   * ATen's generic kernel keeps the cubic weights in the input's dtype, so they are rounded to it
   * before the float sums; jtensor's float weights were 1 to 2 ulps off in 10 and 14 of 36 outputs.
   */
  @Test
  void bicubicHalfRoundsItsWeightsToTheHalfType() {
    float[] h = {111.1875f, 99.1875f, 87.8125f, 77.0625f, 66.9375f, 57.53125f, 48.75f, 40.59375f, 33.125f, 26.28125f, 20.09375f, 14.5546875f,
        9.671875f, 5.4296875f, 1.837890625f, -1.1025390625f, -3.39453125f, -5.03515625f, -6.02734375f, -6.37109375f, -6.06640625f, -5.109375f,
        -3.505859375f, -1.251953125f, 1.6513671875f, 5.203125f, 9.40625f, 14.2578125f, 19.765625f, 25.90625f, 32.71875f, 40.15625f, 48.25f,
        57.0f, 66.375f};
    float[] hy = {114.625f, 92.125f, 73.9375f, 55.8125f, 87.875f, 68.4375f, 53.03125f, 37.96875f, 47.1875f, 32.6875f, 21.71875f, 11.5859375f,
        15.3203125f, 6.05859375f, -0.2440185546875f, -5.13671875f, 0.92919921875f, -3.720703125f, -5.9140625f, -6.19921875f, -8.0f, -8.046875f,
        -6.1328125f, -1.8017578125f, -2.640625f, 2.560546875f, 9.140625f, 18.703125f, 12.96875f, 23.140625f, 34.125f, 48.65625f, 24.171875f,
        37.40625f, 51.125f, 68.6875f};
    float[] b = {111.0f, 99.0f, 88.0f, 77.0f, 67.0f, 57.5f, 48.75f, 40.5f, 33.0f, 26.25f, 20.125f, 14.5625f, 9.6875f, 5.4375f, 1.8359375f,
        -1.1015625f, -3.390625f, -5.03125f, -6.03125f, -6.375f, -6.0625f, -5.125f, -3.5f, -1.25f, 1.6484375f, 5.21875f, 9.4375f, 14.25f, 19.75f,
        25.875f, 32.75f, 40.25f, 48.25f, 57.0f, 66.5f};
    float[] by = {114.5f, 92.5f, 74.0f, 55.75f, 88.0f, 68.5f, 53.25f, 38.0f, 47.0f, 32.75f, 21.75f, 11.5625f, 15.1875f, 6.0f, -0.275390625f,
        -5.15625f, 0.9296875f, -3.71875f, -5.9375f, -6.1875f, -8.0f, -8.0625f, -6.15625f, -1.828125f, -2.640625f, 2.5625f, 9.1875f, 18.75f,
        12.9375f, 23.25f, 34.25f, 48.75f, 24.125f, 37.5f, 51.25f, 68.5f};
    long[] size = {9, 4};
    Tensor xh = Tensor.fromArray(h, 1, 1, 5, 7).to(DType.FLOAT16), xb = Tensor.fromArray(b, 1, 1, 5, 7).to(DType.BFLOAT16);
    assertArrayEquals(hy, Functional.interpolate(xh, size, "bicubic", false).toFloatArray());
    assertArrayEquals(by, Functional.interpolate(xb, size, "bicubic", false).toFloatArray());
    // its backward takes the float weights: with g = arange(36) / 4 - 4 the gradient is float's rounded once
    Tensor leaf = xh.detach().requiresGrad_(true), y = Functional.interpolate(leaf, size, "bicubic", false);
    assertArrayEquals(hy, y.toFloatArray(), "the same values under autograd");
    y.backward(Tensor.arange(0, 36, 1, DType.FLOAT32).div(4.0).sub(4.0).reshape(1, 1, 9, 4).to(DType.FLOAT16));
    float[] grad = {-4.18359375f, -2.349609375f, -5.40625f, -1.34765625f, -5.0625f, -1.814453125f, -3.33203125f, -2.177734375f, -1.2392578125f,
        -2.599609375f, -0.6240234375f, -2.244140625f, -0.68798828125f, -1.30078125f, -1.1920928955078125e-07f, -0.032257080078125f,
        0.42529296875f, 0.1546630859375f, 0.77587890625f, 0.509765625f, 0.8623046875f, 2.177734375f, 1.173828125f, 3.46484375f, 0.93798828125f,
        3.8203125f, 1.724609375f, 3.052734375f, 4.18359375f, 2.287109375f, 6.24609375f, 1.6533203125f, 6.59375f, 2.822265625f, 5.03515625f};
    try (Tensor got = leaf.grad()) {
      assertArrayEquals(grad, got.toFloatArray());
    }
  }

  /**
   * PyTorch's adaptive max pooling checks every dim but the first, so an unbatched input without
   * channels pools (adaptive_max_pool1d/2d/3d of zeros(0, 5[, 5[, 5]]) to 2: shape [0, 2, ...]),
   * which jtensor refused; adaptive_avg_pool3d checks every dim but the first too, so a batched
   * [1, 0, 5, 5, 5] is refused ("... with dimension 1 being empty"), which jtensor pooled.
   */
  @Test
  void adaptivePoolingChecksPyTorchsDims() {
    long[] two = {2};
    assertArrayEquals(new long[] {0, 2}, Functional.adaptiveMaxPool1d(Tensor.zeros(0, 5), two).shape());
    assertArrayEquals(new long[] {0, 2, 2}, Functional.adaptiveMaxPool2dWithIndices(Tensor.zeros(0, 5, 5), two).indices().shape());
    assertArrayEquals(new long[] {0, 2, 2, 2}, Functional.adaptiveMaxPool3d(Tensor.zeros(0, 5, 5, 5), two).shape());
    assertArrayEquals(new long[] {0, 2, 2, 2}, Functional.adaptiveAvgPool3d(Tensor.zeros(0, 5, 5, 5), two).shape());
    assertArrayEquals(new long[] {1, 0, 2, 2}, Functional.adaptiveAvgPool2d(Tensor.zeros(1, 0, 5, 5), two).shape());
    assertEquals("adaptive_avg_pool3d(): Expected input to have non-zero size for non-batch dimensions, but input has sizes [1, 0, 5, 5, 5] "
        + "with dimension 1 being empty", assertThrows(IllegalArgumentException.class,
        () -> Functional.adaptiveAvgPool3d(Tensor.zeros(1, 0, 5, 5, 5), two)).getMessage());
  }

  /**
   * avg_pool2d(zeros, 2, 2, 1, ceil_mode=True, count_include_pad=False, divisor_override=-2) and
   * avg_pool3d's with -3 are +0.0 everywhere in PyTorch 2.13, whose kernel adds each quotient to a
   * zeroed output; jtensor gave 0 / -2 = -0.0. The values and gradient of arange(25) - 12 agree.
   */
  @Test
  void negativeDivisorOverrideGivesPositiveZero() {
    long[] two = {2}, one = {1};
    for (float v : Functional.avgPool2d(Tensor.zeros(1, 1, 5, 5), two, two, one, true, false, -2).toFloatArray()) {
      assertEquals(0, Float.floatToIntBits(v), "+0.0");
    }
    for (double v : Functional.avgPool3d(Tensor.zeros(new long[] {1, 1, 3, 3, 3}, DType.FLOAT64), two, two, one, true, true, -3).toDoubleArray()) {
      assertEquals(0, Double.doubleToLongBits(v), "+0.0");
    }
    Tensor x = Tensor.arange(0, 25, 1, DType.FLOAT32).sub(12.0).reshape(1, 1, 5, 5).requiresGrad_(true);
    Tensor y = Functional.avgPool2d(x, two, two, one, true, false, -2);
    assertArrayEquals(new float[] {6, 10.5f, 8.5f, 4.5f, 6, 2, -5.5f, -14, -18}, y.toFloatArray());
    y.backward(Tensor.arange(0, 9, 1, DType.FLOAT32).reshape(1, 1, 3, 3));
    try (Tensor g = x.grad()) {
      assertArrayEquals(new float[] {0, -.5f, -.5f, -1, -1, -1.5f, -2, -2, -2.5f, -2.5f, -1.5f, -2, -2, -2.5f, -2.5f, -3, -3.5f, -3.5f, -4, -4,
          -3, -3.5f, -3.5f, -4, -4}, g.toFloatArray());
    }
  }

  /** m(x, output_size=None) is m(x) in PyTorch (the module's output_padding, [1, 3, 10] here); forward(x, null) threw a NullPointerException. */
  @Test
  void convTransposeTakesANullOutputSizeAsNone() {
    try (ConvTranspose1d m = new ConvTranspose1d(2, 3, new long[] {3}, LayerOptions.of().stride(2), new long[] {1}, new org.jtensor.Generator(0))) {
      Tensor x = Tensor.randn(1, 2, 4), y = m.forward(x, null);
      assertArrayEquals(new long[] {1, 3, 10}, y.shape());
      assertArrayEquals(m.forward(x).toFloatArray(), y.toFloatArray());
    }
  }
}
