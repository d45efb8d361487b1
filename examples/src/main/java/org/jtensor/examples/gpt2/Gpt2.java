package org.jtensor.examples.gpt2;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.autograd.GradMode;
import org.jtensor.examples.gpt.KvCache;
import org.jtensor.io.SafeTensors;
import org.jtensor.nn.Functional;

/**
 * A Hugging Face GPT-2 checkpoint (a folder with config.json and model.safetensors, as
 * save_pretrained writes it) run with jtensor: HF's names ("transformer.h.{i}.attn.c_attn.weight",
 * ..., as GPT2LMHeadModel saves them, or "h.{i}..." as GPT2Model does), Conv1D weights stored [in,
 * out] (so x·W + b), the MLP n_inner wide (4·n_embd when null), the output layer tied to "wte",
 * GELU's tanh form ("gelu_new"), causal attention through scaledDotProductAttention with a KV cache
 * for generation. Token ids in, logits out: the BPE tokenizer is not part of this example.
 * Usage: {@code Gpt2 DIR ID...} prints the greedy continuation of the ids.
 */
public final class Gpt2 implements AutoCloseable {
  final long vocab, positions, embd, heads, layers;
  final double eps;
  private final Map<String, Tensor> w;
  /** config.json's attention flags (transformers' GPT2Attention): divide by sqrt(head size), and by layer index + 1. */
  private boolean scaleWeights = true, scaleByInverseLayer;
  /** The weights' prefix: "transformer." (GPT2LMHeadModel's), or none (GPT2Model's). */
  private final String prefix;
  /** The MLP's width: config.json's n_inner, 4·n_embd when it is null or absent. */
  final long inner;
  /** The output layer: the token embedding when tie_word_embeddings (the default), else lm_head.weight. */
  private String head;

  private Gpt2(Map<String, Tensor> weights, long vocab, long positions, long embd, long heads, long layers, long inner, double eps) {
    this.w = weights;
    this.prefix = weights.containsKey("transformer.wte.weight") || !weights.containsKey("wte.weight") ? "transformer." : "";
    this.head = prefix + "wte.weight";
    this.inner = inner;
    this.vocab = vocab;
    this.positions = positions;
    this.embd = embd;
    this.heads = heads;
    this.layers = layers;
    this.eps = eps;
  }

  /** Reads dir/config.json and dir/model.safetensors; refuses a checkpoint that lacks a tensor it needs or has one of another shape. */
  public static Gpt2 load(Path dir) throws IOException {
    String config = Files.readString(dir.resolve("config.json"));
    String activation = string(config, "activation_function");
    if (activation != null && !activation.equals("gelu_new")) {
      throw new IOException(dir + ": activation_function " + activation + " is not GPT-2's gelu_new");
    }
    long vocab = (long) number(config, "vocab_size"), positions = (long) number(config, "n_positions"), embd = (long) number(config, "n_embd");
    long heads = (long) number(config, "n_head"), layers = (long) number(config, "n_layer");
    if (heads <= 0 || embd % heads != 0) throw new IOException(dir + ": n_embd " + embd + " must be divisible by n_head " + heads);
    double eps = config.contains("\"layer_norm_epsilon\"") ? number(config, "layer_norm_epsilon") : 1e-5;
    // transformers' GPT2MLP is n_inner wide when set; a loader that assumed 4 n_embd refused such checkpoints by shape
    long inner = Pattern.compile("\"n_inner\"\\s*:\\s*-?[0-9]").matcher(config).find() ? (long) number(config, "n_inner") : 4 * embd;
    if (inner <= 0) throw new IOException(dir + ": n_inner " + inner + " must be positive");
    Map<String, Tensor> weights = SafeTensors.load(dir.resolve("model.safetensors"));
    Gpt2 m = new Gpt2(weights, vocab, positions, embd, heads, layers, inner, eps);
    try {
      // transformers honours these; a loader that ignored them gave other logits without a word
      m.scaleWeights = bool(config, "scale_attn_weights", true);
      m.scaleByInverseLayer = bool(config, "scale_attn_by_inverse_layer_idx", false);
      if (!bool(config, "tie_word_embeddings", true)) m.head = "lm_head.weight";
      m.require(m.prefix + "wte.weight", vocab, embd);
      m.require(m.head, vocab, embd);
      m.require(m.prefix + "wpe.weight", positions, embd);
      for (int i = 0; i < layers; i++) {
        String p = m.prefix + "h." + i + ".";
        m.require(p + "ln_1.weight", embd);
        m.require(p + "ln_1.bias", embd);
        m.require(p + "attn.c_attn.weight", embd, 3 * embd);
        m.require(p + "attn.c_attn.bias", 3 * embd);
        m.require(p + "attn.c_proj.weight", embd, embd);
        m.require(p + "attn.c_proj.bias", embd);
        m.require(p + "ln_2.weight", embd);
        m.require(p + "ln_2.bias", embd);
        m.require(p + "mlp.c_fc.weight", embd, inner);
        m.require(p + "mlp.c_fc.bias", inner);
        m.require(p + "mlp.c_proj.weight", inner, embd);
        m.require(p + "mlp.c_proj.bias", embd);
      }
      m.require(m.prefix + "ln_f.weight", embd);
      m.require(m.prefix + "ln_f.bias", embd);
      return m;
    } catch (IOException | RuntimeException e) {
      m.close();
      throw e;
    }
  }

  private void require(String name, long... shape) throws IOException {
    Tensor t = w.get(name);
    if (t == null) throw new IOException("GPT-2 checkpoint: no tensor " + name);
    if (!Arrays.equals(t.shape(), shape)) {
      throw new IOException("GPT-2 checkpoint: " + name + " has shape " + Arrays.toString(t.shape()) + ", the config says "
          + Arrays.toString(shape));
    }
  }

