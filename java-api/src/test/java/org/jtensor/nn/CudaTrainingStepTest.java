package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
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
 * The main job's MLP (784-256-128-10, Adam, batch 128) trained for a few steps on the CPU by its
 * modules and on cuda:0 from copies of the same initial parameters (tag cuda): every step's loss
 * and the final parameters agree, so forward, cross entropy, backward and Adam run on CUDA as on
 * the CPU. Skipped, with the reason, where CUDA is unavailable.
 */
@Tag("cuda")
@ExtendWith(CudaAccounting.class)
class CudaTrainingStepTest {
  private static final Device GPU = CudaAccounting.device();

  /** The Sequential's forward written with its parameters (0.weight, 0.bias, 2.weight, ...) wherever they live. */
  private static Tensor mlp(List<Tensor> p, Tensor x) {
    Tensor h = Functional.linear(x, p.get(0), p.get(1)).relu();
    h = Functional.linear(h, p.get(2), p.get(3)).relu();
    return Functional.linear(h, p.get(4), p.get(5));
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

  @Test
  void anMlpTrainsOnCudaAsOnTheCpu() {
    Generator g = new Generator(0);
    try (TensorScope s = TensorScope.open();
         Module net = new Sequential(new Linear(784, 256, g), new ReLU(), new Linear(256, 128, g), new ReLU(), new Linear(128, 10, g))) {
      Tensor x = Tensor.randn(new long[] {128, 784}, DType.FLOAT32, g), y = Tensor.randint(0, 10, new long[] {128}, g);
      List<Tensor> onGpu = new ArrayList<>();
      for (Tensor p : net.parameters()) onGpu.add(p.detach().clone().to(GPU).requiresGrad_());  // a copy in a dry run too
      Tensor gx = x.to(GPU), gy = y.to(GPU);
      try (Adam cpuOpt = new Adam(net.parameters(), 1e-3); Adam gpuOpt = new Adam(onGpu, 1e-3)) {
        double first = 0, last = 0;
        for (int i = 0; i < 5; i++) {
          double want = step(net::forward, x, y, cpuOpt), got = step(in -> mlp(onGpu, in), gx, gy, gpuOpt);
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
}
