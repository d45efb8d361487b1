package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jtensor.memory.LeakDetector;
import org.jtensor.memory.Memory;
import org.jtensor.nn.Functional;
import org.junit.jupiter.api.Test;

/**
 * Every public op called once with no scope open (issue 22 point 4): a scoped test body hides a
 * leak its scope closes, so here each call's results are closed by hand and the allocator's bytes
 * must be back where they were after each call, whether it succeeded or refused its arguments
 * (arguments are made up from the parameter types, so many calls take the refusal path, which is
 * where a forgotten release hides). Tensor's instance methods and static factories, nn.Functional,
 * Special and Linalg, found by reflection: a new op is swept without an entry anywhere.
 */
class UnscopedOpSweepTest {
  /** Calls that hand out memory on purpose (a buffer over the bytes, kept until collected) or block. */
  private static final Set<String> SKIP = Set.of("close", "asByteBuffer", "asFloatBuffer", "asDoubleBuffer", "asIntBuffer",
      "asLongBuffer", "asShortBuffer", "backward", "wait", "notify", "notifyAll", "keep", "pinMemory", "cuda", "to");

  private static long allocated() {
    Map<String, Long> s = Memory.memoryStats(Device.CPU);
    return s.get("allocated_bytes.all.current") + s.getOrDefault("wrapped_bytes.current", 0L);
  }

  /** A made-up argument of type t: shapes and indices small enough that many calls succeed. */
  private static Object arg(Class<?> t, List<AutoCloseable> made) {
    if (t == Tensor.class) return track(made, Tensor.ones(2, 3));
    if (t == int.class || t == Integer.class) return 1;
    if (t == long.class || t == Long.class) return 1L;
    if (t == double.class || t == Double.class || t == float.class || t == Float.class) return 0.5;
    if (t == boolean.class || t == Boolean.class) return false;
    if (t == Number.class) return 1;
    if (t == DType.class) return DType.FLOAT64;
    if (t == Device.class) return Device.CPU;
    if (t == long[].class) return new long[] {2, 3};
    if (t == int[].class) return new int[] {0};
    if (t == double[].class) return new double[] {1, 2, 3, 4, 5, 6};
    if (t == float[].class) return new float[] {1, 2, 3, 4, 5, 6};
    if (t == String.class) return "mean";
    if (t == Generator.class) return new Generator(1);
    if (t == Index[].class) return new Index[] {Index.all()};
    if (t == Tensor[].class) return new Tensor[] {track(made, Tensor.ones(2, 3)), track(made, Tensor.ones(2, 3))};
    if (t == List.class) return List.of(track(made, Tensor.ones(2, 3)), track(made, Tensor.ones(2, 3)));
    return null;
  }

  private static Tensor track(List<AutoCloseable> made, Tensor t) {
    made.add(t);
    return t;
  }

  /** Closes whatever a call returned that holds tensors. */
  private static void closeResult(Object r) throws Exception {
    if (r instanceof AutoCloseable c) c.close();
    else if (r instanceof Object[] a) for (Object o : a) closeResult(o);
    else if (r instanceof Iterable<?> it) for (Object o : it) closeResult(o);
    else if (r instanceof Map<?, ?> m) for (Object o : m.values()) closeResult(o);
  }

  private static List<Method> ops(Class<?> owner, boolean statics) {
    List<Method> found = new ArrayList<>();
    for (Method m : owner.getMethods()) {
      if (m.getDeclaringClass() == Object.class || SKIP.contains(m.getName())) continue;
      if (Modifier.isStatic(m.getModifiers()) != statics) continue;
      found.add(m);
    }
    found.sort(Comparator.comparing(Method::toString));
    return found;
  }

  /** Calls m once (on a fresh receiver when it is an instance method) and returns what leaked, or null. */
  private static String sweep(Method m, boolean onTensor) throws Exception {
    long before = allocated();
    List<AutoCloseable> made = new ArrayList<>();
    try {
      Tensor receiver = onTensor ? track(made, track(made, Tensor.ones(2, 3)).mul(0.5)) : null;
      Object[] args = Arrays.stream(m.getParameterTypes()).map(t -> arg(t, made)).toArray();
      Object r = null;
      try {
        r = m.invoke(receiver, args);
      } catch (InvocationTargetException e) {
        if (e.getCause() instanceof Error err && !(err instanceof AssertionError)) throw err;  // a refusal is fine, a crash is not
      }
      if (r != receiver && !made.contains(r)) closeResult(r);
    } finally {
      for (AutoCloseable c : made) c.close();
    }
    long after = allocated();
    return after == before ? null : m + " left " + (after - before) + " bytes allocated";
  }

  @Test
  void everyPublicOpGivesItsBytesBackWithNoScopeOpen() throws Exception {
    boolean collecting = LeakDetector.collectsOnGrowth();
    LeakDetector.setCollectOnGrowth(false);  // a collection would free one call's leak during another's count
    try {
      sweepAll();
    } finally {
      LeakDetector.setCollectOnGrowth(collecting);
    }
  }

  private static void sweepAll() throws Exception {
    List<String> leaks = new ArrayList<>();
    int calls = 0;
    for (Method m : ops(Tensor.class, false)) {
      calls++;
      String leak = sweep(m, true);
      if (leak != null) leaks.add(leak);
    }
    for (Method m : ops(Tensor.class, true)) {
      calls++;
      String leak = sweep(m, false);
      if (leak != null) leaks.add(leak);
    }
    for (Class<?> statics : List.of(Functional.class, Special.class, Linalg.class)) {
      for (Method m : ops(statics, true)) {
        calls++;
        String leak = sweep(m, false);
        if (leak != null) leaks.add(leak);
      }
    }
    System.out.println("UnscopedOpSweepTest: " + calls + " public methods called once with no scope open");
    assertTrue(calls > 300, "the sweep found " + calls + " methods");
    assertEquals(List.of(), leaks);
  }

  // ---- the sweep shown to catch what it claims: an op that keeps a temporary, on success and on refusal ----

  private static final List<Tensor> KEPT = new ArrayList<>();

  /** Public for the sweep's reflection: forgets the product it made, then returns a sum. */
  public static Tensor keepsATemporary(Tensor t) {
    KEPT.add(t.mul(2.0));
    return t.add(1.0);
  }

  /** Forgets the product, then refuses its argument. */
  public static Tensor keepsATemporaryAndRefuses(Tensor t) {
    KEPT.add(t.mul(2.0));
    throw new IllegalArgumentException("keepsATemporaryAndRefuses(): refused");
  }

  @Test
  void theSweepNamesAnOpThatKeepsBytesWhetherItSucceedsOrRefuses() throws Exception {
    try {
      for (String name : List.of("keepsATemporary", "keepsATemporaryAndRefuses")) {
        String leak = sweep(UnscopedOpSweepTest.class.getMethod(name, Tensor.class), false);
        assertTrue(leak != null && leak.contains(name) && leak.endsWith("left 512 bytes allocated"), String.valueOf(leak));
      }
    } finally {
      for (Tensor t : KEPT) t.close();
      KEPT.clear();
    }
  }
}
