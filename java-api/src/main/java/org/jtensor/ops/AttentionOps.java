package org.jtensor.ops;

import java.util.Arrays;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.access.SharedSecrets;
import org.jtensor.autograd.GradMode;
import org.jtensor.core.TensorImpl;
import org.jtensor.dispatch.Dispatcher;
import org.jtensor.dispatch.plan.AttentionPacker;
import org.jtensor.dispatch.plan.AttentionShape;

/**
 * Scaled dot-product attention as one registry op (Ops.ATTENTION) with fused kernels: the forward
 * saves the output and each row's log-sum-exp, never the [lq, lk] scores; the backward recomputes
 * the scores block by block. Inputs come here already checked and shaped by nn's Attention:
 * contiguous query [batch, heads, lq, e], key [batch, kvHeads, lk, e], value [batch, kvHeads, lk, ev]
 * in a dtype the device fuses (float32 and float64; float16 and bfloat16 on CUDA), the mask (or null)
 * a bool view of the scores' shape or an additive one in the dtype's math type. The
 * {@link #reference} composition (matmul, softmax, matmul) computes the same in differentiable
 * ops: nn uses it where a device has no fused kernel, and the backward where the gradient is
 * itself to be differentiated.
 */
public final class AttentionOps {
  private AttentionOps() {}

  /** The attention of q, k and v; dropout's factors are drawn from g (seed and a fresh counter). */
  public static Tensor fused(String name, Tensor q, Tensor k, Tensor v, Tensor mask, double scale, boolean causal, double dropout,
                             Generator g) {
    TensorImpl[] in = {Handles.implOf(q, name), Handles.implOf(k, name), Handles.implOf(v, name)};  // autograd records on these
    TensorImpl[] f = TensorImpl.frozen(name, in[0], in[1], in[2], mask == null ? null : Handles.implOf(mask, name));
    TensorImpl out = null, lse = null;
    try {
      long[] qs = f[0].sizes(), ks = f[1].sizes(), vs = f[2].sizes();
      long seed = 0, counter = 0;
      if (dropout > 0) {
        synchronized (g) {  // one seed for the draw, as RandomOps
          seed = g.initialSeed();
          counter = SharedSecrets.api().reserve(g, AttentionShape.dropoutBlocks(qs[0], qs[1], qs[2], ks[2]));
        }
      }
      AttentionShape a = new AttentionShape(qs[0], qs[1], ks[1], qs[2], ks[2], qs[3], vs[3], scale, causal, dropout, seed, counter);
      require(name, f[0], a.queryShape());
      require(name, f[1], a.keyShape());
      require(name, f[2], a.valueShape());
      DType dtype = f[0].dtype();
      Device device = f[0].device();
      out = DataOps.empty(name, a.outputShape(), dtype, device);
      lse = DataOps.empty(name, a.lseShape(), dtype.opMath(), device);  // float for 16-bit inputs
      TensorImpl o = out, l = lse;
      Recorder.runRecorded(Ops.ATTENTION, name, in, a, new TensorImpl[] {f[3], l}, o,
          () -> Dispatcher.backend(device).attention(name, AttentionPacker.FORWARD, a, f[0], f[1], f[2], f[3], o, l, null, null, null, null));
      TensorImpl result = out;
      out = null;
      return Handles.wrap(result);
    } finally {
      TensorImpl.releaseFrozen(f);
      if (out != null) out.release();
      if (lse != null) lse.release();
    }
  }

  /** Ops.ATTENTION's derivative: the backward kernel, or under createGraph the same formula in differentiable ops. */
  static Tensor[] backward(Gradient.Context c, Tensor grad) {
    AttentionShape a = c.args(AttentionShape.class);
    Tensor mask = c.savedArg(0), lse = c.savedArg(1);
    Tensor q = c.input(0), k = c.input(1), v = c.input(2), out = c.result();
    if (GradMode.isEnabled()) {
      Tensor factors = a.dropout() > 0 ? dropoutFactors(a, q.dtype(), q.device()) : null;
      return referenceGradients(q, k, v, mask, a.scale(), a.causal(), factors, grad, c.needs(0), c.needs(1), c.needs(2));
    }
    String name = "scaledDotProductAttentionBackward";
    TensorImpl[] f = TensorImpl.frozen(name, Handles.implOf(grad, name), Handles.implOf(q, name), Handles.implOf(k, name), Handles.implOf(v, name),
        Handles.implOf(out, name), Handles.implOf(lse, name), mask == null ? null : Handles.implOf(mask, name));
    TensorImpl[] made = new TensorImpl[4];  // grad as the kernel reads it; gradQ, gradK, gradV
    try {
      DType dtype = f[1].dtype();
      Device device = f[1].device();
      made[0] = DataOps.contiguousAs(name, f[0], dtype);
      if (c.needs(0)) made[1] = DataOps.empty(name, a.queryShape(), dtype, device);
      if (c.needs(1)) made[2] = DataOps.empty(name, a.keyShape(), dtype, device);
      if (c.needs(2)) made[3] = DataOps.empty(name, a.valueShape(), dtype, device);
      Dispatcher.backend(device).attention(name, AttentionPacker.BACKWARD, a, f[1], f[2], f[3], f[6], f[4], f[5], made[0], made[1], made[2],
          made[3]);
      Tensor[] grads = new Tensor[3];
      for (int i = 0; i < 3; i++) {
        if (made[i + 1] == null) continue;
        grads[i] = Handles.wrap(made[i + 1]);
        made[i + 1] = null;
      }
      return grads;
    } finally {
      TensorImpl.releaseFrozen(f);
      for (TensorImpl t : made) if (t != null) t.release();
    }
  }

