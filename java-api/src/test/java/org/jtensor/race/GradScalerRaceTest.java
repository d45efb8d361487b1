package org.jtensor.race;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.jtensor.DType;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.jtensor.Together;
import org.jtensor.optim.GradScaler;
import org.jtensor.optim.SGD;
import org.junit.jupiter.api.Test;

/**
 * One GradScaler shared by optimizers stepped on their own threads (a model split over threads, each
 * part with its optimizer, one loss scale): every round each thread unscales and steps its optimizer
 * at once, then one thread updates the scale. The scaler's per-optimizer records are one map: every
 * optimizer must be unscaled exactly once a round, whatever the threads' interleaving. (Before the
 * scaler took a lock this passed too in the runs made here: the map's race window is short. It
 * holds the contract, not a reproducer.)
 */
class GradScalerRaceTest extends ScopedTest {
  // 64 optimizers: the scaler's record of them grows while the threads add to it
  static final int THREADS = 4, PER_THREAD = 16, ROUNDS = 300;

  @Test
  void optimizersSteppedOnTheirOwnThreadsShareOneScalerCorrectly() throws Exception {
    GradScaler scaler = new GradScaler(1024, 2, 0.5, 13, true);
    List<Tensor> params = new ArrayList<>();
    List<SGD> opts = new ArrayList<>();
    for (int i = 0; i < THREADS * PER_THREAD; i++) {
      Tensor w = Tensor.zeros(new long[] {3}, DType.FLOAT32).requiresGrad_();
      params.add(w);
      opts.add(new SGD(List.of(w), 1.0));
    }
    CyclicBarrier stepped = new CyclicBarrier(THREADS), updated = new CyclicBarrier(THREADS);
    double[] scales = new double[ROUNDS];
    try {
      Together.run(THREADS, i -> {
        try {
          for (int r = 0; r < ROUNDS; r++) {
            for (int k = i * PER_THREAD; k < (i + 1) * PER_THREAD; k++) {
              // the gradient a scaled loss of 1 per element gives: unscaled, exactly 1, so each step subtracts 1
              try (Tensor g = Tensor.full(new long[] {3}, scaler.getScale(), DType.FLOAT32)) {
                params.get(k).setGrad(g);
              }
              if ((r + k) % 2 == 0) scaler.unscale_(opts.get(k));
              assertTrue(scaler.step(opts.get(k)), "round " + r + ": no inf was in any gradient");
            }
            stepped.await(20, TimeUnit.SECONDS);
            if (i == 0) {
              scales[r] = scaler.getScale();
              scaler.update();
            }
            updated.await(20, TimeUnit.SECONDS);
          }
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
    } finally {
      for (SGD o : opts) o.close();
    }
    for (Tensor w : params) assertArrayEquals(new float[] {-ROUNDS, -ROUNDS, -ROUNDS}, w.toFloatArray(), "every round stepped once by 1");
    double want = 1024;
    for (int r = 0; r < ROUNDS; r++) {
      assertEquals(want, scales[r], "the scale in round " + r);
      if (r % 13 == 12) want = (float) (want * 2);  // 2^10 · 2^23 at most: within float32
    }
  }
}
