package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.jtensor.Close;
import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.Threads;
import org.jtensor.autograd.Autograd;
import org.junit.jupiter.api.Test;

/**
 * The direct stride-1 convolution kernels (ConvOps, vectorized/convolution.cpp) against a plain
 * float64 loop written here: channel counts that fill the kernels' register blocks and leave
 * tails, images spanning several blocks of positions, groups, dilations, padding below, at and
 * beyond the kernel's reach, "same" padding's uneven sides, 1 to 3 spatial dims, float32 and
 * float64, non-contiguous inputs; the output and the input's, weight's and bias's gradients.
 */
class DirectConvolutionTest {
  @Test
  void randomStrideOneConvolutionsMatchAPlainLoop() {
    Random rnd = new Random(31);
    Generator g = new Generator(31);
    int direct = 0, composed = 0;
    for (int trial = 0; trial < 48; trial++) {
      int nsp = trial % 6 == 5 ? 3 : trial % 6 == 4 ? 1 : 2;
      long groups = trial % 5 == 3 ? 1 + rnd.nextInt(3) : 1;
      long cPer = 1 + rnd.nextInt(trial % 2 == 0 ? 12 : 3), oPer = 1 + rnd.nextInt(trial % 3 == 0 ? 20 : 9);
      long batch = 1 + rnd.nextInt(3);
      long[] kernel = new long[nsp], before = new long[nsp], after = new long[nsp], dilation = new long[nsp], in = new long[nsp];
      boolean samePadding = trial % 7 == 6;
      boolean beyondReach = trial % 8 == 7;
      for (int d = 0; d < nsp; d++) {
        kernel[d] = 1 + rnd.nextInt(nsp == 3 ? 3 : 5);
        dilation[d] = 1 + rnd.nextInt(2);
      }
      if (Arrays.stream(kernel).allMatch(k -> k == 1)) kernel[0] = 2;  // a 1×1 kernel is a GEMM over the image itself
      for (int d = 0; d < nsp; d++) {
        long reach = dilation[d] * (kernel[d] - 1);
        if (samePadding) {
          before[d] = reach / 2;
          after[d] = reach - before[d];
        } else {
          before[d] = after[d] = beyondReach ? reach + 1 : rnd.nextInt((int) reach + 1);
        }
        in[d] = Math.max(1, reach + 1 - before[d] - after[d]) + rnd.nextInt(nsp == 3 ? 5 : nsp == 1 ? 70 : 20);
      }
      long c = cPer * groups, o = oPer * groups;
      DType dtype = trial % 2 == 0 ? DType.FLOAT32 : DType.FLOAT64;
      long[] xShape = ConvolutionLibtorchTest.concat(new long[] {batch, c}, in);
      long[] wShape = ConvolutionLibtorchTest.concat(new long[] {o, cPer}, kernel);
      String what = "conv" + nsp + "d " + dtype + " x" + Arrays.toString(xShape) + " w" + Arrays.toString(wShape) + " padding "
          + Arrays.toString(before) + "/" + Arrays.toString(after) + " dilation " + Arrays.toString(dilation) + " groups " + groups;
      try (TensorScope s = TensorScope.open()) {
        Tensor x = ConvolutionLibtorchTest.layout(Tensor.randn(xShape, g).to(dtype), trial % 3, 1).requiresGrad_();
        Tensor w = Tensor.randn(wShape, g).to(dtype).requiresGrad_();
        Tensor b = trial % 4 == 1 ? null : Tensor.randn(new long[] {o}, g).to(dtype).requiresGrad_();
        long[] ones = new long[nsp];
        Arrays.fill(ones, 1);
        Tensor y = samePadding ? conv(nsp, x, w, b, "same", dilation, groups) : conv(nsp, x, w, b, before, dilation, groups);
        boolean within = !beyondReach;
        assertEquals(within, y.gradFn().name().equals("ConvolutionBackward0"), what + ": direct kernels used (" + y.gradFn().name() + ")");
        if (within) direct++;
        else composed++;
        Tensor up = Tensor.randn(y.shape(), g).to(dtype);
        y.mul(up).sum().backward();

        Loop ref = new Loop(nsp, batch, c, o, groups, in, kernel, before, after, dilation);
        double[] xs = x.toDoubleArray(), ws = w.toDoubleArray(), bs = b == null ? null : b.toDoubleArray(), ups = up.toDoubleArray();
        double tol = dtype == DType.FLOAT32 ? 2e-5 : 1e-12;
        assertArrayEquals(ref.outShape(), y.shape(), what + ": shape");
        close(what + ": output", ref.forward(xs, ws, bs), y.toDoubleArray(), tol);
        close(what + ": x.grad", ref.inputGrad(ups, ws), x.grad().toDoubleArray(), tol);
        close(what + ": w.grad", ref.weightGrad(ups, xs), w.grad().toDoubleArray(), tol);
        if (b != null) close(what + ": b.grad", ref.biasGrad(ups), b.grad().toDoubleArray(), tol);
      }
    }
    assertTrue(direct >= 36 && composed >= 5, "direct " + direct + ", composed " + composed);
  }

