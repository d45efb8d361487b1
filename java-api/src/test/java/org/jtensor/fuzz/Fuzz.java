package org.jtensor.fuzz;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.ValuesAndIndices;

/**
 * One seed's run: its random stream, pool and generator, and {@link #op} which calls one public
 * op, classifies what it threw, checks its result against a reference and pools what it returned.
 */
final class Fuzz {
  /**
   * A reference check of a successful result, from the inputs' values read before the call;
   * throws AssertionError on a mismatch.
   */
  interface Check {
    void verify(Object result, Before in);
  }

  final long seed;
  final Random rnd;
  final Pool pool;
  final Generator gen;
  final Args args;
  private final Outcomes out;
  long opIndex;
  /** The family whose step is running: its calls are counted under this name. */
  String family = "factory";

  Fuzz(long seed, Outcomes out) {
    this.seed = seed;
    this.rnd = new Random(seed);
    this.pool = new Pool(rnd);
    this.gen = new Generator(seed);
    this.args = new Args(this);
    this.out = out;
  }

  /** A call whose arguments were drawn at random: a documented refusal is a fine outcome. */
  void op(String name, Object[] callArgs, Supplier<Object> call, Check check) {
    op(false, name, callArgs, call, check);
  }

  /** A call valid by construction (live inputs, matching shapes and dtypes, indices in range): it must succeed. */
  void valid(String name, Object[] callArgs, Supplier<Object> call, Check check) {
    op(true, name, callArgs, call, check);
  }

  /**
   * Runs name(args) through call; a Pool.Entry among args is an input. A valid call that throws,
   * any call that throws an undocumented type, and a result the check rejects are failures.
   */
  void op(boolean valid, String name, Object[] callArgs, Supplier<Object> call, Check check) {
    opIndex++;
    out.ops++;
    Outcomes.Tally tally = out.tally(family);
    tally.calls++;
    if (valid) tally.valid++;
    boolean closedInput = false;
    for (Object a : callArgs) {
      if (a instanceof Pool.Entry e && e.t().isClosed()) closedInput = true;
    }
    String desc = describe(name, callArgs);
    Before before = check == null ? null : Before.capture(callArgs);
    Object result;
    try {
      result = call.get();
    } catch (Throwable e) {
      if (Outcomes.documented(e)) {
        out.threw(e);
        tally.refused++;
        if (valid) {
          out.fail(seed, opIndex, desc, "a call valid by construction was refused: " + e, e);
        } else if (e.getMessage() == null || e.getMessage().isEmpty()) {
          out.fail(seed, opIndex, desc, e.getClass().getSimpleName() + " without a message", e);
        }
      } else {
        out.fail(seed, opIndex, desc, "undocumented " + e.getClass().getName(), e);
      }
      return;
    }
    tally.succeeded++;
    try {
      String badBool = closedInput ? null : badBoolBytes(result, callArgs);
      if (closedInput) {
        out.fail(seed, opIndex, desc, "succeeded on a closed tensor", null);
      } else if (badBool != null) {
        out.fail(seed, opIndex, desc, badBool, null);
      } else if (check != null) {
        try {
          check.verify(result, before);
          out.checked++;
          tally.checked++;
        } catch (Throwable e) {  // a wrong value, or the reference's own reading of the result failed
          out.fail(seed, opIndex, desc + before.describe(), "wrong result: " + e.getMessage(), e instanceof AssertionError ? null : e);
        }
      }
    } finally {
      absorb(result, callArgs);
    }
  }

  /**
   * The invariant that every bool tensor the library produces or writes holds only the bytes 0 and 1
   * (the fuzzer never views other bytes as bool): checks the bool results and the bool inputs (an
   * in-place op's target), reading the raw bytes through a uint8 view. Null when it holds.
   */
  private static String badBoolBytes(Object result, Object[] callArgs) {
    String bad = badBoolBytes(result);
    for (int i = 0; bad == null && i < callArgs.length; i++) {
      if (callArgs[i] instanceof Pool.Entry e) bad = badBoolBytes(e.t());
    }
    return bad;
  }

  private static String badBoolBytes(Object o) {
    if (o instanceof List<?> list) {
      for (Object x : list) {
        String bad = badBoolBytes(x);
        if (bad != null) return bad;
      }
    } else if (o instanceof ValuesAndIndices vi) {
      return badBoolBytes(vi.values());
    } else if (o instanceof Tensor t && !t.isClosed() && t.dtype() == DType.BOOL) {
      long[] raw;
      try (Tensor bytes = t.view(DType.UINT8)) {
        raw = bytes.toLongArray();
      }
      for (int i = 0; i < raw.length; i++) {
        if (raw[i] != 0 && raw[i] != 1) return "bool tensor holds byte " + raw[i] + " at element " + i;
      }
    }
    return null;
  }

  /** Pools what an op returned, unless it is one of its inputs (in-place ops return self). */
  private void absorb(Object result, Object[] callArgs) {
    if (result instanceof Tensor t) {
      for (Object a : callArgs) {
        if (a instanceof Pool.Entry e && e.t() == t) return;
      }
      pool.add(t);
    } else if (result instanceof List<?> list) {
      for (Object o : list) absorb(o, callArgs);
    } else if (result instanceof ValuesAndIndices vi) {
      pool.add(vi.values());
      pool.add(vi.indices());
    }
  }

  private static String describe(String name, Object[] callArgs) {
    StringBuilder sb = new StringBuilder(name).append('(');
    for (int i = 0; i < callArgs.length; i++) {
      if (i > 0) sb.append(", ");
      sb.append(describeArg(callArgs[i]));
    }
    return sb.append(')').toString();
  }

  static String describeArg(Object a) {
    if (a instanceof long[] v) return Arrays.toString(v);
    if (a instanceof int[] v) return Arrays.toString(v);
    if (a instanceof double[] v) return Arrays.toString(v);
    if (a instanceof Object[] v) return Arrays.deepToString(v);
    if (a instanceof String s) return '"' + s + '"';
    return String.valueOf(a);
  }

  /** The pooled tensor of an entry (null entry: a null argument, to test null handling). */
  static Tensor t(Pool.Entry e) {
    return e == null ? null : e.t();
  }
}
