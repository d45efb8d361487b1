package org.jtensor.examples;

import java.util.Arrays;

/**
 * Timing the main jobs' steps once the JVM is steady (FashionMnist and Gpt --benchmark): a warm-up
 * of a number of steps and at least 20 seconds, since the JIT's compiler threads share the two
 * cores for several seconds whatever the step count (100 MLP steps of 3 ms, or 60 GPT steps of
 * 35 ms, ended inside that time and measured the step at about twice its steady time); and the
 * median as the PyTorch peers' statistics.median takes it.
 */
public final class Steady {
  private static final long WARM_UP_NANOS = 20_000_000_000L;
  private final int steps;
  private final long end;

  private Steady(int steps) {
    this.steps = steps;
    this.end = System.nanoTime() + WARM_UP_NANOS;
  }

  /** A warm-up of at least `steps` steps and 20 seconds from now. */
  public static Steady warmUp(int steps) {
    return new Steady(steps);
  }

  /** Whether step number `step` (from 0), begun at `startNanos` (System.nanoTime), is past the warm-up. */
  public boolean over(int step, long startNanos) {
    return step >= steps && startNanos >= end;
  }

  /** The middle value, or the mean of the two middle ones for an even count (Python's statistics.median). */
  public static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    int n = s.length;
    return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  }
}