  /**
   * A vector's worth of output channels a group or more takes the weight gradient with the channels along
   * the lanes (Note [Weight gradient by output lanes]): both dtypes, 1 to 3 dims, groups, dilation.
   */
  @Test
  void wideOutputChannelsMatchAPlainLoop() {
    Generator g = new Generator(12);
    record Case(long[] xShape, long[] wShape, long[] padding, long[] dilation, long groups, DType dtype) {}
    Case[] cases = {
        new Case(new long[] {2, 3, 9, 11}, new long[] {40, 3, 3, 3}, new long[] {1, 1}, new long[] {1, 1}, 1, DType.FLOAT32),
        new Case(new long[] {2, 4, 6, 7}, new long[] {24, 2, 3, 2}, new long[] {1, 0}, new long[] {1, 2}, 2, DType.FLOAT64),
        new Case(new long[] {3, 5, 50}, new long[] {16, 5, 5}, new long[] {2}, new long[] {1}, 1, DType.FLOAT32),
        new Case(new long[] {1, 2, 4, 5, 6}, new long[] {33, 2, 2, 3, 3}, new long[] {0, 1, 1}, new long[] {1, 1, 2}, 1, DType.FLOAT32)};
    for (Case c : cases) {
      long[] xShape = c.xShape(), wShape = c.wShape(), padding = c.padding(), dilation = c.dilation();
      long groups = c.groups();
      DType dtype = c.dtype();
      int nsp = xShape.length - 2;
      String what = "x" + Arrays.toString(xShape) + " w" + Arrays.toString(wShape) + " " + dtype;
      try (TensorScope s = TensorScope.open()) {
        Tensor x = Tensor.randn(xShape, g).to(dtype).requiresGrad_(), w = Tensor.randn(wShape, g).to(dtype).requiresGrad_();
        Tensor y = conv(nsp, x, w, null, padding, dilation, groups);
        assertEquals("ConvolutionBackward0", y.gradFn().name(), what + ": direct kernels used");
        Tensor up = Tensor.randn(y.shape(), g).to(dtype);
        y.mul(up).sum().backward();
        Loop ref = new Loop(nsp, xShape[0], xShape[1], wShape[0], groups, Arrays.copyOfRange(xShape, 2, xShape.length),
            Arrays.copyOfRange(wShape, 2, wShape.length), padding, padding, dilation);
        double tol = dtype == DType.FLOAT32 ? 2e-5 : 1e-12;
        close(what + ": w.grad", ref.weightGrad(up.toDoubleArray(), x.toDoubleArray()), w.grad().toDoubleArray(), tol);
        close(what + ": x.grad", ref.inputGrad(up.toDoubleArray(), w.toDoubleArray()), x.grad().toDoubleArray(), tol);
      }
    }
  }