  /** Logits [batch, t, vocab] of ids [batch, t] following the cache's tokens (cache null: from position 0, nothing kept). */
  public Tensor forward(Tensor ids, KvCache cache) {
    long b = ids.shape()[0], t = ids.shape()[1], past = cache == null ? 0 : cache.length();
    if (past + t > positions) throw new IllegalArgumentException("GPT-2: " + (past + t) + " positions exceed n_positions " + positions);
    if (cache != null && past > 0 && t > 1) throw new IllegalArgumentException("GPT-2: several new tokens after cached ones are not supported");
    try (TensorScope s = TensorScope.open()) {
      Tensor x = w.get(prefix + "wte.weight").indexSelect(0, ids.reshape(-1)).reshape(b, t, embd)
          .add(w.get(prefix + "wpe.weight").narrow(0, past, t));
      for (int i = 0; i < layers; i++) {
        String p = prefix + "h." + i + ".";
        Tensor qkv = conv1d(norm(x, p + "ln_1"), p + "attn.c_attn").reshape(b, t, 3, heads, embd / heads).permute(2, 0, 3, 1, 4);
        Tensor q = qkv.select(0, 0), k = qkv.select(0, 1), v = qkv.select(0, 2);
        if (cache != null) {
          Tensor[] kv = cache.append(i, k, v);
          k = kv[0];
          v = kv[1];
        }
        double scale = (scaleWeights ? 1 / Math.sqrt((double) (embd / heads)) : 1) / (scaleByInverseLayer ? i + 1 : 1);
        Tensor a = Functional.scaledDotProductAttention(q, k, v, null, 0, t > 1, scale);
        x = x.add(conv1d(a.transpose(1, 2).reshape(b, t, embd), p + "attn.c_proj"));
        x = x.add(conv1d(conv1d(norm(x, p + "ln_2"), p + "mlp.c_fc").gelu("tanh"), p + "mlp.c_proj"));
      }
      if (cache != null) cache.advance(t);
      return s.keep(Functional.linear(norm(x, prefix + "ln_f"), w.get(head), null));
    }
  }

  /** prompt [1, t] then n greedy tokens through the KV cache: the ids, prompt included. */
  public long[] generate(long[] prompt, int n) {
    // the last new token is never fed: prompt + n - 1 positions; refused up front rather than returning fewer tokens than asked
    if (prompt == null || prompt.length == 0) throw new IllegalArgumentException("GPT-2 generate(): the prompt is empty; give at least one token id");
    if (n < 0) throw new IllegalArgumentException("GPT-2 generate(): the number of new tokens must be non-negative, got " + n);
    if (prompt.length + Math.max(n - 1L, 0) > positions) {
      throw new IllegalArgumentException("GPT-2 generate(): a prompt of " + prompt.length + " tokens and " + n + " new ones need "
          + (prompt.length + Math.max(n - 1L, 0)) + " positions; n_positions is " + positions);
    }
    List<Long> out = new ArrayList<>();
    for (long id : prompt) out.add(id);
    try (GradMode.Scope off = GradMode.noGrad(); KvCache cache = new KvCache((int) layers)) {
      long[] feed = prompt;
      for (int i = 0; i < n && cache.length() + feed.length <= positions; i++) {
        try (TensorScope s = TensorScope.open()) {
          Tensor logits = forward(Tensor.fromArray(feed, 1, feed.length), cache);
          long next = (long) logits.select(1, feed.length - 1).reshape(-1).argmax().item();
          out.add(next);
          feed = new long[] {next};
        }
      }
    }
    return out.stream().mapToLong(Long::longValue).toArray();
  }

  /** HF's Conv1D: x·W + b with W stored [in, out]. */
  private Tensor conv1d(Tensor x, String name) {
    return Functional.linear(x, w.get(name + ".weight").t(), w.get(name + ".bias"));
  }

  private Tensor norm(Tensor x, String name) {
    return Functional.layerNorm(x, 1, w.get(name + ".weight"), w.get(name + ".bias"), eps);
  }

  private static double number(String json, String key) throws IOException {
    Matcher m = Pattern.compile("\"" + key + "\"\\s*:\\s*(-?[0-9.eE+-]+)").matcher(json);
    if (!m.find()) throw new IOException("config.json: no number " + key);
    return Double.parseDouble(m.group(1));
  }

  private static boolean bool(String json, String key, boolean absent) throws IOException {
    Matcher m = Pattern.compile("\"" + key + "\"\\s*:\\s*([a-z]+)").matcher(json);
    if (!m.find()) return absent;
    if (!m.group(1).equals("true") && !m.group(1).equals("false")) throw new IOException("config.json: " + key + " is " + m.group(1) + ", not true or false");
    return m.group(1).equals("true");
  }

  private static String string(String json, String key) {
    Matcher m = Pattern.compile("\"" + key + "\"\\s*:\\s*\"([^\"]*)\"").matcher(json);
    return m.find() ? m.group(1) : null;
  }

  @Override
  public void close() {
    w.values().forEach(Tensor::close);
  }

  public static void main(String[] args) throws IOException {
    if (args.length < 2) {
      System.err.println("usage: Gpt2 DIR ID... (a Hugging Face GPT-2 folder: config.json, model.safetensors; token ids)");
      System.exit(2);
    }
    long[] prompt = Arrays.stream(args, 1, args.length).mapToLong(Long::parseLong).toArray();
    try (Gpt2 model = load(Path.of(args[0]))) {
      System.out.println(Arrays.toString(model.generate(prompt, 20)));
    }
  }
}
