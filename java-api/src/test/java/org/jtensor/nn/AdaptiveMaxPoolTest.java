package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.jtensor.DType;
import org.jtensor.PtFixture;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.jtensor.ValuesAndIndices;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * adaptiveMaxPool1d/2d/3d with indices against PyTorch 2.13 (resources/adaptivemax/fixtures.pt from
 * make_fixtures.py): inputs full of ties, NaNs and signed zeros, overlapping windows, upsampling,
 * an empty output; values bit for bit (NaN where PyTorch's is), indices exactly, and gradients.
 */
class AdaptiveMaxPoolTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture f = new PtFixture("/adaptivemax/fixtures.pt");

  @Test
  void everyCaseMatchesPyTorch() {
    List<?> cases = (List<?>) f.get("cases");
    assertEquals(10, cases.size());
    for (int i = 0; i < cases.size(); i++) {
      List<?> c = (List<?>) cases.get(i);
      int n = ((Number) c.get(0)).intValue();
      long[] size = ((List<?>) c.get(1)).stream().mapToLong(v -> ((Number) v).longValue()).toArray();
      Tensor x = f.tensor(i + ".x").clone().requiresGrad_(true);
      ValuesAndIndices r = n == 1 ? Functional.adaptiveMaxPool1dWithIndices(x, size)
          : n == 2 ? Functional.adaptiveMaxPool2dWithIndices(x, size) : Functional.adaptiveMaxPool3dWithIndices(x, size);
      String what = "case " + i + " (" + n + "-d to " + java.util.Arrays.toString(size) + ")";
      assertArrayEquals(f.tensor(i + ".out").shape(), r.values().shape(), what + ": shape");
      double[] want = f.tensor(i + ".out").toDoubleArray(), got = r.values().toDoubleArray();
      for (int k = 0; k < want.length; k++) {
        assertEquals(Double.doubleToLongBits(want[k]), Double.doubleToLongBits(got[k]), what + ": value " + k + " " + got[k] + " for " + want[k]);
      }
      assertArrayEquals(f.tensor(i + ".idx").toLongArray(), r.indices().toLongArray(), what + ": indices");
      if (r.values().numel() > 0) {
        r.values().mul(f.tensor(i + ".up")).sum().backward();
        try (Tensor g = x.grad()) {
          // an element that wins several overlapping windows sums their gradients, in another order than PyTorch's
          assertArrayEquals(f.tensor(i + ".grad").toDoubleArray(), g.toDoubleArray(), 1e-12, what + ": gradient");
        }
      }
    }
  }

  @Test
  void refusesInPyTorchsWords() {
    assertEquals("adaptive_max_pool3d(): Expected 4D or 5D tensor, but got [2, 3]",
        assertThrows(IllegalArgumentException.class, () -> Functional.adaptiveMaxPool3d(Tensor.zeros(2, 3), new long[] {2})).getMessage());
    assertEquals("adaptive_max_pool1d(): Expected input to have non-zero size for non-batch dimensions, but input has sizes [2, 0] with "
        + "dimension 1 being empty", assertThrows(IllegalArgumentException.class,
            () -> Functional.adaptiveMaxPool1d(Tensor.zeros(2, 0), new long[] {2})).getMessage());
    assertThrows(UnsupportedOperationException.class,
        () -> Functional.adaptiveMaxPool3d(Tensor.zeros(new long[] {1, 2, 2, 2}, DType.INT64), new long[] {2}));
    assertThrows(IllegalArgumentException.class, () -> Functional.adaptiveMaxPool1d(Tensor.zeros(2, 3), new long[] {2, 2}));
  }

  /** The modules pool as their functions do; AdaptiveAvgPool1d/3d too. */
  @Test
  void modulesCallTheirFunctions() {
    Tensor x = Tensor.randn(1, 2, 4, 4, 4);
    assertArrayEquals(Functional.adaptiveMaxPool3d(x, new long[] {2}).toFloatArray(), new AdaptiveMaxPool3d(2).forward(x).toFloatArray());
    assertArrayEquals(new long[] {1, 2, 1, 2, 3}, new AdaptiveAvgPool3d(1, 2, 3).forward(x).shape());
    Tensor line = Tensor.arange(0, 6, 1, DType.FLOAT32).reshape(1, 1, 6);
    assertArrayEquals(new float[] {1, 3, 5}, new AdaptiveMaxPool1d(3).forward(line).toFloatArray());
    assertArrayEquals(new float[] {0.5f, 2.5f, 4.5f}, new AdaptiveAvgPool1d(3).forward(line).toFloatArray());
  }
}
