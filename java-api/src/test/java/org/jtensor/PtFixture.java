package org.jtensor;

import java.nio.file.Path;
import java.util.Map;
import org.jtensor.io.Tensors;

/**
 * A test resource written by torch.save (a dict of tensors, lists and numbers), loaded once for a
 * test class: {@code static PtFixture f = PtFixture.load(MyTest.class, "/losses/fixtures.pt")} in
 * {@code @BeforeAll}, {@code f.close()} in {@code @AfterAll}.
 */
public final class PtFixture implements AutoCloseable {
  private final Map<?, ?> entries;

  private PtFixture(Map<?, ?> entries) {
    this.entries = entries;
  }

  public static PtFixture load(Class<?> owner, String resource) throws Exception {
    return new PtFixture((Map<?, ?>) Tensors.loadObject(Path.of(owner.getResource(resource).toURI())));
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

  @Override
  public void close() {
    Tensors.closeAll(entries);
  }
}
