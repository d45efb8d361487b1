package org.jtensor.nn;

import java.util.Arrays;
import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.autograd.GradMode;
import org.jtensor.core.Shapes;
import org.jtensor.dispatch.Backend;
import org.jtensor.dispatch.Dispatcher;
import org.jtensor.ops.AttentionOps;
import org.jtensor.ops.Autocasting;

/**
 * torch.nn.functional.scaled_dot_product_attention's argument rules: query [..., L, E], key
 * [..., S, E], value [..., S, Ev], leading dims broadcast (with enableGqa, dim −3 is the heads and
 * key/value may have fewer, dividing the query's); the mask bool (true takes part) or additive,
 * broadcast to the scores [..., L, S]; output [..., L, Ev]. The inputs are shaped as the fused
 * kernel's [batch, heads, len, dim] by differentiable views (a copy only where an input is
 * broadcast or not contiguous), float16/bfloat16 computed in float32. Where the device has no fused
 * kernel, or the mask itself needs a gradient, the reference composition runs instead.
 */
final class Attention {
  private Attention() {}

  static final String OP = "scaledDotProductAttention";

  static Tensor attention(Tensor query, Tensor key, Tensor value, Tensor attnMask, double dropoutP, boolean isCausal, Double scale,
                          boolean enableGqa, Generator g) {
    return Autocasting.apply("scaledDotProductAttention", c -> attentionAs(c[0], c[1], c[2], c[3], dropoutP, isCausal, scale, enableGqa, g),
        query, key, value, attnMask);
  }

  private static Tensor attentionAs(Tensor query, Tensor key, Tensor value, Tensor attnMask, double dropoutP, boolean isCausal,
                                    Double scale, boolean enableGqa, Generator g) {
    for (Tensor t : new Tensor[] {query, key, value}) {
      if (t == null) throw new IllegalArgumentException(OP + "(): query, key and value are required, got null");
    }
    if (g == null) throw new IllegalArgumentException(OP + "(): expected a Generator, got null");
    if (!(dropoutP >= 0 && dropoutP <= 1)) {
      throw new IllegalArgumentException(OP + "(): dropout probability has to be between 0 and 1, but got " + dropoutP);
    }
    DType dtype = query.dtype();
    if (key.dtype() != dtype || value.dtype() != dtype) {
      throw new IllegalArgumentException(OP + "(): Expected query, key, and value to have the same dtype, but got query.dtype: " + dtype
          + " key.dtype: " + key.dtype() + " and value.dtype: " + value.dtype() + " instead.");
    }
    if (!dtype.isFloatingPoint()) {
      throw new IllegalArgumentException(OP + "(): expected floating point query, key and value, got " + dtype);
    }
    if (!key.device().equals(query.device()) || !value.device().equals(query.device())
        || (attnMask != null && !attnMask.device().equals(query.device()))) {
      throw new IllegalArgumentException(OP + "(): Expected all tensors to be on the same device, but found query on " + query.device()
          + ", key on " + key.device() + ", value on " + value.device() + (attnMask == null ? "" : " and attn_mask on " + attnMask.device()));
    }
    int lead = enableGqa ? 3 : 2;
    for (Tensor t : new Tensor[] {query, key, value}) {
      if (t.dim() < lead) {
        throw new IllegalArgumentException(OP + "(): expected query, key and value of at least " + lead + " dims" + (enableGqa
            ? " (enable_gqa reads the heads at dim -3)" : "") + ", got " + WindowArgs.shape(query.shape()) + ", "
            + WindowArgs.shape(key.shape()) + " and " + WindowArgs.shape(value.shape()));
      }
    }
    long[] qs = query.shape(), ks = key.shape(), vs = value.shape();
    long l = qs[qs.length - 2], e = qs[qs.length - 1], s = ks[ks.length - 2], ev = vs[vs.length - 1];
    if (ks[ks.length - 1] != e) {
      throw new IllegalArgumentException(OP + "(): query and key must have the same embedding dim (last), got query "
          + WindowArgs.shape(qs) + " and key " + WindowArgs.shape(ks));
    }
    if (vs[vs.length - 2] != s) {
      throw new IllegalArgumentException(OP + "(): key and value must have the same sequence length (dim -2), got key "
          + WindowArgs.shape(ks) + " and value " + WindowArgs.shape(vs));
    }
    long[] outer = Shapes.broadcastShapes(OP, Shapes.broadcastShapes(OP, head(qs, lead), head(ks, lead)), head(vs, lead));
    long[] outShape = enableGqa ? concat(outer, new long[] {qs[qs.length - 3], l, ev}) : concat(outer, new long[] {l, ev});
    long heads, kvHeads;
    if (enableGqa) {
      heads = qs[qs.length - 3];
      kvHeads = ks[ks.length - 3];
      if (vs[vs.length - 3] != kvHeads) {
        throw new IllegalArgumentException(OP + "(): key and value must have the same number of heads, got key " + WindowArgs.shape(ks)
            + " and value " + WindowArgs.shape(vs));
      }
      if (kvHeads == 0 ? heads != 0 : heads % kvHeads != 0) {
        throw new IllegalArgumentException(OP + "(): Number of heads in key and value must divide the number of heads in query, got "
            + kvHeads + " and " + heads);
      }
    } else {
      heads = kvHeads = outer.length == 0 ? 1 : outer[outer.length - 1];
      if (outer.length > 0) outer = Arrays.copyOf(outer, outer.length - 1);
    }
    long batch = 1;
    for (long d : outer) batch *= d;
    long[] scores = concat(outer, new long[] {heads, l, s});  // the scores' shape, the heads at dim -3
    // as PyTorch states them: without enable_gqa, the leading dims as they broadcast (none for 2-D inputs)
    long[] userScores = enableGqa ? scores : concat(Arrays.copyOf(outShape, outShape.length - 2), new long[] {l, s});
    if (attnMask != null) checkMask(attnMask, dtype, userScores);
    double sc = e == 0 ? 1 : scale != null ? scale : 1 / Math.sqrt(e);  // no embedding: every score is 0, whatever the scale
    if (heads == 0) return noHeads(query, key, value, outShape, dtype);
    try (TensorScope scope = TensorScope.open()) {
      // a dtype the device's fused kernels take as it is (CUDA's float16 and bfloat16 on tensor
      // cores); else float32 (float64 stays float64), cast back at the end, and asked again only
      // when that is another dtype
      Backend backend = Dispatcher.backend(query.device());
      boolean fused = backend.fusesAttention(dtype, e, ev);
      DType compute = fused ? dtype : dtype == DType.FLOAT64 ? DType.FLOAT64 : DType.FLOAT32;
      if (compute != dtype) fused = backend.fusesAttention(compute, e, ev);
      Tensor q = shaped(query, concat(outer, new long[] {heads, l, e}), new long[] {batch, heads, l, e}, compute);
      Tensor k = shaped(key, concat(outer, new long[] {kvHeads, s, e}), new long[] {batch, kvHeads, s, e}, compute);
      Tensor v = shaped(value, concat(outer, new long[] {kvHeads, s, ev}), new long[] {batch, kvHeads, s, ev}, compute);
      Tensor mask = null;
      if (attnMask != null) {
        DType additive = compute.opMath();  // the kernels add a mask in their math type
        mask = attnMask.dtype() == DType.BOOL || attnMask.dtype() == additive ? attnMask : attnMask.to(additive);
        mask = mask.expand(scores).reshape(batch, heads, l, s);  // a view of the broadcast unless dims cannot merge
        if (mask.numel() == 0) mask = null;  // empty scores: nothing to mask
      }
      boolean maskGrad = mask != null && mask.requiresGrad() && GradMode.isEnabled();
      Tensor out;
      if (fused && !maskGrad) {
        out = AttentionOps.fused(OP, q, k, v, mask, sc, isCausal, dropoutP, g);
      } else {
        // the dropout factors (1/(1 - p) or 0) as dropout makes them from ones
        Tensor factors = dropoutP > 0 ? Tensor.ones(new long[] {batch, heads, l, s}, compute, q.device()).dropout(dropoutP, true, g) : null;
        out = AttentionOps.reference(q, k, v, mask, sc, isCausal, factors);
      }
      out = out.reshape(outShape);
      return scope.keep(out.dtype() == dtype ? out : out.to(dtype));
    }
  }

