package org.jtensor.io;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.jtensor.Tensor;

/** Walks a loaded value (tensors inside lists, tuples, dicts and sets) without recursion, each container once. */
final class LoadedValues {
  private LoadedValues() {}

  static void forEachTensor(Object root, Consumer<Tensor> action) {
    forEachLeaf(root, o -> {
      if (o instanceof Tensor) action.accept((Tensor) o);
    });
  }

  /** Every non-null value that is not a list, tuple, dict or set (each tensor once; dict keys are not visited). */
  static void forEachLeaf(Object root, Consumer<Object> action) {
    Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    ArrayDeque<Object> todo = new ArrayDeque<>();
    if (root == null) return;
    todo.push(root);
    while (!todo.isEmpty()) {
      Object o = todo.pop();
      if (o instanceof Map || o instanceof Collection) {
        if (!seen.add(o)) continue;
        Collection<?> items = o instanceof Map ? ((Map<?, ?>) o).values() : (Collection<?>) o;
        for (Object c : items) if (c != null) todo.push(c);
      } else if (!(o instanceof Tensor) || seen.add(o)) {
        action.accept(o);
      }
    }
  }

  /** The first leaf that is neither a tensor, a dtype nor a plain Python value (None, bool, int, float, str, bytes); null if none. */
  static Object firstUnplainLeaf(Object root) {
    Object[] odd = {null};
    forEachLeaf(root, o -> {
      boolean plain = o instanceof Tensor || o instanceof Boolean || o instanceof Long || o instanceof java.math.BigInteger
          || o instanceof Double || o instanceof String || o instanceof byte[] || o instanceof org.jtensor.DType;
      if (!plain && odd[0] == null) odd[0] = o;
    });
    return odd[0];
  }
}
