package org.jtensor.nn;

import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;

/**
 * torch.nn.Transformer: a {@link TransformerEncoder} ("encoder.*": numEncoderLayers layers and a
 * final LayerNorm) over the source, a {@link TransformerDecoder} ("decoder.*": numDecoderLayers
 * layers and a final LayerNorm) over the target and the encoder's output; PyTorch's arguments,
 * defaults, state-dict names and initialisation (xavier_uniform_ on every parameter of more than
 * one dim). PyTorch's custom_encoder/custom_decoder are the two stacks built directly.
 */
public final class Transformer extends Module {
  private final long dModel;
  private final boolean batchFirst;
  private final TransformerEncoder encoder;
  private final TransformerDecoder decoder;

  /** PyTorch's defaults: 6 encoder and 6 decoder layers, dimFeedforward 2048, dropout 0.1, relu, eps 1e-5. */
  public Transformer(long dModel, long nhead) {
    this(dModel, nhead, 6, 6, 2048, 0.1, "relu", 1e-5, false, false, true, Generator.defaultGenerator());
  }

  public Transformer(long dModel, long nhead, int numEncoderLayers, int numDecoderLayers, long dimFeedforward, double dropout,
                     String activation, double layerNormEps, boolean batchFirst, boolean normFirst, boolean bias, Generator g) {
    if (dModel <= 0 || nhead <= 0) {  // PyTorch's MultiheadAttention words; else the encoder's norm, made first here, refuses first
      throw new IllegalArgumentException("Transformer(): embed_dim and num_heads must be greater than 0, got embed_dim=" + dModel
          + " and num_heads=" + nhead + " instead");
    }
    this.dModel = dModel;
    this.batchFirst = batchFirst;
    try {
      LayerNorm encoderNorm = new LayerNorm(new long[] {dModel}, layerNormEps, true, bias);
      encoder = registerModule("encoder", closingOnFailure(encoderNorm, () -> new TransformerEncoder(() -> new TransformerEncoderLayer(dModel,
          nhead, dimFeedforward, dropout, activation, layerNormEps, batchFirst, normFirst, bias, g), numEncoderLayers, encoderNorm)));
      LayerNorm decoderNorm = new LayerNorm(new long[] {dModel}, layerNormEps, true, bias);
      decoder = registerModule("decoder", closingOnFailure(decoderNorm, () -> new TransformerDecoder(() -> new TransformerDecoderLayer(dModel,
          nhead, dimFeedforward, dropout, activation, layerNormEps, batchFirst, normFirst, bias, g), numDecoderLayers, decoderNorm)));
      for (Tensor p : parameters()) if (p.dim() > 1) Init.xavierUniform_(p, 1.0, g);
    } catch (RuntimeException | Error e) {
      abandon(e);
      throw e;
    }
  }

  /** make's module, or (refused) norm closed: a stack refused before it took its norm leaves it to whoever made it. */
  private static <M extends Module> M closingOnFailure(LayerNorm norm, java.util.function.Supplier<M> make) {
    try {
      return make.get();
    } catch (RuntimeException | Error e) {
      norm.close();
      throw e;
    }
  }

  /** A transformer needs a source and a target. */
  @Override
  public Tensor forward(Tensor src) {
    throw new UnsupportedOperationException("Transformer.forward(): needs src and tgt: call forward(src, tgt, ...)");
  }

  public Tensor forward(Tensor src, Tensor tgt) {
    return forward(src, tgt, null, null, null, null, null, null, false, false, false);
  }

  /**
   * PyTorch's forward: the masks as MultiheadAttention's (attnMask: srcMask, tgtMask, memoryMask;
   * keyPaddingMask: the three padding masks; true may not attend), each isCausal flag saying its
   * mask is causal.
   */
  public Tensor forward(Tensor src, Tensor tgt, Tensor srcMask, Tensor tgtMask, Tensor memoryMask, Tensor srcKeyPaddingMask,
                        Tensor tgtKeyPaddingMask, Tensor memoryKeyPaddingMask, boolean srcIsCausal, boolean tgtIsCausal, boolean memoryIsCausal) {
    String op = "Transformer.forward";
    if (src == null || tgt == null) throw new IllegalArgumentException(op + "(): src and tgt are required, got null");
    // PyTorch's check: src decides whether batched, and tgt's dim 1 (0 with batchFirst) must be the batch
    if (src.dim() == 3 && (tgt.dim() < 2 || src.shape()[batchFirst ? 0 : 1] != tgt.shape()[batchFirst ? 0 : 1] || tgt.dim() != 3)) {
      throw new IllegalArgumentException(op + "(): the batch number of src and tgt must be equal, got src " + WindowArgs.shape(src.shape())
          + " and tgt " + WindowArgs.shape(tgt.shape()));
    }
    if (src.dim() == 0 || tgt.dim() == 0 || src.shape()[src.dim() - 1] != dModel || tgt.shape()[tgt.dim() - 1] != dModel) {
      throw new IllegalArgumentException(op + "(): the feature number of src and tgt must be equal to d_model (" + dModel + "), got src "
          + WindowArgs.shape(src.shape()) + " and tgt " + WindowArgs.shape(tgt.shape()));
    }
    AttentionMasks.requireMaskForCausal(op, srcMask, srcIsCausal);  // here, else the stacks refuse it in their names
    AttentionMasks.requireMaskForCausal(op, tgtMask, tgtIsCausal);
    AttentionMasks.requireMaskForCausal(op, memoryMask, memoryIsCausal);
    try (TensorScope s = TensorScope.open()) {
      Tensor memory = encoder.forward(src, srcMask, srcKeyPaddingMask, srcIsCausal);
      return s.keep(decoder.forward(tgt, memory, tgtMask, memoryMask, tgtKeyPaddingMask, memoryKeyPaddingMask, tgtIsCausal, memoryIsCausal));
    }
  }

  /** torch.nn.Transformer.generate_square_subsequent_mask: [sz, sz] float32, −inf above the diagonal (later positions), 0 elsewhere. */
  public static Tensor generateSquareSubsequentMask(long sz) {
    if (sz < 0) throw new IllegalArgumentException("generateSquareSubsequentMask(): sz must be non-negative, got " + sz);
    try (TensorScope s = TensorScope.open()) {
      return s.keep(Tensor.full(new long[] {sz, sz}, Double.NEGATIVE_INFINITY, DType.FLOAT32).triu(1));
    }
  }

  public TransformerEncoder encoder() {
    return encoder;
  }

  public TransformerDecoder decoder() {
    return decoder;
  }
}
