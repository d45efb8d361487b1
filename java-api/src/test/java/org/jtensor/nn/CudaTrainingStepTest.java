package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.jtensor.CudaAccounting;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.optim.Adam;
import org.jtensor.optim.Optimizer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The main job's models (the MLP 784-256-128-10 at batch 128, the CNN at batch 32; Adam) trained
 * for a few steps on the CPU by their modules and on cuda:0 from copies of the same initial
 * parameters (tag cuda): every step's loss and the final parameters agree, so forward (linear,
 * conv2d, max pooling), cross entropy, backward and Adam run on CUDA as on the CPU. Skipped, with
 * the reason, where CUDA is unavailable.
 */
@Tag("cuda")
@ExtendWith(CudaAccounting.class)
class CudaTrainingStepTest {
  private static final Device GPU = CudaAccounting.device();

  /** The MLP's forward written with its parameters (0.weight, 0.bias, 2.weight, ...) wherever they live. */
  private static Tensor mlp(List<Tensor> p, Tensor x) {
    Tensor h = Functional.linear(x, p.get(0), p.get(1)).relu();
    h = Functional.linear(h, p.get(2), p.get(3)).relu();
    return Functional.linear(h, p.get(4), p.get(5));
  }

  /** The CNN's (conv16-pool-conv32-pool-fc128-fc10) likewise. */
  private static Tensor cnn(List<Tensor> p, Tensor x) {
    Tensor h = Functional.maxPool2d(Functional.conv2d(x, p.get(0), p.get(1), 1, 1).relu(), 2);
    h = Functional.maxPool2d(Functional.conv2d(h, p.get(2), p.get(3), 1, 1).relu(), 2).flatten(1, 3);
    h = Functional.linear(h, p.get(4), p.get(5)).relu();
    return Functional.linear(h, p.get(6), p.get(7));
  }

  private static double step(Function<Tensor, Tensor> forward, Tensor x, Tensor y, Optimizer opt) {
    opt.zeroGrad();
    double loss;
    try (TensorScope s = TensorScope.open()) {
      Tensor l = Functional.crossEntropy(forward.apply(x), y);
      l.backward();
      loss = l.item();
    }
    opt.step();
    return loss;
  }

  /** Five Adam steps of net on the CPU and of forward over copies of its parameters on CUDA: losses and parameters agree. */
  private static void trainsAlike(Module net, BiFunction<List<Tensor>, Tensor, Tensor> forward, long[] inputShape, Generator g) {
    try (TensorScope s = TensorScope.open(); net) {
      Tensor x = Tensor.randn(inputShape, DType.FLOAT32, g), y = Tensor.randint(0, 10, new long[] {inputShape[0]}, g);
      List<Tensor> onGpu = new ArrayList<>();
      for (Tensor p : net.parameters()) onGpu.add(p.detach().clone().to(GPU).requiresGrad_());  // a copy in a dry run too
      Tensor gx = x.to(GPU), gy = y.to(GPU);
      try (Adam cpuOpt = new Adam(net.parameters(), 1e-3); Adam gpuOpt = new Adam(onGpu, 1e-3)) {
        double first = 0, last = 0;
        for (int i = 0; i < 5; i++) {
          double want = step(net::forward, x, y, cpuOpt), got = step(in -> forward.apply(onGpu, in), gx, gy, gpuOpt);
          assertEquals(want, got, 1e-4 * Math.abs(want), "loss at step " + i);
          if (i == 0) first = got;
          last = got;
        }
        assertTrue(last < first, "the loss falls on CUDA: " + first + " -> " + last);
        for (int i = 0; i < onGpu.size(); i++) {
          try (Tensor back = onGpu.get(i).cpu()) {
            assertTrue(net.parameters().get(i).allclose(back, 1e-3, 1e-4), "parameter " + i + " after 5 steps");
          }
        }
      }
    }
  }

  @Test
  void anMlpTrainsOnCudaAsOnTheCpu() {
    Generator g = new Generator(0);
    trainsAlike(new Sequential(new Linear(784, 256, g), new ReLU(), new Linear(256, 128, g), new ReLU(), new Linear(128, 10, g)),
        CudaTrainingStepTest::mlp, new long[] {128, 784}, g);
  }

  @Test
  void aCnnTrainsOnCudaAsOnTheCpu() {
    Generator g = new Generator(1);
    trainsAlike(new Sequential(new Conv2d(1, 16, 3, 1, 1, g), new ReLU(), new MaxPool2d(2), new Conv2d(16, 32, 3, 1, 1, g),
        new ReLU(), new MaxPool2d(2), new Flatten(), new Linear(32 * 7 * 7, 128, g), new ReLU(), new Linear(128, 10, g)),
        CudaTrainingStepTest::cnn, new long[] {32, 1, 28, 28}, g);
  }
}
