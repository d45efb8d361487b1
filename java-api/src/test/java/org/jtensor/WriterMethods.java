package org.jtensor;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Set;

/** Tensor's public writers as the write-path walks find them by reflection (ReadOnlyWritePathsTest, PartialOverlapWritePathsTest). */
final class WriterMethods {
  private WriterMethods() {}

  /** Public methods with a writer's name that write no element (metadata only). */
  static final Set<String> NOT_WRITERS = Set.of("requiresGrad_", "detach_", "set_", "setData", "setGrad");

  /** name[ParamType, ...]: one overload's key in a walk's table. */
  static String key(Method m) {
    StringBuilder sb = new StringBuilder(m.getName()).append('[');
    Class<?>[] p = m.getParameterTypes();
    for (int i = 0; i < p.length; i++) sb.append(i == 0 ? "" : ", ").append(p[i].getSimpleName());
    return sb.append(']').toString();
  }

  /** Names ending in '_' or 'Out', and the set... family. */
  static boolean looksLikeWriter(Method m) {
    String n = m.getName();
    return !Modifier.isStatic(m.getModifiers()) && (n.endsWith("_") || n.endsWith("Out") || n.startsWith("set"))
        && !NOT_WRITERS.contains(n);
  }

  /** m on receiver (null for a static method), its own RuntimeException rethrown as it was. */
  static void invoke(Method m, Tensor receiver, Object[] args) {
    try {
      m.invoke(receiver, args);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof RuntimeException r) throw r;
      throw new AssertionError(e.getCause());
    } catch (IllegalAccessException e) {
      throw new AssertionError(e);
    }
  }
}
