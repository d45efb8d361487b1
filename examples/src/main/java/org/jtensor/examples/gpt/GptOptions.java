package org.jtensor.examples.gpt;

import java.nio.file.Path;
import org.jtensor.DType;

/** gpt.sh's command line. */
record GptOptions(String data, int steps, int batch, long context, long embd, long heads, long layers, double dropout, double lr,
                  int warmup, int evalEvery, int evalBatches, Path out, Path resume, long seed, int threads, int sampleTokens,
                  double temperature, int topK, int stopAfter, DType autocast) {
  static final String USAGE = String.join("\n",
      "usage: scripts/gpt.sh [options]   (a character-level GPT: trains, evaluates, saves, samples)",
      "  --data TEXT|fortunes  a UTF-8 text file, or Debian's fortunes (installed when missing); default: the bundled GNU licences",
      "  --steps N             training steps (default 400)",
      "  --batch N             sequences per step (default 32)",
      "  --context N           characters per sequence (default 64)",
      "  --embd N --heads N --layers N   model width, heads and depth (default 64, 4, 2)",
      "  --dropout P           (default 0: the default run is too short to overfit)",
      "  --lr X                AdamW peak learning rate (default 3e-3; linear warm-up, then cosine to 0)",
      "  --warmup N            warm-up steps (default 50)",
      "  --eval-every N        steps between validation losses (default 100), over --eval-batches N batches (default 10)",
      "  --out DIR             checkpoint.pt, losses.csv, loss.png, sample.txt (default gpt-out)",
      "  --resume FILE         continue a checkpoint.pt (the same data and --steps; the model's shape comes from the file)",
      "  --stop-after N        stop after step N (a checkpoint is written there), to resume later",
      "  --seed N --threads N  (default 1234, 2)",
      "  --sample N            characters to generate at the end (default 400), --temperature X (0.8), --top-k N (10)",
      "  --autocast bf16|fp16|off  the forward pass and loss under Autocast: matrix products in that dtype (default off)",
      "  --benchmark           time the training step and KV-cache generation instead (see benchmarks/peers/torch_gpt_peer.py)");

  private static final java.util.Set<String> OPTIONS = java.util.Set.of("--data", "--steps", "--stop-after", "--batch", "--context", "--embd",
      "--heads", "--layers", "--dropout", "--lr", "--warmup", "--eval-every", "--eval-batches", "--out", "--resume", "--seed", "--threads",
      "--sample", "--temperature", "--top-k", "--autocast");

  /** The same options resuming from file (null: from scratch). */
  GptOptions withResume(Path file) {
    return new GptOptions(data, steps, batch, context, embd, heads, layers, dropout, lr, warmup, evalEvery, evalBatches, out, file, seed,
        threads, sampleTokens, temperature, topK, stopAfter, autocast);
  }

  static GptOptions parse(String[] args) {
    String data = null;
    int steps = 400, stopAfter = Integer.MAX_VALUE, batch = 32, warmup = 50, evalEvery = 100, evalBatches = 10, threads = 2, sample = 400, topK = 10;
    long context = 64, embd = 64, heads = 4, layers = 2, seed = 1234;
    double dropout = 0, lr = 3e-3, temperature = 0.8;
    Path out = Path.of("gpt-out"), resume = null;
    DType autocast = null;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      // an unknown option is named as one, even last on the line (it was "needs a value")
      if (!OPTIONS.contains(a)) throw new IllegalArgumentException("gpt: unknown option " + a + "\n" + USAGE);
      if (i + 1 >= args.length) throw new IllegalArgumentException("gpt: " + a + " needs a value\n" + USAGE);
      String v = args[++i];
      try {
        switch (a) {
          case "--data" -> data = v;
          case "--steps" -> steps = Integer.parseInt(v);
          case "--stop-after" -> stopAfter = Integer.parseInt(v);
          case "--batch" -> batch = Integer.parseInt(v);
          case "--context" -> context = Long.parseLong(v);
          case "--embd" -> embd = Long.parseLong(v);
          case "--heads" -> heads = Long.parseLong(v);
          case "--layers" -> layers = Long.parseLong(v);
          case "--dropout" -> dropout = Double.parseDouble(v);
          case "--lr" -> lr = Double.parseDouble(v);
          case "--warmup" -> warmup = Integer.parseInt(v);
          case "--eval-every" -> evalEvery = Integer.parseInt(v);
          case "--eval-batches" -> evalBatches = Integer.parseInt(v);
          case "--out" -> out = Path.of(v);
          case "--resume" -> resume = Path.of(v);
          case "--seed" -> seed = Long.parseLong(v);
          case "--threads" -> threads = Integer.parseInt(v);
          case "--sample" -> sample = Integer.parseInt(v);
          case "--temperature" -> temperature = Double.parseDouble(v);
          case "--top-k" -> topK = Integer.parseInt(v);
          case "--autocast" -> autocast = switch (v) {
            case "bf16", "bfloat16" -> DType.BFLOAT16;
            case "fp16", "float16" -> DType.FLOAT16;
            case "off" -> null;
            default -> throw new IllegalArgumentException("gpt: --autocast expects bf16, fp16 or off, got " + v);
          };
          default -> throw new IllegalArgumentException("gpt: unknown option " + a + "\n" + USAGE);
        }
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("gpt: " + a + " expects a number, got " + v);
      }
    }
    if (steps < 1 || batch < 1 || evalEvery < 1 || evalBatches < 1 || threads < 1 || sample < 0 || topK < 1 || !(temperature > 0)
        || warmup < 0 || warmup >= steps || stopAfter < 1) {
      throw new IllegalArgumentException("gpt: --steps, --batch, --eval-every, --eval-batches, --threads, --top-k and --stop-after must be "
          + "positive, --sample non-negative, 0 <= --warmup < --steps, --temperature > 0\n" + USAGE);
    }
    return new GptOptions(data, steps, batch, context, embd, heads, layers, dropout, lr, warmup, evalEvery, evalBatches, out, resume, seed,
        threads, sample, temperature, topK, stopAfter, autocast);
  }
}
