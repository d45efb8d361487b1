package org.jtensor.nn;

import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.Tensor;

/**
 * nn.MultiheadAttention's need_weights path, as PyTorch's multi_head_attention_forward computes
 * it: the scores q·√(1/hd)·kᵀ plus the mask, softmax over the keys, dropout on those weights in
 * training, then weights·v. The weights are formed here (the fused kernel never forms them), so this
 * path costs a [N, H, L, S] matrix; the output equals the fused path's.
 */
final class AttentionWeights {
  private AttentionWeights() {}

  /** The weights [N, H, L, S] and the output [N, H, L, hd] of heads qh, kh, vh; mask as scaledDotProductAttention takes it. */
  static Tensor[] attend(Tensor qh, Tensor kh, Tensor vh, Tensor mask, double dropout, Generator g) {
    long hd = qh.shape()[3];
    Tensor scores = qh.mul(Math.sqrt(1.0 / hd)).matmul(kh.transpose(-2, -1));
    // PyTorch's need_weights path ignores the is_causal hint: the mask given is the whole mask
    if (mask != null) scores = mask.dtype() == DType.BOOL ? scores.maskedFill(mask.logicalNot(), Double.NEGATIVE_INFINITY) : scores.add(mask);
    Tensor weights = scores.softmax(-1);
    if (dropout > 0) weights = weights.dropout(dropout, true, g);
    return new Tensor[] {weights, weights.matmul(vh)};
  }
}
