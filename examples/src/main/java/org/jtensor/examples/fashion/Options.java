package org.jtensor.examples.fashion;

import java.nio.file.Path;

/** The main job's command line: every option has a default, so no arguments trains on the bundled sample. */
record Options(Path data, String model, int epochs, int batchSize, double lr, String optimizer, double weightDecay, String schedule, long seed,
               int threads, int workers, boolean augment, Path out, boolean benchmark) {
  static final String USAGE = String.join("\n",
      "usage: fashion-mnist [--data DIR] [--model mlp|cnn|resnet] [--epochs N] [--batch-size N] [--lr X]",
      "                     [--optimizer adam|adamw|sgd] [--weight-decay X] [--schedule constant|cosine] [--seed N]",
      "                     [--threads N]",
      "                     [--workers N] [--augment] [--out DIR] [--benchmark]",
      "  --data DIR   the four IDX files of Fashion-MNIST, gzipped or not (Debian's dataset-fashion-mnist",
      "               installs them in /usr/share/datasets/fashion-mnist); default: the bundled sample",
      "               (5,000 training and 1,000 test images)",
      "  --model      mlp (784-256-128-10, the default), cnn (two conv layers) or resnet (three BasicBlocks)",
      "  --epochs     default 10         --batch-size  default 128",
      "  --lr         default 1e-3 (adam/adamw), 0.1 (sgd)",
      "  --optimizer  adam (default), adamw or sgd (momentum 0.9)",
      "  --weight-decay  default: the optimizer's (0 for adam and sgd, 1e-2 for adamw)",
      "  --schedule   constant (default) or cosine: the learning rate anneals to 0 over the epochs",
      "               (CosineAnnealingLR with T_max = epochs, stepped once an epoch)",
      "  --seed       default 0          --threads     default: all cores",
      "  --workers    DataLoader threads that decode (and augment) batches ahead of the step; default 0:",
      "               each batch is made on the training thread. The batches are the same for any count",
      "  --augment    RandomCrop(28, padding=2) and RandomHorizontalFlip per training image, drawn from",
      "               (seed, epoch, index); default off",
      "  --out DIR    where metrics.csv, metrics.json and curves.png go; default fashion-mnist-out",
      "  --benchmark  time the model's training step on a random batch instead (no data read): forward,",
      "               backward and optimizer step, medians of 40 steps after 100 (and 20 s) of warm-up, printed as",
      "               `jtensor step MODEL forward F backward B step S ms` (benchmarks/peers/",
      "               torch_fashion_mnist.py --benchmark MODEL is PyTorch's same)");

  static Options parse(String[] args) {
    Path data = null, out = Path.of("fashion-mnist-out");
    String model = "mlp", optimizer = "adam", schedule = "constant";
    int epochs = 10, batch = 128, threads = Runtime.getRuntime().availableProcessors(), workers = 0;
    boolean augment = false, benchmark = false;
    double lr = Double.NaN, weightDecay = Double.NaN;
    long seed = 0;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("-h") || a.equals("--help")) throw new IllegalArgumentException(USAGE);
      if (a.equals("--augment") || a.equals("--benchmark")) {  // flags: no value
        augment |= a.equals("--augment");
        benchmark |= a.equals("--benchmark");
        continue;
      }
      if (i + 1 >= args.length) throw new IllegalArgumentException(a + " needs a value\n" + USAGE);
      String v = args[++i];
      try {
        switch (a) {
          case "--data": data = Path.of(v); break;
          case "--model": model = oneOf(a, v, "mlp", "cnn", "resnet"); break;
          case "--epochs": epochs = positive(a, Integer.parseInt(v)); break;
          case "--batch-size": batch = positive(a, Integer.parseInt(v)); break;
          case "--lr": lr = Double.parseDouble(v); break;
          case "--optimizer": optimizer = oneOf(a, v, "adam", "adamw", "sgd"); break;
          case "--weight-decay": weightDecay = Double.parseDouble(v); break;
          case "--schedule": schedule = oneOf(a, v, "constant", "cosine"); break;
          case "--seed": seed = Long.parseLong(v); break;
          case "--threads": threads = positive(a, Integer.parseInt(v)); break;
          case "--workers": workers = Integer.parseInt(v); break;
          case "--out": out = Path.of(v); break;
          default: throw new IllegalArgumentException("unknown option " + a + "\n" + USAGE);
        }
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(a + ": not a number: " + v);
      }
    }
    if (Double.isNaN(lr)) lr = optimizer.equals("sgd") ? 0.1 : 1e-3;
    if (!(lr > 0)) throw new IllegalArgumentException("--lr must be positive, got " + lr);
    if (Double.isNaN(weightDecay)) weightDecay = optimizer.equals("adamw") ? 1e-2 : 0;
    if (!(weightDecay >= 0)) throw new IllegalArgumentException("--weight-decay must be 0 or more, got " + weightDecay);
    if (workers < 0) throw new IllegalArgumentException("--workers must be 0 or more, got " + workers);
    return new Options(data, model, epochs, batch, lr, optimizer, weightDecay, schedule, seed, threads, workers, augment, out, benchmark);
  }

  private static String oneOf(String option, String v, String... allowed) {
    for (String x : allowed) if (x.equals(v)) return v;
    throw new IllegalArgumentException(option + " must be one of " + String.join(", ", allowed) + ", got " + v);
  }

  private static int positive(String option, int v) {
    if (v <= 0) throw new IllegalArgumentException(option + " must be positive, got " + v);
    return v;
  }
}
