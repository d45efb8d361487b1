package org.jtensor.nn;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jtensor.Tensor;

/**
 * Modules held by name in insertion order (torch.nn.ModuleDict), registered under their keys so
 * that their parameters are named "name.key.weight" as PyTorch names them. It has no forward of
 * its own: the owner looks modules up.
 */
public final class ModuleDict<M extends Module> extends Module {
  private final Map<String, M> modules;

  public ModuleDict(Map<String, M> modules) {
    this.modules = Collections.unmodifiableMap(new LinkedHashMap<>(modules));
    this.modules.forEach(this::registerModule);
  }

  /** The module under key; IllegalArgumentException when there is none (Python's KeyError). */
  public M get(String key) {
    M m = modules.get(key);
    if (m == null) throw new IllegalArgumentException("ModuleDict.get(): no module under key '" + key + "'; keys: " + modules.keySet());
    return m;
  }

  public boolean containsKey(String key) {
    return modules.containsKey(key);
  }

  /** The modules by key, in insertion order, unmodifiable ({@link #modules()} is Module's: this dict and every module under it). */
  public Map<String, M> asMap() {
    return modules;
  }

  public int size() {
    return modules.size();
  }

  @Override
  public Tensor forward(Tensor input) {
    throw new UnsupportedOperationException("ModuleDict.forward(): a ModuleDict has no forward; look its modules up by key");
  }
}
