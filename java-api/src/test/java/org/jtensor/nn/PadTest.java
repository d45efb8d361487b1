package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jtensor.PtFixture;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Functional.pad in every mode against PyTorch 2.13 (resources/pad/fixtures.pt from make_fixtures.py): values and the input's gradient. */
class PadTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture f = new PtFixture("/pad/fixtures.pt");

  @Test
  void everyModeMatchesPyTorch() {
    List<?> cases = (List<?>) f.get("cases");
    assertEquals(13, cases.size());
    for (int i = 0; i < cases.size(); i++) {
      List<?> c = (List<?>) cases.get(i);
      String mode = (String) c.get(0);
      long[] pad = ((List<?>) c.get(1)).stream().mapToLong(v -> ((Number) v).longValue()).toArray();
      double value = ((Number) c.get(2)).doubleValue();
      Tensor x = f.tensor(i + ".x").clone().requiresGrad_(true);
      Tensor y = Functional.pad(x, pad, mode, value);
      String what = mode + " " + java.util.Arrays.toString(pad);
      assertArrayEquals(f.tensor(i + ".out").shape(), y.shape(), what + ": shape");
      assertArrayEquals(f.tensor(i + ".out").toDoubleArray(), y.toDoubleArray(), 0, what + ": values");
      y.mul(f.tensor(i + ".up")).sum().backward();
      assertArrayEquals(f.tensor(i + ".grad").toDoubleArray(), x.grad().toDoubleArray(), 1e-12, what + ": gradient");
    }
  }

  @Test
  void badPaddingsAreRefusedInPyTorchsWords() {
    Tensor x = Tensor.randn(1, 2, 3);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Functional.pad(x, new long[] {3, 0}, "reflect", 0));
    assertTrue(e.getMessage().startsWith("pad(): Padding size should be less than the corresponding input dimension"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Functional.pad(x, new long[] {-3, 0}, "replicate", 0));
    assertEquals("pad(): input (W: 3) is too small. Calculated output W: 0", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Functional.pad(x, 1, 2, 3));
    assertTrue(e.getMessage().startsWith("pad(): Padding length must be divisible by 2"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Functional.pad(x, new long[] {1, 1}, "mirror", 0));
    assertTrue(e.getMessage().startsWith("pad(): Unrecognised padding mode mirror"), e.getMessage());
  }
}
