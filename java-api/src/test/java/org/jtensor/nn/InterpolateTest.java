package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.jtensor.DType;
import org.jtensor.PtFixture;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Functional.interpolate against PyTorch 2.13 (resources/interpolate/fixtures.pt from
 * make_fixtures.py): nearest over 1 to 3 spatial dims by size and by a non-integer factor, linear,
 * bilinear with and without alignCorners, down- and up-sampling, trilinear; values and gradients.
 */
class InterpolateTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture f = new PtFixture("/interpolate/fixtures.pt");

  private static long[] longs(Object v) {
    return v == null ? null : ((List<?>) v).stream().mapToLong(n -> ((Number) n).longValue()).toArray();
  }

  private static double[] doubles(Object v) {
    return v == null ? null : ((List<?>) v).stream().mapToDouble(n -> ((Number) n).doubleValue()).toArray();
  }

  @Test
  void everyModeMatchesPyTorch() {
    List<?> cases = (List<?>) f.get("cases");
    assertEquals(22, cases.size());
    for (int i = 0; i < cases.size(); i++) {
      List<?> c = (List<?>) cases.get(i);
      String mode = (String) c.get(0);
      long[] size = longs(c.get(1));
      double[] factor = doubles(c.get(2));
      boolean align = (Boolean) c.get(3);
      Tensor x = f.tensor(i + ".x").clone().requiresGrad_(true);
      Tensor y = size != null ? Functional.interpolate(x, size, mode, align) : Functional.interpolate(x, factor, mode, align);
      String what = i + " " + mode + " align " + align;
      assertArrayEquals(f.tensor(i + ".out").shape(), y.shape(), what + ": shape");
      assertArrayEquals(f.tensor(i + ".out").toDoubleArray(), y.toDoubleArray(), 1e-12, what + ": values");
      y.mul(f.tensor(i + ".up")).sum().backward();
      assertArrayEquals(f.tensor(i + ".grad").toDoubleArray(), x.grad().toDoubleArray(), 1e-12, what + ": gradient");
    }
  }

  @Test
  void badArgumentsAreRefused() {
    Tensor x = Tensor.randn(1, 1, 4, 4);
    assertThrows(IllegalArgumentException.class, () -> Functional.interpolate(x, new long[] {8}, "linear", false));
    assertThrows(IllegalArgumentException.class, () -> Functional.interpolate(x, new long[] {8}, "nearest", true));
    assertThrows(IllegalArgumentException.class, () -> Functional.interpolate(Tensor.randn(1, 1, 4), new long[] {8}, "bicubic", false));
    assertThrows(IllegalArgumentException.class, () -> Functional.interpolate(x, new long[] {8}, "area", true));
    assertThrows(IllegalArgumentException.class, () -> Functional.interpolate(x, new long[] {8}, "nearest-exact", true));
    assertThrows(IllegalArgumentException.class, () -> Functional.interpolate(x, new long[] {8}, "lanczos", false));
    assertThrows(UnsupportedOperationException.class,
        () -> Functional.interpolate(Tensor.zeros(new long[] {1, 1, 4, 4}, DType.UINT8), new long[] {8}, "bicubic", false));
    assertThrows(UnsupportedOperationException.class,
        () -> Functional.interpolate(Tensor.zeros(new long[] {1, 1, 4, 4}, DType.INT64), new long[] {8}, "area", false));
  }

  /**
   * float32 against PyTorch 2.13 (values from F.interpolate of this input): nearest-exact reads the
   * same elements; bicubic computes its weights in float as ATen does, but ATen's kernels may fuse
   * multiply-adds (it depends on the compiler), so they agree within a few float32 ulps, not bit for bit.
   */
  @Test
  void float32MatchesPyTorch() {
    Tensor x = Tensor.arange(0, 25, 1, DType.FLOAT32).mul(37L).remainder(101L).div(8.0).sub(6.0).reshape(1, 1, 5, 5);
    assertArrayEquals(new float[] {4.5f, 4.5f, -3.5f, -3.5f, 1.125f, 1.125f, 5.75f, 5.75f, -2.25f, -2.25f, 0.25f, 0.25f, 4.875f, 4.875f,
        -3.125f, -3.125f, 1.5f, 1.5f, 6.125f, 6.125f},
        Functional.interpolate(x, new long[] {2, 10}, "nearest-exact", false).toFloatArray(), 0f);
    assertArrayEquals(new float[] {2.34521484375f, -2.79443359375f, 1.83056640625f, 3.59521484375f, -1.54443359375f, -0.45556640625f,
        5.5009765625f, -3.83056640625f, 0.79443359375f, 6.7509765625f}, Functional.interpolate(x, new long[] {2, 5}, "bicubic", false).toFloatArray(), 2e-6f);
  }
}
