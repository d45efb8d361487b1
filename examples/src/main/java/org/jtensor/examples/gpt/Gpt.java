package org.jtensor.examples.gpt;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import me.tongfei.progressbar.ProgressBar;
import org.jtensor.Autocast;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.Threads;
import org.jtensor.autograd.GradMode;
import org.jtensor.data.Batch;
import org.jtensor.data.BatchIterator;
import org.jtensor.data.DataLoader;
import org.jtensor.examples.Bars;
import org.jtensor.nn.Functional;
import org.jtensor.nn.GradClipping;
import org.jtensor.optim.AdamW;
import org.jtensor.optim.CosineAnnealingLR;
import org.jtensor.optim.LRScheduler;
import org.jtensor.optim.LinearLR;
import org.jtensor.optim.SequentialLR;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;

/**
 * The second main job (scripts/gpt.sh): trains a character-level GPT ({@link CharGpt}) with AdamW,
 * a linear warm-up then cosine decay, and gradient clipping at norm 1; every --eval-every steps
 * prints the train and validation losses and writes checkpoint.pt (model, optimizer, step,
 * generator: --resume continues bit for bit); at the end prints `validation loss X` and `unigram
 * baseline Y`, writes losses.csv and loss.png, and samples text through the KV cache.
 */
public final class Gpt {
  private Gpt() {}

  /** Mixed into the run's seed for the training windows' order. */
  private static final long DATA_SEED = 0xda7aL;

  public static void main(String[] args) {
    System.setProperty("java.awt.headless", "true");
    if (List.of(args).contains("--help") || List.of(args).contains("-h")) {
      System.out.println(GptOptions.USAGE);
      return;
    }
    try {
      List<String> rest = new ArrayList<>(List.of(args));
      if (rest.remove("--benchmark")) GptBenchmark.run(GptOptions.parse(rest.toArray(new String[0])));
      else run(GptOptions.parse(args));
    } catch (IllegalArgumentException | IOException e) {
      System.err.println(e.getMessage());
      System.exit(e instanceof IOException ? 1 : 2);
    }
  }

