package org.jtensor.examples.gpt;

import java.util.ArrayList;
import java.util.List;
import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.nn.Dropout;
import org.jtensor.nn.Embedding;
import org.jtensor.nn.Functional;
import org.jtensor.nn.Init;
import org.jtensor.nn.LayerNorm;
import org.jtensor.nn.Linear;
import org.jtensor.nn.Module;
import org.jtensor.nn.ModuleList;

/**
 * A decoder-only transformer over characters (GPT-2's layout): token and position embeddings,
 * pre-norm blocks of causal self-attention (scaledDotProductAttention, fused on the CPU) and a
 * GELU MLP, a final LayerNorm, and the output layer tied to the token embedding (logits = x·Eᵀ).
 * {@link #forward(Tensor)} takes token ids [batch, t ≤ context] and gives logits [batch, t, vocab];
 * {@link #step(Tensor, KvCache)} does the same for new tokens after those a cache holds.
 */
final class CharGpt extends Module {
  final GptConfig config;
  private final Embedding tokens, positions;
  private final ModuleList<Block> blocks;
  private final LayerNorm finalNorm;
  private final Dropout dropout;

  CharGpt(GptConfig c, Generator g) {
    this.config = c;
    try {
      tokens = registerModule("tok_emb", new Embedding(c.vocab(), c.embd(), g));
      positions = registerModule("pos_emb", new Embedding(c.context(), c.embd(), g));
      dropout = registerModule("drop", new Dropout(c.dropout(), g));
      List<Block> made = new ArrayList<>();
      for (int i = 0; i < c.layers(); i++) made.add(new Block(c, g));
      blocks = registerModule("blocks", new ModuleList<>(made));
      finalNorm = registerModule("ln_f", new LayerNorm(c.embd()));
      // GPT-2's initialisation: N(0, 0.02) weights, zero biases, the residual projections scaled by 1/sqrt(2 layers)
      for (var e : namedParameters().entrySet()) {
        Tensor p = e.getValue();
        if (e.getKey().endsWith(".bias")) Init.uniform_(p, 0, g);
        else if (p.dim() == 2) initNormal(p, e.getKey().endsWith("proj.weight") ? 0.02 / Math.sqrt(2.0 * c.layers()) : 0.02, g);
      }
    } catch (RuntimeException | Error e) {
      abandon(e);
      throw e;
    }
  }

  private static void initNormal(Tensor p, double std, Generator g) {
    try (var off = org.jtensor.autograd.GradMode.noGrad()) {
      p.normal_(0, std, g);
    }
  }

  @Override
  public Tensor forward(Tensor ids) {
    return step(ids, null);
  }

  /** Logits of ids [batch, t], which follow the cache's tokens (null or an empty cache: from position 0). */
  Tensor step(Tensor ids, KvCache cache) {
    long t = ids.shape()[1], past = cache == null ? 0 : cache.length();
    if (past + t > config.context()) {
      throw new IllegalArgumentException("CharGpt: " + (past + t) + " positions exceed the context of " + config.context());
    }
    try (TensorScope s = TensorScope.open()) {
      Tensor pos = Tensor.arange(past, past + t);
      Tensor x = dropout.forward(tokens.forward(ids).add(positions.forward(pos)));
      for (int i = 0; i < blocks.size(); i++) x = blocks.get(i).forward(x, cache, i, past);
      x = finalNorm.forward(x);
      if (cache != null) cache.advance(t);
      return s.keep(Functional.linear(x, tokens.weight(), null));  // tied to the token embedding
    }
  }

  /** ln1 → causal self-attention → residual, ln2 → MLP (4·embd, GELU) → residual. */
  static final class Block extends Module {
    private final long heads;
    private final LayerNorm ln1, ln2;
    private final Linear qkv, proj, fc, fcProj;
    private final Dropout dropout;

    Block(GptConfig c, Generator g) {
      heads = c.heads();
      try {
        ln1 = registerModule("ln1", new LayerNorm(c.embd()));
        qkv = registerModule("attn_qkv", new Linear(c.embd(), 3 * c.embd(), g));
        proj = registerModule("attn_proj", new Linear(c.embd(), c.embd(), g));
        ln2 = registerModule("ln2", new LayerNorm(c.embd()));
        fc = registerModule("mlp_fc", new Linear(c.embd(), 4 * c.embd(), g));
        fcProj = registerModule("mlp_proj", new Linear(4 * c.embd(), c.embd(), g));
        dropout = registerModule("drop", new Dropout(c.dropout(), g));
      } catch (RuntimeException | Error e) {
        abandon(e);
        throw e;
      }
    }

    @Override
    public Tensor forward(Tensor x) {
      return forward(x, null, 0, 0);
    }

    /** With a cache: x holds the tokens after the cache's past ones (several only when past is 0). */
    Tensor forward(Tensor x, KvCache cache, int layer, long past) {
      try (TensorScope s = TensorScope.open()) {
        long b = x.shape()[0], t = x.shape()[1], e = x.shape()[2], hd = e / heads;
        Tensor qkvOut = qkv.forward(ln1.forward(x)).reshape(b, t, 3, heads, hd).permute(2, 0, 3, 1, 4);  // [3, b, h, t, hd]
        Tensor q = qkvOut.select(0, 0), k = qkvOut.select(0, 1), v = qkvOut.select(0, 2);
        if (cache != null) {
          if (past > 0 && t > 1) throw new IllegalArgumentException("CharGpt: several new tokens after cached ones are not supported");
          Tensor[] kv = cache.append(layer, k, v);
          k = kv[0];
          v = kv[1];
        }
        boolean causal = t > 1;  // one new token sees every key before it
        Tensor a = Functional.scaledDotProductAttention(q, k, v, null, 0, causal);
        Tensor y = x.add(dropout.forward(proj.forward(a.transpose(1, 2).reshape(b, t, e))));
        y = y.add(dropout.forward(fcProj.forward(fc.forward(ln2.forward(y)).gelu())));
        return s.keep(y);
      }
    }
  }
}
