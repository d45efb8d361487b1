package org.jtensor;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The hostile tests' close race: rounds of an op on another thread while this one closes an operand.
 * A round may only end in its right result or IllegalStateException (the operand closed before the
 * op held it), never a wrong value, another exception or a crash.
 */
public final class CloseRace {
  private CloseRace() {}

  /**
   * Runs round (each in a scope of its own; it throws AssertionError on a wrong result) on another
   * thread, up to maxRounds times or until `refusals` rounds ended in IllegalStateException; once
   * that thread has begun `begun` rounds, this one waits delayNanos more and closes victim. Fails
   * naming `what` when a round ended otherwise.
   */
  public static void closeDuring(Runnable round, Tensor victim, int begun, long delayNanos, int maxRounds, int refusals, String what)
      throws InterruptedException {
    AtomicReference<Throwable> bad = new AtomicReference<>();
    AtomicInteger refused = new AtomicInteger(), started = new AtomicInteger();
    Thread t = new Thread(() -> {
      while (refused.get() < refusals && started.get() < maxRounds) {
        started.incrementAndGet();
        try (TensorScope s = TensorScope.open()) {
          round.run();
        } catch (IllegalStateException e) {
          refused.incrementAndGet();
        } catch (Throwable e) {
          bad.compareAndSet(null, e);
          return;
        }
      }
    });
    t.start();
    while (started.get() < begun && t.isAlive()) Thread.onSpinWait();
    for (long until = System.nanoTime() + delayNanos; System.nanoTime() < until; ) Thread.onSpinWait();
    victim.close();
    t.join();
    if (bad.get() != null) throw new AssertionError(what, bad.get());
  }
}
