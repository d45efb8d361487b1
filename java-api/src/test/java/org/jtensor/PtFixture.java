package org.jtensor;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jtensor.io.Tensors;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A test resource written by torch.save (a dict of tensors, lists and numbers), loaded once for a
 * test class and closed after it: {@code @RegisterExtension static final PtFixture f = new
 * PtFixture("/losses/fixtures.pt");}. Registered after the memory rule, it closes its tensors
 * before that rule's class-level check runs.
 */
public final class PtFixture implements BeforeAllCallback, AfterAllCallback {
  private final String resource;
  private Map<?, ?> entries;

  public PtFixture(String resource) {
    this.resource = resource;
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    entries = (Map<?, ?>) Tensors.loadObject(Path.of(context.getRequiredTestClass().getResource(resource).toURI()));
  }

  @Override
  public void afterAll(ExtensionContext context) {
    Tensors.closeAll(entries);
    entries = null;
  }

  public Tensor tensor(String name) {
    Object v = entries.get(name);
    if (!(v instanceof Tensor t)) throw new AssertionError("fixture entry " + name + " is not a tensor: " + v);
    return t;
  }

  public Object get(String name) {
    return entries.get(name);
  }

  public boolean has(String name) {
    return entries.containsKey(name);
  }

  /** The tensors under prefix, the prefix dropped: a module's state_dict as PyTorch saved it, with the case's inputs and outputs. */
  public Map<String, Tensor> under(String prefix) {
    Map<String, Tensor> m = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : entries.entrySet()) {
      String k = String.valueOf(e.getKey());
      if (k.startsWith(prefix + ".") && e.getValue() instanceof Tensor t) m.put(k.substring(prefix.length() + 1), t);
    }
    return m;
  }

  /** The module's own keys from the entries under prefix (the inputs and outputs beside them are not), loaded strictly; eval mode. */
  public <M extends org.jtensor.nn.Module> M loadInto(M m, String prefix) {
    Map<String, Tensor> own = new LinkedHashMap<>();
    for (String k : m.stateDict().keySet()) own.put(k, tensor(prefix + "." + k));
    m.loadStateDict(own);
    m.eval();
    return m;
  }
}
