package org.jtensor.fuzz;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The API fuzzer (issues 7 and 22). Calls valid by construction must succeed, every result is
 * compared with a reference, and each family must stay above its floors ({@link Floors}, printed
 * as a table). CI mode: 5 seeds x 44,000 ops. By hand, longer:
 * {@code mvn -o test -pl java-api -Dtest=FuzzTest -Djtensor.fuzz.ops=2000000 -Djtensor.fuzz.seeds=1,2,3,...}
 * (ops in total, shared by the seeds; seeds as a list, or a count such as {@code 20}).
 * A failure prints its seed and op index: {@code -Djtensor.fuzz.seeds=SEED, -Djtensor.fuzz.ops=INDEX+1} replays it (the comma: that one seed).
 */
class FuzzTest {
  private static final long DEFAULT_OPS = 220_000;
  private static final String DEFAULT_SEEDS = "1,2,3,4,5";

  @Test
  void randomOpChainsThrowOnlyDocumentedExceptionsGiveReferenceValuesAndFreeEverything() {
    long[] seeds = seeds(System.getProperty("jtensor.fuzz.seeds", DEFAULT_SEEDS));
    long ops = Long.getLong("jtensor.fuzz.ops", DEFAULT_OPS);
    Outcomes out = new Outcomes();
    long start = System.nanoTime();
    FuzzRunner.run(seeds, (ops + seeds.length - 1) / seeds.length, out);
    System.out.println(out.summary((System.nanoTime() - start) / 1_000_000));
    System.out.print(Floors.table(out));
    List<String> below = Floors.violations(out);
    assertAll(() -> assertEquals(0, out.failureCount(), out.failureReport()),
        () -> assertEquals(List.of(), below, "families below their floors (shares of calls; see Floors)"));
  }

  /** "1,2,3" is those seeds; a single number n is seeds 1..n. */
  static long[] seeds(String spec) {
    long[] list = Arrays.stream(spec.split(",")).map(String::trim).mapToLong(Long::parseLong).toArray();
    if (list.length == 1 && !spec.contains(",") && list[0] > 1 && list[0] <= 10_000) {
      long[] r = new long[(int) list[0]];
      for (int i = 0; i < r.length; i++) r[i] = i + 1;
      return r;
    }
    return list;
  }
}
