package org.jtensor.examples.gpt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.jtensor.Device;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.examples.gpt2.Gpt2;
import org.jtensor.io.SafeTensors;
import org.jtensor.io.Tensors;
import org.jtensor.memory.LeakDetector;
import org.jtensor.memory.Memory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hostile review of gpt.sh's job and the GPT-2 loader, run with odd options and files: each test
 * is named after a bug it found (it failed before the fix). Nothing stays allocated.
 */
class GptHostileTest {
  @TempDir Path dir;
  private long before, leaks;

  @BeforeEach
  void start() {
    before = Memory.memoryAllocated(Device.CPU);
    leaks = LeakDetector.leaksReported();
  }

  @AfterEach
  void nothingLeft() {
    System.gc();
    assertEquals(before, Memory.memoryAllocated(Device.CPU), "bytes left allocated");
    assertEquals(leaks, LeakDetector.leaksReported(), "leaks reported");
  }

  private static GptOptions options(Path out, Path resume, String... extra) {
    List<String> a = new java.util.ArrayList<>(List.of("--steps", "6", "--warmup", "2", "--eval-every", "3", "--eval-batches", "1",
        "--batch", "2", "--context", "8", "--embd", "8", "--heads", "2", "--layers", "1", "--sample", "5", "--out", out.toString(),
        "--stop-after", "3"));
    a.addAll(List.of(extra));
    return GptOptions.parse(a.toArray(new String[0])).withResume(resume);
  }

  /** Was: the schedule's base rate came from this run's --lr (default 3e-3), so a --lr 1e-3 run resumed at three times its rate. */
  @Test
  void resumeWithAnotherLrOrScheduleWasSilentlyTaken() throws IOException {
    Path first = dir.resolve("first");
    Gpt.run(options(first, null, "--lr", "1e-3"));
    Path ck = first.resolve("checkpoint.pt");
    String m = assertThrows(IllegalArgumentException.class, () -> Gpt.run(options(dir.resolve("r1"), ck))).getMessage();
    assertTrue(m.contains("--resume " + ck) && m.contains("--lr 0.001") && m.contains("--lr 0.003"), m);
    m = assertThrows(IllegalArgumentException.class, () -> Gpt.run(options(dir.resolve("r2"), ck, "--lr", "1e-3", "--warmup", "3")))
        .getMessage();
    assertTrue(m.contains("--warmup 2") && m.contains("--warmup 3"), m);
    m = assertThrows(IllegalArgumentException.class, () -> Gpt.run(options(dir.resolve("r3"), ck, "--lr", "1e-3", "--batch", "3")))
        .getMessage();
    assertTrue(m.contains("--batch"), m);
    Gpt.run(options(dir.resolve("r4"), ck, "--lr", "1e-3", "--stop-after", "6"));  // the same options resume
  }

  /** Was: a 'vocab' one character longer than the model's rows got past load, and training failed in the embedding. */
  @Test
  void aCheckpointWhoseVocabDisagreesWithItsConfigWasLoaded() throws IOException {
    Path first = dir.resolve("first");
    Gpt.run(options(first, null));
    Path edited = edit(first.resolve("checkpoint.pt"), top -> {
      top.put("vocab", "\u0001" + top.get("vocab"));  // every id one higher: the last past the embedding
      return top;
    });
    String m = assertThrows(IOException.class, () -> Gpt.run(options(dir.resolve("r"), edited, "--stop-after", "6"))).getMessage();
    assertTrue(m.contains("--resume " + edited) && m.contains("'vocab' has"), m);
    Path negative = edit(first.resolve("checkpoint.pt"), top -> {
      top.put("step", -5L);
      return top;
    });
    m = assertThrows(IOException.class, () -> Gpt.run(options(dir.resolve("r2"), negative, "--stop-after", "6"))).getMessage();
    assertTrue(m.contains("'step' is -5"), m);
  }

