package org.jtensor.nn;

import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;

/**
 * torch.nn.TransformerEncoderLayer: self-attention then a feed-forward block (linear1, the
 * activation, dropout, linear2), each with dropout, a residual and a LayerNorm, after the block
 * (normFirst false, the default) or before it (pre-norm). PyTorch's arguments, defaults
 * (dimFeedforward 2048, dropout 0.1, relu, eps 1e-5, bias) and state-dict names ("self_attn.*",
 * "linear1.*", "linear2.*", "norm1.*", "norm2.*"); bias false leaves out every linear's and
 * norm's bias, as PyTorch's.
 */
public final class TransformerEncoderLayer extends Module {
  private final MultiheadAttention selfAttn;
  private final Linear linear1, linear2;
  private final Dropout dropout, dropout1, dropout2;
  private final LayerNorm norm1, norm2;
  private final boolean normFirst, gelu;

  public TransformerEncoderLayer(long dModel, long nhead) {
    this(dModel, nhead, TransformerOptions.of());
  }

  /** PyTorch's keyword arguments as options (TransformerOptions), initialised from the default generator. */
  public TransformerEncoderLayer(long dModel, long nhead, TransformerOptions options) {
    this(dModel, nhead, options, Generator.defaultGenerator());
  }

  public TransformerEncoderLayer(long dModel, long nhead, TransformerOptions o, Generator g) {
    this(dModel, nhead, o.dimFeedforward, o.dropout, o.activation, o.layerNormEps, o.batchFirst, o.normFirst, o.bias, g);
  }

  public TransformerEncoderLayer(long dModel, long nhead, long dimFeedforward, double dropout, String activation, double layerNormEps,
                                 boolean batchFirst, boolean normFirst, Generator g) {
    this(dModel, nhead, dimFeedforward, dropout, activation, layerNormEps, batchFirst, normFirst, true, g);
  }

  public TransformerEncoderLayer(long dModel, long nhead, long dimFeedforward, double dropout, String activation, double layerNormEps,
                                 boolean batchFirst, boolean normFirst, boolean bias, Generator g) {
    this.gelu = Activation.isGelu("TransformerEncoderLayer", activation);
    this.normFirst = normFirst;
    try {
      selfAttn = registerModule("self_attn", new MultiheadAttention(dModel, nhead, dropout, bias, batchFirst, g));
      linear1 = registerModule("linear1", new Linear(dModel, dimFeedforward, bias, g));
      this.dropout = registerModule("dropout", new Dropout(dropout, g));
      linear2 = registerModule("linear2", new Linear(dimFeedforward, dModel, bias, g));
      norm1 = registerModule("norm1", new LayerNorm(new long[] {dModel}, layerNormEps, true, bias));
      norm2 = registerModule("norm2", new LayerNorm(new long[] {dModel}, layerNormEps, true, bias));
      dropout1 = registerModule("dropout1", new Dropout(dropout, g));
      dropout2 = registerModule("dropout2", new Dropout(dropout, g));
    } catch (RuntimeException | Error e) {
      abandon(e);
      throw e;
    }
  }

  @Override
  public Tensor forward(Tensor src) {
    return forward(src, null, null, false);
  }

  public Tensor forward(Tensor src, Tensor srcMask, boolean isCausal) {
    return forward(src, srcMask, null, isCausal);
  }

  /**
   * srcMask and srcKeyPaddingMask as MultiheadAttention's attnMask and keyPaddingMask (true: may not
   * attend); isCausal: srcMask is causal (it needs the mask).
   */
  public Tensor forward(Tensor src, Tensor srcMask, Tensor srcKeyPaddingMask, boolean isCausal) {
    AttentionMasks.requireMaskForCausal("TransformerEncoderLayer.forward", srcMask, isCausal);
    try (TensorScope s = TensorScope.open()) {
      Tensor x = src;
      if (normFirst) {
        x = x.add(selfAttention(norm1.forward(x), srcMask, srcKeyPaddingMask, isCausal));
        x = x.add(feedForward(norm2.forward(x)));
      } else {
        x = norm1.forward(x.add(selfAttention(x, srcMask, srcKeyPaddingMask, isCausal)));
        x = norm2.forward(x.add(feedForward(x)));
      }
      return s.keep(x);
    }
  }

  private Tensor selfAttention(Tensor x, Tensor mask, Tensor padding, boolean isCausal) {
    return dropout1.forward(selfAttn.forward(x, x, x, padding, mask, isCausal));
  }

  private Tensor feedForward(Tensor x) {
    return dropout2.forward(Activation.feedForward(x, linear1, gelu, dropout, linear2));
  }

  public MultiheadAttention selfAttn() {
    return selfAttn;
  }
}
