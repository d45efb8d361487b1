package org.jtensor.examples.fashion;

import java.util.List;
import java.util.Locale;
import me.tongfei.progressbar.ProgressBar;
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
import org.jtensor.memory.Memory;
import org.jtensor.nn.Functional;
import org.jtensor.nn.Module;
import org.jtensor.optim.Adam;
import org.jtensor.optim.AdamW;
import org.jtensor.optim.CosineAnnealingLR;
import org.jtensor.optim.LRScheduler;
import org.jtensor.optim.Optimizer;
import org.jtensor.optim.SGD;

/**
 * The main job: trains an MLP or a small CNN on Fashion-MNIST with jtensor's autograd, nn and
 * optim, its batches from a DataLoader over {@link FashionImages} (--workers threads ahead), and reports per-epoch train loss and test accuracy, images per second and the
 * allocator's peak memory; metrics.csv, metrics.json and curves.png go to --out.
 */
public final class FashionMnist {
  private FashionMnist() {}

  public static void main(String[] args) throws Exception {
    System.setProperty("java.awt.headless", "true");
    if (java.util.Arrays.asList(args).contains("--help") || java.util.Arrays.asList(args).contains("-h")) {
      System.out.println(Options.USAGE);
      return;
    }
    Options o;
    try {
      o = Options.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    Threads.setNumThreads(o.threads());
    if (o.benchmark()) {
      StepBenchmark.run(o);
      return;
    }
    Generator g = new Generator(o.seed());
    Metrics metrics = new Metrics();
    try (Idx.Split train = Idx.load(o.data(), "train"); Idx.Split test = Idx.load(o.data(), "t10k");
         Module model = Models.create(o.model(), g); Optimizer opt = optimizer(o, model.parameters())) {
      FashionImages trainImages = new FashionImages(train, o.augment(), o.seed());
      // The epoch's order is randperm(n, g) as before the DataLoader: the same batches, whatever --workers says
      try (DataLoader<List<Tensor>> trainLoader = DataLoader.builder(trainImages).batchSize(o.batchSize()).shuffle(true).generator(g)
               .numWorkers(o.workers()).build();
           DataLoader<List<Tensor>> testLoader = DataLoader.builder(new FashionImages(test, false, o.seed())).batchSize(1000)
               .numWorkers(o.workers()).build()) {
        train(o, model, opt, trainImages, trainLoader, testLoader, metrics);
      }
    }
  }

  /** The epochs: train, step the schedule, evaluate, report; then the peak memory and the files. */
  private static void train(Options o, Module model, Optimizer opt, FashionImages trainImages, DataLoader<List<Tensor>> trainLoader,
                            DataLoader<List<Tensor>> testLoader, Metrics metrics) throws java.io.IOException {
    long nTrain = trainImages.size(), nTest = testLoader.dataset().size();
    LRScheduler schedule = o.schedule().equals("cosine") ? new CosineAnnealingLR(opt, o.epochs(), 0) : null;
    System.out.printf(Locale.ROOT, "Fashion-MNIST (%s): %d training, %d test images; model %s, %s lr %g weight decay %g (%s), batch %d, "
        + "%d threads, %d loader workers%s%n", o.data() == null ? "bundled sample" : o.data(), nTrain, nTest, o.model(), o.optimizer(), o.lr(),
        o.weightDecay(), o.schedule(), o.batchSize(), Threads.getNumThreads(), o.workers(), o.augment() ? ", augmented" : "");
    Memory.resetPeakMemoryStats(Device.CPU);
    for (int epoch = 1; epoch <= o.epochs(); epoch++) {
      long start = System.nanoTime();
      trainImages.setEpoch(epoch);
      double trainLoss = trainEpoch(model, opt, trainLoader, epoch, o.epochs());
      double seconds = (System.nanoTime() - start) / 1e9;
      if (schedule != null) schedule.step();
      double[] eval = evaluate(model, testLoader);
      metrics.add(new Metrics.Epoch(epoch, trainLoss, eval[0], eval[1], seconds, nTrain / seconds));
      System.out.printf(Locale.ROOT, "epoch %d: train loss %.4f, test loss %.4f, test accuracy %.2f%%, %.1f s, %.0f images/s%n",
          epoch, trainLoss, eval[0], 100 * eval[1], seconds, nTrain / seconds);
    }
    long peak = Memory.maxMemoryAllocated(Device.CPU);
    System.out.printf(Locale.ROOT, "peak allocated memory: %.1f MiB (allocator reserved %.1f MiB)%n", peak / 1048576.0,
        Memory.memoryReserved(Device.CPU) / 1048576.0);
    metrics.write(o.out(), o.model(), peak);
    System.out.println("wrote " + o.out().resolve("metrics.csv") + ", metrics.json and curves.png");
  }

  static Optimizer optimizer(Options o, List<Tensor> params) {
    switch (o.optimizer()) {
      case "sgd": return new SGD(params, o.lr(), 0.9, 0, o.weightDecay(), false);
      case "adamw": return new AdamW(params, o.lr(), o.weightDecay());
      default: return new Adam(params, o.lr(), 0.9, 0.999, 1e-8, o.weightDecay());
    }
  }

  /** One pass over the training images in the loader's fresh random order; returns the mean loss. */
  private static double trainEpoch(Module model, Optimizer opt, DataLoader<List<Tensor>> loader, int epoch, int epochs) {
    model.train();
    double lossSum = 0;
    long seen = 0, start = System.nanoTime();
    try (BatchIterator batches = loader.iterator();
         ProgressBar bar = Bars.bar("epoch " + epoch + "/" + epochs, loader.size()).build()) {
      while (batches.hasNext()) {
        Batch b = batches.next();  // lent: the iterator closes it when it moves on
        long len = b.get(1).size(0);
        opt.zeroGrad();
        try (TensorScope s = TensorScope.open()) {  // the step's every tensor: activations, graph, loss
          Tensor loss = Functional.crossEntropy(model.forward(b.get(0)), b.get(1));
          loss.backward();
          lossSum += loss.item() * len;
        }
        opt.step();
        seen += len;
        double rate = seen / ((System.nanoTime() - start) / 1e9);
        bar.step();
        bar.setExtraMessage(String.format(Locale.ROOT, " loss %.4f | %.0f img/s", lossSum / seen, rate));
      }
    }
    return lossSum / seen;
  }

  /** Mean loss and accuracy on a split, without recording. */
  private static double[] evaluate(Module model, DataLoader<List<Tensor>> loader) {
    model.eval();
    double loss = 0;
    long correct = 0, n = 0;
    try (GradMode.Scope off = GradMode.noGrad()) {
      for (Batch b : loader) {
        try (TensorScope s = TensorScope.open()) {
          Tensor x = b.get(0), y = b.get(1);
          Tensor logits = model.forward(x);
          loss += Functional.crossEntropy(logits, y).item() * y.size(0);
          correct += (long) logits.argmax(1, false).eq(y).sum().item();
          n += y.size(0);
        }
      }
    }
    return new double[] {loss / n, (double) correct / n};
  }
}
