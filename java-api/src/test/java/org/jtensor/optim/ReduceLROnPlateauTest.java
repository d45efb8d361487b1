package org.jtensor.optim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.junit.jupiter.api.Test;

/** ReduceLROnPlateau against PyTorch 2.13's rates for the same metrics (printed by torch in a virtualenv, copied here). */
class ReduceLROnPlateauTest extends ScopedTest {
  private static void follows(String mode, double factor, int patience, double threshold, String thresholdMode, int cooldown,
                              double minLr, double[] metrics, double[] rates) {
    try (Tensor p = Tensor.zeros(1).requiresGrad_(true); SGD opt = new SGD(List.of(p), 1.0)) {
      ReduceLROnPlateau s = new ReduceLROnPlateau(opt, mode, factor, patience, threshold, thresholdMode, cooldown, minLr, 1e-8);
      for (int i = 0; i < metrics.length; i++) {
        s.step(metrics[i]);
        assertEquals(rates[i], s.getLastLr().get(0), 1e-15, mode + " step " + i);
      }
    }
  }

  @Test
  void minModeWithRelativeThresholdCooldownAndAFloor() {
    follows("min", 0.5, 2, 0.01, "rel", 1, 0.1,
        new double[] {5, 4, 4, 4, 4, 3.99, 3.99, 3.99, 3.99, 3.99, 3.99, 3.99, 2, 2, 2, 2, 2, 2, 2, 2},
        new double[] {1, 1, 1, 1, 0.5, 0.5, 0.5, 0.5, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.125, 0.125, 0.125, 0.125, 0.1});
  }

  @Test
  void maxModeWithAbsoluteThresholdAndNoPatience() {
    follows("max", 0.1, 0, 0.5, "abs", 0, 0.0, new double[] {1, 1.4, 2, 2.4, 2.6, 3.2},
        new double[] {1.0, 0.1, 0.1, 0.010000000000000002, 0.010000000000000002, 0.010000000000000002});
  }

  @Test
  void badArgumentsAreRefused() {
    try (Tensor p = Tensor.zeros(1).requiresGrad_(true); SGD opt = new SGD(List.of(p), 1.0)) {
      assertThrows(IllegalArgumentException.class, () -> new ReduceLROnPlateau(opt, "mean", 0.1, 1, 0.1, "rel", 0, 0, 1e-8));
      assertThrows(IllegalArgumentException.class, () -> new ReduceLROnPlateau(opt, "min", 1.5, 1, 0.1, "rel", 0, 0, 1e-8));
    }
  }
}
