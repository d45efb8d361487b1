package org.jtensor.nn;

import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;

/**
 * torch.nn.TransformerDecoderLayer: self-attention over the target, attention from the target to
 * the encoder's memory ("multihead_attn"), then the feed-forward block; each with dropout, a
 * residual and a LayerNorm (norm1..norm3), after (default) or before (normFirst) its block.
 * PyTorch's arguments, defaults and state-dict names; bias false leaves out every linear's and
 * norm's bias.
 */
public final class TransformerDecoderLayer extends Module {
  private final MultiheadAttention selfAttn, crossAttn;
  private final Linear linear1, linear2;
  private final Dropout dropout, dropout1, dropout2, dropout3;
  private final LayerNorm norm1, norm2, norm3;
  private final boolean normFirst, gelu;

  public TransformerDecoderLayer(long dModel, long nhead) {
    this(dModel, nhead, TransformerOptions.of());
  }

  /** PyTorch's keyword arguments as options (TransformerOptions), initialised from the default generator. */
  public TransformerDecoderLayer(long dModel, long nhead, TransformerOptions options) {
    this(dModel, nhead, options, Generator.defaultGenerator());
  }

  public TransformerDecoderLayer(long dModel, long nhead, TransformerOptions o, Generator g) {
    this(dModel, nhead, o.dimFeedforward, o.dropout, o.activation, o.layerNormEps, o.batchFirst, o.normFirst, o.bias, g);
  }

  public TransformerDecoderLayer(long dModel, long nhead, long dimFeedforward, double dropout, String activation, double layerNormEps,
                                 boolean batchFirst, boolean normFirst, Generator g) {
    this(dModel, nhead, dimFeedforward, dropout, activation, layerNormEps, batchFirst, normFirst, true, g);
  }

  public TransformerDecoderLayer(long dModel, long nhead, long dimFeedforward, double dropout, String activation, double layerNormEps,
                                 boolean batchFirst, boolean normFirst, boolean bias, Generator g) {
    this.gelu = Activation.isGelu("TransformerDecoderLayer", activation);
    this.normFirst = normFirst;
    try {
      selfAttn = registerModule("self_attn", new MultiheadAttention(dModel, nhead, dropout, bias, batchFirst, g));
      crossAttn = registerModule("multihead_attn", new MultiheadAttention(dModel, nhead, dropout, bias, batchFirst, g));
      linear1 = registerModule("linear1", new Linear(dModel, dimFeedforward, bias, g));
      this.dropout = registerModule("dropout", new Dropout(dropout, g));
      linear2 = registerModule("linear2", new Linear(dimFeedforward, dModel, bias, g));
      norm1 = registerModule("norm1", new LayerNorm(new long[] {dModel}, layerNormEps, true, bias));
      norm2 = registerModule("norm2", new LayerNorm(new long[] {dModel}, layerNormEps, true, bias));
      norm3 = registerModule("norm3", new LayerNorm(new long[] {dModel}, layerNormEps, true, bias));
      dropout1 = registerModule("dropout1", new Dropout(dropout, g));
      dropout2 = registerModule("dropout2", new Dropout(dropout, g));
      dropout3 = registerModule("dropout3", new Dropout(dropout, g));
    } catch (RuntimeException | Error e) {
      abandon(e);
      throw e;
    }
  }

  /** Self-attention alone has one input; a decoder layer needs the memory too. */
  @Override
  public Tensor forward(Tensor tgt) {
    throw new UnsupportedOperationException("TransformerDecoderLayer.forward(): needs tgt and memory: call forward(tgt, memory, ...)");
  }

  public Tensor forward(Tensor tgt, Tensor memory) {
    return forward(tgt, memory, null, null, null, null, false, false);
  }

  public Tensor forward(Tensor tgt, Tensor memory, Tensor tgtMask, Tensor memoryMask, boolean tgtIsCausal, boolean memoryIsCausal) {
    return forward(tgt, memory, tgtMask, memoryMask, null, null, tgtIsCausal, memoryIsCausal);
  }

  /**
   * tgtMask and memoryMask as MultiheadAttention's attnMask, the key padding masks as its
   * keyPaddingMask (true: may not attend); an isCausal flag says its mask is causal (it needs it).
   */
  public Tensor forward(Tensor tgt, Tensor memory, Tensor tgtMask, Tensor memoryMask, Tensor tgtKeyPaddingMask, Tensor memoryKeyPaddingMask,
                        boolean tgtIsCausal, boolean memoryIsCausal) {
    String op = "TransformerDecoderLayer.forward";
    AttentionMasks.requireMaskForCausal(op, tgtMask, tgtIsCausal);
    AttentionMasks.requireMaskForCausal(op, memoryMask, memoryIsCausal);
    try (TensorScope s = TensorScope.open()) {
      Tensor x = tgt;
      if (normFirst) {
        x = x.add(selfAttention(norm1.forward(x), tgtMask, tgtKeyPaddingMask, tgtIsCausal));
        x = x.add(crossAttention(norm2.forward(x), memory, memoryMask, memoryKeyPaddingMask, memoryIsCausal));
        x = x.add(feedForward(norm3.forward(x)));
      } else {
        x = norm1.forward(x.add(selfAttention(x, tgtMask, tgtKeyPaddingMask, tgtIsCausal)));
        x = norm2.forward(x.add(crossAttention(x, memory, memoryMask, memoryKeyPaddingMask, memoryIsCausal)));
        x = norm3.forward(x.add(feedForward(x)));
      }
      return s.keep(x);
    }
  }

  private Tensor selfAttention(Tensor x, Tensor mask, Tensor padding, boolean isCausal) {
    return dropout1.forward(selfAttn.forward(x, x, x, padding, mask, isCausal));
  }

  private Tensor crossAttention(Tensor x, Tensor memory, Tensor mask, Tensor padding, boolean isCausal) {
    return dropout2.forward(crossAttn.forward(x, memory, memory, padding, mask, isCausal));
  }

  private Tensor feedForward(Tensor x) {
    return dropout3.forward(Activation.feedForward(x, linear1, gelu, dropout, linear2));
  }
}
