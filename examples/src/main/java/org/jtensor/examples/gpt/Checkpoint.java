package org.jtensor.examples.gpt;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.io.TensorFormatException;
import org.jtensor.io.Tensors;
import org.jtensor.optim.LRScheduler;
import org.jtensor.optim.Optimizer;

/**
 * A training checkpoint as one PyTorch .pt file: {"model": state dict, "optimizer": the optimizer's
 * state dict (PyTorch's layout), "scheduler": the schedule's (PyTorch's layout), "step", "config", "vocab", "rng": [seed, offset] of the training
 * generator, "losses": [[step, train, val], ...]}. Everything a run depends on (the training windows'
 * order follows from rng's seed and the step), so --resume continues bit for bit; torch.load(weights_only=True) reads it.
 * "train" holds the options the schedule and the batches follow (lr, warmup, steps, batch, autocast): a
 * resumed run must give the same, or it would continue another schedule silently.
 */
final class Checkpoint {
  private Checkpoint() {}

  static void save(Path file, CharGpt model, Optimizer opt, LRScheduler schedule, long step, String vocab, Generator g, List<double[]> losses,
                   GptOptions o) throws IOException {
    Map<String, Object> top = new LinkedHashMap<>();
    Map<String, Tensor> weights = model.stateDict();
    Map<String, Object> optimizer = opt.stateDict();
    try {
      top.put("model", new LinkedHashMap<String, Object>(weights));
      top.put("optimizer", optimizer);
      top.put("scheduler", schedule.stateDict());
      top.put("step", step);
      top.put("config", model.config.toMap());
      top.put("vocab", vocab);
      long[] rng = g.getState();
      top.put("rng", List.of(rng[0], rng[1]));
      List<Object> rows = new java.util.ArrayList<>();
      for (double[] l : losses) rows.add(List.of(l[0], l[1], l[2]));
      top.put("losses", rows);
      top.put("train", trainOptions(o));
      if (file.getParent() != null) Files.createDirectories(file.getParent());
      Tensors.saveObject(top, file);
    } finally {
      weights.values().forEach(Tensor::close);
      Tensors.closeAll(optimizer);
    }
  }

  /** What a checkpoint holds, checked for shape: the caller closes it (Tensors.closeAll(raw)). */
  record Loaded(Map<?, ?> raw, GptConfig config, String vocab, long step, long[] rng, List<double[]> losses) {
    /**
     * Refuses options that differ from those the checkpoint's run began with: the schedule's base rate comes from --lr
     * (not from the file), its shape from --warmup and --steps, the batches from --batch. A checkpoint without "train"
     * (written before it was kept) is taken as it is.
     */
    void checkSameRun(Path file, GptOptions o) {
      if (!(raw.get("train") instanceof Map<?, ?> saved)) return;
      for (Map.Entry<String, Object> e : trainOptions(o).entrySet()) {
        Object was = saved.get(e.getKey());
        if (!e.getValue().equals(was)) {
          throw new IllegalArgumentException("--resume " + file + ": the checkpoint's run has --" + e.getKey() + " " + was + ", this run --"
              + e.getKey() + " " + e.getValue() + "; resume with the --lr, --warmup, --steps, --batch and --autocast the run began with");
        }
      }
    }

    @SuppressWarnings("unchecked")
    Map<String, Tensor> model() {
      return (Map<String, Tensor>) raw.get("model");
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> optimizer() {
      return (Map<String, Object>) raw.get("optimizer");
    }

    /**
     * Puts the schedule where the checkpoint's was: from its "scheduler" state (refused if it is another schedule's or at
     * another step than "step"), or, for a checkpoint written before it was kept, at "step".
     */
    @SuppressWarnings("unchecked")
    void resumeSchedule(Path file, LRScheduler schedule) {
      if (raw.containsKey("scheduler") && !(raw.get("scheduler") instanceof Map<?, ?>)) {
        throw new IllegalArgumentException("--resume " + file + ": 'scheduler' is not a dict");
      }
      try {
        if (raw.get("scheduler") instanceof Map<?, ?> state) schedule.loadStateDict((Map<String, Object>) state);
        else schedule.setLastEpoch((int) step);
      } catch (IllegalArgumentException | IllegalStateException e) {
        throw new IllegalArgumentException("--resume " + file + ": " + e.getMessage(), e);
      }
      if (schedule.lastEpoch() != step) {
        throw new IllegalArgumentException("--resume " + file + ": 'scheduler' is at epoch " + schedule.lastEpoch() + ", 'step' is " + step);
      }
    }
  }

  /** The options a resumed run must repeat, as the checkpoint keeps them. */
  private static Map<String, Object> trainOptions(GptOptions o) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("lr", o.lr());
    m.put("warmup", (long) o.warmup());
    m.put("steps", (long) o.steps());
    m.put("batch", (long) o.batch());
    m.put("autocast", o.autocast() == null ? "off" : o.autocast().toString());
    return m;
  }

  static Loaded load(Path file) throws IOException {
    if (!Files.isRegularFile(file)) throw new IOException("--resume " + file + ": no such file");
    Object top;
    try {
      top = Tensors.loadObject(file);
    } catch (TensorFormatException e) {
      throw new IOException("--resume " + file + ": not a jtensor/PyTorch checkpoint: " + e.getMessage(), e);
    }
    try {
      if (!(top instanceof Map<?, ?> m)) throw new IOException("--resume " + file + ": the top level is not a dict");
      for (String key : new String[] {"model", "optimizer", "step", "config", "vocab", "rng", "losses"}) {
        if (!m.containsKey(key)) throw new IOException("--resume " + file + ": not a GPT checkpoint of this job (no '" + key + "')");
      }
      if (!(m.get("model") instanceof Map<?, ?> weights) || !weights.values().stream().allMatch(v -> v instanceof Tensor)) {
        throw new IOException("--resume " + file + ": 'model' is not a dict of tensors");
      }
      if (!(m.get("config") instanceof Map<?, ?> config) || !(m.get("vocab") instanceof String vocab) || !(m.get("step") instanceof Long step)
          || !(m.get("rng") instanceof List<?> rng) || rng.size() != 2 || !(m.get("losses") instanceof List<?> rows)) {
        throw new IOException("--resume " + file + ": 'config', 'vocab', 'step', 'rng' or 'losses' is not what this job writes");
      }
      List<double[]> losses = new java.util.ArrayList<>();
      for (Object row : rows) {
        List<?> r = (List<?>) row;
        losses.add(new double[] {((Number) r.get(0)).doubleValue(), ((Number) r.get(1)).doubleValue(), ((Number) r.get(2)).doubleValue()});
      }
      GptConfig c = GptConfig.fromMap(config);
      // a vocabulary of another size than the model's: ids past the text's characters, or characters past the model's rows
      if (vocab.codePointCount(0, vocab.length()) != c.vocab()) {
        throw new IOException("--resume " + file + ": 'vocab' has " + vocab.codePointCount(0, vocab.length()) + " characters, the config's "
            + "vocabulary " + c.vocab());
      }
      if (step < 1 || step > Integer.MAX_VALUE) throw new IOException("--resume " + file + ": 'step' is " + step + ", not a step of a run");
      return new Loaded(m, c, vocab, step, new long[] {((Number) rng.get(0)).longValue(),
          ((Number) rng.get(1)).longValue()}, losses);
    } catch (IOException | RuntimeException e) {
      Tensors.closeAll(top);
      throw e instanceof IOException io ? io : new IOException("--resume " + file + ": " + e.getMessage(), e);
    }
  }
}
