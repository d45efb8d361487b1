package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * A hostile review of session 32's activations and special functions against PyTorch 2.13 (CPU):
 * each test is one bug, its expected values PyTorch's.
 */
class ActivationsHostileTest extends ScopedTest {
  private static void overflow(String op, Runnable call) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call::run);
    assertTrue(e.getMessage().startsWith(op + "(): value ") && e.getMessage().contains("without overflow"), e.getMessage());
  }

  private static Tensor ints(DType d, long... v) {
    return Tensor.fromArray(v).to(d);
  }

  /** x.grad() of fn(x).sum() for x one float16 value. */
  private static double halfGradient(double x, Function<Tensor, Tensor> fn) {
    Tensor t = Tensor.fromArray(new double[] {x}).to(DType.FLOAT16).requiresGrad_(true);
    fn.apply(t).sum().backward();
    return t.grad().toDoubleArray()[0];
  }

  @Test
  void thresholdConvertsItsScalarsWithPyTorchsCheck() {
    Tensor u8 = ints(DType.UINT8, 0, 1, 255), i8 = ints(DType.INT8, -128, 0, 127);
    // uint8's -1.5 and 255.5 replaced every element, int8's 300 wrapped to 44, NaN truncated to 0
    overflow("threshold", () -> u8.threshold(-1.5, 0));
    overflow("threshold", () -> u8.threshold(255.5, 0));
    overflow("threshold", () -> u8.threshold(0, 256));
    overflow("threshold", () -> i8.threshold(300, 5));
    overflow("threshold", () -> i8.threshold(Double.NaN, 5));
    overflow("threshold", () -> ints(DType.INT64, 1, 2).threshold(1e30, 5));
    overflow("threshold", () -> Tensor.fromArray(new double[] {1, 2}).to(DType.FLOAT16).threshold(1, 1e5));  // was inf
    // what PyTorch takes: -1 (a Python int) wraps into uint8, -1.5 truncates in int8, float16's threshold is compared in float
    assertArrayEquals(new double[] {0, 0, 0}, u8.threshold(-1, 0).toDoubleArray());
    assertArrayEquals(new double[] {9, 9, 0}, ints(DType.INT8, -2, -1, 0).threshold(-1.5, 9).toDoubleArray());
    assertArrayEquals(new double[] {1, 1}, Tensor.fromArray(new double[] {1, 2}).to(DType.FLOAT16).threshold(1e5, 1).toDoubleArray());
  }

  @Test
  void hardtanhTruncatesAndChecksIntegerBoundsAsPyTorch() {
    Tensor u8 = ints(DType.UINT8, 0, 1, 255), i8 = ints(DType.INT8, -128, 0, 127);
    overflow("hardtanh", () -> i8.hardtanh(-0.5, 200.7));  // gave -56 everywhere
    overflow("hardtanh", () -> i8.hardtanh(-129, 0));  // gave 0 everywhere
    overflow("hardtanh", () -> u8.hardtanh(0, 256));
    overflow("hardtanh", () -> ints(DType.INT64, 1, 2).hardtanh(Double.NaN, 3));
    overflow("hardtanh", () -> ints(DType.INT64, 1, 2).hardtanh(0, 1e30));
    overflow("hardtanh", () -> Tensor.fromArray(new double[] {1, 2}).to(DType.FLOAT16).hardtanh(-1e5, 1e5));
    assertArrayEquals(new double[] {-128, 0, 0}, i8.hardtanh(-128.5, 0).toDoubleArray());
    assertArrayEquals(new double[] {0, 1, 255}, u8.hardtanh(0, 255.5).toDoubleArray());
    // -0.5 truncates to 0 before PyTorch's unsigned check: accepted (it was refused)
    assertArrayEquals(new double[] {0, 1, 3}, u8.hardtanh(-0.5, 3).toDoubleArray());
    double inf = Double.POSITIVE_INFINITY;
    assertArrayEquals(new double[] {1, 2}, Tensor.fromArray(new double[] {1, 2}).to(DType.FLOAT16).hardtanh(-inf, inf).toDoubleArray());
  }

  @Test
  void hardshrinkRoundsLambdToSixteenBitDtypes() {
    // PyTorch's kernel takes lambd in the tensor's dtype: 0.09997 is float16's 0.0999755859375, x itself
    Tensor h = Tensor.fromArray(new double[] {0.0999755859375, -0.0999755859375, 0.2}).to(DType.FLOAT16);
    assertArrayEquals(new double[] {0, 0, 0.199951171875}, h.hardshrink(0.09997).toDoubleArray());
    assertArrayEquals(new double[] {0, 0, 0.199951171875}, h.to(DType.BFLOAT16).hardshrink(0.0999).toDoubleArray(), 1e-3);
    overflow("hardshrink", () -> h.hardshrink(1e5));
    overflow("hardshrink", () -> h.to(DType.FLOAT32).hardshrink(1e39));
    assertArrayEquals(new double[] {0.0999755859375}, Tensor.fromArray(new double[] {0.0999755859375}).hardshrink(0.0999).toDoubleArray(), 1e-9);
  }

  @Test
  void thresholdAndHardtanhGradientsCompareSixteenBitInFloat() {
    // x = float16 0.0999755859375: above 0.09997 and below 0.09999 in float; rounding the bound onto x zeroed its gradient
    double x = 0.0999755859375;
    assertEquals(1.0, halfGradient(x, t -> t.threshold(0.09997, -1)));
    assertEquals(1.0, halfGradient(x, t -> t.hardtanh(-1, 0.09999)));
    assertEquals(1.0, halfGradient(x, t -> t.hardtanh(0.09996, 1)));
    assertEquals(0.0, halfGradient(x, t -> t.threshold(0.09999, -1)));
  }

  @Test
  void eluSeluCeluGradientAtNaNIsScale() {
    // PyTorch's elu_backward selects x <= 0 for the exponential branch: a NaN x takes grad · scale
    Function<Function<Tensor, Tensor>, Double> atNaN = fn -> {
      Tensor t = Tensor.fromArray(new double[] {Double.NaN}).requiresGrad_(true);
      fn.apply(t).sum().backward();
      return t.grad().toDoubleArray()[0];
    };
    assertEquals(1.0, atNaN.apply(t -> t.elu(1.3)));
    assertEquals(Tensor.SELU_SCALE, atNaN.apply(Tensor::selu));
    assertEquals(1.0, atNaN.apply(t -> t.celu(0.7)));
  }

  @Test
  void sincGradientIsZeroWhereXSquaredUnderflows() {
    Tensor d = Tensor.fromArray(new double[] {1e-310, 1e-170, 0}).requiresGrad_(true);
    d.sinc().sum().backward();
    assertArrayEquals(new double[] {0, 0, 0}, d.grad().toDoubleArray());  // NaN at 1e-310
    Tensor f = Tensor.fromArray(new double[] {1e-20, 1e-30, 0}).to(DType.FLOAT32).requiresGrad_(true);
    f.sinc().sum().backward();
    assertArrayEquals(new double[] {0, 0, 0}, f.grad().toDoubleArray());
  }

  @Test
  void divOtherGradientDoesNotSquareOther() {
    Tensor x = Tensor.fromArray(new double[] {1e300, 1, 3}).requiresGrad_(true);
    Tensor y = Tensor.fromArray(new double[] {1e200, 1e160, 0}).requiresGrad_(true);
    x.div(y).sum().backward();
    assertArrayEquals(new double[] {-1e-100, -1e-320, Double.NEGATIVE_INFINITY}, y.grad().toDoubleArray());  // 0 and -0 were given
    // softsign's terms cancel at large |x| as PyTorch's: 0, not 1e-200
    Tensor s = Tensor.fromArray(new double[] {1e200, -1e308}).requiresGrad_(true);
    s.softsign().sum().backward();
    assertArrayEquals(new double[] {0, 0}, s.grad().toDoubleArray());
  }

  @Test
  void gluRefusesIntegerTensors() {
    UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, () -> Tensor.fromArray(new long[] {1, 2}).glu());
    assertTrue(e.getMessage().startsWith("glu(): ") && e.getMessage().contains("not implemented for 'Long'"), e.getMessage());  // was float32 [0.88]
    IllegalArgumentException dim = assertThrows(IllegalArgumentException.class, () -> Tensor.fromArray(new long[] {1, 2}).glu(5));
    assertTrue(dim.getMessage().startsWith("glu(): Dimension out of range"), dim.getMessage());  // PyTorch checks the dim first
  }

  @Test
  void nansumAndNanmeanNameThemselvesInDimRefusals() {
    Tensor x = Tensor.fromArray(new double[] {1, 2});
    String[][] cases = {{"nansum", "Dimension out of range (expected to be in range of [-1, 0], but got 2)"},
        {"nanmean", "Dimension out of range (expected to be in range of [-1, 0], but got 2)"}};
    for (String[] c : cases) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> {
            if (c[0].equals("nansum")) x.nansum(2, false);
            else x.nanmean(2, false);
          });
      assertEquals(c[0] + "(): " + c[1], e.getMessage());  // sum() was named
    }
    IllegalArgumentException dup = assertThrows(IllegalArgumentException.class, () -> x.nanmean(new int[] {0, 0}, false));
    assertEquals("nanmean(): dim 0 appears multiple times in the list of dims", dup.getMessage());
    assertArrayEquals(new double[] {1.5}, x.nanmean(new int[] {0}, true).toDoubleArray());
    assertEquals(1.0, Tensor.scalar(1.0).nansum(0, false).item());  // a 0-dim tensor's dim 0, as PyTorch
  }
}
