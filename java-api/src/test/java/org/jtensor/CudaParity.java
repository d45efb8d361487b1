package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.jtensor.memory.TensorOutOfMemoryException;
import org.jtensor.ops.ViewOps;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What the CUDA-against-CPU tests of ops without a CPU property test share (tag cuda, skipped
 * with the reason where CUDA is unavailable): cuda:0's DeviceParity, inputs of small integers in
 * any layout, and a tally of the cases that agreed and of those both devices refused alike.
 */
@Tag("cuda")
@ExtendWith(CudaAccounting.class)
abstract class CudaParity extends ScopedTest {
  static final DeviceParity GPU = CudaAccounting.parity();
  static final DType[] DTYPES = {DType.FLOAT32, DType.FLOAT64, DType.FLOAT16, DType.BFLOAT16, DType.INT64, DType.INT32,
      DType.INT16, DType.UINT8, DType.BOOL};

  /** Integers in [lo, hi] (0/1 for bool, non-negative for uint8) of dtype, laid out contiguous (0), transposed (1) or strided (2). */
  static Tensor integers(Random rnd, DType dt, long[] shape, int layout, int lo, int hi) {
    long n = 1;
    for (long s : shape) n *= s;
    double[] v = new double[(int) (2 * n + 1)];
    for (int i = 0; i < v.length; i++) {
      int x = lo + rnd.nextInt(hi - lo + 1);
      v[i] = dt == DType.BOOL ? (x > 0 ? 1 : 0) : dt == DType.UINT8 ? Math.abs(x) : x;
    }
    Tensor flat = Tensor.fromArray(v).to(dt);
    if (layout == 2) return flat.slice(0, 1, 2 * n + 1, 2).view(shape);
    if (layout == 1 && shape.length >= 2) {
      long[] rev = shape.clone();
      ViewOps.swap(rev, 0, shape.length - 1);
      return flat.narrow(0, 0, n).view(rev).transpose(0, shape.length - 1);
    }
    return flat.narrow(0, 0, n).view(shape);
  }

  /** The exception classes DESIGN §7 gives a refusal; anything else both devices throw is a bug, not a refusal. */
  static final List<Class<? extends RuntimeException>> DESIGN_7 = List.of(IllegalArgumentException.class,
      IndexOutOfBoundsException.class, IllegalStateException.class, UnsupportedOperationException.class, ArithmeticException.class,
      TensorOutOfMemoryException.class);

  private int agreed, refused;
  private final List<String> failures = new ArrayList<>();
  private final Map<String, Integer> refusalsSeen = new LinkedHashMap<>();

  private final Map<String, Class<? extends RuntimeException>> expectedRefusals = new LinkedHashMap<>();

  /**
   * Declares, for the running test, cases both devices must refuse: a pattern over the case's name
   * and the exception class DESIGN §7 gives them. Any other refusal fails the test, and so does a
   * declared refusal that never happened.
   */
  void expectRefusal(String pattern, Class<? extends RuntimeException> type) {
    expectedRefusals.put(pattern, type);
  }

  /**
   * Runs op on both devices; a refusal counts when CUDA refuses it with the CPU's exception class
   * and the case was declared by {@link #expectRefusal}; a disagreement is kept and the test goes
   * on, so one GPU run shows every case that fails.
   */
  void check(String what, Function<Tensor[], Tensor> op, Tensor... in) {
    try {
      GPU.apply(what, op, in);
      agreed++;
    } catch (RuntimeException refusedAlike) {  // DeviceParity asserted that CUDA threw the CPU's exception class
      String why = refusal(what, refusedAlike);
      if (why == null) refused++;
      else failures.add(why);
    } catch (AssertionError disagreed) {
      failures.add(disagreed.getMessage());
    }
  }

  /** Null for an expected refusal (counted), else why this refusal is a failure. */
  private String refusal(String what, RuntimeException e) {
    if (!DESIGN_7.contains(e.getClass())) {
      return what + ": both devices threw " + e + ", which is no refusal of DESIGN §7";
    }
    for (Map.Entry<String, Class<? extends RuntimeException>> r : expectedRefusals.entrySet()) {
      if (Pattern.compile(r.getKey()).matcher(what).find() && r.getValue().isInstance(e)) {
        refusalsSeen.merge(r.getKey(), 1, Integer::sum);
        return null;
      }
    }
    return what + ": both devices refused it (" + e + "), which this test does not list as an expected refusal";
  }

  /** Fails with every disagreement; else the cases that ran to a result must be most of them (all refused proves nothing). */
  void assertMostAgreed() {
    System.out.println(getClass().getSimpleName() + ": " + agreed + " cases agreed, " + refused + " refused alike, "
        + failures.size() + " failed");
    for (String r : expectedRefusals.keySet()) {
      if (!refusalsSeen.containsKey(r)) failures.add("the expected refusal '" + r + "' never happened: its cases ran to a result");
    }
    refusalsSeen.clear();
    if (!failures.isEmpty()) {
      fail(failures.size() + " cases disagree with the CPU, the first " + Math.min(40, failures.size()) + ":\n  "
          + String.join("\n  ", failures.subList(0, Math.min(40, failures.size()))));
    }
    assertTrue(agreed > refused, agreed + " cases agreed, " + refused + " refused alike");
  }
}
