package org.jtensor.nn;

import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.autograd.GradMode;

/**
 * torch.nn.MultiheadAttention with PyTorch's arguments, state-dict names and initialisation: the
 * input projection as one [3E, E] "in_proj_weight" when key and value have the query's embedding
 * size, else "q_proj_weight" [E, E], "k_proj_weight" [E, kdim] and "v_proj_weight" [E, vdim];
 * "in_proj_bias" [3E] (zeros), "bias_k" and "bias_v" [1, 1, E] with addBiasKv (xavier_normal_:
 * one more key and value, every query may attend them), a key and value of zeros with addZeroAttn,
 * numHeads heads of E / numHeads, the output projection "out_proj". Inputs [L, N, E] ([N, L, E]
 * with batchFirst) or unbatched [L, E]. As in PyTorch's module, a bool mask marks with true what
 * may NOT be attended (the opposite of scaledDotProductAttention's); a float mask is added to the
 * scores.
 *
 * <p>{@link #forward(Tensor, Tensor, Tensor, Tensor, Tensor, boolean)} returns the output alone,
 * through the fused kernel (PyTorch's need_weights=False); {@link #forwardWithWeights} also
 * returns the attention weights (PyTorch's default need_weights=True), which forms them. isCausal
 * is PyTorch's hint that attnMask is the causal mask: as in PyTorch, it needs the mask, and only the
 * fused path without a keyPaddingMask takes the hint (the causal mask instead of attnMask).
 */
public final class MultiheadAttention extends Module {
  private static final String OP = "MultiheadAttention.forward";
  private final long embedDim, numHeads, kdim, vdim;
  private final double dropout;
  private final boolean batchFirst, addZeroAttn;
  private final Generator g;
  private final Tensor inProjWeight, qProjWeight, kProjWeight, vProjWeight, inProjBias, biasK, biasV;
  private final Linear outProj;

  /** The output and the attention weights: [N, L, S] averaged over the heads, else [N, H, L, S] ([L, S] or [H, L, S] unbatched). */
  public record Output(Tensor output, Tensor weights) implements AutoCloseable {
    @Override
    public void close() {
      output.close();
      weights.close();
    }
  }

  public MultiheadAttention(long embedDim, long numHeads) {
    this(embedDim, numHeads, 0.0, true, false, Generator.defaultGenerator());
  }

  public MultiheadAttention(long embedDim, long numHeads, double dropout, boolean bias, boolean batchFirst, Generator g) {
    this(embedDim, numHeads, dropout, bias, false, false, embedDim, embedDim, batchFirst, g);
  }

  /** PyTorch's full argument list (kdim and vdim: PyTorch's None is embedDim). */
  public MultiheadAttention(long embedDim, long numHeads, double dropout, boolean bias, boolean addBiasKv, boolean addZeroAttn, long kdim,
                            long vdim, boolean batchFirst, Generator g) {
    if (embedDim <= 0 || numHeads <= 0) {
      throw new IllegalArgumentException("MultiheadAttention(): embed_dim and num_heads must be greater than 0, got embed_dim=" + embedDim
          + " and num_heads=" + numHeads + " instead");
    }
    if (embedDim % numHeads != 0) throw new IllegalArgumentException("MultiheadAttention(): embed_dim must be divisible by num_heads");
    if (kdim <= 0 || vdim <= 0) {
      throw new IllegalArgumentException("MultiheadAttention(): kdim and vdim must be greater than 0, got kdim=" + kdim + " and vdim=" + vdim);
    }
    if (!(dropout >= 0 && dropout <= 1)) {
      throw new IllegalArgumentException("MultiheadAttention(): dropout probability has to be between 0 and 1, but got " + dropout);
    }
    if (g == null) throw new IllegalArgumentException("MultiheadAttention(): expected a Generator, got null");
    this.embedDim = embedDim;
    this.numHeads = numHeads;
    this.kdim = kdim;
    this.vdim = vdim;
    this.dropout = dropout;
    this.batchFirst = batchFirst;
    this.addZeroAttn = addZeroAttn;
    this.g = g;
    boolean packed = kdim == embedDim && vdim == embedDim;
    try {
      inProjWeight = packed ? registerParameter("in_proj_weight", Tensor.empty(new long[] {3 * embedDim, embedDim}, DType.FLOAT32)) : null;
      qProjWeight = packed ? null : registerParameter("q_proj_weight", Tensor.empty(new long[] {embedDim, embedDim}, DType.FLOAT32));
      kProjWeight = packed ? null : registerParameter("k_proj_weight", Tensor.empty(new long[] {embedDim, kdim}, DType.FLOAT32));
      vProjWeight = packed ? null : registerParameter("v_proj_weight", Tensor.empty(new long[] {embedDim, vdim}, DType.FLOAT32));
      inProjBias = bias ? registerParameter("in_proj_bias", Tensor.zeros(new long[] {3 * embedDim}, DType.FLOAT32)) : null;
      biasK = addBiasKv ? registerParameter("bias_k", Tensor.empty(new long[] {1, 1, embedDim}, DType.FLOAT32)) : null;
      biasV = addBiasKv ? registerParameter("bias_v", Tensor.empty(new long[] {1, 1, embedDim}, DType.FLOAT32)) : null;
      outProj = registerModule("out_proj", new Linear(embedDim, embedDim, bias, g));
      outProj.reprAs = "NonDynamicallyQuantizableLinear";  // PyTorch's class for it, which print(model) shows
      // PyTorch's _reset_parameters, in its order (out_proj drew its own first, as Linear's constructor)
      for (Tensor w : packed ? new Tensor[] {inProjWeight} : new Tensor[] {qProjWeight, kProjWeight, vProjWeight}) Init.xavierUniform_(w, 1.0, g);
      if (bias) {
        try (GradMode.Scope off = GradMode.noGrad()) {
          outProj.bias().fill_(0);
        }
      }
      if (addBiasKv) {
        Init.xavierNormal_(biasK, 1.0, g);
        Init.xavierNormal_(biasV, 1.0, g);
      }
    } catch (RuntimeException | Error e) {
      abandon(e);
      throw e;
    }
  }

