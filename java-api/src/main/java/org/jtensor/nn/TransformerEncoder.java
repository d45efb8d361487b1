package org.jtensor.nn;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;

/**
 * torch.nn.TransformerEncoder: numLayers encoder layers in turn ("layers.0.*", ...), then an
 * optional final norm ("norm.*"). PyTorch deep-copies one layer numLayers times; here the supplier
 * makes each (fresh parameters, as the copies are independent after training starts).
 */
public final class TransformerEncoder extends Module {
  private final ModuleList<TransformerEncoderLayer> layers;
  private final Module norm;

  public TransformerEncoder(Supplier<TransformerEncoderLayer> layer, int numLayers, Module norm) {
    if (numLayers < 0) throw new IllegalArgumentException("TransformerEncoder(): num_layers must be non-negative, got " + numLayers);
    if (layer == null) throw new IllegalArgumentException("TransformerEncoder(): expected a layer supplier, got null");
    List<TransformerEncoderLayer> made = new ArrayList<>();
    try {
      for (int i = 0; i < numLayers; i++) {
        TransformerEncoderLayer l = layer.get();
        if (l == null) throw new IllegalArgumentException("TransformerEncoder(): the layer supplier returned null for layer " + i);
        for (int j = 0; j < made.size(); j++) {
          if (made.get(j) == l) {
            made.remove(j);  // the caller holds it (the supplier handed it out twice): not ours to close
            throw new IllegalArgumentException("TransformerEncoder(): the layer supplier returned the same layer for layers " + j + " and "
                + i + "; PyTorch's num_layers layers are independent copies, so the supplier must make a new layer each time");
          }
        }
        made.add(l);
      }
      layers = registerModule("layers", new ModuleList<>(made));
      this.norm = norm == null ? null : registerModule("norm", norm);
    } catch (RuntimeException | Error e) {
      for (TransformerEncoderLayer m : made) m.close();
      throw e;
    }
  }

  @Override
  public Tensor forward(Tensor src) {
    return forward(src, null, null, false);
  }

  public Tensor forward(Tensor src, Tensor mask, boolean isCausal) {
    return forward(src, mask, null, isCausal);
  }

  public Tensor forward(Tensor src, Tensor mask, Tensor srcKeyPaddingMask, boolean isCausal) {
    try (TensorScope s = TensorScope.open()) {
      Tensor x = src;
      for (TransformerEncoderLayer l : layers.modules()) x = l.forward(x, mask, srcKeyPaddingMask, isCausal);
      if (norm != null) x = norm.forward(x);
      return s.keep(x == src ? src.view(src.shape()) : x);
    }
  }

  public ModuleList<TransformerEncoderLayer> layers() {
    return layers;
  }
}