  private Path edit(Path ck, UnaryOperator<Map<String, Object>> change) throws IOException {
    @SuppressWarnings("unchecked")
    Map<String, Object> top = (Map<String, Object>) Tensors.loadObject(ck);
    Path out = dir.resolve("edited" + System.nanoTime() + ".pt");
    try {
      Tensors.saveObject(change.apply(new LinkedHashMap<>(top)), out);
    } finally {
      Tensors.closeAll(top);
    }
    return out;
  }

  /** Was: --context 1 trained, then sampling primed the cache with context / 2 = 0 tokens and failed at the end of the run. */
  @Test
  void samplingWithContextOneFailed() throws IOException {
    GptOptions o = options(dir, null, "--context", "1");
    try (TextData data = TextData.load(null, null);
         CharGpt model = new CharGpt(new GptConfig(data.vocab.length(), 1, 8, 2, 1, 0), new Generator(3))) {
      String text = Gpt.sample(model, data, o);
      assertEquals("The ".length() + 5, text.length(), text);
    }
  }

  /** Was: --data FILE that is missing said only "FILE", and one that is not UTF-8 only "Input length = 1". */
  @Test
  void aMissingOrNonUtf8DataFileWasNotNamed() throws IOException {
    Path missing = dir.resolve("nothing.txt");
    String m = assertThrows(IOException.class, () -> Gpt.run(options(dir.resolve("o1"), null, "--data", missing.toString()))).getMessage();
    assertTrue(m.contains("--data " + missing) && m.contains("no such file"), m);
    Path binary = dir.resolve("binary.txt");
    byte[] bytes = new byte[4000];
    java.util.Arrays.fill(bytes, (byte) 0xff);
    Files.write(binary, bytes);
    m = assertThrows(IOException.class, () -> Gpt.run(options(dir.resolve("o2"), null, "--data", binary.toString()))).getMessage();
    assertTrue(m.contains("--data " + binary) && m.contains("not UTF-8"), m);
  }

  /**
   * Was: the vocabulary was UTF-16 units, so a text with emoji had their halves as characters; the model sampled a
   * lone half, and writing sample.txt failed at the end of the run ("Input length = 1").
   */
  @Test
  void aTextWithEmojiSampledHalfCharactersAndFailedToWriteTheSample() throws IOException {
    StringBuilder text = new StringBuilder();
    java.util.Random r = new java.util.Random(7);
    while (text.codePointCount(0, text.length()) < 3000) text.appendCodePoint(r.nextInt(5) == 0 ? ' ' : 0x1F600 + r.nextInt(20));
    Path file = dir.resolve("emoji.txt");
    Files.writeString(file, text);
    try (TextData data = TextData.load(file.toString(), null)) {
      assertEquals(21, data.size(), "20 emoji and a space");
    }
    Path out = dir.resolve("out");
    Gpt.run(options(out, null, "--data", file.toString(), "--stop-after", "6", "--sample", "200"));
    String sample = Files.readString(out.resolve("sample.txt"));
    assertEquals(1 + 200, sample.codePoints().count(), sample);  // of the prompt "The ", only ' ' is in the vocabulary
    sample.codePoints().forEach(c -> assertTrue(c == ' ' || (c >= 0x1F600 && c < 0x1F614), "U+" + Integer.toHexString(c)));
  }

  /**
   * Was: --temperature 1e-40 (or 1e-300) passed the options' "temperature > 0" and, after the whole run, sampling failed:
   * the float32 logits divided by it overflowed to inf and softmax gave NaN ("multinomial(): probability tensor contains
   * either `inf`, `nan` or element < 0"). A tiny temperature is now the greedy limit: top-k 1's sample.
   */
  @Test
  void aTinyTemperatureFailedSamplingAtTheEndOfTheRun() throws IOException {
    try (TextData data = TextData.load(null, null);
         CharGpt model = new CharGpt(new GptConfig(data.size(), 16, 8, 2, 1, 0), new Generator(3))) {
      String greedy = Gpt.sample(model, data, options(dir, null, "--context", "16", "--sample", "30", "--top-k", "1"));
      for (String t : new String[] {"1e-40", "1e-300", "4.9e-324"}) {
        assertEquals(greedy, Gpt.sample(model, data, options(dir, null, "--context", "16", "--sample", "30", "--temperature", t)), t);
      }
    }
  }