  /** Self-attention: query, key and value all input, no mask. */
  @Override
  public Tensor forward(Tensor input) {
    return forward(input, input, input, null, null, false);
  }

  public Tensor forward(Tensor query, Tensor key, Tensor value, Tensor attnMask) {
    return forward(query, key, value, null, attnMask, false);
  }

  /**
   * keyPaddingMask [N, S] (or [S] unbatched): true (or −inf) for keys to ignore; attnMask [L, S] or
   * [N·numHeads, L, S]; isCausal says attnMask is causal (without keyPaddingMask the causal mask replaces it, as in PyTorch).
   */
  public Tensor forward(Tensor query, Tensor key, Tensor value, Tensor keyPaddingMask, Tensor attnMask, boolean isCausal) {
    try (TensorScope s = TensorScope.open()) {
      return s.keep(attend(query, key, value, keyPaddingMask, attnMask, isCausal, false, false)[0]);
    }
  }

  /** The output and the attention weights (PyTorch's need_weights=True), averaged over the heads when averageAttnWeights. */
  public Output forwardWithWeights(Tensor query, Tensor key, Tensor value, Tensor keyPaddingMask, Tensor attnMask, boolean averageAttnWeights,
                                   boolean isCausal) {
    try (TensorScope s = TensorScope.open()) {
      Tensor[] r = attend(query, key, value, keyPaddingMask, attnMask, isCausal, true, averageAttnWeights);
      return new Output(s.keep(r[0]), s.keep(r[1]));
    }
  }

  /** {output, weights or null}, inside the caller's scope. */
  private Tensor[] attend(Tensor query, Tensor key, Tensor value, Tensor keyPaddingMask, Tensor attnMask, boolean isCausal, boolean needWeights,
                          boolean average) {
    boolean batched = checkInputs(query, key, value);
    AttentionMasks.requireMaskForCausal(OP, attnMask, isCausal);
    Tensor q = batchMajor(query, batched), k = batchMajor(key, batched), v = batchMajor(value, batched);  // [N, L, E]
    long n = q.shape()[0], l = q.shape()[1], len = k.shape()[1], hd = embedDim / numHeads;
    checkShapes(q, k, v, key, value);
    Tensor qh, kh, vh;
    if (query == key && key == value && inProjWeight != null && biasK == null) {  // one GEMM over the whole projection, then its thirds
      Tensor all = Functional.linear(q, inProjWeight, inProjBias).reshape(n, l, 3, numHeads, hd).permute(2, 0, 3, 1, 4);
      qh = all.select(0, 0);
      kh = all.select(0, 1);
      vh = all.select(0, 2);
    } else {
      Tensor pk = project(k, 1), pv = project(v, 2);
      if (biasK != null) {
        pk = Tensor.cat(java.util.List.of(pk, biasK.expand(n, 1, embedDim)), 1);
        pv = Tensor.cat(java.util.List.of(pv, biasV.expand(n, 1, embedDim)), 1);
      }
      qh = heads(project(q, 0), n, l, hd);
      kh = heads(pk, n, pk.shape()[1], hd);
      vh = heads(pv, n, pv.shape()[1], hd);
    }
    if (addZeroAttn) {
      Tensor zeros = Tensor.zeros(new long[] {n, numHeads, 1, hd}, kh.dtype(), kh.device());
      kh = Tensor.cat(java.util.List.of(kh, zeros), 2);
      vh = Tensor.cat(java.util.List.of(vh, zeros), 2);
    }
    Tensor mask = AttentionMasks.combine(OP, attnMask, keyPaddingMask, n, numHeads, l, len, batched, q.dtype());
    // PyTorch's multi_head_attention_forward: the hint replaces the mask by the causal one (over the
    // bias_k and zero keys too) only without weights and key_padding_mask; else the mask is used alone
    boolean causal = isCausal && !needWeights && keyPaddingMask == null;
    if (causal) mask = null;
    mask = AttentionMasks.padKeys(mask, kh.shape()[2] - len);
    double p = isTraining() ? dropout : 0;
    Tensor out, weights = null;
    if (needWeights) {
      Tensor[] r = AttentionWeights.attend(qh, kh, vh, mask, p, g);
      weights = average ? r[0].mean(1) : r[0];
      if (!batched) weights = weights.squeeze(0);
      out = r[1];
    } else {
      out = Functional.scaledDotProductAttention(qh, kh, vh, mask, p, causal, null, false, g);
    }
    out = outProj.forward(out.transpose(1, 2).reshape(n, l, embedDim));
    if (!batchFirst) out = out.transpose(0, 1);
    return new Tensor[] {batched ? out : out.squeeze(batchFirst ? 0 : 1), weights};
  }

