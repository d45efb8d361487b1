package org.jtensor.examples.gpt2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.jtensor.Device;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.io.SafeTensors;
import org.jtensor.memory.Memory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The GPT-2 loader against Hugging Face transformers 5.18 (resources/gpt2-tiny: a randomly
 * initialised 2-layer GPT-2 saved by save_pretrained, and the logits and greedy generation
 * transformers computed with it; make_fixture.py writes them): logits within 1e-4, the same
 * generated ids through the KV cache, a checkpoint of another shape refused by name; and the same
 * against a checkpoint transformers writes during the test, where a Python with it is found.
 */
class Gpt2Test {
  @TempDir Path tmp;

  private static Path dir() throws Exception {
    return Path.of(Gpt2Test.class.getResource("/gpt2-tiny/config.json").toURI()).getParent();
  }

  @Test
  void logitsAndGenerationMatchTransformers() throws Exception {
    matchesTransformers(dir());
  }

  /**
   * The same against a GPT-2 that transformers writes now, where this machine has a Python with
   * torch and transformers ($JT_PYTHON, else python3): make_fixture.py run in a fresh folder.
   */
  @Test
  void aFreshCheckpointFromTransformersMatches() throws Exception {
    String python = pythonWithTransformers();
    assumeTrue(python != null, "no Python with torch and transformers on this machine (set JT_PYTHON to one): the checked-in fixture "
        + "is compared instead");
    Files.copy(dir().resolve("make_fixture.py"), tmp.resolve("make_fixture.py"));
    Process p = new ProcessBuilder(python, "make_fixture.py").directory(tmp.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertTrue(p.waitFor(300, java.util.concurrent.TimeUnit.SECONDS) && p.exitValue() == 0, "make_fixture.py: " + out);
    matchesTransformers(tmp);
  }

  private static String pythonWithTransformers() {
    String env = System.getenv("JT_PYTHON");
    for (String python : env != null ? java.util.List.of(env) : java.util.List.of("python3", "python")) {
      try {
        Process p = new ProcessBuilder(python, "-c", "import torch, transformers, safetensors").redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        if (p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS) && p.exitValue() == 0) return python;
        p.destroyForcibly();
      } catch (IOException e) {
        // not installed under this name
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return null;
      }
    }
    return null;
  }

  private static void matchesTransformers(Path dir) throws Exception {
    long before = Memory.memoryAllocated(Device.CPU);
    Map<String, Tensor> expected = SafeTensors.load(dir.resolve("expected.safetensors"));
    try (Gpt2 model = Gpt2.load(dir); TensorScope s = TensorScope.open()) {
      Tensor logits = model.forward(expected.get("ids"), null);
      assertArrayEquals(expected.get("logits").shape(), logits.shape());
      double[] want = expected.get("logits").toDoubleArray(), got = logits.toDoubleArray();
      double worst = 0;
      for (int i = 0; i < want.length; i++) worst = Math.max(worst, Math.abs(want[i] - got[i]));
      assertTrue(worst < 1e-4, "largest logit difference " + worst);
      long[] prompt = expected.get("prompt").toLongArray(), generated = expected.get("generated").toLongArray();
      assertArrayEquals(generated, model.generate(prompt, generated.length - prompt.length), "greedy generation");
    } finally {
      expected.values().forEach(Tensor::close);
    }
    assertEquals(before, Memory.memoryAllocated(Device.CPU), "bytes left allocated");
  }

  @Test
  void aCheckpointOfAnotherShapeIsRefusedByName() throws Exception {
    Files.writeString(tmp.resolve("config.json"), Files.readString(dir().resolve("config.json")).replace("\"n_embd\": 32", "\"n_embd\": 64"));
    Files.copy(dir().resolve("model.safetensors"), tmp.resolve("model.safetensors"));
    String m = assertThrows(IOException.class, () -> Gpt2.load(tmp)).getMessage();
    assertTrue(m.contains("transformer.wte.weight has shape [96, 32], the config says [96, 64]"), m);
  }