  /** No heads: an empty output, in the graph of every input that requires grad (as PyTorch's; their gradients are zeros). */
  private static Tensor noHeads(Tensor query, Tensor key, Tensor value, long[] outShape, DType dtype) {
    try (TensorScope scope = TensorScope.open()) {
      Tensor out = Tensor.zeros(outShape, dtype, query.device());
      if (GradMode.isEnabled()) {
        for (Tensor t : new Tensor[] {query, key, value}) if (t.requiresGrad()) out = out.add(t.sum().mul(0.0));
      }
      return scope.keep(out);
    }
  }

  private static void checkMask(Tensor mask, DType dtype, long[] scores) {
    DType md = mask.dtype();
    if (md != DType.BOOL && md != DType.FLOAT32 && md != dtype) {
      throw new IllegalArgumentException(OP + "(): Expected attn_mask dtype to be bool or float or to match query dtype, but got "
          + "attn_mask.dtype: " + md + " and query.dtype: " + dtype + " instead.");
    }
    long[] b = Shapes.broadcastShapes(OP, mask.shape(), scores);
    if (!Arrays.equals(b, scores)) {
      throw new IllegalArgumentException(OP + "(): attn_mask of shape " + WindowArgs.shape(mask.shape())
          + " does not broadcast to the attention scores' shape " + WindowArgs.shape(scores));
    }
  }

  /** t (full shape: its leading dims broadcast to full) as a contiguous [batch, heads, len, dim] of dtype. */
  private static Tensor shaped(Tensor t, long[] full, long[] fused, DType dtype) {
    Tensor r = t.dtype() == dtype ? t : t.to(dtype);
    if (!Arrays.equals(r.shape(), full)) r = r.expand(full);
    r = r.reshape(fused);
    return r.isContiguous() ? r : r.contiguous();
  }

  private static long[] head(long[] shape, int dropLast) {
    return Arrays.copyOf(shape, shape.length - dropLast);
  }

  private static long[] concat(long[] a, long[] b) {
    long[] r = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    return r;
  }
}
