package org.jtensor.nn;

import org.jtensor.Tensor;

/** Modules applied in order (torch.nn.Sequential), named "0", "1", ...; intermediate results are closed. */
public final class Sequential extends Module {
  private final Module[] layers;

  public Sequential(Module... layers) {
    this.layers = layers.clone();
    for (int i = 0; i < layers.length; i++) registerModule(Integer.toString(i), layers[i]);
  }

  /** The layer at i; a negative i counts from the end, as Python's seq[-1]. */
  public Module get(int i) {
    return layers[ModuleList.index("Sequential.get", i, layers.length)];
  }

  public int size() {
    return layers.length;
  }

  @Override
  public Tensor forward(Tensor input) {
    Tensor x = input;
    for (Module m : layers) {
      Tensor y = m.forward(x);
      if (x != input) x.close();  // the graph keeps what backward needs
      x = y;
    }
    return x == input ? input.view(input.shape()) : x;
  }
}
