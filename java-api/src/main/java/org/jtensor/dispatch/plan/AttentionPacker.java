package org.jtensor.dispatch.plan;

import org.jtensor.DType;

/**
 * The attention plan (fused scaled dot-product attention; jt/plans.h): the mode, the geometry,
 * then one address per operand (0 for an absent one) and the mask's strides over the scores.
 */
public final class AttentionPacker {
  private AttentionPacker() {}

  public static final PlanLayout LAYOUT = new PlanLayout("attention",
      "version", "mode", "dtype", "batch", "heads", "kv_heads", "lq", "lk", "e", "ev", "scale", "causal",
      "mask_kind", "dropout", "seed", "counter", "q", "k", "v", "mask", "out", "lse", "grad_out", "grad_q",
      "grad_k", "grad_v", "mask_strides[4]");
  /** Modes: the output and lse; the three gradients; the dropout factors alone. */
  public static final int FORWARD = 0, BACKWARD = 1, DROPOUT_FACTORS = 2;
  /** Mask kinds: none, bool (true takes part), additive in the query dtype's math type (float32 for 16-bit queries). */
  public static final int NO_MASK = 0, BOOL_MASK = 1, ADDITIVE_MASK = 2;
  private static final int MODE = LAYOUT.at("mode"), DTYPE = LAYOUT.at("dtype"), BATCH = LAYOUT.at("batch"),
      HEADS = LAYOUT.at("heads"), KV_HEADS = LAYOUT.at("kv_heads"), LQ = LAYOUT.at("lq"), LK = LAYOUT.at("lk"),
      E = LAYOUT.at("e"), EV = LAYOUT.at("ev"), SCALE = LAYOUT.at("scale"), CAUSAL = LAYOUT.at("causal"),
      MASK_KIND = LAYOUT.at("mask_kind"), DROPOUT = LAYOUT.at("dropout"), SEED = LAYOUT.at("seed"),
      COUNTER = LAYOUT.at("counter");
  /** Where each operand's address goes. */
  public static final int Q = LAYOUT.at("q"), K = LAYOUT.at("k"), V = LAYOUT.at("v"), MASK = LAYOUT.at("mask"),
      OUT = LAYOUT.at("out"), LSE = LAYOUT.at("lse"), GRAD_OUT = LAYOUT.at("grad_out"), GRAD_Q = LAYOUT.at("grad_q"),
      GRAD_K = LAYOUT.at("grad_k"), GRAD_V = LAYOUT.at("grad_v");

  /** A plan with every address 0 and the mask strides given (zeros when there is no mask). */
  public static long[] pack(int mode, DType dtype, AttentionShape a, int maskKind, long[] maskStrides) {
    long[] p = LAYOUT.allocate(4);
    p[MODE] = mode;
    p[DTYPE] = dtype.code();
    p[BATCH] = a.batch();
    p[HEADS] = a.heads();
    p[KV_HEADS] = a.kvHeads();
    p[LQ] = a.lq();
    p[LK] = a.lk();
    p[E] = a.e();
    p[EV] = a.ev();
    p[SCALE] = Double.doubleToRawLongBits(a.scale());
    p[CAUSAL] = a.causal() ? 1 : 0;
    p[MASK_KIND] = maskKind;
    p[DROPOUT] = Double.doubleToRawLongBits(a.dropout());
    p[SEED] = a.seed();
    p[COUNTER] = a.counter();
    PlanLayout.put(p, LAYOUT.header(), maskStrides);
    return p;
  }
}
