package org.jtensor.nn;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jtensor.Tensor;
import org.jtensor.io.Tensors;

/**
 * resources/transformer/fixtures.pt (written by make_fixtures.py beside it with PyTorch 2.13): each
 * module's state_dict under its prefix, with its inputs and outputs stored beside it. A test class
 * loads it once and closes it after its tests.
 */
final class TransformerFixtures implements AutoCloseable {
  private final Map<String, Tensor> all;

  private TransformerFixtures(Map<String, Tensor> all) {
    this.all = all;
  }

  static TransformerFixtures load() throws Exception {
    return new TransformerFixtures(Tensors.load(Path.of(TransformerFixtures.class.getResource("/transformer/fixtures.pt").toURI())));
  }

  Tensor f(String name) {
    Tensor t = all.get(name);
    if (t == null) throw new AssertionError("fixture " + name + " missing");
    return t;
  }

  /** The fixture, or null where the case has none. */
  Tensor optional(String name) {
    return all.get(name);
  }

  /** The entries under prefix, the prefix dropped: a module's state_dict as PyTorch saved it, with the case's tensors. */
  Map<String, Tensor> state(String prefix) {
    Map<String, Tensor> m = new LinkedHashMap<>();
    for (Map.Entry<String, Tensor> e : all.entrySet()) {
      if (e.getKey().startsWith(prefix + ".")) m.put(e.getKey().substring(prefix.length() + 1), e.getValue());
    }
    return m;
  }

  /** The module's own keys from the fixtures (the inputs and outputs stored beside them are not parameters), strictly, then eval mode. */
  void loadInto(Module m, String prefix) {
    Map<String, Tensor> entries = state(prefix), own = new LinkedHashMap<>();
    for (String k : m.stateDict().keySet()) own.put(k, entries.get(k));
    m.loadStateDict(own);
    m.eval();
  }

  @Override
  public void close() {
    all.values().forEach(Tensor::close);
  }
}