  /**
   * Strided convolutions take the channels-in-lanes kernels (Note [Channels in lanes]), as do
   * stride-1 ones with two vectors' worth of channels a group: strides 2 and 3 per dim, padding
   * below, at and beyond the kernel's reach, 1×1 kernels, dilation, groups, output channels that
   * fill register blocks and leave tails, inputs whose last rows no window reads, both dtypes, 1 to
   * 3 dims; the output and every gradient against the plain loop.
   */
  @Test
  void stridedAndWideConvolutionsMatchAPlainLoop() {
    Random rnd = new Random(77);
    Generator g = new Generator(77);
    for (int trial = 0; trial < 40; trial++) {
      int nsp = trial % 8 == 7 ? 3 : trial % 8 == 6 ? 1 : 2;
      long groups = trial % 5 == 4 ? 2 : 1;
      boolean wide = trial % 4 == 3;  // stride 1, channels enough for the lanes at stride 1
      long cPer = wide ? 33 + rnd.nextInt(8) : 1 + rnd.nextInt(trial % 2 == 0 ? 20 : 6);
      long oPer = wide ? 32 + rnd.nextInt(40) : 1 + rnd.nextInt(trial % 3 == 0 ? 70 : 20);
      long batch = 1 + rnd.nextInt(3);
      long[] kernel = new long[nsp], pad = new long[nsp], dilation = new long[nsp], stride = new long[nsp], in = new long[nsp];
      for (int d = 0; d < nsp; d++) {
        kernel[d] = trial % 6 == 1 ? 1 : 1 + rnd.nextInt(nsp == 3 ? 3 : 4);
        dilation[d] = 1 + rnd.nextInt(2);
        stride[d] = wide ? 1 : 1 + rnd.nextInt(3);
        long reach = dilation[d] * (kernel[d] - 1);
        pad[d] = trial % 7 == 5 ? reach + 1 : rnd.nextInt((int) reach + 1);
        in[d] = Math.max(1, reach + 1 - 2 * pad[d]) + rnd.nextInt(nsp == 3 ? 6 : nsp == 1 ? 40 : 16);
      }
      if (!wide && Arrays.stream(stride).allMatch(v -> v == 1)) stride[0] = 2;
      long c = cPer * groups, o = oPer * groups;
      DType dtype = trial % 2 == 0 ? DType.FLOAT32 : DType.FLOAT64;
      long[] xShape = ConvolutionLibtorchTest.concat(new long[] {batch, c}, in);
      long[] wShape = ConvolutionLibtorchTest.concat(new long[] {o, cPer}, kernel);
      String what = "conv" + nsp + "d " + dtype + " x" + Arrays.toString(xShape) + " w" + Arrays.toString(wShape) + " padding "
          + Arrays.toString(pad) + " dilation " + Arrays.toString(dilation) + " stride " + Arrays.toString(stride) + " groups " + groups;
      try (TensorScope s = TensorScope.open()) {
        Tensor x = ConvolutionLibtorchTest.layout(Tensor.randn(xShape, g).to(dtype), trial % 3, 1).requiresGrad_();
        Tensor w = Tensor.randn(wShape, g).to(dtype).requiresGrad_();
        Tensor b = trial % 4 == 1 ? null : Tensor.randn(new long[] {o}, g).to(dtype).requiresGrad_();
        Tensor y = ConvolutionLibtorchTest.conv(nsp, x, w, b, stride, pad, dilation, groups);
        boolean pointwise = Arrays.stream(kernel).allMatch(v -> v == 1) && Arrays.stream(stride).allMatch(v -> v == 1);
        boolean within = !Arrays.stream(stride).allMatch(v -> v == 1) || trial % 7 != 5;
        assertEquals(!pointwise && within, y.gradFn().name().equals("ConvolutionBackward0"), what + ": direct kernels (" + y.gradFn().name() + ")");
        Tensor up = Tensor.randn(y.shape(), g).to(dtype);
        y.mul(up).sum().backward();
        Loop ref = new Loop(nsp, batch, c, o, groups, in, kernel, pad, pad, dilation, stride);
        double[] xs = x.toDoubleArray(), ws = w.toDoubleArray(), ups = up.toDoubleArray();
        double tol = dtype == DType.FLOAT32 ? 2e-5 : 1e-12;
        assertArrayEquals(ref.outShape(), y.shape(), what + ": shape");
        close(what + ": output", ref.forward(xs, ws, b == null ? null : b.toDoubleArray()), y.toDoubleArray(), tol);
        close(what + ": x.grad", ref.inputGrad(ups, ws), x.grad().toDoubleArray(), tol);
        close(what + ": w.grad", ref.weightGrad(ups, xs), w.grad().toDoubleArray(), tol);
        if (b != null) close(what + ": b.grad", ref.biasGrad(ups), b.grad().toDoubleArray(), tol);
      }
    }
  }

