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
    List<TransformerEncoderLayer> made = new ArrayList<>();
    try {
      for (int i = 0; i < numLayers; i++) made.add(layer.get());
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