  /** Was: an unknown option last on the line was "needs a value"; a refused --sample or --stop-after was not named among the rules. */
  @Test
  void optionsRefusedNamingTheWrongRule() {
    String m = assertThrows(IllegalArgumentException.class, () -> GptOptions.parse(new String[] {"--steps", "5", "--bogus"})).getMessage();
    assertTrue(m.startsWith("gpt: unknown option --bogus"), m);
    for (String[] bad : new String[][] {{"--sample", "-1"}, {"--stop-after", "0"}}) {
      m = assertThrows(IllegalArgumentException.class, () -> GptOptions.parse(bad)).getMessage();
      assertTrue(m.contains(bad[0] + " "), m);
    }
  }

  /** Was: a --context longer than the text built the model (its position table context x embd) before the text was found too short. */
  @Test
  void aContextLongerThanTheTextBuiltTheModelFirst() {
    Memory.resetPeakMemoryStats(Device.CPU);
    long base = Memory.memoryAllocated(Device.CPU);
    String m = assertThrows(IllegalArgumentException.class, () -> Gpt.run(options(dir, null, "--context", "160000", "--embd", "64")))
        .getMessage();
    assertTrue(m.contains("the training text has 151947 characters"), m);
    long peak = Memory.maxMemoryAllocated(Device.CPU) - base;
    assertTrue(peak < 8_000_000, "allocated " + peak + " bytes before refusing (the 160000 x 64 position table is 41 MB)");
  }

  private static Path tiny() throws Exception {
    return Path.of(GptHostileTest.class.getResource("/gpt2-tiny/config.json").toURI()).getParent();
  }

  /** A copy of the tiny GPT-2 with config.json edited and each tensor replaced as change says (null: dropped). */
  private Path gpt2(String name, UnaryOperator<String> config, java.util.function.BiFunction<String, Tensor, Tensor> change,
                    Map<String, java.util.function.Function<Map<String, Tensor>, Tensor>> added) throws Exception {
    Path d = Files.createDirectories(dir.resolve(name));
    Files.writeString(d.resolve("config.json"), config.apply(Files.readString(tiny().resolve("config.json"))));
    Map<String, Tensor> w = SafeTensors.load(tiny().resolve("model.safetensors"));
    try (TensorScope s = TensorScope.open()) {
      Map<String, Tensor> out = new LinkedHashMap<>();
      for (var e : w.entrySet()) out.put(e.getKey(), change.apply(e.getKey(), e.getValue()).contiguous());
      for (var e : added.entrySet()) out.put(e.getKey(), e.getValue().apply(w).contiguous());
      SafeTensors.save(out, d.resolve("model.safetensors"));
    } finally {
      w.values().forEach(Tensor::close);
    }
    return d;
  }

  private static double[] logits(Path d, long[] ids) throws IOException {
    try (Gpt2 m = Gpt2.load(d); TensorScope s = TensorScope.open()) {
      return m.forward(Tensor.fromArray(ids, 1, ids.length), null).toDoubleArray();
    }
  }

  /** The query columns of c_attn ([embd, 3 embd]: q, k, v) of layer `layer` (-1: every layer) times f. */
  private static Tensor scaleQuery(String name, Tensor t, int layer, double f) {
    boolean hit = name.endsWith("attn.c_attn.weight") || name.endsWith("attn.c_attn.bias");
    if (!hit || (layer >= 0 && !name.startsWith("transformer.h." + layer + "."))) return t.clone();
    long embd = t.shape()[t.dim() - 1] / 3;
    return Tensor.cat(List.of(t.narrow(-1, 0, embd).mul(f), t.narrow(-1, embd, 2 * embd)), -1);
  }

