package org.jtensor.nn;

import java.util.function.Supplier;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;

/**
 * torch.nn.TransformerEncoder: numLayers encoder layers in turn ("layers.0.*", ...), then an
 * optional final norm ("norm.*"). PyTorch deep-copies one layer numLayers times; here the supplier
 * makes each (fresh parameters, as the copies are independent after training starts).
 */
public final class TransformerEncoder extends LayerStack<TransformerEncoderLayer> {
  public TransformerEncoder(Supplier<TransformerEncoderLayer> layer, int numLayers, Module norm) {
    super("TransformerEncoder", layer, numLayers, norm);
  }

  @Override
  public Tensor forward(Tensor src) {
    return forward(src, null, null, false);
  }

  public Tensor forward(Tensor src, Tensor mask, boolean isCausal) {
    return forward(src, mask, null, isCausal);
  }

  /** mask and srcKeyPaddingMask as MultiheadAttention's attnMask and keyPaddingMask; isCausal: mask is causal (it needs the mask). */
  public Tensor forward(Tensor src, Tensor mask, Tensor srcKeyPaddingMask, boolean isCausal) {
    AttentionMasks.requireMaskForCausal("TransformerEncoder.forward", mask, isCausal);
    try (TensorScope s = TensorScope.open()) {
      Tensor x = src;
      for (TransformerEncoderLayer l : layers) x = l.forward(x, mask, srcKeyPaddingMask, isCausal);
      return s.keep(finish(x, src));
    }
  }
}