  /** GPT2Model's save_pretrained names the weights without "transformer." (wte.weight, h.0.ln_1.weight, ...): the same logits. */
  @Test
  void aCheckpointWithoutTheTransformerPrefixGivesTheSameLogits() throws Exception {
    Files.copy(dir().resolve("config.json"), tmp.resolve("config.json"));
    Map<String, Tensor> weights = SafeTensors.load(dir().resolve("model.safetensors"));
    try {
      Map<String, Tensor> bare = new java.util.LinkedHashMap<>();
      weights.forEach((k, v) -> bare.put(k.replaceFirst("^transformer\\.", ""), v));
      assertTrue(bare.containsKey("wte.weight") && bare.containsKey("h.1.mlp.c_proj.weight"), bare.keySet().toString());
      SafeTensors.save(bare, tmp.resolve("model.safetensors"));
    } finally {
      weights.values().forEach(Tensor::close);
    }
    assertArrayEquals(logitsOf(dir()), logitsOf(tmp), 0.0);
  }

  /**
   * config.json's n_inner (transformers' GPT2MLP width, 4·n_embd when null): a model whose MLPs keep
   * the first 64 of 128 hidden units, saved with n_inner 64, gives the logits of the full model
   * whose c_proj rows past 64 are zero (those units then add nothing); weights of another width
   * than n_inner are refused by name.
   */
  @Test
  void nInnerSetsTheMlpsWidth() throws Exception {
    Path narrow = Files.createDirectories(tmp.resolve("narrow")), zeroed = Files.createDirectories(tmp.resolve("zeroed"));
    String config = Files.readString(dir().resolve("config.json"));
    assertTrue(config.contains("\"n_inner\": null"), config);
    Files.writeString(narrow.resolve("config.json"), config.replace("\"n_inner\": null", "\"n_inner\": 64"));
    Files.writeString(zeroed.resolve("config.json"), config);
    Map<String, Tensor> weights = SafeTensors.load(dir().resolve("model.safetensors"));
    try (TensorScope s = TensorScope.open()) {
      Map<String, Tensor> cut = new java.util.LinkedHashMap<>(weights), padded = new java.util.LinkedHashMap<>(weights);
      for (int i = 0; i < 2; i++) {
        String p = "transformer.h." + i + ".mlp.";
        cut.put(p + "c_fc.weight", weights.get(p + "c_fc.weight").narrow(1, 0, 64).contiguous());
        cut.put(p + "c_fc.bias", weights.get(p + "c_fc.bias").narrow(0, 0, 64).contiguous());
        cut.put(p + "c_proj.weight", weights.get(p + "c_proj.weight").narrow(0, 0, 64).contiguous());
        Tensor proj = weights.get(p + "c_proj.weight").clone();
        proj.narrow(0, 64, 64).fill_(0);
        padded.put(p + "c_proj.weight", proj);
      }
      SafeTensors.save(cut, narrow.resolve("model.safetensors"));
      SafeTensors.save(padded, zeroed.resolve("model.safetensors"));
    } finally {
      weights.values().forEach(Tensor::close);
    }
    assertArrayEquals(logitsOf(zeroed), logitsOf(narrow), 1e-5);
    Files.writeString(narrow.resolve("config.json"), config.replace("\"n_inner\": null", "\"n_inner\": 48"));
    String m = assertThrows(IOException.class, () -> Gpt2.load(narrow)).getMessage();
    assertTrue(m.contains("transformer.h.0.mlp.c_fc.weight has shape [32, 64], the config says [32, 48]"), m);
  }

  /** The logits of the fixture's prompt ids under the checkpoint in dir. */
  private static double[] logitsOf(Path dir) throws Exception {
    Map<String, Tensor> expected = SafeTensors.load(Gpt2Test.dir().resolve("expected.safetensors"));
    try (Gpt2 model = Gpt2.load(dir); TensorScope s = TensorScope.open()) {
      return model.forward(expected.get("ids"), null).toDoubleArray();
    } finally {
      expected.values().forEach(Tensor::close);
    }
  }
}