  /** Trains as the options say; returns the last validation loss. */
  static double run(GptOptions o) throws IOException {
    Threads.setNumThreads(o.threads());
    Checkpoint.Loaded resumed = o.resume() == null ? null : Checkpoint.load(o.resume());
    try (TextData data = TextData.load(o.data(), resumed == null ? null : resumed.vocab())) {
      GptConfig config = resumed != null ? resumed.config()
          : new GptConfig(data.size(), o.context(), o.embd(), o.heads(), o.layers(), o.dropout());
      // before the model: --context 100000000 built a 25 GB position table, then found the text too short
      TextWindows.check(data.train, config.context(), o.batch(), "training");
      TextWindows.check(data.val, config.context(), o.batch(), "evaluation");
      Generator g = new Generator(o.seed());
      try (CharGpt model = new CharGpt(config, g);
           AdamW opt = new AdamW(model.parameters(), o.lr(), 0.9, 0.99, 1e-8, 0.01)) {
        LRScheduler schedule = new SequentialLR(opt, List.of(new LinearLR(opt, 0.01, 1.0, o.warmup()),
            new CosineAnnealingLR(opt, o.steps() - o.warmup(), 0)), new int[] {o.warmup()});
        List<double[]> losses = new ArrayList<>();
        long first = 1;
        if (resumed != null) {
          try {
            model.loadStateDict(resumed.model());
            opt.loadStateDict(resumed.optimizer());
          } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--resume " + o.resume() + ": " + e.getMessage(), e);
          }
          resumed.checkSameRun(o.resume(), o);  // after the shapes: a checkpoint of another model is named as that first
          g.setState(resumed.rng());
          resumed.resumeSchedule(o.resume(), schedule);
          losses.addAll(resumed.losses());
          first = resumed.step() + 1;
          org.jtensor.io.Tensors.closeAll(resumed.raw());
        }
        System.out.printf(Locale.ROOT, "GPT on %s: %d training / %d validation characters, vocabulary %d; %d layers x %d wide, "
            + "%d heads, context %d, %,d parameters; batch %d, %d steps%s, %d threads%s%n", data.source, data.train.numel(), data.val.numel(),
            config.vocab(), config.layers(), config.embd(), config.heads(), config.context(), parameterCount(model), o.batch(), o.steps(),
            resumed == null ? "" : " (resumed at step " + resumed.step() + ")", Threads.getNumThreads(),
            o.autocast() == null ? "" : ", autocast " + o.autocast());
        double val = losses.isEmpty() ? Double.NaN : losses.get(losses.size() - 1)[2];
        long start = System.nanoTime(), chars = 0;
        long last = Math.min(o.steps(), o.stopAfter());
        // The windows' order comes from a generator of its own, seeded by the run's seed (a resumed run's, from its rng), so
        // step s always trains on the run's batch s - 1 whatever the dropout drew
        Generator order = new Generator(g.initialSeed() ^ DATA_SEED);
        try (DataLoader<List<Tensor>> windows = TextWindows.loader(data.train, config.context(), o.batch(), order, "training");
             ProgressBar bar = Bars.bar("training", o.steps()).build()) {
          bar.stepTo(first - 1);
          BatchIterator batches = TextWindows.resumeAt(windows, first - 1);
          for (long step = first; step <= last; step++) {
            model.train();
            opt.zeroGrad();
            double loss;
            if (!batches.hasNext()) batches = windows.iterator();  // the next epoch: a new order
            Batch b = batches.next();  // lent until the next one
            try (TensorScope s = TensorScope.open()) {
              Tensor l = loss(model, b.get(0), b.get(1), config.vocab(), o.autocast());
              l.backward();  // after the autocast scope, as PyTorch's recipe: gradients come back in each op's dtype
              loss = l.item();
              GradClipping.clipGradNorm_(model.parameters(), 1.0);
            }
            opt.step();
            schedule.step();
            chars += (long) o.batch() * config.context();
            bar.step();
            bar.setExtraMessage(String.format(Locale.ROOT, " loss %.3f | %.0f chars/s", loss, chars / ((System.nanoTime() - start) / 1e9)));
            if (step % o.evalEvery() == 0 || step == o.steps() || step == last) {
              double train = evaluate(model, data.train, o), v = evaluate(model, data.val, o);
              val = v;
              losses.add(new double[] {step, train, v});
              bar.setExtraMessage(String.format(Locale.ROOT, " step %d: train %.4f, validation %.4f", step, train, v));
              System.out.printf(Locale.ROOT, "%nstep %d: train loss %.4f, validation loss %.4f, lr %.2e%n", step, train, v, opt.lr());
              Checkpoint.save(o.out().resolve("checkpoint.pt"), model, opt, schedule, step, data.vocab, g, losses, o);
            }
          }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf(Locale.ROOT, "trained %d steps in %.1f s (%.0f characters/s)%n", last - first + 1, seconds, chars / seconds);
        if (last < o.steps()) {
          System.out.println("stopped after step " + last + " (--stop-after); checkpoint in " + o.out().resolve("checkpoint.pt"));
          return val;
        }
        System.out.printf(Locale.ROOT, "validation loss %.4f%nunigram baseline %.4f%n", val, data.unigramBaseline());
        writeLosses(o.out(), losses);
        String text = sample(model, data, o);
        Files.writeString(o.out().resolve("sample.txt"), text);
        System.out.println("sample (temperature " + o.temperature() + ", top-k " + o.topK() + "):\n" + text);
        System.out.println("wrote " + o.out().resolve("checkpoint.pt") + ", losses.csv, loss.png and sample.txt");
        return val;
      }
    } finally {
      if (resumed != null) org.jtensor.io.Tensors.closeAll(resumed.raw());
    }
  }

  /** The mean cross-entropy of the model's next-character logits, the forward pass under autocast to dtype where one is given. */
  static Tensor loss(CharGpt model, Tensor x, Tensor y, long vocab, DType autocast) {
    if (autocast == null) return crossEntropy(model.forward(x), y, vocab);
    try (Autocast a = Autocast.enable(Device.CPU, autocast)) {
      return crossEntropy(model.forward(x), y, vocab);  // float32: crossEntropy is on autocast's float32 list
    }
  }

  private static Tensor crossEntropy(Tensor logits, Tensor targets, long vocab) {
    return Functional.crossEntropy(logits.reshape(-1, vocab), targets.reshape(-1));
  }