  /**
   * The lanes' edges: a stride past the input (one window), a window as large as the padded input,
   * batch 0 (empty output, zero weight gradient), a 1-wide image strided along the other dim, only
   * the weight requiring grad, and one tensor as both input and weight.
   */
  @Test
  void stridedEdgeCasesMatchAPlainLoop() {
    Generator g = new Generator(5);
    record Case(long[] x, long[] w, long[] stride, long[] pad) {}
    Case[] cases = {
        new Case(new long[] {2, 3, 5, 4}, new long[] {20, 3, 2, 2}, new long[] {7, 9}, new long[] {0, 1}),
        new Case(new long[] {1, 4, 6, 6}, new long[] {17, 4, 8, 8}, new long[] {3, 3}, new long[] {1, 1}),
        new Case(new long[] {0, 3, 9, 9}, new long[] {8, 3, 3, 3}, new long[] {2, 2}, new long[] {1, 1}),
        new Case(new long[] {3, 2, 1, 33}, new long[] {40, 2, 1, 5}, new long[] {1, 4}, new long[] {0, 2})};
    for (Case c : cases) {
      String what = "x" + Arrays.toString(c.x()) + " w" + Arrays.toString(c.w()) + " stride " + Arrays.toString(c.stride());
      try (TensorScope s = TensorScope.open()) {
        Tensor x = Tensor.randn(c.x(), g).requiresGrad_(), w = Tensor.randn(c.w(), g).requiresGrad_();
        Tensor y = Functional.conv2d(x, w, null, c.stride(), c.pad(), new long[] {1, 1}, 1);
        assertEquals("ConvolutionBackward0", y.gradFn().name(), what + ": direct kernels used");
        Tensor up = Tensor.randn(y.shape(), g);
        y.mul(up).sum().backward();
        Loop ref = new Loop(2, c.x()[0], c.x()[1], c.w()[0], 1, Arrays.copyOfRange(c.x(), 2, 4), Arrays.copyOfRange(c.w(), 2, 4), c.pad(),
            c.pad(), new long[] {1, 1}, c.stride());
        assertArrayEquals(ref.outShape(), y.shape(), what + ": shape");
        close(what + ": output", ref.forward(x.toDoubleArray(), w.toDoubleArray(), null), y.toDoubleArray(), 2e-5);
        close(what + ": x.grad", ref.inputGrad(up.toDoubleArray(), w.toDoubleArray()), x.grad().toDoubleArray(), 2e-5);
        close(what + ": w.grad", ref.weightGrad(up.toDoubleArray(), x.toDoubleArray()), w.grad().toDoubleArray(), 2e-5);
      }
    }
    try (TensorScope s = TensorScope.open()) {  // one tensor as input and weight, only it requiring grad
      Tensor t = Tensor.randn(new long[] {33, 33, 3, 3}, g).requiresGrad_();
      Tensor y = Functional.conv2d(t, t, null, new long[] {2}, new long[] {1}, new long[] {1}, 1);
      Tensor up = Tensor.randn(y.shape(), g);
      y.mul(up).sum().backward();
      Loop ref = new Loop(2, 33, 33, 33, 1, new long[] {3, 3}, new long[] {3, 3}, new long[] {1, 1}, new long[] {1, 1}, new long[] {1, 1},
          new long[] {2, 2});
      double[] ts = t.toDoubleArray(), ups = up.toDoubleArray(), gx = ref.inputGrad(ups, ts), gw = ref.weightGrad(ups, ts);
      for (int i = 0; i < gx.length; i++) gx[i] += gw[i];
      close("one tensor as x and w: grad", gx, t.grad().toDoubleArray(), 2e-5);
    }
  }

  /** Each output element and each gradient element has one summation order: one thread and two give the same bits. */
  @Test
  void theSameBitsWhateverTheThreadCount() {
    Generator g = new Generator(4);
    int threads = Threads.getNumThreads();
    try (TensorScope s = TensorScope.open()) {
      Tensor x = Tensor.randn(new long[] {3, 10, 23, 19}, g), w = Tensor.randn(new long[] {17, 10, 3, 3}, g), b = Tensor.randn(new long[] {17}, g);
      double[][] one = run(x, w, b, 1, 1), two = run(x, w, b, 1, 2);
      for (int i = 0; i < one.length; i++) assertArrayEquals(one[i], two[i], "result " + i);
      Tensor xd = Tensor.randn(new long[] {2, 6, 12, 11}, g).to(DType.FLOAT64), wd = Tensor.randn(new long[] {24, 3, 3, 3}, g).to(DType.FLOAT64);
      Tensor bd = Tensor.randn(new long[] {24}, g).to(DType.FLOAT64);
      double[][] oneD = run(xd, wd, bd, 2, 1), twoD = run(xd, wd, bd, 2, 2), threeD = run(xd, wd, bd, 2, 3);
      for (int i = 0; i < oneD.length; i++) {
        assertArrayEquals(oneD[i], twoD[i], "float64, groups 2: result " + i);
        assertArrayEquals(oneD[i], threeD[i], "float64, groups 2, 3 threads: result " + i);
      }
      // the channels-in-lanes kernels, strided; at stride 1 with 40 channels each side, Winograd's forward and input
      // gradient (Note [Winograd F(2x2, 3x3)]) and the lanes' weight gradient
      Tensor xl = Tensor.randn(new long[] {3, 40, 13, 11}, g), wl = Tensor.randn(new long[] {40, 40, 3, 3}, g), bl = Tensor.randn(new long[] {40}, g);
      for (long stride : new long[] {1, 2}) {
        double[][] oneL = run(xl, wl, bl, 1, 1, stride), twoL = run(xl, wl, bl, 1, 2, stride), threeL = run(xl, wl, bl, 1, 3, stride);
        for (int i = 0; i < oneL.length; i++) {
          assertArrayEquals(oneL[i], twoL[i], "lanes, stride " + stride + ": result " + i);
          assertArrayEquals(oneL[i], threeL[i], "lanes, stride " + stride + ", 3 threads: result " + i);
        }
      }
    } finally {
      Threads.setNumThreads(threads);
    }
  }

