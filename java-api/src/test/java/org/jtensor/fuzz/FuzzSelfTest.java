package org.jtensor.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.jtensor.DType;
import org.junit.jupiter.api.Test;

/**
 * Tests of the fuzzer's own rules (issue 22): a refusal of a call valid by construction fails the
 * run, a refusal of a random one does not, and a family that refuses everything trips its floor.
 */
class FuzzSelfTest {
  /** Runs body on a fresh seed's fuzzer (its family: unary), then closes what it pooled. */
  private static Outcomes run(java.util.function.BiConsumer<Fuzz, Pool.Entry> body) {
    Outcomes out = new Outcomes();
    Fuzz f = new Fuzz(1, out);
    try {
      f.family = "unary";
      body.accept(f, f.pool.add(Args.build(new double[] {1.5, -2, 3, -0.5}, new long[] {2, 2}, DType.FLOAT32)));
    } finally {
      f.pool.closeAll();
    }
    return out;
  }

  @Test
  void aValidCallThatThrowsFailsTheRunNamingTheOpAndItsArguments() {
    Outcomes out = run((f, x) -> {
      f.op("neg", new Object[] {x}, () -> { throw new IllegalArgumentException("neg(): refused"); }, null);  // may be refused
      f.valid("neg", new Object[] {x}, () -> { throw new IllegalArgumentException("neg(): refused"); }, null);  // may not
    });
    assertEquals(1, out.failureCount(), "only the valid call's refusal fails");
    String failure = out.lastFailure();
    assertTrue(failure.contains("valid by construction was refused") && failure.contains("neg(t0[float32 2x2"), failure);
    Outcomes.Tally t = out.families.get("unary");
    assertEquals(List.of(2L, 1L, 0L, 2L), List.of(t.calls, t.valid, t.succeeded, t.refused));
  }

  @Test
  void aValidCallThatSucceedsIsCheckedAndCounted() {
    Outcomes out = run((f, x) -> f.valid("neg", new Object[] {x}, () -> x.t().neg(), Refs.unary(x, v -> -v, v -> -v, Double.MAX_VALUE)));
    assertNull(out.lastFailure());
    Outcomes.Tally t = out.families.get("unary");
    assertEquals(List.of(1L, 1L, 1L, 1L), List.of(t.calls, t.valid, t.succeeded, t.checked));
  }

  /** The real families pass their floors on a short run; the same run with one family refusing everything does not. */
  @Test
  void aFamilyThatRefusesEverythingTripsItsFloors() {
    long[] seeds = {1, 2};
    Outcomes real = new Outcomes();
    FuzzRunner.run(seeds, 2_000, real);
    assertEquals(List.of(), Floors.violations(real, 0), Floors.table(real));

    FuzzRunner.Family[] sabotaged = FuzzRunner.FAMILIES.clone();
    for (int i = 0; i < sabotaged.length; i++) {
      if (sabotaged[i].name().equals("unary")) {
        sabotaged[i] = new FuzzRunner.Family("unary", sabotaged[i].weight(), f -> f.op("neg", new Object[] {f.args.input()},
            () -> { throw new UnsupportedOperationException("neg(): refuses everything"); }, null));
      }
    }
    Outcomes out = new Outcomes();
    FuzzRunner.run(seeds, 2_000, out, sabotaged);
    List<String> below = Floors.violations(out, 0);
    assertEquals(3, below.size(), below.toString());  // succeeded, checked and valid, each below its floor
    assertTrue(below.stream().allMatch(s -> s.startsWith("unary: ")), below.toString());
    assertTrue(Floors.table(out).lines().anyMatch(l -> l.startsWith("unary") && l.contains("0.00/0.59")), Floors.table(out));
  }

  @Test
  void aShortRunIsNotJudgedButEveryFamilyOfALongOneIs() {
    Outcomes out = new Outcomes();
    out.ops = Floors.MIN_OPS - 1;
    assertEquals(List.of(), Floors.violations(out));
    out.ops = Floors.MIN_OPS;
    assertEquals(3 * Floors.FLOORS.size(), Floors.violations(out).size(), "a family with no calls at all is below every floor");
  }

  @Test
  void failuresOfOneKindAreListedOnce() {
    Outcomes out = new Outcomes();
    out.fail(1, 5, "clamp(t1[int8 2])", "wrong result: clamp gave int8 under the bound 1.0E300", null);
    out.fail(1, 9, "clamp(t7[int64 3])", "wrong result: clamp gave int64 under the bound -Infinity", null);
    assertEquals(2, out.failureCount());
    assertTrue(out.failureReport().startsWith("2 failure(s), 1 distinct shown"), out.failureReport());
    assertTrue(Arrays.asList(out.failureReport().split("\n")).contains("seed 1 op #5: wrong result: clamp gave int8 under the bound 1.0E300"),
        out.failureReport());
  }
}
