package org.jtensor.nn;

import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.autograd.GradMode;

/**
 * torch.nn.MultiheadAttention (key and value of the query's embedding size): one [3E, E] input
 * projection ("in_proj_weight", "in_proj_bias"), numHeads heads of E / numHeads through
 * {@link Functional#scaledDotProductAttention}, the output projection "out_proj"; PyTorch's
 * state-dict names and initialisation (xavier_uniform_ in_proj_weight, zero biases). Inputs
 * [L, N, E] ([N, L, E] with batchFirst) or unbatched [L, E]. As in PyTorch's module, a bool mask
 * marks with true what may NOT be attended (the opposite of scaledDotProductAttention's); a float
 * mask is added to the scores. Returns the output only (no attention weights: the fused kernel
 * never forms them). Several inputs: the {@code forward} overloads; {@link #forward(Tensor)} is
 * self-attention.
 */
public final class MultiheadAttention extends Module {
  private final long embedDim, numHeads;
  private final double dropout;
  private final boolean batchFirst;
  private final Generator g;
  private final Tensor inProjWeight, inProjBias;
  private final Linear outProj;

  public MultiheadAttention(long embedDim, long numHeads) {
    this(embedDim, numHeads, 0.0, true, false, Generator.defaultGenerator());
  }

  public MultiheadAttention(long embedDim, long numHeads, double dropout, boolean bias, boolean batchFirst, Generator g) {
    if (embedDim <= 0 || numHeads <= 0) {
      throw new IllegalArgumentException("MultiheadAttention(): embed_dim and num_heads must be greater than 0, got embed_dim=" + embedDim
          + " and num_heads=" + numHeads + " instead");
    }
    if (embedDim % numHeads != 0) throw new IllegalArgumentException("MultiheadAttention(): embed_dim must be divisible by num_heads");
    if (!(dropout >= 0 && dropout <= 1)) {
      throw new IllegalArgumentException("MultiheadAttention(): dropout probability has to be between 0 and 1, but got " + dropout);
    }
    if (g == null) throw new IllegalArgumentException("MultiheadAttention(): expected a Generator, got null");
    this.embedDim = embedDim;
    this.numHeads = numHeads;
    this.dropout = dropout;
    this.batchFirst = batchFirst;
    this.g = g;
    try {
      inProjWeight = registerParameter("in_proj_weight", Tensor.empty(new long[] {3 * embedDim, embedDim}, DType.FLOAT32));
      inProjBias = bias ? registerParameter("in_proj_bias", Tensor.zeros(new long[] {3 * embedDim}, DType.FLOAT32)) : null;
      outProj = registerModule("out_proj", new Linear(embedDim, embedDim, bias, g));
      Init.xavierUniform_(inProjWeight, 1.0, g);
      if (bias) {
        try (GradMode.Scope off = GradMode.noGrad()) {
          outProj.bias().fill_(0);
        }
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
   * [N·numHeads, L, S]; isCausal hides later keys (with a mask as well, both apply).
   */
  public Tensor forward(Tensor query, Tensor key, Tensor value, Tensor keyPaddingMask, Tensor attnMask, boolean isCausal) {
    String op = "MultiheadAttention.forward";
    boolean batched = query.dim() == 3;
    if (!batched && query.dim() != 2) {
      throw new IllegalArgumentException(op + "(): query should be unbatched 2D or batched 3D tensor but received " + query.dim()
          + "-D query tensor");
    }
    if (key.dim() != query.dim() || value.dim() != query.dim()) {
      throw new IllegalArgumentException(op + "(): For " + (batched ? "batched (3-D)" : "unbatched (2-D)") + " `query`, expected `key` and "
          + "`value` to be " + query.dim() + "-D but found " + key.dim() + "-D and " + value.dim() + "-D tensors respectively");
    }
    for (Tensor t : new Tensor[] {query, key, value}) {  // else linear() refuses it in its own name
      if (t.dtype() != inProjWeight.dtype()) {
        throw new IllegalArgumentException(op + "(): expected query, key and value of the parameters' dtype " + inProjWeight.dtype()
            + ", got query " + query.dtype() + ", key " + key.dtype() + " and value " + value.dtype());
      }
    }
    try (TensorScope s = TensorScope.open()) {
      Tensor q = batchMajor(query, batched), k = batchMajor(key, batched), v = batchMajor(value, batched);  // [N, L, E]
      long n = q.shape()[0], l = q.shape()[1], len = k.shape()[1], hd = embedDim / numHeads;
      if (q.shape()[2] != embedDim) {
        throw new IllegalArgumentException(op + "(): was expecting embedding dimension of " + embedDim + ", but got " + q.shape()[2]);
      }
      if (k.shape()[0] != n || v.shape()[0] != n || v.shape()[1] != len || k.shape()[2] != embedDim || v.shape()[2] != embedDim) {
        throw new IllegalArgumentException(op + "(): key and value must be [" + (batchFirst ? "N, S, E" : "S, N, E")
            + "] with the query's batch and embedding sizes, got key " + WindowArgs.shape(key.shape()) + " and value "
            + WindowArgs.shape(value.shape()));
      }
      Tensor qh, kh, vh;
      if (query == key && key == value) {  // self-attention: one GEMM over the whole projection, then its thirds
        Tensor all = Functional.linear(q, inProjWeight, inProjBias).reshape(n, l, 3, numHeads, hd).permute(2, 0, 3, 1, 4);
        qh = all.select(0, 0);
        kh = all.select(0, 1);
        vh = all.select(0, 2);
      } else {
        qh = heads(project(q, 0), n, l, hd);
        kh = heads(project(k, 1), n, len, hd);
        vh = heads(project(v, 2), n, len, hd);
      }
      Tensor mask = AttentionMasks.combine(op, attnMask, keyPaddingMask, n, numHeads, l, len, batched, q.dtype());
      Tensor out = Functional.scaledDotProductAttention(qh, kh, vh, mask, isTraining() ? dropout : 0, isCausal, null, false, g);
      out = outProj.forward(out.transpose(1, 2).reshape(n, l, embedDim));
      if (!batchFirst) out = out.transpose(0, 1);
      return s.keep(batched ? out : out.squeeze(batchFirst ? 0 : 1));
    }
  }

  /** [N, L, E] of an input in this module's layout (or unbatched). */
  private Tensor batchMajor(Tensor x, boolean batched) {
    if (!batched) return x.unsqueeze(0);
    return batchFirst ? x : x.transpose(0, 1);
  }

  /** x·W_iᵀ + b_i with chunk i (0 query, 1 key, 2 value) of the input projection. */
  private Tensor project(Tensor x, int i) {
    Tensor w = inProjWeight.narrow(0, i * embedDim, embedDim);
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
