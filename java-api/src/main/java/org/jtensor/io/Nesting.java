package org.jtensor.io;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Checks, without recursion, that an unpickled value is a tree-like graph (a container may be
 * shared, but none contains itself) no deeper than {@link PickleReader#MAX_DEPTH}: code that
 * walks the result, ours or the caller's, may then recurse safely.
 */
final class Nesting {
  private Nesting() {}

  private static final Integer ON_PATH = -1;

  private static final class Frame {
    final Object node;
    final Iterator<?> children;
    int height;

    Frame(Object node) {
      this.node = node;
      this.children = childrenOf(node);
    }
  }

  static boolean isContainer(Object o) {
    return o instanceof Collection || o instanceof Map;
  }

  static Iterator<?> childrenOf(Object o) {
    if (o instanceof Map) {
      // keys are scalars or flat tuples (PickleReader.key); the values are what nest
      return ((Map<?, ?>) o).values().iterator();
    }
    return ((Collection<?>) o).iterator();
  }

  static void check(Object root, Path file) throws TensorFormatException {
    if (!isContainer(root)) return;
    Map<Object, Integer> height = new IdentityHashMap<>();  // ON_PATH while being walked
    ArrayDeque<Frame> path = new ArrayDeque<>();
    path.push(new Frame(root));
    height.put(root, ON_PATH);
    while (!path.isEmpty()) {
      Frame top = path.peek();
      if (top.children.hasNext()) {
        Object c = top.children.next();
        if (!isContainer(c)) continue;
        Integer h = height.get(c);
        if (h == ON_PATH) throw new TensorFormatException(file, "pickle builds a container that contains itself");
        if (h != null) {
          top.height = Math.max(top.height, h + 1);
        } else if (path.size() >= PickleReader.MAX_DEPTH) {
          throw new TensorFormatException(file, "pickle nests containers deeper than " + PickleReader.MAX_DEPTH + " levels");
        } else {
          height.put(c, ON_PATH);
          path.push(new Frame(c));
        }
      } else {
        path.pop();
        if (top.height >= PickleReader.MAX_DEPTH) {
          throw new TensorFormatException(file, "pickle nests containers deeper than " + PickleReader.MAX_DEPTH + " levels");
        }
        height.put(top.node, top.height);
        if (!path.isEmpty()) path.peek().height = Math.max(path.peek().height, top.height + 1);
      }
    }
  }
}
