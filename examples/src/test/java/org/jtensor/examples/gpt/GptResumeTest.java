package org.jtensor.examples.gpt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jtensor.Device;
import org.jtensor.Tensor;
import org.jtensor.io.Tensors;
import org.jtensor.memory.LeakDetector;
import org.jtensor.memory.Memory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * gpt.sh's checkpoints: a run stopped after step 3 and resumed to step 6 ends with exactly the
 * weights, optimizer state and losses of the run that never stopped (dropout on, so the generator's
 * state matters too); a truncated or foreign file and a checkpoint of another model shape are
 * refused naming the file and the problem; nothing stays allocated.
 */
class GptResumeTest {
  @TempDir Path dir;

  private static GptOptions options(Path out, Path resume, int stopAfter) {
    return GptOptions.parse(new String[] {"--steps", "6", "--warmup", "2", "--eval-every", "3", "--eval-batches", "2", "--batch", "4",
        "--context", "16", "--embd", "16", "--heads", "2", "--layers", "1", "--dropout", "0.1", "--sample", "20", "--out", out.toString(),
        "--stop-after", Integer.toString(stopAfter)}).withResume(resume);
  }

  @Test
  void aResumedRunEqualsTheRunThatNeverStopped() throws IOException {
    long before = Memory.memoryAllocated(Device.CPU), leaks = LeakDetector.leaksReported();
    Path straight = dir.resolve("straight"), split = dir.resolve("split");
    Gpt.run(options(straight, null, 6));
    Gpt.run(options(split, null, 3));
    Path half = dir.resolve("half.pt");
    Files.copy(split.resolve("checkpoint.pt"), half);
    Gpt.run(options(split, half, 6));
    Map<?, ?> a = (Map<?, ?>) Tensors.loadObject(straight.resolve("checkpoint.pt"));
    Map<?, ?> b = (Map<?, ?>) Tensors.loadObject(split.resolve("checkpoint.pt"));
    try {
      assertEquals(6L, a.get("step"));
      assertEquals(a.get("step"), b.get("step"));
      assertEquals(a.get("rng"), b.get("rng"));
      assertEquals(a.get("losses"), b.get("losses"));
      assertEquals(a.get("scheduler"), b.get("scheduler"));
      assertEquals(6L, ((Map<?, ?>) a.get("scheduler")).get("last_epoch"));
      Map<?, ?> wa = (Map<?, ?>) a.get("model"), wb = (Map<?, ?>) b.get("model");
      assertEquals(wa.keySet(), wb.keySet());
      for (Object k : wa.keySet()) {
        assertArrayEquals(((Tensor) wa.get(k)).toDoubleArray(), ((Tensor) wb.get(k)).toDoubleArray(), 0, "parameter " + k);
      }
      Map<?, ?> sa = (Map<?, ?>) ((Map<?, ?>) a.get("optimizer")).get("state"), sb = (Map<?, ?>) ((Map<?, ?>) b.get("optimizer")).get("state");
      for (Object k : sa.keySet()) {
        Tensor ea = (Tensor) ((Map<?, ?>) sa.get(k)).get("exp_avg_sq"), eb = (Tensor) ((Map<?, ?>) sb.get(k)).get("exp_avg_sq");
        assertArrayEquals(ea.toDoubleArray(), eb.toDoubleArray(), 0, "exp_avg_sq of parameter " + k);
      }
      assertTrue(Files.size(split.resolve("loss.png")) > 0);
    } finally {
      Tensors.closeAll(a);
      Tensors.closeAll(b);
    }
    System.gc();
    assertEquals(before, Memory.memoryAllocated(Device.CPU), "bytes left allocated");
    assertEquals(leaks, LeakDetector.leaksReported(), "leaks reported");
  }

  @Test
  void theKvCacheGivesTheFullForwardsLogits() {
    long before = Memory.memoryAllocated(Device.CPU);
    try (CharGpt model = new CharGpt(new GptConfig(81, 64, 32, 4, 2, 0.0), new org.jtensor.Generator(1));
         org.jtensor.TensorScope s = org.jtensor.TensorScope.open(); var off = org.jtensor.autograd.GradMode.noGrad()) {
      model.eval();
      long[] ids = new long[20];
      for (int i = 0; i < ids.length; i++) ids[i] = (i * 7) % 81;
      Tensor full = model.forward(Tensor.fromArray(ids, 1, 20));
      try (KvCache cache = new KvCache(2)) {
        Tensor prompt = model.step(Tensor.fromArray(java.util.Arrays.copyOf(ids, 5), 1, 5), cache);
        assertArrayEquals(full.narrow(1, 0, 5).toDoubleArray(), prompt.toDoubleArray(), 1e-5, "the prompt");
        for (int t = 5; t < 20; t++) {
          Tensor one = model.step(Tensor.fromArray(new long[] {ids[t]}, 1, 1), cache);
          assertArrayEquals(full.narrow(1, t, 1).toDoubleArray(), one.toDoubleArray(), 1e-5, "token " + t);
        }
        assertEquals(20, cache.length());
      }
    }
    assertEquals(before, Memory.memoryAllocated(Device.CPU), "bytes left allocated");
  }