  /**
   * Was: config.json's scale_attn_weights=false, scale_attn_by_inverse_layer_idx=true and tie_word_embeddings=false
   * (with its lm_head.weight) were ignored: the logits of another model, without a word. transformers' GPT2Attention
   * divides the scores by sqrt(head size) only when scale_attn_weights, and by layer index + 1 when the other flag is on:
   * the same as scaling the queries, which the reference models here do.
   */
  @Test
  void gpt2ConfigFlagsForAttentionScaleAndAnUntiedHeadWereIgnored() throws Exception {
    long[] ids = {3, 14, 15, 92, 6, 5};
    UnaryOperator<String> same = c -> c;
    Map<String, java.util.function.Function<Map<String, Tensor>, Tensor>> none = Map.of();
    double[] plain = logits(tiny(), ids);
    double[] unscaled = logits(gpt2("unscaled", c -> c.replace("\"scale_attn_weights\": true", "\"scale_attn_weights\": false"),
        (n, t) -> t.clone(), none), ids);
    double[] queriesTimesRoot8 = logits(gpt2("q8", same, (n, t) -> scaleQuery(n, t, -1, Math.sqrt(8)), none), ids);
    assertArrayEquals(queriesTimesRoot8, unscaled, 1e-4, "scale_attn_weights false");
    double[] byLayer = logits(gpt2("bylayer", c -> c.replace("\"scale_attn_by_inverse_layer_idx\": false",
        "\"scale_attn_by_inverse_layer_idx\": true"), (n, t) -> t.clone(), none), ids);
    double[] layerOneHalved = logits(gpt2("q1", same, (n, t) -> scaleQuery(n, t, 1, 0.5), none), ids);
    assertArrayEquals(layerOneHalved, byLayer, 1e-4, "scale_attn_by_inverse_layer_idx true");
    double[] untied = logits(gpt2("untied", c -> c.replace("\"tie_word_embeddings\": true", "\"tie_word_embeddings\": false"),
        (n, t) -> t.clone(), Map.of("lm_head.weight", w -> w.get("transformer.wte.weight").mul(2))), ids);
    for (int i = 0; i < plain.length; i++) assertEquals(2 * plain[i], untied[i], 1e-5, "an untied lm_head, logit " + i);
    // tied (the default): a stray lm_head.weight is not used, as transformers ties it to wte after loading
    double[] tiedWithStray = logits(gpt2("stray", same, (n, t) -> t.clone(),
        Map.of("lm_head.weight", w -> w.get("transformer.wte.weight").mul(2))), ids);
    assertArrayEquals(plain, tiedWithStray, 0);
    Path headless = gpt2("headless", c -> c.replace("\"tie_word_embeddings\": true", "\"tie_word_embeddings\": false"), (n, t) -> t.clone(),
        none);
    String m = assertThrows(IOException.class, () -> Gpt2.load(headless)).getMessage();
    assertTrue(m.contains("no tensor lm_head.weight"), m);
  }

  /**
   * Was: generate() stopped quietly at n_positions (a prompt of 33 gave it back with no new token); an empty prompt failed in
   * select; n_head not dividing n_embd was loaded, and forward failed in a reshape.
   */
  @Test
  void gpt2GenerateReturnedFewerTokensThanAskedPastNPositions() throws Exception {
    try (Gpt2 m = Gpt2.load(tiny())) {
      String msg = assertThrows(IllegalArgumentException.class, () -> m.generate(new long[33], 1)).getMessage();
      assertTrue(msg.contains("n_positions is 32"), msg);
      msg = assertThrows(IllegalArgumentException.class, () -> m.generate(new long[30], 5)).getMessage();
      assertTrue(msg.contains("34 positions"), msg);
      msg = assertThrows(IllegalArgumentException.class, () -> m.generate(new long[0], 5)).getMessage();
      assertTrue(msg.contains("prompt is empty"), msg);
      assertEquals(33, m.generate(new long[30], 3).length);  // 30 + 3 new: 32 positions fed, the last never
    }
    Path fiveHeads = gpt2("fiveheads", c -> c.replace("\"n_head\": 4", "\"n_head\": 5"), (n, t) -> t.clone(), Map.of());
    String msg = assertThrows(IOException.class, () -> Gpt2.load(fiveHeads)).getMessage();  // was: loaded, then forward failed in reshape
    assertTrue(msg.contains("n_embd 32 must be divisible by n_head 5"), msg);
  }
}
