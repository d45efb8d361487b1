package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
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
    assertEquals(11, cases.size());
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
    assertThrows(IllegalArgumentException.class, () -> Functional.interpolate(x, new long[] {8}, "bicubic", false));
  }
}
