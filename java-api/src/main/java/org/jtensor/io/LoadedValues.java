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
    Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    ArrayDeque<Object> todo = new ArrayDeque<>();
    if (root == null) return;
    todo.push(root);
    while (!todo.isEmpty()) {
      Object o = todo.pop();
      if (o instanceof Tensor) {
        if (seen.add(o)) action.accept((Tensor) o);
      } else if (o instanceof Map || o instanceof Collection) {
        if (!seen.add(o)) continue;
        Collection<?> items = o instanceof Map ? ((Map<?, ?>) o).values() : (Collection<?>) o;
        for (Object c : items) if (c != null) todo.push(c);
      }
    }
  }
}
