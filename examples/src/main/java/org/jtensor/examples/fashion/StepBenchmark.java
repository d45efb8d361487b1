package org.jtensor.examples.fashion;

import java.util.Arrays;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.nn.Functional;
import org.jtensor.nn.Module;
import org.jtensor.optim.Optimizer;

/**
 * The main job's training step timed on a random batch (--benchmark): the model's forward pass with
 * the loss, its backward and the optimizer step, each a median of 40 steps after 100 of warm-up
 * (the JIT compiles the step's path in the first few dozen). benchmarks/peers/torch_fashion_mnist.py
 * --benchmark MODEL times PyTorch's same model the same way; run the two in one command.
 */
final class StepBenchmark {
  private StepBenchmark() {}

  static final int WARM_UP = 100, ROUNDS = 40;

  static void run(Options o) {
    Generator g = new Generator(o.seed());
    try (Module model = Models.create(o.model(), g); Optimizer opt = FashionMnist.optimizer(o, model.parameters());
         Tensor x = Tensor.rand(new long[] {o.batchSize(), 1, 28, 28}, g); Tensor y = Tensor.randint(0, 10, new long[] {o.batchSize()}, g)) {
      double[] forward = new double[ROUNDS], backward = new double[ROUNDS], step = new double[ROUNDS];
      for (int r = 0; r < WARM_UP + ROUNDS; r++) {
        long t0 = System.nanoTime(), t1, t2, t3;
        try (TensorScope s = TensorScope.open()) {
          opt.zeroGrad();
          Tensor loss = Functional.crossEntropy(model.forward(x), y);
          t1 = System.nanoTime();
          loss.backward();
          t2 = System.nanoTime();
          opt.step();
          loss.item();
          t3 = System.nanoTime();
        }
        if (r >= WARM_UP) {
          forward[r - WARM_UP] = (t1 - t0) / 1e6;
          backward[r - WARM_UP] = (t2 - t1) / 1e6;
          step[r - WARM_UP] = (t3 - t0) / 1e6;
        }
      }
      System.out.printf("jtensor step %s forward %.2f backward %.2f step %.2f ms%n", o.model(), median(forward), median(backward), median(step));
    }
  }

  private static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }
}
