package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jtensor.DType;
import org.jtensor.ElementwiseReference;
import org.jtensor.Generator;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.junit.jupiter.api.Test;

/**
 * torch.erfinv against PyTorch 2.13's values (printed by torch.erfinv on the same inputs), and the
 * initializers built on it: trunc_normal_'s draws against the truncated normal's own mean and
 * variance, uniform_(a, b), eye_.
 */
class ErfinvAndInitTest extends ScopedTest {
  private static final double[] Y = {0., -0., 1e-300, 1e-20, 1e-8, 0.1, 0.3, 0.5, 0.5000001, 0.7, 0.9, 0.99, 0.999999, 1 - 1e-12,
      1 - 0x1p-53, 1., -1., 1.5, Double.NaN, -0.75};
  private static final double[] TORCH_F64 = {0.0, -0.0, 8.86226925452758e-301, 8.86226925452758e-21, 8.86226925452758e-09,
      0.08885599049425769, 0.2724627147267543, 0.4769362762044699, 0.47693638746295763, 0.7328690779592167, 1.1630871536766743,
      1.8213863677184494, 3.458910737275499, 5.042031898572696, 5.8635847487551676, Double.POSITIVE_INFINITY,
      Double.NEGATIVE_INFINITY, Double.NaN, Double.NaN, -0.8134198475976185};
  private static final double[] TORCH_F32 = {0.0, -0.0, 0.0, 8.862269295638222e-21, 8.862269140763601e-09, 0.08885598927736282,
      0.27246272563934326, 0.4769362807273865, 0.476936399936676, 0.7328690886497498, 1.1630871295928955, 1.8213865756988525,
      3.4570746421813965, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY,
      Double.NEGATIVE_INFINITY, Double.NaN, Double.NaN, -0.8134198188781738};

  @Test
  void erfinvMatchesPyTorch() {
    double[] f64 = Tensor.fromArray(Y).erfinv().toDoubleArray();
    for (int i = 0; i < Y.length; i++) {
      assertEquals(TORCH_F64[i], f64[i], ulps(TORCH_F64[i], 4e-16), "float64 erfinv(" + Y[i] + ")");
      assertEquals(Double.doubleToLongBits(TORCH_F64[i]) < 0, Double.doubleToLongBits(f64[i]) < 0, "sign of erfinv(" + Y[i] + ")");
    }
    double[] f32 = Tensor.fromArray(Y).to(DType.FLOAT32).erfinv().toDoubleArray();
    for (int i = 0; i < Y.length; i++) assertEquals(TORCH_F32[i], f32[i], ulps(TORCH_F32[i], 1.2e-7), "float32 erfinv(" + Y[i] + ")");
    assertArrayEquals(new double[] {0.08880615234375, 0.47705078125, 1.1630859375, 2.33203125, -0.2724609375},
        Tensor.fromArray(new double[] {0.1, 0.5, 0.9, 0.999, -0.3}).to(DType.FLOAT16).erfinv().toDoubleArray(), 0, "float16");
    assertArrayEquals(new double[] {0.0888671875, 0.4765625, 1.15625, 1.78125, -0.2734375},
        Tensor.fromArray(new double[] {0.1, 0.5, 0.9, 0.99, -0.3}).to(DType.BFLOAT16).erfinv().toDoubleArray(), 0, "bfloat16");
    Tensor ints = Tensor.fromArray(new long[] {1, 2, 0}).erfinv();
    assertEquals(DType.FLOAT32, ints.dtype(), "an integer input gives the default float dtype");
    assertArrayEquals(new double[] {Double.POSITIVE_INFINITY, Double.NaN, 0}, ints.toDoubleArray(), 0);
  }

  @Test
  void erfinvGradientMatchesPyTorch() {
    Tensor x = Tensor.fromArray(new double[] {-0.9, 0., 0.5, 0.99}).requiresGrad_();
    x.erfinv().sum().backward();
    assertArrayEquals(new double[] {3.4280428114518418, 0.8862269254527579, 1.1125848189719496, 24.45087647374641},
        x.grad().toDoubleArray(), 1e-13);
    Tensor y = Tensor.fromArray(new double[] {0.2, -0.4}).to(DType.FLOAT32);
    assertTrue(y.clone().erfinv_().equal(y.erfinv()), "erfinv_ writes what erfinv returns");
  }

