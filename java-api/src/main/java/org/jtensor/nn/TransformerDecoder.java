package org.jtensor.nn;

import java.util.function.Supplier;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;

/**
 * torch.nn.TransformerDecoder: numLayers decoder layers in turn ("layers.0.*", ...), each given the
 * memory and the masks, then an optional final norm ("norm.*"). The supplier makes each layer, as
 * in {@link TransformerEncoder}.
 */
public final class TransformerDecoder extends LayerStack<TransformerDecoderLayer> {
  public TransformerDecoder(Supplier<TransformerDecoderLayer> layer, int numLayers, Module norm) {
    super("TransformerDecoder", layer, numLayers, norm);
  }

  /** A decoder needs the memory too. */
  @Override
  public Tensor forward(Tensor tgt) {
    throw new UnsupportedOperationException("TransformerDecoder.forward(): needs tgt and memory: call forward(tgt, memory, ...)");
  }

  public Tensor forward(Tensor tgt, Tensor memory) {
    return forward(tgt, memory, null, null, null, null, false, false);
  }

  /** The masks and flags as {@link TransformerDecoderLayer#forward(Tensor, Tensor, Tensor, Tensor, Tensor, Tensor, boolean, boolean)}'s. */
  public Tensor forward(Tensor tgt, Tensor memory, Tensor tgtMask, Tensor memoryMask, Tensor tgtKeyPaddingMask, Tensor memoryKeyPaddingMask,
                        boolean tgtIsCausal, boolean memoryIsCausal) {
    AttentionMasks.requireMaskForCausal("TransformerDecoder.forward", tgtMask, tgtIsCausal);
    AttentionMasks.requireMaskForCausal("TransformerDecoder.forward", memoryMask, memoryIsCausal);
    try (TensorScope s = TensorScope.open()) {
      Tensor x = tgt;
      for (TransformerDecoderLayer l : layers) {
        x = l.forward(x, memory, tgtMask, memoryMask, tgtKeyPaddingMask, memoryKeyPaddingMask, tgtIsCausal, memoryIsCausal);
      }
      return s.keep(finish(x, tgt));
    }
  }
}
