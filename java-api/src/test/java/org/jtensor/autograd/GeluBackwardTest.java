package org.jtensor.autograd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.junit.jupiter.api.Test;

/**
 * gelu's backward is one kernel, grad·(Φ(x) + x·φ(x)): against that formula evaluated in float64 through
 * erf and exp, for float32 inputs (normal values, tails out to ±12, zeros, infinities, NaN), float64, and
 * the half types; its second derivative is GradCheckOpsTest's.
 */
class GeluBackwardTest extends ScopedTest {
  /** Φ(x) + x·φ(x) in float64, from jtensor's float64 erf and exp (libm's). */
  private static double[] derivative(Tensor x) {
    Tensor d = x.to(DType.FLOAT64);
    Tensor cdf = d.mul(1 / Math.sqrt(2)).erf().add(1.0).mul(0.5);
    return cdf.add(d.mul(d.mul(d).mul(-0.5).exp()).mul(1 / Math.sqrt(2 * Math.PI))).toDoubleArray();
  }

  private static Tensor inputs(DType dt) {
    Tensor x = Tensor.randn(new long[] {4096}, new Generator(11)).mul(3.0);
    Tensor edges = Tensor.fromArray(new float[] {0f, -0f, -12f, 12f, -0.7518f, 1e-30f, -1e-30f, 8f, -8f, 30f, -30f});
    return Tensor.cat(java.util.List.of(x, edges), 0).to(dt);
  }

  private static double[] gradOf(Tensor x, Tensor g) {
    Tensor leaf = x.detach().requiresGrad_();
    leaf.gelu().backward(g);
    return leaf.grad().to(DType.FLOAT64).toDoubleArray();
  }

  @Test
  void float32MatchesTheFormulaInDouble() {
    Tensor x = inputs(DType.FLOAT32), g = Tensor.randn(new long[] {x.numel()}, new Generator(12));
    double[] got = gradOf(x, g), want = derivative(x), gs = g.to(DType.FLOAT64).toDoubleArray();
    for (int i = 0; i < got.length; i++) {
      double w = gs[i] * want[i];
      assertEquals(w, got[i], 2.5e-7 * Math.abs(gs[i]) + 1e-6 * Math.abs(w), "at x = " + x.getDouble(i));
    }
  }

  @Test
  void float64IsTheFormula() {
    Tensor x = inputs(DType.FLOAT64), g = Tensor.randn(new long[] {x.numel()}, new Generator(13)).to(DType.FLOAT64);
    double[] got = gradOf(x, g), want = derivative(x), gs = g.toDoubleArray();
    for (int i = 0; i < got.length; i++) assertEquals(gs[i] * want[i], got[i], 1e-15 * Math.max(1, Math.abs(gs[i])));
  }

  @Test
  void infinitiesAndNanGiveNanAsPyTorch() {
    Tensor x = Tensor.fromArray(new float[] {Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NaN, 0f});
    double[] got = gradOf(x, Tensor.ones(4));
    assertTrue(Double.isNaN(got[0]) && Double.isNaN(got[1]) && Double.isNaN(got[2]));
    assertEquals(0.5, got[3]);
  }

  @Test
  void halfTypesComputeInFloat() {
    for (DType dt : new DType[] {DType.FLOAT16, DType.BFLOAT16}) {
      Tensor x = inputs(DType.FLOAT32).to(dt), g = Tensor.ones(x.numel()).to(dt);
      double[] got = gradOf(x, g), want = derivative(x);
      double tol = dt == DType.FLOAT16 ? 1e-3 : 8e-3;  // one rounding of the result to the half type
      for (int i = 0; i < got.length; i++) {
        if (Double.isFinite(want[i])) assertEquals(want[i], got[i], tol * Math.max(1, Math.abs(want[i])), dt + " at x = " + x.getDouble(i));
      }
    }
  }
}
