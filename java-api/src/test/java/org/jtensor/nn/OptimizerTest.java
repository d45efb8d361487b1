package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jtensor.Device;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.memory.LeakDetector;
import org.jtensor.memory.Memory;
import org.jtensor.optim.Adam;
import org.jtensor.optim.AdamW;
import org.jtensor.optim.CosineAnnealingLR;
import org.jtensor.optim.Optimizer;
import org.jtensor.optim.SGD;
import org.jtensor.optim.StepLR;
import org.junit.jupiter.api.Test;

/** The update formulas against PyTorch's, written out in plain Java, and a training loop's memory. */
class OptimizerTest {
  /** Three steps on f(p) = Σ p², whose gradient is 2p, against the same updates in doubles. */
  private static double[] run(java.util.function.Function<List<Tensor>, Optimizer> make) {
    try (Tensor p = Tensor.fromArray(new double[] {1.0, -2.0}).requiresGrad_(); Optimizer opt = make.apply(List.of(p))) {
      for (int i = 0; i < 3; i++) {
        opt.zeroGrad();
        try (TensorScope s = TensorScope.open()) {
          p.mul(p).sum().backward();
        }
        opt.step();
      }
      return p.toDoubleArray();
    }
  }

  @Test
  void sgdWithMomentumNesterovAndWeightDecay() {
    double lr = 0.1, mom = 0.9, wd = 0.01;
    double[] got = run(ps -> new SGD(ps, lr, mom, 0, wd, true));
    double[] p = {1.0, -2.0}, buf = new double[2];
    for (int step = 0; step < 3; step++) {
      for (int i = 0; i < 2; i++) {
        double g = 2 * p[i] + wd * p[i];
        buf[i] = step == 0 ? g : mom * buf[i] + g;
        p[i] -= lr * (g + mom * buf[i]);
      }
    }
    assertEquals(p[0], got[0], 1e-12);
    assertEquals(p[1], got[1], 1e-12);
  }

  @Test
  void adamAndAdamW() {
    double lr = 0.05, b1 = 0.9, b2 = 0.999, eps = 1e-8, wd = 0.1;
    for (boolean decoupled : new boolean[] {false, true}) {
      double[] got = run(ps -> decoupled ? new AdamW(ps, lr, b1, b2, eps, wd) : new Adam(ps, lr, b1, b2, eps, wd));
      double[] p = {1.0, -2.0}, m = new double[2], v = new double[2];
      for (int t = 1; t <= 3; t++) {
        for (int i = 0; i < 2; i++) {
          double g = 2 * p[i];
          if (decoupled) p[i] *= 1 - lr * wd;
          else g += wd * p[i];
          m[i] = b1 * m[i] + (1 - b1) * g;
          v[i] = b2 * v[i] + (1 - b2) * g * g;
          double mhat = m[i] / (1 - Math.pow(b1, t)), denom = Math.sqrt(v[i]) / Math.sqrt(1 - Math.pow(b2, t)) + eps;
          p[i] -= lr * mhat / denom * (1 - Math.pow(b1, t)) / (1 - Math.pow(b1, t));
        }
      }
      assertEquals(p[0], got[0], 1e-12, decoupled ? "AdamW" : "Adam");
      assertEquals(p[1], got[1], 1e-12, decoupled ? "AdamW" : "Adam");
    }
  }

  @Test
  void schedulers() {
    try (Tensor p = Tensor.ones(1).requiresGrad_(); SGD opt = new SGD(List.of(p), 1.0)) {
      StepLR step = new StepLR(opt, 2, 0.5);
      step.step();
      assertEquals(1.0, opt.lr(), 0);
      step.step();
      assertEquals(0.5, opt.lr(), 0);
      // a second scheduler scales the optimizer's initial lr (1.0), in closed form; PyTorch's
      // recursive form would scale the current 0.5 when two schedulers drive one optimizer at once
      CosineAnnealingLR cos = new CosineAnnealingLR(opt, 4, 0.0);
      assertEquals(1.0, opt.lr(), 0);
      cos.step();
      assertEquals((1 + Math.cos(Math.PI / 4)) / 2, opt.lr(), 1e-12);
    }
  }

  /** A small MLP trained on a separable problem: the loss falls, and every step's memory is given back. */
  @Test
  void trainingStepsHoldFlatMemory() {
    Generator g = new Generator(42);
    long leaks = LeakDetector.leaksReported();
    try (Sequential model = new Sequential(new Linear(8, 32, g), new ReLU(), new Linear(32, 4, g));
         Adam opt = new Adam(model.parameters(), 0.01);
         Tensor x = Tensor.randn(new long[] {64, 8}, g);
         Tensor first4 = x.narrow(1, 0, 4);
         Tensor y = first4.argmax(1, false)) {
      double first = 0, last = 0;
      long allocatedAt10 = 0, reservedAt10 = 0;
      for (int step = 0; step < 200; step++) {
        opt.zeroGrad();
        try (TensorScope s = TensorScope.open()) {
          Tensor loss = Functional.crossEntropy(model.forward(x), y);
          loss.backward();
          if (step == 0) first = loss.item();
          last = loss.item();
        }
        opt.step();
        if (step == 10) {
          allocatedAt10 = Memory.memoryAllocated(Device.CPU);
          reservedAt10 = Memory.memoryReserved(Device.CPU);
        }
      }
      assertTrue(last < first / 4, "the loss falls: " + first + " -> " + last);
      assertEquals(allocatedAt10, Memory.memoryAllocated(Device.CPU), "allocated bytes are flat after the first steps");
      assertEquals(reservedAt10, Memory.memoryReserved(Device.CPU), "reserved bytes are flat after the first steps");
    }
    assertEquals(leaks, LeakDetector.leaksReported());
  }
}
