package org.jtensor.nn;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Tensor;

/** Walks a module tree by dotted names, as PyTorch's named_parameters/_buffers/_modules and state_dict do. */
final class ModuleWalk {
  private ModuleWalk() {}

  /** What a walk collects: parameters, every buffer, or the state dict's entries (parameters and persistent buffers). */
  enum Kind { PARAMETERS, BUFFERS, STATE }

  /** Every tensor of kind by dotted name, depth first in registration order, duplicates kept (the state dict names tied weights twice). */
  static Map<String, Tensor> tensors(Module root, Kind kind) {
    Map<String, Tensor> out = new LinkedHashMap<>();
    collect(root, "", out, kind);
    return out;
  }

  private static void collect(Module m, String prefix, Map<String, Tensor> out, Kind kind) {
    if (kind != Kind.BUFFERS) m.parameters.forEach((n, t) -> { if (t != null) out.put(prefix + n, t); });  // null: registered as None
    if (kind != Kind.PARAMETERS) {
      m.buffers.forEach((n, t) -> {
        if (t != null && (kind == Kind.BUFFERS || !m.nonPersistent.contains(n))) out.put(prefix + n, t);
      });
    }
    m.children.forEach((n, c) -> collect(c, prefix + n + ".", out, kind));
  }

  /** root under "", then each submodule under its first dotted path only (named_modules' memo). */
  static Map<String, Module> namedModules(Module root) {
    Map<String, Module> out = new LinkedHashMap<>();
    walk(root, "", out, Collections.newSetFromMap(new IdentityHashMap<>()));
    return out;
  }

  private static void walk(Module m, String path, Map<String, Module> out, Set<Module> seen) {
    if (!seen.add(m)) return;
    out.put(path, m);
    m.children.forEach((n, c) -> walk(c, path.isEmpty() ? n : path + "." + n, out, seen));
  }

  /** Moves m's own parameters (with their gradients) and buffers to device, keeping every handle; each submodule through its to(). */
  static void moveTo(Module m, Device device) {
    applyInPlace(m, t -> moveInPlace(t, device), c -> c.to(device));  // a subclass may override to()
  }

  /**
   * Casts m's own floating-point parameters (with their gradients) and buffers to dtype, keeping every
   * handle (PyTorch's _apply of t.to(dtype) where t.is_floating_point(): num_batches_tracked stays
   * int64); each submodule through its to(DType).
   */
  static void castTo(Module m, DType dtype) {
    applyInPlace(m, t -> castInPlace(t, dtype), c -> c.to(dtype));
  }

  /** PyTorch's _apply: fn on each own parameter, its gradient and each buffer; child on each submodule. */
  private static void applyInPlace(Module m, Consumer<Tensor> fn, Consumer<Module> child) {
    for (Tensor t : m.parameters.values()) {
      if (t == null) continue;
      fn.accept(t);
      try (Tensor g = t.grad()) {
        if (g != null) fn.accept(g);
      }
    }
    for (Tensor t : m.buffers.values()) if (t != null) fn.accept(t);
    for (Module c : m.children.values()) child.accept(c);
  }

  private static void moveInPlace(Tensor t, Device device) {
    if (t.device().equals(device)) return;
    try (Tensor moved = t.to(device)) {
      t.setData(moved);
    }
  }

  private static void castInPlace(Tensor t, DType dtype) {
    if (t.dtype() == dtype || !t.dtype().isFloatingPoint()) return;
    try (Tensor cast = t.to(dtype)) {
      t.setData(cast);
    }
  }

  /** Drops every entry whose value (by identity) an earlier entry holds: PyTorch's remove_duplicate=True. */
  static <V> Map<String, V> firstOfEach(Map<String, V> named) {
    Set<V> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    named.values().removeIf(v -> !seen.add(v));
    return named;
  }
}
