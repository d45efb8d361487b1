package org.jtensor.autograd;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.junit.jupiter.api.Test;

/**
 * GradCheck is the oracle of every derivative test (GradCheckOpsTest's ~160 cases): here it is shown
 * to refuse wrong derivatives, not only to accept right ones. A detach() inside the function makes
 * backward's Jacobian disagree with the finite differences by a known amount.
 */
class GradCheckRejectsTest {
  private static Tensor leaf(Generator g, long... shape) {
    try (TensorScope s = TensorScope.open()) {
      return s.keep(Tensor.rand(shape, DType.FLOAT64, g).add(0.5).detach().requiresGrad_());
    }
  }

  /** d(x·x)/dx = 2x, but backward through x·x.detach() gives x: half the finite differences. */
  @Test
  void aFirstDerivativeOffByAFactorIsRefused() {
    Generator g = new Generator(3);
    try (Tensor x = leaf(g, 3, 4)) {
      assertDoesNotThrow(() -> GradCheck.check(in -> in.get(0).mul(in.get(0)), List.of(x)), "the right derivative passes");
      IllegalStateException e = assertThrows(IllegalStateException.class,
          () -> GradCheck.check(in -> in.get(0).mul(in.get(0).detach()), List.of(x)));
      assertTrue(e.getMessage().contains("Jacobian mismatch"), e.getMessage());
    }
  }

  /** A derivative that is right for one input and missing for the other (detached) is refused for that input. */
  @Test
  void aMissingDerivativeOfOneInputIsRefused() {
    Generator g = new Generator(4);
    try (Tensor a = leaf(g, 5); Tensor b = leaf(g, 5)) {
      IllegalStateException e = assertThrows(IllegalStateException.class,
          () -> GradCheck.check(in -> in.get(0).mul(in.get(1).detach()).add(in.get(1).detach()), List.of(a, b)));
      assertTrue(e.getMessage().contains("input 1"), e.getMessage());
    }
  }

  /**
   * x²·x.detach() has a gradient 2x·x (value 2x², right to first order only through the graph's 2x):
   * its own derivative through the graph is 2x where the finite differences of 2x² give 4x.
   */
  @Test
  void aSecondDerivativeThroughADetachedFactorIsRefused() {
    Generator g = new Generator(5);
    try (Tensor x = leaf(g, 4)) {
      assertDoesNotThrow(() -> GradCheck.checkSecondOrder(in -> in.get(0).mul(in.get(0)).mul(in.get(0)), List.of(x), 1),
          "x³ passes to second order");
      assertThrows(IllegalStateException.class,
          () -> GradCheck.checkSecondOrder(in -> in.get(0).mul(in.get(0)).mul(in.get(0).detach()), List.of(x), 1));
    }
  }
}
