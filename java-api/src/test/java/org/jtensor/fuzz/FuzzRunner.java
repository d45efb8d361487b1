package org.jtensor.fuzz;

import java.util.function.Consumer;
import org.jtensor.Device;
import org.jtensor.memory.Memory;

/**
 * Runs seeds: per seed a fresh pool and random stream, ops drawn from every family by weight,
 * then every tensor closed and the allocator's live bytes checked against the seed's start.
 */
final class FuzzRunner {
  /** A family's name (its counts are kept under it), weight (out of the sum) and step (one op; a scope runs a few). */
  record Family(String name, int weight, Consumer<Fuzz> step) {}

  static final Family[] FAMILIES = {
      new Family("factory", 8, FactoryFamily::step),
      new Family("view", 20, ViewFamily::step),
      new Family("binary", 18, BinaryFamily::step),
      new Family("unary", 12, UnaryFamily::step),
      new Family("reduction", 12, ReductionFamily::step),
      new Family("matmul", 8, MatmulFamily::step),
      new Family("index", 12, IndexFamily::step),
      new Family("lifecycle", 10, LifecycleFamily::step),
  };

  private FuzzRunner() {}

  /** Runs opsPerSeed ops for each seed, accumulating into out. */
  static void run(long[] seeds, long opsPerSeed, Outcomes out) {
    run(seeds, opsPerSeed, out, FAMILIES);
  }

  /** The same over these families (the first one also fills an almost empty pool): a test can sabotage one. */
  static void run(long[] seeds, long opsPerSeed, Outcomes out, Family[] families) {
    int total = 0;
    for (Family fam : families) total += fam.weight();
    for (long seed : seeds) {
      long before = Memory.memoryAllocated(Device.CPU);
      Fuzz f = new Fuzz(seed, out);
      try {
        while (f.opIndex < opsPerSeed) {
          if (f.pool.size() < 4) {
            f.family = families[0].name();
            families[0].step().accept(f);
            continue;
          }
          int pick = f.rnd.nextInt(total);
          for (Family fam : families) {
            pick -= fam.weight();
            if (pick < 0) {
              f.family = fam.name();
              fam.step().accept(f);
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
