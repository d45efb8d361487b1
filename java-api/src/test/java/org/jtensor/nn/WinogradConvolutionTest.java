package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.junit.jupiter.api.Test;

/**
 * 3 × 3 stride-1 convolutions with a vector's worth of channels on one side and two on the other
 * take Winograd F(2 × 2, 3 × 3) for the forward and the input's gradient (Note [Winograd F(2x2,
 * 3x3)] in conv_winograd.cpp) when a call has 512 tiles or more (batches chosen for that): against DirectConvolutionTest's float64 plain loop, with even and odd
 * sizes, paddings 0 to 2 and "same", channel tails, batch > 1, non-contiguous inputs, both
 * dtypes; an infinity in the input gives the direct sum's infinities, not the transforms' NaNs.
 */
class WinogradConvolutionTest {
  @Test
  void winogradShapesMatchAPlainLoop() {
    Generator g = new Generator(5);
    record Case(long[] xShape, long outChannels, long padding, DType dtype, int layout) {}
    Case[] cases = {
        new Case(new long[] {13, 16, 13, 12}, 40, 1, DType.FLOAT32, 0),
        new Case(new long[] {3, 32, 28, 28}, 32, 1, DType.FLOAT32, 1),
        new Case(new long[] {32, 17, 7, 7}, 64, 1, DType.FLOAT32, 2),
        new Case(new long[] {32, 16, 9, 10}, 32, 0, DType.FLOAT32, 0),
        new Case(new long[] {57, 36, 6, 5}, 16, 2, DType.FLOAT32, 0),
        new Case(new long[] {21, 8, 9, 9}, 16, 1, DType.FLOAT64, 0),
        new Case(new long[] {52, 20, 11, 6}, 10, 0, DType.FLOAT64, 1)};
    for (Case k : cases) {
      long[] xs = k.xShape(), pad = {k.padding(), k.padding()}, one = {1, 1};
      String what = "x" + Arrays.toString(xs) + " to " + k.outChannels() + " padding " + k.padding() + " " + k.dtype();
      try (TensorScope s = TensorScope.open()) {
        Tensor x = ConvolutionLibtorchTest.layout(Tensor.randn(xs, g).to(k.dtype()), k.layout(), 1).requiresGrad_();
        Tensor w = Tensor.randn(new long[] {k.outChannels(), xs[1], 3, 3}, g).to(k.dtype()).requiresGrad_();
        Tensor b = Tensor.randn(new long[] {k.outChannels()}, g).to(k.dtype()).requiresGrad_();
        Tensor y = Functional.conv2d(x, w, b, one, pad, one, 1);
        assertEquals("ConvolutionBackward0", y.gradFn().name(), what + ": the native kernels");
        Tensor up = Tensor.randn(y.shape(), g).to(k.dtype());
        y.mul(up).sum().backward();
        DirectConvolutionTest.Loop ref = new DirectConvolutionTest.Loop(2, xs[0], xs[1], k.outChannels(), 1,
            new long[] {xs[2], xs[3]}, new long[] {3, 3}, pad, pad, one);
        double tol = k.dtype() == DType.FLOAT32 ? 2e-5 : 1e-12;
        double[] xv = x.toDoubleArray(), wv = w.toDoubleArray(), upv = up.toDoubleArray();
        DirectConvolutionTest.close(what + ": output", ref.forward(xv, wv, b.toDoubleArray()), y.toDoubleArray(), tol);
        DirectConvolutionTest.close(what + ": x.grad", ref.inputGrad(upv, wv), x.grad().toDoubleArray(), tol);
        DirectConvolutionTest.close(what + ": w.grad", ref.weightGrad(upv, xv), w.grad().toDoubleArray(), tol);
      }
    }
  }

  @Test
  void sameAsPaddingMatchesItsExplicitForm() {
    Generator g = new Generator(6);
    try (TensorScope s = TensorScope.open()) {
      Tensor x = Tensor.randn(new long[] {2, 16, 15, 14}, g), w = Tensor.randn(new long[] {32, 16, 3, 3}, g);
      long[] one = {1, 1};
      Tensor same = Functional.conv2d(x, w, null, one, "same", one, 1);
      Tensor explicit = Functional.conv2d(x, w, null, one, new long[] {1, 1}, one, 1);
      assertTrue(same.equal(explicit), "padding \"same\" is padding 1 for a 3 x 3 kernel");
    }
  }

  @Test
  void anInfinityInTheInputGivesTheDirectSumsInfinities() {
    Generator g = new Generator(7);
    try (TensorScope s = TensorScope.open()) {
      Tensor x = Tensor.rand(new long[] {21, 16, 9, 9}, g), w = Tensor.rand(new long[] {32, 16, 3, 3}, g);  // one sign: no inf − inf; 525 tiles
      x.select(1, 3).select(1, 4).select(1, 4).fill_(Double.POSITIVE_INFINITY);
      double[] y = Functional.conv2d(x, w, null, new long[] {1, 1}, new long[] {1, 1}, new long[] {1, 1}, 1).toDoubleArray();
      int infinite = 0;
      for (int u = 0; u < 32; u++)
        for (int a = 0; a < 9; a++)
          for (int b = 0; b < 9; b++) {
            double v = y[(u * 9 + a) * 9 + b];
            boolean reached = Math.abs(a - 4) <= 1 && Math.abs(b - 4) <= 1;
            assertTrue(reached ? v == Double.POSITIVE_INFINITY : Double.isFinite(v), "y[" + u + "][" + a + "][" + b + "] = " + v);
            if (reached) infinite++;
          }
      assertEquals(32 * 9, infinite);
    }
  }
}
