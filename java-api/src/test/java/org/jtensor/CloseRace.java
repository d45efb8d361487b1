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
    race(round, true, victim, begun, delayNanos, maxRounds, refusals, what);
  }

  /**
   * closeDuring with rounds that open no scope (each closes what it makes itself), then every
   * operand closed: a tensor an op leaves behind when its operand is closed meanwhile, which a
   * round's scope would have closed, shows as bytes still allocated. before: the allocator's bytes
   * before the operands were made. Returns the rounds begun.
   */
  public static int closeDuringLeavingNothing(Runnable round, Tensor[] operands, int victim, long before, int maxRounds, int refusals,
      String what) throws InterruptedException {
    int begun;
    try {
      begun = race(round, false, operands[victim], 2, 0, maxRounds, refusals, what);
    } finally {
      for (Tensor t : operands) t.close();
    }
    long left = org.jtensor.memory.Memory.memoryStats(Device.CPU).get("allocated_bytes.all.current") - before;
    if (left != 0) throw new AssertionError(what + ": " + left + " bytes left after " + begun + " rounds");
    return begun;
  }

  private static int race(Runnable round, boolean scoped, Tensor victim, int begun, long delayNanos, int maxRounds, int refusals, String what)
      throws InterruptedException {
    AtomicReference<Throwable> bad = new AtomicReference<>();
    AtomicInteger refused = new AtomicInteger(), started = new AtomicInteger();
    Thread t = new Thread(() -> {
      while (refused.get() < refusals && started.get() < maxRounds) {
        started.incrementAndGet();
        try {
          if (!scoped) {
            round.run();  // a new thread has no scope of its own
          } else {
            try (TensorScope s = TensorScope.open()) {
              round.run();
            }
          }
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
    return started.get();
  }
}
