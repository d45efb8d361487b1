package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;
import org.jtensor.core.Shapes;
import org.jtensor.ops.ReductionOps;
import org.junit.jupiter.api.Test;

/** The property tests' shape oracle on PyTorch's own examples, then beside the library's code over random shapes. */
class ShapeOracleTest {
  @Test
  void pyTorchsBroadcastingExamples() {
    assertArrayEquals(new long[] {2, 4, 3}, ShapeOracle.broadcast(new long[] {2, 1, 3}, new long[] {4, 1}));
    assertArrayEquals(new long[] {5, 0}, ShapeOracle.broadcast(new long[] {5, 0}, new long[] {1}));
    assertArrayEquals(new long[] {3}, ShapeOracle.broadcast(new long[0], new long[] {3}));
    assertArrayEquals(new long[] {7, 3, 2}, ShapeOracle.broadcast(new long[] {3, 1}, new long[] {7, 1, 2}, new long[] {2}));
    assertThrows(AssertionError.class, () -> ShapeOracle.broadcast(new long[] {2, 3}, new long[] {3, 2}));
    assertThrows(AssertionError.class, () -> ShapeOracle.broadcast(new long[] {0}, new long[] {2}));
  }

  @Test
  void reductionShapes() {
    boolean[] middle = {false, true, false};
    assertArrayEquals(new long[] {2, 4}, ShapeOracle.reduced(new long[] {2, 3, 4}, middle, false));
    assertArrayEquals(new long[] {2, 1, 4}, ShapeOracle.reduced(new long[] {2, 3, 4}, middle, true));
    assertArrayEquals(new long[0], ShapeOracle.reduced(new long[] {2, 3}, new boolean[] {true, true}, false));
  }

  /** Two implementations written apart agree: the library's broadcastShapes and reduction shape, and the oracle. */
  @Test
  void agreesWithTheLibraryOverRandomShapes() {
    SplittableRandom rnd = new SplittableRandom(11);
    for (int trial = 0; trial < 2000; trial++) {
      long[] a = new long[rnd.nextInt(5)], b = new long[rnd.nextInt(5)];
      for (int i = 0; i < a.length; i++) a[i] = rnd.nextInt(4);
      for (int i = 0; i < b.length; i++) b[i] = rnd.nextInt(4);
      long[] want;
      try {
        want = ShapeOracle.broadcast(a, b);
      } catch (AssertionError refused) {
        assertThrows(IllegalArgumentException.class, () -> Shapes.broadcastShapes("t", a, b));
        continue;
      }
      assertArrayEquals(want, Shapes.broadcastShapes("t", a, b));
      boolean[] red = new boolean[a.length];
      for (int i = 0; i < red.length; i++) red[i] = rnd.nextBoolean();
      for (boolean keep : new boolean[] {false, true}) {
        assertArrayEquals(ShapeOracle.reduced(a, red, keep), ReductionOps.outputShape(a, red, keep));
      }
    }
  }
}
