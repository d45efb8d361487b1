package org.jtensor.nn;

/**
 * The keyword arguments of PyTorch's TransformerEncoderLayer and TransformerDecoderLayer, as one
 * immutable value: {@code new TransformerEncoderLayer(512, 8, TransformerOptions.of().batchFirst(true).activation("gelu"))}
 * is {@code nn.TransformerEncoderLayer(512, 8, batch_first=True, activation="gelu")}. PyTorch's
 * defaults: dim_feedforward 2048, dropout 0.1, relu, layer_norm_eps 1e-5, batch_first and norm_first
 * false, bias true.
 */
public final class TransformerOptions {
  final long dimFeedforward;
  final double dropout, layerNormEps;
  final String activation;
  final boolean batchFirst, normFirst, bias;

  private TransformerOptions(long dimFeedforward, double dropout, String activation, double layerNormEps, boolean batchFirst,
                             boolean normFirst, boolean bias) {
    this.dimFeedforward = dimFeedforward;
    this.dropout = dropout;
    this.activation = activation;
    this.layerNormEps = layerNormEps;
    this.batchFirst = batchFirst;
    this.normFirst = normFirst;
    this.bias = bias;
  }

  public static TransformerOptions of() {
    return new TransformerOptions(2048, 0.1, "relu", 1e-5, false, false, true);
  }

  public TransformerOptions dimFeedforward(long v) {
    return new TransformerOptions(v, dropout, activation, layerNormEps, batchFirst, normFirst, bias);
  }

  public TransformerOptions dropout(double v) {
    return new TransformerOptions(dimFeedforward, v, activation, layerNormEps, batchFirst, normFirst, bias);
  }

  /** "relu" or "gelu", as PyTorch's string argument. */
  public TransformerOptions activation(String v) {
    return new TransformerOptions(dimFeedforward, dropout, v, layerNormEps, batchFirst, normFirst, bias);
  }

  public TransformerOptions layerNormEps(double v) {
    return new TransformerOptions(dimFeedforward, dropout, activation, v, batchFirst, normFirst, bias);
  }

  public TransformerOptions batchFirst(boolean v) {
    return new TransformerOptions(dimFeedforward, dropout, activation, layerNormEps, v, normFirst, bias);
  }

  public TransformerOptions normFirst(boolean v) {
    return new TransformerOptions(dimFeedforward, dropout, activation, layerNormEps, batchFirst, v, bias);
  }

  public TransformerOptions bias(boolean v) {
    return new TransformerOptions(dimFeedforward, dropout, activation, layerNormEps, batchFirst, normFirst, v);
  }

  @Override
  public String toString() {
    return "TransformerOptions(dim_feedforward=" + dimFeedforward + ", dropout=" + dropout + ", activation=" + activation
        + ", layer_norm_eps=" + layerNormEps + ", batch_first=" + batchFirst + ", norm_first=" + normFirst + ", bias=" + bias + ")";
  }
}
