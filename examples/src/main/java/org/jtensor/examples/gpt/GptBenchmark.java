package org.jtensor.examples.gpt;

import java.util.Locale;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.Threads;
import org.jtensor.autograd.GradMode;
import org.jtensor.examples.Steady;
import org.jtensor.nn.GradClipping;
import org.jtensor.optim.AdamW;

/** {@code scripts/gpt.sh --benchmark}: the GPT job's training step and KV-cache generation, timed as its peer script times PyTorch's. */
final class GptBenchmark {
  private GptBenchmark() {}

  /**
   * --benchmark: the training step of the model the options describe (vocabulary 81, random ids),
   * median of 20 after a warm-up of 60 steps and at least 20 seconds, and greedy generation through the KV cache (tokens per
   * second, cold and warm); benchmarks/peers/torch_gpt_peer.py times the same model in PyTorch. The warm-up is
   * the JVM's: its JIT compiles for the first ~8 s of a run (measured: C2 busy on one of two cores
   * until then, the step ~110 ms at steps 5-25 and ~75 ms from step 30 on), which PyTorch, with no JIT,
   * does not pay; a training run's steps are the steady ones. 60 steps of today's ~35 ms step end
   * within those seconds, hence the time bound too ({@link Steady}).
   */
  private static final int WARM_UP_STEPS = 60;
  /**
   * Generation: the first rounds of context - 1 tokens timed whole ("generationCold", the JIT still
   * compiling the one-token path), then the median of 20 rounds after 100 of warm-up (measured: the
   * rate settles within about 70 rounds, ~4,400 tokens, about two seconds).
   */
  private static final int COLD_ROUNDS = 5, GENERATION_WARM_ROUNDS = 100;

  static void run(GptOptions o) {
    Threads.setNumThreads(o.threads());
    GptConfig c = new GptConfig(81, o.context(), o.embd(), o.heads(), o.layers(), o.dropout());
    Generator g = new Generator(o.seed());
    try (CharGpt model = new CharGpt(c, g); AdamW opt = new AdamW(model.parameters(), o.lr(), 0.9, 0.99, 1e-8, 0.01)) {
      double[] ms = new double[20];
      Steady warmUp = Steady.warmUp(WARM_UP_STEPS);
      for (int i = 0, done = 0; done < ms.length; i++) {
        long t0 = System.nanoTime();
        opt.zeroGrad();
        try (TensorScope s = TensorScope.open()) {
          Tensor ids = Tensor.randint(0, c.vocab(), new long[] {o.batch(), c.context() + 1}, g);
          Tensor x = ids.narrow(1, 0, c.context()), y = ids.narrow(1, 1, c.context());
          Gpt.loss(model, x, y, c.vocab(), o.autocast()).backward();
          GradClipping.clipGradNorm_(model.parameters(), 1.0);
        }
        opt.step();
        if (warmUp.over(i, t0)) ms[done++] = (System.nanoTime() - t0) / 1e6;
      }
      System.out.printf(Locale.ROOT, "jtensor gptStep%s %.2f%n", o.autocast() == null ? "" : " autocast " + o.autocast(), Steady.median(ms));
      model.eval();
      long n = c.context() - 1;
      long t0 = System.nanoTime();
      for (int r = 0; r < COLD_ROUNDS; r++) generate(model, c, n);
      System.out.printf(Locale.ROOT, "jtensor generationCold %.0f%n", COLD_ROUNDS * n / ((System.nanoTime() - t0) / 1e9));
      double[] gen = new double[GENERATION_WARM_ROUNDS + 20];
      for (int r = 0; r < gen.length; r++) {
        long r0 = System.nanoTime();
        generate(model, c, n);
        gen[r] = (System.nanoTime() - r0) / 1e9;
      }
      System.out.printf(Locale.ROOT, "jtensor generation %.0f%n", n / Steady.median(java.util.Arrays.copyOfRange(gen, GENERATION_WARM_ROUNDS, gen.length)));
    }
  }

  /** n tokens, greedy, one at a time through a fresh KV cache. */
  private static void generate(CharGpt model, GptConfig c, long n) {
    long next = 0;
    try (GradMode.Scope off = GradMode.noGrad(); KvCache cache = new KvCache((int) c.layers())) {
      for (int i = 0; i < n; i++) {
        try (TensorScope s = TensorScope.open()) {
          next = (long) model.step(Tensor.fromArray(new long[] {next}, 1, 1), cache).reshape(-1).argmax().item();
        }
      }
    }
  }
}
