package org.jtensor.fuzz;

import java.util.function.Consumer;
import org.jtensor.Device;
import org.jtensor.memory.Memory;

/**
 * Runs seeds: per seed a fresh pool and random stream, ops drawn from every family by weight,
 * then every tensor closed and the allocator's live bytes checked against the seed's start.
 */
final class FuzzRunner {
  /** The families with their weights (out of their sum): each step runs one op (a scope runs a few). */
  private static final Object[][] FAMILIES = {
      {8, (Consumer<Fuzz>) FactoryFamily::step},
      {20, (Consumer<Fuzz>) ViewFamily::step},
      {18, (Consumer<Fuzz>) BinaryFamily::step},
      {12, (Consumer<Fuzz>) UnaryFamily::step},
      {12, (Consumer<Fuzz>) ReductionFamily::step},
      {8, (Consumer<Fuzz>) MatmulFamily::step},
      {12, (Consumer<Fuzz>) IndexFamily::step},
      {10, (Consumer<Fuzz>) LifecycleFamily::step},
  };

  private FuzzRunner() {}

  /** Runs opsPerSeed ops for each seed, accumulating into out. */
  @SuppressWarnings("unchecked")
  static void run(long[] seeds, long opsPerSeed, Outcomes out) {
    int total = 0;
    for (Object[] fam : FAMILIES) total += (Integer) fam[0];
    for (long seed : seeds) {
      long before = Memory.memoryAllocated(Device.CPU);
      Fuzz f = new Fuzz(seed, out);
      try {
        while (f.opIndex < opsPerSeed) {
          if (f.pool.size() < 4) {
            FactoryFamily.step(f);
            continue;
          }
          int pick = f.rnd.nextInt(total);
          for (Object[] fam : FAMILIES) {
            pick -= (Integer) fam[0];
            if (pick < 0) {
              ((Consumer<Fuzz>) fam[1]).accept(f);
              break;
            }
          }
        }
      } catch (RuntimeException e) {  // the fuzzer's own argument building must never throw
        out.fail(seed, f.opIndex, "(between ops: building arguments)", "fuzzer error " + e, e);
      } finally {
        f.pool.closeAll();
      }
      out.seeds++;
      long after = Memory.memoryAllocated(Device.CPU);
      if (after != before) {
        out.fail(seed, f.opIndex, "(end of seed: every tensor closed)", "leak: allocated_bytes.all.current "
            + before + " -> " + after, null);
      }
    }
  }
}
