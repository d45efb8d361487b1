package org.jtensor;

import java.util.Random;
import org.jtensor.nn.Functional;
import org.junit.jupiter.api.Test;

/**
 * Convolution, pooling, unfold and fold on cuda:0 against the CPU (tag cuda): forward and the
 * gradients of input and weight, over strides, paddings, dilations, groups, ceil modes and layouts,
 * in every floating dtype (max pooling in int64 too). Inputs are small integers, so every sum is
 * exact and the two devices must agree whatever order their GEMMs add in.
 */
class CudaWindowsTest extends CudaParity {
  private static final DType[] FLOATS = {DType.FLOAT32, DType.FLOAT64, DType.FLOAT16, DType.BFLOAT16};

  private static Tensor conv(int nsp, Tensor x, Tensor w, Tensor b, long[] stride, long[] padding, long[] dilation, long groups) {
    return nsp == 1 ? Functional.conv1d(x, w, b, stride, padding, dilation, groups)
        : nsp == 2 ? Functional.conv2d(x, w, b, stride, padding, dilation, groups) : Functional.conv3d(x, w, b, stride, padding, dilation, groups);
  }

  private static long[] shape(long batch, long channels, long... spatial) {
    long[] s = new long[2 + spatial.length];
    s[0] = batch;
    s[1] = channels;
    System.arraycopy(spatial, 0, s, 2, spatial.length);
    return s;
  }

  @Test
  void convolutionsAgreeForwardAndBackward() {
    Random rnd = new Random(31);
    for (DType dt : FLOATS) {
      for (int nsp = 1; nsp <= 3; nsp++) {
        for (int layout = 0; layout < 3; layout++) {
          final int n = nsp;
          long groups = 1 + layout % 2, size = nsp == 3 ? 5 : 9;
          long[] spatial = new long[nsp], kernel = new long[nsp];
          java.util.Arrays.fill(spatial, size);
          java.util.Arrays.fill(kernel, 3);
          long[] stride = {1 + layout % 2}, padding = {layout}, dilation = {1 + (layout == 2 ? 1 : 0)};
          Tensor x = integers(rnd, dt, shape(2, 2 * groups, spatial), layout, -2, 2);
          Tensor w = integers(rnd, dt, shape(2 * groups, 2, kernel), 0, -1, 1);
          Tensor b = integers(rnd, dt, new long[] {2 * groups}, 0, -2, 2);
          String at = "conv" + nsp + "d " + dt + " layout " + layout + " groups " + groups;
          check(at, t -> conv(n, t[0], t[1], t[2], stride, padding, dilation, groups), x, w, b);
          long[] outPad = {stride[0] - 1};
          Tensor tw = integers(rnd, dt, shape(2 * groups, 2, kernel), 0, -1, 1);
          check(at + " transposed", t -> n == 1 ? Functional.convTranspose1d(t[0], t[1], t[2], stride, padding, outPad, groups, dilation)
              : n == 2 ? Functional.convTranspose2d(t[0], t[1], t[2], stride, padding, outPad, groups, dilation)
              : Functional.convTranspose3d(t[0], t[1], t[2], stride, padding, outPad, groups, dilation), x, tw, b);
          Tensor up = integers(rnd, dt, conv(n, x, w, b, stride, padding, dilation, groups).shape(), 0, -1, 1);
          check(at + " input grad", t -> {
            Tensor xl = t[0].detach().requiresGrad_();
            conv(n, xl, t[1], null, stride, padding, dilation, groups).mul(t[2]).sum().backward();
            return xl.grad().clone();
          }, x, w, up);
          check(at + " weight grad", t -> {
            Tensor wl = t[1].detach().requiresGrad_();
            conv(n, t[0], wl, null, stride, padding, dilation, groups).mul(t[2]).sum().backward();
            return wl.grad().clone();
          }, x, w, up);
        }
      }
    }
    assertMostAgreed();
  }

