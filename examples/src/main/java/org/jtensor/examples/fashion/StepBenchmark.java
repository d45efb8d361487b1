package org.jtensor.examples.fashion;

import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.examples.Steady;
import org.jtensor.nn.Functional;
import org.jtensor.nn.Module;
import org.jtensor.optim.Optimizer;

/**
 * The main job's training step timed on a random batch (--benchmark): the model's forward pass with
 * the loss, its backward and the optimizer step, each a median of 40 steps after a warm-up of 100
 * steps and at least 20 seconds ({@link Steady}). benchmarks/peers/torch_fashion_mnist.py
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
      Steady warmUp = Steady.warmUp(WARM_UP);
      for (int r = 0, done = 0; done < ROUNDS; r++) {
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
        if (warmUp.over(r, t0)) {
          forward[done] = (t1 - t0) / 1e6;
          backward[done] = (t2 - t1) / 1e6;
          step[done++] = (t3 - t0) / 1e6;
        }
      }
      System.out.printf("jtensor step %s forward %.2f backward %.2f step %.2f ms%n", o.model(), Steady.median(forward), Steady.median(backward),
          Steady.median(step));
    }
  }
}