  /** A gradient that is itself differentiated goes through im2col and GEMMs: the same values as the kernels'. */
  @Test
  void secondOrderGradientsMatchTheKernelsFirstOrder() {
    Generator g = new Generator(9);
    try (TensorScope s = TensorScope.open()) {
      Tensor x = Tensor.randn(new long[] {2, 5, 9, 8}, g).to(DType.FLOAT64).requiresGrad_();
      Tensor w = Tensor.randn(new long[] {6, 5, 3, 2}, g).to(DType.FLOAT64).requiresGrad_();
      Tensor y = Functional.conv2d(x, w, null, new long[] {1}, new long[] {1, 1}, new long[] {1, 2}, 1);
      Tensor up = Tensor.randn(y.shape(), g).to(DType.FLOAT64);
      List<Tensor> graphed = Autograd.grad(List.of(y), List.of(up), List.of(x, w), true, true, false);
      List<Tensor> plain = Autograd.grad(List.of(y), List.of(up), List.of(x, w), false, false, false);
      close("x.grad", plain.get(0).toDoubleArray(), graphed.get(0).toDoubleArray(), 1e-12);
      close("w.grad", plain.get(1).toDoubleArray(), graphed.get(1).toDoubleArray(), 1e-12);
      assertTrue(graphed.get(0).requiresGrad() && graphed.get(1).requiresGrad(), "the graphed gradients are differentiable");
      // and their own gradient exists: d/dw of sum(x.grad) through the composition
      List<Tensor> second = Autograd.grad(List.of(graphed.get(0).sum()), null, List.of(w), false, false, false);
      assertArrayEquals(w.shape(), second.get(0).shape());
    }
  }

  private static double[][] run(Tensor x0, Tensor w0, Tensor b0, long groups, int threads) {
    return run(x0, w0, b0, groups, threads, 1);
  }

  private static double[][] run(Tensor x0, Tensor w0, Tensor b0, long groups, int threads, long stride) {
    Threads.setNumThreads(threads);
    try (TensorScope s = TensorScope.open()) {
      Tensor x = x0.detach().requiresGrad_(), w = w0.detach().requiresGrad_(), b = b0.detach().requiresGrad_();
      Tensor y = Functional.conv2d(x, w, b, new long[] {stride}, new long[] {1, 2}, new long[] {1, 1}, groups);
      y.mul(y).sum().backward();
      return new double[][] {y.toDoubleArray(), x.grad().toDoubleArray(), w.grad().toDoubleArray(), b.grad().toDoubleArray()};
    }
  }

  private static Tensor conv(int nsp, Tensor x, Tensor w, Tensor b, long[] padding, long[] dilation, long groups) {
    return ConvolutionLibtorchTest.conv(nsp, x, w, b, new long[] {1}, padding, dilation, groups);
  }

  private static Tensor conv(int nsp, Tensor x, Tensor w, Tensor b, String padding, long[] dilation, long groups) {
    long[] one = {1};
    return nsp == 1 ? Functional.conv1d(x, w, b, one, padding, dilation, groups)
        : nsp == 2 ? Functional.conv2d(x, w, b, one, padding, dilation, groups) : Functional.conv3d(x, w, b, one, padding, dilation, groups);
  }