  @Test
  void maxPoolingAgreesWithIndicesAndGradient() {
    Random rnd = new Random(37);
    for (DType dt : new DType[] {DType.FLOAT32, DType.FLOAT64, DType.FLOAT16, DType.BFLOAT16, DType.INT64}) {
      for (int nsp = 1; nsp <= 3; nsp++) {
        for (int layout = 0; layout < 3; layout++) {
          final int n = nsp;
          long[] spatial = new long[nsp];
          java.util.Arrays.fill(spatial, nsp == 3 ? 6 : 11);
          long[] kernel = {3}, stride = {2}, padding = {layout % 2}, dilation = {1 + layout / 2};
          boolean ceil = layout != 1;
          Tensor x = integers(rnd, dt, shape(2, 3, spatial), layout, -50, 50);
          String at = "maxPool" + nsp + "d " + dt + " layout " + layout;
          check(at, t -> pool(n, t[0], kernel, stride, padding, dilation, ceil).values(), x);
          check(at + " indices", t -> pool(n, t[0], kernel, stride, padding, dilation, ceil).indices(), x);
          if (dt.isFloatingPoint()) {
            Tensor up = integers(rnd, dt, pool(n, x, kernel, stride, padding, dilation, ceil).values().shape(), 0, -2, 2);
            check(at + " grad", t -> {
              Tensor xl = t[0].detach().requiresGrad_();
              pool(n, xl, kernel, stride, padding, dilation, ceil).values().mul(t[1]).sum().backward();
              return xl.grad().clone();
            }, x, up);
          }
        }
      }
    }
    assertMostAgreed();
  }

  private static ValuesAndIndices pool(int nsp, Tensor x, long[] kernel, long[] stride, long[] padding, long[] dilation, boolean ceil) {
    return nsp == 1 ? Functional.maxPool1dWithIndices(x, kernel, stride, padding, dilation, ceil)
        : nsp == 2 ? Functional.maxPool2dWithIndices(x, kernel, stride, padding, dilation, ceil)
        : Functional.maxPool3dWithIndices(x, kernel, stride, padding, dilation, ceil);
  }

  @Test
  void unfoldAndFoldAgree() {
    Random rnd = new Random(41);
    for (DType dt : FLOATS) {
      for (int layout = 0; layout < 3; layout++) {
        long[] k = {2, 3}, d = {1 + layout % 2}, p = {layout}, s = {1 + layout / 2};
        Tensor x = integers(rnd, dt, new long[] {2, 3, 8, 7}, layout, -3, 3);
        check("unfold " + dt + " layout " + layout, t -> Functional.unfold(t[0], k, d, p, s), x);
        long blocks = Functional.unfold(x, k, d, p, s).shape()[2];
        Tensor cols = integers(rnd, dt, new long[] {2, 3 * 6, blocks}, layout, -3, 3);
        check("fold " + dt + " layout " + layout, t -> Functional.fold(t[0], new long[] {8, 7}, k, d, p, s), cols);
      }
    }
    assertMostAgreed();
  }

  @Test
  void averagePoolsAgree() {
    Random rnd = new Random(43);
    for (DType dt : FLOATS) {
      for (int layout = 0; layout < 3; layout++) {
        boolean ceil = layout != 0, includePad = layout != 1;
        long[] p = {layout % 2};
        Tensor x = integers(rnd, dt, new long[] {2, 3, 9, 8}, layout, -4, 4);
        check("avgPool2d " + dt + " layout " + layout, t -> Functional.avgPool2d(t[0], new long[] {3, 2}, new long[] {2}, p, ceil, includePad), x);
        check("avgPool1d " + dt + " layout " + layout, t -> Functional.avgPool1d(t[0].select(3, 0), new long[] {2}, null, p, ceil, includePad), x);
        check("adaptiveAvgPool2d " + dt + " layout " + layout, t -> Functional.adaptiveAvgPool2d(t[0], new long[] {4, 3}), x);
        Tensor up = integers(rnd, dt, new long[] {2, 3, 4, 3}, 0, -2, 2);
        check("adaptiveAvgPool2d grad " + dt + " layout " + layout, t -> {
          Tensor xl = t[0].detach().requiresGrad_();
          Functional.adaptiveAvgPool2d(xl, new long[] {4, 3}).mul(t[1]).sum().backward();
          return xl.grad().clone();
        }, x, up);
      }
    }
    assertMostAgreed();
  }
}