  /** Whether the inputs are batched (3-D); refuses ranks and dtypes PyTorch's module refuses, in its words. */
  private boolean checkInputs(Tensor query, Tensor key, Tensor value) {
    if (query == null || key == null || value == null) {
      throw new IllegalArgumentException(OP + "(): query, key and value are required, got null");
    }
    boolean batched = query.dim() == 3;
    if (!batched && query.dim() != 2) {
      throw new IllegalArgumentException(OP + "(): query should be unbatched 2D or batched 3D tensor but received " + query.dim()
          + "-D query tensor");
    }
    if (key.dim() != query.dim() || value.dim() != query.dim()) {
      throw new IllegalArgumentException(OP + "(): For " + (batched ? "batched (3-D)" : "unbatched (2-D)") + " `query`, expected `key` and "
          + "`value` to be " + query.dim() + "-D but found " + key.dim() + "-D and " + value.dim() + "-D tensors respectively");
    }
    DType dtype = outProj.weight().dtype();
    if (query.dtype() != dtype || key.dtype() != dtype || value.dtype() != dtype) {  // else linear() refuses it in its own name
      throw new IllegalArgumentException(OP + "(): expected query, key and value of the parameters' dtype " + dtype + ", got query "
          + query.dtype() + ", key " + key.dtype() + " and value " + value.dtype());
    }
    return batched;
  }

  private void checkShapes(Tensor q, Tensor k, Tensor v, Tensor key, Tensor value) {
    if (q.shape()[2] != embedDim) {
      throw new IllegalArgumentException(OP + "(): was expecting embedding dimension of " + embedDim + ", but got " + q.shape()[2]);
    }
    long n = q.shape()[0], len = k.shape()[1];
    if (k.shape()[0] != n || v.shape()[0] != n || v.shape()[1] != len || k.shape()[2] != kdim || v.shape()[2] != vdim) {
      throw new IllegalArgumentException(OP + "(): key and value must be [" + (batchFirst ? "N, S, " : "S, N, ") + "kdim] and ["
          + (batchFirst ? "N, S, " : "S, N, ") + "vdim] with the query's batch size (kdim " + kdim + ", vdim " + vdim + "), got key "
          + WindowArgs.shape(key.shape()) + " and value " + WindowArgs.shape(value.shape()));
    }
  }

  /** [N, L, E] of an input in this module's layout (or unbatched). */
  private Tensor batchMajor(Tensor x, boolean batched) {
    if (!batched) return x.unsqueeze(0);
    return batchFirst ? x : x.transpose(0, 1);
  }

  /** x·W_iᵀ + b_i with the projection i (0 query, 1 key, 2 value). */
  private Tensor project(Tensor x, int i) {
    Tensor w = inProjWeight != null ? inProjWeight.narrow(0, i * embedDim, embedDim) : new Tensor[] {qProjWeight, kProjWeight, vProjWeight}[i];
    return Functional.linear(x, w, inProjBias == null ? null : inProjBias.narrow(0, i * embedDim, embedDim));
  }

  private Tensor heads(Tensor x, long n, long len, long hd) {
    return x.reshape(n, len, numHeads, hd).transpose(1, 2);  // [N, H, len, hd]
  }

  public Linear outProj() {
    return outProj;
  }

  public long embedDim() {
    return embedDim;
  }

  public long numHeads() {
    return numHeads;
  }
}