  static void close(String what, double[] want, double[] got, double tol) {
    Close.assertElements(what, want, got, Close.ofLargest(tol, want));
  }

  /** Stride-1 convolution as nested loops over row-major arrays, the spatial dims as three (leading ones of size 1). */
  static final class Loop {
    final long n, c, o, groups;
    final long[] in = {1, 1, 1}, out = {1, 1, 1}, k = {1, 1, 1}, pad = {0, 0, 0}, dil = {1, 1, 1}, stride = {1, 1, 1};
    final int nsp;

    Loop(int nsp, long n, long c, long o, long groups, long[] in, long[] k, long[] before, long[] after, long[] dil) {
      this(nsp, n, c, o, groups, in, k, before, after, dil, ones(nsp));
    }

    Loop(int nsp, long n, long c, long o, long groups, long[] in, long[] k, long[] before, long[] after, long[] dil, long[] stride) {
      this.nsp = nsp;
      this.n = n;
      this.c = c;
      this.o = o;
      this.groups = groups;
      for (int d = 0; d < nsp; d++) {
        int e = 3 - nsp + d;
        this.in[e] = in[d];
        this.k[e] = k[d];
        this.pad[e] = before[d];
        this.dil[e] = dil[d];
        this.stride[e] = stride[d];
        this.out[e] = (in[d] + before[d] + after[d] - dil[d] * (k[d] - 1) - 1) / stride[d] + 1;
      }
    }

    long[] outShape() {
      long[] s = new long[2 + nsp];
      s[0] = n;
      s[1] = o;
      for (int d = 0; d < nsp; d++) s[2 + d] = out[3 - nsp + d];
      return s;
    }

    /** visitor(xIndex, wIndex, yIndex) for every product of the convolution. */
    void each(Product p) {
      long cg = c / groups, og = o / groups, taps = k[0] * k[1] * k[2];
      for (long b = 0; b < n; b++)
        for (long u = 0; u < o; u++)
          for (long q0 = 0; q0 < out[0]; q0++)
            for (long q1 = 0; q1 < out[1]; q1++)
              for (long q2 = 0; q2 < out[2]; q2++) {
                long yi = (((b * o + u) * out[0] + q0) * out[1] + q1) * out[2] + q2;
                for (long v = 0; v < cg; v++)
                  for (long t = 0; t < taps; t++) {
                    long k0 = t / (k[1] * k[2]), k1 = t / k[2] % k[1], k2 = t % k[2];
                    long i0 = q0 * stride[0] - pad[0] + k0 * dil[0], i1 = q1 * stride[1] - pad[1] + k1 * dil[1];
                    long i2 = q2 * stride[2] - pad[2] + k2 * dil[2];
                    if (i0 < 0 || i0 >= in[0] || i1 < 0 || i1 >= in[1] || i2 < 0 || i2 >= in[2]) continue;
                    long xi = (((b * c + u / og * cg + v) * in[0] + i0) * in[1] + i1) * in[2] + i2;
                    p.at((int) xi, (int) ((u * cg + v) * taps + t), (int) yi);
                  }
              }
    }

    double[] forward(double[] x, double[] w, double[] bias) {
      double[] y = new double[(int) (n * o * out[0] * out[1] * out[2])];
      if (bias != null) for (int i = 0; i < y.length; i++) y[i] = bias[(int) (i / (out[0] * out[1] * out[2]) % o)];
      each((xi, wi, yi) -> y[yi] += x[xi] * w[wi]);
      return y;
    }

    double[] inputGrad(double[] up, double[] w) {
      double[] gx = new double[(int) (n * c * in[0] * in[1] * in[2])];
      each((xi, wi, yi) -> gx[xi] += up[yi] * w[wi]);
      return gx;
    }

    double[] weightGrad(double[] up, double[] x) {
      double[] gw = new double[(int) (o * (c / groups) * k[0] * k[1] * k[2])];
      each((xi, wi, yi) -> gw[wi] += up[yi] * x[xi]);
      return gw;
    }

    double[] biasGrad(double[] up) {
      double[] gb = new double[(int) o];
      for (int i = 0; i < up.length; i++) gb[(int) (i / (out[0] * out[1] * out[2]) % o)] += up[i];
      return gb;
    }
  }

  private static long[] ones(int n) {
    long[] r = new long[n];
    Arrays.fill(r, 1);
    return r;
  }

  @FunctionalInterface
  private interface Product {
    void at(int xi, int wi, int yi);
  }
}
