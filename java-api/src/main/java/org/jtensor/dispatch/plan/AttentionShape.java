package org.jtensor.dispatch.plan;

/**
 * One fused attention call's geometry (the attention plan, jt/plans.h): query [batch, heads, lq, e],
 * key [batch, kvHeads, lk, e], value [batch, kvHeads, lk, ev], all contiguous; query head h reads
 * key/value head h / (heads / kvHeads). The scores are scale·q·kᵀ, causal keeps key j for query i
 * when j ≤ i, and dropout draws from Philox under seed from block counter (0 when dropout is 0).
 */
public record AttentionShape(long batch, long heads, long kvHeads, long lq, long lk, long e, long ev, double scale, boolean causal,
                             double dropout, long seed, long counter) {
  public AttentionShape {
    if (batch < 0 || heads <= 0 || kvHeads <= 0 || heads % kvHeads != 0 || lq < 0 || lk < 0 || e < 0 || ev < 0) {
      throw new IllegalArgumentException("attention geometry out of range: " + this);
    }
  }

  public long[] queryShape() {
    return new long[] {batch, heads, lq, e};
  }

  public long[] keyShape() {
    return new long[] {batch, kvHeads, lk, e};
  }

  public long[] valueShape() {
    return new long[] {batch, kvHeads, lk, ev};
  }

  public long[] outputShape() {
    return new long[] {batch, heads, lq, ev};
  }

  /** The rows' log-sum-exp, saved for backward. */
  public long[] lseShape() {
    return new long[] {batch, heads, lq};
  }

  /** The score matrix's shape, over which a mask is read (and the dropout factors written). */
  public long[] scoresShape() {
    return new long[] {batch, heads, lq, lk};
  }

  /** Philox blocks one draw of dropout factors takes: four words a block, one word a score. */
  public static long dropoutBlocks(long batch, long heads, long lq, long lk) {
    long scores = Math.multiplyExact(Math.multiplyExact(batch, heads), Math.multiplyExact(lq, lk));
    return scores / 4 + (scores % 4 == 0 ? 0 : 1);
  }
}