  @Test
  void truncNormalDrawsTheTruncatedNormal() {
    record Case(double mean, double std, double a, double b, DType dtype) {}
    Case[] cases = {new Case(0, 1, -2, 2, DType.FLOAT32), new Case(0.5, 2, -1, 3, DType.FLOAT32), new Case(0, 1, 5, 6, DType.FLOAT64),
        new Case(-3, 0.5, -10, -2.8, DType.FLOAT64)};
    Generator g = new Generator(29);
    for (Case k : cases) {
      String what = k.toString();
      double[] v = Init.truncNormal_(Tensor.empty(new long[] {200_000}, k.dtype()), k.mean(), k.std(), k.a(), k.b(), g).toDoubleArray();
      double sum = 0, sq = 0;
      for (double d : v) {
        assertTrue(d >= k.a() && d <= k.b(), what + ": " + d + " outside [a, b]");
        sum += d;
      }
      double mean = sum / v.length;
      for (double d : v) sq += (d - mean) * (d - mean);
      double var = sq / (v.length - 1);
      double alpha = (k.a() - k.mean()) / k.std(), beta = (k.b() - k.mean()) / k.std();
      double z = mass(alpha, beta), da = pdf(alpha), db = pdf(beta);
      double wantMean = k.mean() + k.std() * (da - db) / z;
      double wantVar = k.std() * k.std() * (1 + (alpha * da - beta * db) / z - Math.pow((da - db) / z, 2));
      double se = Math.sqrt(wantVar / v.length);
      assertEquals(wantMean, mean, 6 * se, what + " mean");
      assertEquals(wantVar, var, 0.02 * wantVar, what + " variance");
    }
    double[] defaults = Init.truncNormal_(Tensor.empty(1000)).toDoubleArray();
    for (double d : defaults) assertTrue(d >= -2 && d <= 2, "defaults cut at -2 and 2: " + d);
  }

  @Test
  void uniformTakesBothEndsAndEyeWritesTheIdentity() {
    double[] u = Init.uniform_(Tensor.empty(10_000), -3, 5, new Generator(3)).toDoubleArray();
    double lo = 5, hi = -3;
    for (double d : u) {
      lo = Math.min(lo, d);
      hi = Math.max(hi, d);
    }
    assertTrue(lo >= -3 && lo < -2.9 && hi < 5 && hi > 4.9, "U(-3, 5): " + lo + " .. " + hi);
    assertArrayEquals(new double[] {1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0}, Init.eye_(Tensor.full(new long[] {3, 5}, 7.0)).toDoubleArray(), 0);
    Tensor leaf = Tensor.ones(2, 2).requiresGrad_();
    Init.eye_(leaf);  // under no_grad, as PyTorch's: a leaf that requires grad takes it
    assertArrayEquals(new double[] {1, 0, 0, 1}, leaf.toDoubleArray(), 0);
    String msg = assertThrows(IllegalArgumentException.class, () -> Init.eye_(Tensor.ones(2, 2, 2))).getMessage();
    assertTrue(msg.contains("eye_(): Only tensors with 2 dimensions are supported"), msg);
  }

  /** A relative tolerance of want; 0 (exact) for infinities and NaN. */
  private static double ulps(double want, double relative) {
    return Double.isFinite(want) ? Math.abs(want) * relative : 0;
  }

  private static double pdf(double x) {
    return Double.isInfinite(x) ? 0 : Math.exp(-x * x / 2) / Math.sqrt(2 * Math.PI);
  }

  /** P(alpha <= Z <= beta) for a standard normal Z, through erfc on the side away from 0: a far tail's mass keeps its digits. */
  private static double mass(double alpha, double beta) {
    double r = Math.sqrt(2);
    if (alpha >= 0) return 0.5 * (ElementwiseReference.erfc(alpha / r) - ElementwiseReference.erfc(beta / r));
    if (beta <= 0) return 0.5 * (ElementwiseReference.erfc(-beta / r) - ElementwiseReference.erfc(-alpha / r));
    return 1 - 0.5 * (ElementwiseReference.erfc(-alpha / r) + ElementwiseReference.erfc(beta / r));
  }
}