  /** The dropout factors (1/(1 − p) or 0) of the scores a's draw used, [a.scoresShape()]. */
  static Tensor dropoutFactors(AttentionShape a, DType dtype, Device device) {
    String name = "scaledDotProductAttention";
    TensorImpl t = DataOps.empty(name, a.scoresShape(), dtype, device);
    try {
      Dispatcher.backend(device).attention(name, AttentionPacker.DROPOUT_FACTORS, a, null, null, null, null, t, null, null, null, null,
          null);
      return Handles.wrap(t);
    } catch (RuntimeException e) {
      t.release();
      throw e;
    }
  }

  /**
   * The reference composition, in differentiable ops: softmax(scale·q·kᵀ + mask, causal) · v, the
   * scores of a row with every key masked 0 (not NaN: PyTorch's safe softmax), key/value heads
   * repeated over their group of query heads, the probabilities times the dropout factors (or null).
   */
  public static Tensor reference(Tensor q, Tensor k, Tensor v, Tensor mask, double scale, boolean causal, Tensor factors) {
    try (TensorScope s = TensorScope.open()) {
      Tensor p = probabilities(q, repeatHeads(k, q), mask, scale, causal);
      if (factors != null) p = p.mul(factors);
      return s.keep(p.matmul(repeatHeads(v, q)));
    }
  }

  private static Tensor probabilities(Tensor q, Tensor k, Tensor mask, double scale, boolean causal) {
    Tensor scores = q.matmul(k.transpose(-2, -1)).mul(scale);
    if (mask != null) scores = mask.dtype() == DType.BOOL ? scores.maskedFill(mask.logicalNot(), Double.NEGATIVE_INFINITY) : scores.add(mask);
    if (causal) {
      long lq = q.shape()[q.dim() - 2], lk = k.shape()[k.dim() - 2];
      Tensor later = Tensor.ones(new long[] {lq, lk}, DType.BOOL, q.device()).triu(1);
      scores = scores.maskedFill(later, Double.NEGATIVE_INFINITY);
    }
    if (scores.shape()[scores.dim() - 1] == 0) return scores;  // no keys: the product with v is zeros
    Tensor empty = scores.amax(-1, true).eq(Double.NEGATIVE_INFINITY);  // rows with every key masked
    return scores.maskedFill(empty, 0).softmax(-1).maskedFill(empty, 0);
  }

  /** k [b, kvHeads, l, e] as [b, heads, l, e], each kv head repeated for its group (repeat_interleave over dim 1). */
  private static Tensor repeatHeads(Tensor k, Tensor q) {
    long heads = q.shape()[1], kvHeads = k.shape()[1];
    if (heads == kvHeads) return k;
    long[] s = k.shape();
    return k.unsqueeze(2).expand(s[0], kvHeads, heads / kvHeads, s[2], s[3]).reshape(s[0], heads, s[2], s[3]);
  }

  /** The gradients of the reference composition in differentiable ops (each null where not wanted). */
  static Tensor[] referenceGradients(Tensor q, Tensor k, Tensor v, Tensor mask, double scale, boolean causal, Tensor factors, Tensor grad,
                                     boolean wantQ, boolean wantK, boolean wantV) {
    try (TensorScope s = TensorScope.open()) {
      Tensor kr = repeatHeads(k, q), vr = repeatHeads(v, q);
      Tensor p = probabilities(q, kr, mask, scale, causal);
      Tensor kept = factors == null ? p : p.mul(factors);
      Tensor dp = grad.matmul(vr.transpose(-2, -1));
      if (factors != null) dp = dp.mul(factors);
      Tensor ds = p.mul(dp.sub(dp.mul(p).sum(-1, true)));
      Tensor gq = wantQ ? s.keep(ds.matmul(kr).mul(scale)) : null;
      Tensor gk = wantK ? s.keep(sumGroups(ds.transpose(-2, -1).matmul(q).mul(scale), k)) : null;
      Tensor gv = wantV ? s.keep(sumGroups(kept.transpose(-2, -1).matmul(grad), v)) : null;
      return new Tensor[] {gq, gk, gv};
    }
  }

  /** A gradient over repeated heads [b, heads, l, e] summed back to kv's [b, kvHeads, l, e]. */
  private static Tensor sumGroups(Tensor g, Tensor kv) {
    long[] s = kv.shape();
    long heads = g.shape()[1];
    if (heads == s[1]) return g;
    return g.reshape(s[0], s[1], heads / s[1], s[2], s[3]).sum(2);
  }

  private static void require(String name, TensorImpl t, long[] shape) {
    if (!Arrays.equals(t.sizes(), shape) || !t.isContiguous()) {
      throw new IllegalArgumentException(name + "(): the fused kernel takes contiguous " + Arrays.toString(shape) + ", got "
          + Arrays.toString(t.sizes()) + (t.isContiguous() ? "" : " (not contiguous)"));
    }
  }
}
