package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.jtensor.DType;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.junit.jupiter.api.Test;

/** A hostile review of session 31's layers and module features, each case against PyTorch 2.13 (CPU). */
class SessionLayersHostileTest extends ScopedTest {
  /**
   * F.interpolate(x, size=[..., 41], mode='nearest-exact') of x = [0, 1] along the last dim (the
   * other dims kept at 2): the first output reading input 1 is dst 20 in 1-D and 3-D (the generic
   * kernel) and dst 21 in 2-D (nearest_exact_idx, float scale), for float32, float64 and float16.
   */
  @Test
  void nearestExactTakesEachDimsKernelIndex() {
    for (DType dt : new DType[] {DType.FLOAT32, DType.FLOAT64, DType.FLOAT16}) {
      for (int nd = 1; nd <= 3; nd++) {
        long[] shape = new long[nd + 2], size = new long[nd];
        java.util.Arrays.fill(shape, 1);
        java.util.Arrays.fill(size, 2);
        shape[nd + 1] = 2;
        size[nd - 1] = 41;
        long[] big = shape.clone();
        java.util.Arrays.fill(big, 2);
        Tensor x = Tensor.arange(0, 2, 1, dt).reshape(shape).expand(big).contiguous();
        float[] y = Functional.interpolate(x, size, "nearest-exact", false).toFloatArray();
        int first = 0;
        while (y[y.length - 41 + first] == 0) first++;
        assertEquals(nd == 2 ? 21 : 20, first, dt + " " + nd + "-d");
      }
    }
  }
}