  /** The mean loss over the first --eval-batches batches of an order drawn from a generator of their own (the same every time; training's draws untouched). */
  private static double evaluate(CharGpt model, Tensor ids, GptOptions o) {
    model.eval();
    double sum = 0;
    int n = 0;
    try (GradMode.Scope off = GradMode.noGrad();
         DataLoader<List<Tensor>> windows = TextWindows.loader(ids, model.config.context(), o.batch(), new Generator(o.seed() ^ 0x5eedL), "evaluation");
         BatchIterator batches = windows.iterator()) {
      for (; n < o.evalBatches() && batches.hasNext(); n++) {
        Batch b = batches.next();
        try (TensorScope s = TensorScope.open()) {
          sum += loss(model, b.get(0), b.get(1), model.config.vocab(), o.autocast()).item();
        }
      }
    }
    return sum / n;
  }

  /**
   * --sample characters after the prompt "The ", one at a time through the KV cache, temperature and top-k
   * applied; when the cache holds a full context, it restarts from the last half of the text so far.
   */
  static String sample(CharGpt model, TextData data, GptOptions o) {
    model.eval();
    Generator g = new Generator(o.seed() + 1);
    StringBuilder out = new StringBuilder();  // the prompt "The " and what follows it
    List<Long> ids = new ArrayList<>();
    for (char ch : "The ".toCharArray()) if (data.idOf(ch) >= 0) ids.add(data.idOf(ch));
    if (ids.isEmpty()) ids.add(0L);
    StringBuilder prompt = new StringBuilder();
    for (long id : ids) prompt.append(data.symbol(id));
    out.append(prompt);
    long context = model.config.context();
    KvCache cache = new KvCache((int) model.config.layers());
    try (GradMode.Scope off = GradMode.noGrad()) {
      long[] feed = ids.stream().mapToLong(Long::longValue).toArray();
      for (int i = 0; i < o.sampleTokens(); i++) {
        if (cache.length() + feed.length > context) {  // the window is full: prime a fresh cache with the last half
          cache.close();
          cache = new KvCache((int) model.config.layers());
          long keep = Math.max(1, context / 2);  // --context 1: one token, not none
          feed = ids.subList(ids.size() - (int) keep, ids.size()).stream().mapToLong(Long::longValue).toArray();
        }
        try (TensorScope s = TensorScope.open()) {
          Tensor all = model.step(Tensor.fromArray(feed, 1, feed.length), cache);
          // in float64 (a float32 division casts the temperature to float32: 1e-300 became 0) and shifted so the largest is 0:
          // a tiny temperature gives -inf (greedy), never inf - inf = NaN in softmax
          Tensor raw = all.select(1, feed.length - 1).reshape(-1).to(DType.FLOAT64);
          Tensor logits = raw.sub(raw.max()).div(o.temperature());
          int k = (int) Math.min(o.topK(), model.config.vocab());
          double kth = logits.topk(k).values().toDoubleArray()[k - 1];
          Tensor kept = logits.maskedFill(logits.lt(kth), Double.NEGATIVE_INFINITY);
          long next = kept.softmax(0).multinomial(1, true, g).toLongArray()[0];
          ids.add(next);
          feed = new long[] {next};
          out.append(data.symbol(next));
        }
      }
    } finally {
      cache.close();
    }
    return out.toString();
  }

  private static long parameterCount(CharGpt model) {
    long n = 0;
    for (Tensor p : model.parameters()) n += p.numel();
    return n;
  }

  private static void writeLosses(Path dir, List<double[]> losses) throws IOException {
    Files.createDirectories(dir);
    StringBuilder csv = new StringBuilder("step,train_loss,validation_loss\n");
    double[] x = new double[losses.size()], train = new double[x.length], val = new double[x.length];
    for (int i = 0; i < x.length; i++) {
      double[] l = losses.get(i);
      csv.append(String.format(Locale.ROOT, "%d,%.6f,%.6f%n", (long) l[0], l[1], l[2]));
      x[i] = l[0];
      train[i] = l[1];
      val[i] = l[2];
    }
    Files.writeString(dir.resolve("losses.csv"), csv);
    XYChart chart = new XYChartBuilder().width(800).height(500).title("character-level GPT (jtensor)").xAxisTitle("step")
        .yAxisTitle("cross-entropy (nats per character)").build();
    chart.addSeries("train", x, train);
    chart.addSeries("validation", x, val);
    BitmapEncoder.saveBitmap(chart, dir.resolve("loss.png").toString(), BitmapEncoder.BitmapFormat.PNG);
  }
}
