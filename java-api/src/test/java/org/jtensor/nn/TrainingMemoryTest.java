package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.memory.LeakDetector;
import org.jtensor.memory.Memory;
import org.jtensor.optim.Adam;
import org.junit.jupiter.api.Test;

/**
 * The main job's models, stepped many times: after the first steps, allocated_bytes and
 * reserved_bytes stay exactly where they were (every tensor a step makes is closed by the step, and
 * the caching allocator reuses its blocks), and the leak detector reports nothing.
 */
class TrainingMemoryTest {
  private static void assertFlat(Module model, long[] inputShape, int steps, Generator g) {
    long leaks = LeakDetector.leaksReported();
    try (Adam opt = new Adam(model.parameters(), 1e-3);
         Tensor x = Tensor.randn(inputShape, DType.FLOAT32, g);
         Tensor y = Tensor.randint(0, 10, new long[] {inputShape[0]}, g)) {
      long allocated = 0, reserved = 0;
      for (int step = 0; step < steps; step++) {
        opt.zeroGrad();
        try (TensorScope s = TensorScope.open()) {
          Functional.crossEntropy(model.forward(x), y).backward();
        }
        opt.step();
        if (step == 4) {
          allocated = Memory.memoryAllocated(Device.CPU);
          reserved = Memory.memoryReserved(Device.CPU);
        }
      }
      assertEquals(allocated, Memory.memoryAllocated(Device.CPU), "allocated_bytes.all.current after " + steps + " steps");
      assertEquals(reserved, Memory.memoryReserved(Device.CPU), "reserved_bytes.all.current after " + steps + " steps");
    }
    assertEquals(leaks, LeakDetector.leaksReported(), "leaks reported");
  }

  @Test
  void fiveHundredMlpSteps() {
    Generator g = new Generator(1);
    try (Sequential mlp = new Sequential(new Linear(784, 256, g), new ReLU(), new Linear(256, 128, g), new ReLU(),
        new Linear(128, 10, g))) {
      assertFlat(mlp, new long[] {128, 784}, 500, g);
    }
  }

  @Test
  void hundredCnnSteps() {
    Generator g = new Generator(2);
    try (Sequential cnn = new Sequential(new Conv2d(1, 16, 3, 1, 1, g), new ReLU(), new MaxPool2d(2),
        new Conv2d(16, 32, 3, 1, 1, g), new ReLU(), new MaxPool2d(2), new Flatten(), new Linear(32 * 7 * 7, 128, g),
        new ReLU(), new Linear(128, 10, g))) {
      assertFlat(cnn, new long[] {8, 1, 28, 28}, 100, g);
    }
  }
}