  @Test
  void badCheckpointsAreRefusedByName() throws IOException {
    Path junk = dir.resolve("junk.pt");
    Files.writeString(junk, "not a zip");
    String m = assertThrows(IOException.class, () -> Gpt.run(options(dir.resolve("o1"), junk, 6))).getMessage();
    assertTrue(m.contains("--resume " + junk) && m.contains("not a jtensor/PyTorch checkpoint"), m);
    Path foreign = dir.resolve("foreign.pt");
    try (Tensor t = Tensor.ones(3)) {
      Tensors.save(Map.of("weight", t), foreign);
    }
    m = assertThrows(IOException.class, () -> Gpt.run(options(dir.resolve("o2"), foreign, 6))).getMessage();
    assertTrue(m.contains("not a GPT checkpoint of this job"), m);
    Path truncated = dir.resolve("truncated.pt");
    Gpt.run(options(dir.resolve("o3"), null, 3));
    byte[] whole = Files.readAllBytes(dir.resolve("o3").resolve("checkpoint.pt"));
    Files.write(truncated, java.util.Arrays.copyOf(whole, whole.length / 2));
    m = assertThrows(IOException.class, () -> Gpt.run(options(dir.resolve("o4"), truncated, 6))).getMessage();
    assertTrue(m.contains(truncated.toString()), m);
    // another model shape: the first parameter that differs is named
    Path wide = dir.resolve("wide");
    GptOptions wider = GptOptions.parse(new String[] {"--steps", "6", "--warmup", "2", "--eval-every", "3", "--eval-batches", "1", "--batch",
        "2", "--context", "16", "--embd", "32", "--heads", "2", "--layers", "1", "--sample", "0", "--out", wide.toString(), "--stop-after", "3"});
    Gpt.run(wider);
    @SuppressWarnings("unchecked")
    Map<String, Object> top = (Map<String, Object>) Tensors.loadObject(wide.resolve("checkpoint.pt"));
    Path mislabelled = dir.resolve("mislabelled.pt");
    try {
      Map<String, Object> config = new java.util.LinkedHashMap<>((Map<String, Object>) top.get("config"));
      assertEquals(32L, config.get("embd"));
      config.put("embd", 16L);  // weights of width 32 under a config of 16
      Map<String, Object> edited = new java.util.LinkedHashMap<>(top);
      edited.put("config", config);
      Tensors.saveObject(edited, mislabelled);
    } finally {
      Tensors.closeAll(top);
    }
    m = assertThrows(IllegalArgumentException.class, () -> Gpt.run(options(dir.resolve("o5"), mislabelled, 6))).getMessage();
    assertTrue(m.contains("--resume " + mislabelled) && m.contains("size mismatch for tok_emb.weight"), m);
    // a schedule state at another step than the checkpoint's, and one of another schedule
    @SuppressWarnings("unchecked")
    Map<String, Object> third = (Map<String, Object>) Tensors.loadObject(dir.resolve("o3").resolve("checkpoint.pt"));
    Path behind = dir.resolve("behind.pt"), other = dir.resolve("other.pt");
    try {
      @SuppressWarnings("unchecked")
      Map<String, Object> schedule = new java.util.LinkedHashMap<>((Map<String, Object>) third.get("scheduler"));
      schedule.put("last_epoch", 2L);
      Map<String, Object> edited = new java.util.LinkedHashMap<>(third);
      edited.put("scheduler", schedule);
      Tensors.saveObject(edited, behind);
      schedule.put("_milestones", List.of(1L));
      Tensors.saveObject(edited, other);
    } finally {
      Tensors.closeAll(third);
    }
    m = assertThrows(IllegalArgumentException.class, () -> Gpt.run(options(dir.resolve("o6"), behind, 6))).getMessage();
    assertEquals("--resume " + behind + ": 'scheduler' is at epoch 2, 'step' is 3", m);
    m = assertThrows(IllegalArgumentException.class, () -> Gpt.run(options(dir.resolve("o7"), other, 6))).getMessage();
    assertTrue(m.startsWith("--resume " + other + ": SequentialLR.loadStateDict(): the state has '_milestones' [1], this SequentialLR has [2]"), m);
  }
}
