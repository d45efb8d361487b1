package org.jtensor.examples.fashion;

import java.util.List;
import java.util.Locale;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import org.jtensor.Device;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.Threads;
import org.jtensor.autograd.GradMode;
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
 * optim, and reports per-epoch train loss and test accuracy, images per second and the
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
    Generator g = new Generator(o.seed());
    Metrics metrics = new Metrics();
    try (Idx.Split train = Idx.load(o.data(), "train"); Idx.Split test = Idx.load(o.data(), "t10k");
         Module model = Models.create(o.model(), g); Optimizer opt = optimizer(o, model.parameters())) {
      LRScheduler schedule = o.schedule().equals("cosine") ? new CosineAnnealingLR(opt, o.epochs(), 0) : null;
      System.out.printf(Locale.ROOT, "Fashion-MNIST (%s): %d training, %d test images; model %s, %s lr %g (%s), batch %d, %d threads%n",
          o.data() == null ? "bundled sample" : o.data(), train.size(), test.size(), o.model(), o.optimizer(), o.lr(),
          o.schedule(), o.batchSize(), Threads.getNumThreads());
      Memory.resetPeakMemoryStats(Device.CPU);
      for (int epoch = 1; epoch <= o.epochs(); epoch++) {
        long start = System.nanoTime();
        double trainLoss = trainEpoch(model, opt, train, o.batchSize(), g, epoch, o.epochs());
        double seconds = (System.nanoTime() - start) / 1e9;
        if (schedule != null) schedule.step();
        double[] eval = evaluate(model, test, 1000);
        metrics.add(new Metrics.Epoch(epoch, trainLoss, eval[0], eval[1], seconds, train.size() / seconds));
        System.out.printf(Locale.ROOT, "epoch %d: train loss %.4f, test loss %.4f, test accuracy %.2f%%, %.1f s, %.0f images/s%n",
            epoch, trainLoss, eval[0], 100 * eval[1], seconds, train.size() / seconds);
      }
      long peak = Memory.maxMemoryAllocated(Device.CPU);
      System.out.printf(Locale.ROOT, "peak allocated memory: %.1f MiB (allocator reserved %.1f MiB)%n", peak / 1048576.0,
          Memory.memoryReserved(Device.CPU) / 1048576.0);
      metrics.write(o.out(), o.model(), peak);
      System.out.println("wrote " + o.out().resolve("metrics.csv") + ", metrics.json and curves.png");
    }
  }

  private static Optimizer optimizer(Options o, List<Tensor> params) {
    switch (o.optimizer()) {
      case "sgd": return new SGD(params, o.lr(), 0.9);
      case "adamw": return new AdamW(params, o.lr());
      default: return new Adam(params, o.lr());
    }
  }

  /** One pass over the training images in a fresh random order; returns the mean loss. */
  private static double trainEpoch(Module model, Optimizer opt, Idx.Split train, int batch, Generator g, int epoch, int epochs) {
    model.train();
    long n = train.size();
    long batches = (n + batch - 1) / batch;
    double lossSum = 0;
    long seen = 0, start = System.nanoTime();
    try (Tensor order = Tensor.randperm(n, g);
         ProgressBar bar = new ProgressBarBuilder().setTaskName("epoch " + epoch + "/" + epochs).setInitialMax(batches)
             .setStyle(ProgressBarStyle.ASCII).continuousUpdate().build()) {
      for (long b = 0; b < batches; b++) {
        long from = b * batch, len = Math.min(batch, n - from);
        opt.zeroGrad();
        try (TensorScope s = TensorScope.open()) {  // the step's every tensor: batch, activations, graph, loss
          Tensor idx = order.narrow(0, from, len);
          Tensor x = train.images().indexSelect(0, idx);
          Tensor y = train.labels().indexSelect(0, idx);
          Tensor loss = Functional.crossEntropy(model.forward(x), y);
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
    return lossSum / n;
  }

  /** Mean loss and accuracy on a split, without recording. */
  private static double[] evaluate(Module model, Idx.Split split, int batch) {
    model.eval();
    double loss = 0;
    long correct = 0, n = split.size();
    try (GradMode.Scope off = GradMode.noGrad()) {
      for (long from = 0; from < n; from += batch) {
        long len = Math.min(batch, n - from);
        try (TensorScope s = TensorScope.open()) {
          Tensor x = split.images().narrow(0, from, len);
          Tensor y = split.labels().narrow(0, from, len);
          Tensor logits = model.forward(x);
          loss += Functional.crossEntropy(logits, y).item() * len;
          correct += (long) logits.argmax(1, false).eq(y).sum().item();
        }
      }
    }
    return new double[] {loss / n, (double) correct / n};
  }
}
