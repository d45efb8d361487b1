package org.jtensor.autograd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.junit.jupiter.api.Test;

/**
 * requiresGrad() on a leaf that another thread closes meanwhile answers true or the closed tensor's
 * IllegalStateException, never false: the close frees the autograd metadata, which read after the
 * handle's check said "no". Autograd.grad took that false for "One of the differentiated Tensors
 * does not require grad" (an IllegalArgumentException) in ConvHostileTest's close race.
 */
class RequiresGradCloseRaceTest extends ScopedTest {
  @Test
  void aLeafClosedWhileAskedRequiresGradOrIsRefused() throws InterruptedException {
    AtomicReference<Tensor> current = new AtomicReference<>();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger trues = new AtomicInteger(), falses = new AtomicInteger(), refusals = new AtomicInteger();
    Thread reader = new Thread(() -> {
      while (!stop.get()) {
        Tensor t = current.get();
        if (t == null) continue;
        try {
          (t.requiresGrad() ? trues : falses).incrementAndGet();
        } catch (IllegalStateException e) {
          refusals.incrementAndGet();
        }
      }
    });
    reader.start();
    for (int i = 0; i < 200_000; i++) {
      Tensor t = Tensor.zeros(1).requiresGrad_();
      current.set(t);
      for (int k = 0; k < i % 97; k++) Thread.onSpinWait();
      t.close();
    }
    stop.set(true);
    reader.join();
    assertEquals(0, falses.get(), "requiresGrad() answered false for a leaf that requires grad (" + trues + " true, " + refusals + " refused)");
    assertTrue(trues.get() > 0 && refusals.get() > 0, "both outcomes happened: " + trues + " true, " + refusals + " refused");
  }
}
