package org.jtensor.nn;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jtensor.Tensor;

/**
 * Modules held in a list (torch.nn.ModuleList), registered as "0", "1", ... so that their
 * parameters are named "name.0.weight" as PyTorch names them. It has no forward of its own: the
 * owner iterates it.
 */
public final class ModuleList<M extends Module> extends Module implements Iterable<M> {
  private final List<M> modules;

  public ModuleList(List<M> modules) {
    this.modules = Collections.unmodifiableList(new ArrayList<>(modules));
    for (int i = 0; i < this.modules.size(); i++) registerModule(Integer.toString(i), this.modules.get(i));
  }

  /** The module at i; a negative i counts from the end, as Python's ml[-1]. */
  public M get(int i) {
    return modules.get(index("ModuleList.get", i, modules.size()));
  }

  /** PyTorch's container index: -size <= i < size, a negative one from the end; otherwise its IndexError words. */
  static int index(String op, int i, int size) {
    if (i < -size || i >= size) throw new IndexOutOfBoundsException(op + "(): index " + i + " is out of range");
    return i < 0 ? i + size : i;
  }

  public int size() {
    return modules.size();
  }

  /** The modules in order, unmodifiable ({@link #modules()} is Module's: this list and every module under it). */
  public List<M> asList() {
    return modules;
  }

  /** for (M m : list), as Python iterates a ModuleList. */
  @Override
  public java.util.Iterator<M> iterator() {
    return modules.iterator();
  }

  @Override
  public Tensor forward(Tensor input) {
    throw new UnsupportedOperationException("ModuleList.forward(): a ModuleList has no forward; iterate its modules");
  }

  /** PyTorch's ModuleList repr: runs of equal entries folded ("(0-1): 2 x Linear(...)"). */
  @Override
  public String toString() {
    return ModuleRepr.ofList(reprName(), modules);
  }
}
