package org.jtensor.examples.firstday;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;
import org.jtensor.Device;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.autograd.GradMode;
import org.jtensor.io.Tensors;
import org.jtensor.memory.Memory;
import org.jtensor.nn.Functional;
import org.jtensor.nn.GradClipping;
import org.jtensor.nn.Module;
import org.jtensor.nn.Sequential;
import org.jtensor.optim.AdamW;
import org.jtensor.optim.Optimizer;
import org.jtensor.optim.SGD;
import org.jtensor.optim.StepLR;
import org.junit.jupiter.api.Test;

/**
 * The first-day examples against PyTorch 2.13 (resources/firstday/make_reference.py): the same initial
 * weights and batch, six training steps, then the eval logits. Dropout is off in the CNN's steps on both
 * sides, as its draws are not PyTorch's.
 */
class FirstDayTest {
  @Test
  void theCnnTrainsAsPyTorchsDoes() throws Exception {
    long before = Memory.memoryAllocated(Device.CPU);
    try (Sequential model = SquaresCnn.model()) {
      model.get(9).eval();
      compare("cnn.pt", model, params -> {
        SGD sgd = new SGD(params.parameters(), 0.05, 0.9);
        StepLR sched = new StepLR(sgd, 2, 0.5);
        return new Stepper(sgd, () -> sched.step(), false);
      });
    }
    assertEquals(before, Memory.memoryAllocated(Device.CPU), "every tensor closed, the gradients with the model");
  }

  @Test
  void theEncoderTrainsAsPyTorchsDoes() throws Exception {
    long before = Memory.memoryAllocated(Device.CPU);
    try (SortedEncoder model = new SortedEncoder(32, new Generator(0))) {
      compare("encoder.pt", model, params -> new Stepper(new AdamW(params.parameters(), 3e-3, 0.01), () -> {}, true));
    }
    assertEquals(before, Memory.memoryAllocated(Device.CPU), "every tensor closed, the gradients with the model");
  }

  @Test
  void theExamplesDataHasTheClassesItSays() {
    long before = Memory.memoryAllocated(Device.CPU);
    Tensor[] seqs = SortedEncoder.sequences(64, new Generator(3));
    Tensor[] images = SquaresCnn.squares(16, new Generator(3));
    try (TensorScope s = TensorScope.open()) {
      long[][] ids = seqs[0].toLongArray2d();
      long[] y = seqs[1].toLongArray();
      for (int i = 0; i < ids.length; i++) {
        boolean sorted = true;
        for (int j = 1; j < ids[i].length; j++) sorted &= ids[i][j] == 0 || ids[i][j] >= ids[i][j - 1];
        assertEquals(sorted ? 1 : 0, y[i], "sequence " + i);
      }
      // the brightest pixel of each image lies in the quadrant its class names
      long[] brightest = images[0].flatten().reshape(16, 144).argmax(1).toLongArray();
      long[] cls = images[1].toLongArray();
      for (int i = 0; i < 16; i++) {
        assertEquals(cls[i], brightest[i] / 12 / 6 * 2 + brightest[i] % 12 / 6, "image " + i);
      }
    } finally {
      Tensors.closeAll(java.util.List.of(seqs[0], seqs[1], images[0], images[1]));
    }
    assertEquals(before, Memory.memoryAllocated(Device.CPU), "every tensor closed");
  }

  @Test
  void theTensorTourPrintsWhatPyTorchPrints() throws Exception {
    long before = Memory.memoryAllocated(Device.CPU);
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    java.io.PrintStream stdout = System.out;
    System.setOut(new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8));
    try {
      TensorTour.main(new String[0]);
    } finally {
      System.setOut(stdout);
    }
    String expected = java.nio.file.Files.readString(Path.of(FirstDayTest.class.getResource("/firstday/tour.expected").toURI()));
    assertEquals(expected, out.toString(java.nio.charset.StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n"));
    assertEquals(before, Memory.memoryAllocated(Device.CPU), "every tensor closed");
  }

  private record Stepper(Optimizer opt, Runnable afterStep, boolean clip) {}

  @SuppressWarnings("unchecked")
  private static void compare(String name, Module model, Function<Module, Stepper> make) throws Exception {
    Object loaded = Tensors.loadObject(Path.of(FirstDayTest.class.getResource("/firstday/" + name).toURI()));
    Map<String, Object> ref = (Map<String, Object>) loaded;
    Stepper stepper = make.apply(model);
    try (Optimizer opt = stepper.opt()) {
      model.loadStateDict((Map<String, Tensor>) ref.get("state"));
      Tensor x = (Tensor) ref.get("x"), y = (Tensor) ref.get("y");
      double[] losses = new double[6];
      for (int i = 0; i < losses.length; i++) {
        opt.zeroGrad();
        try (TensorScope s = TensorScope.open()) {
          Tensor loss = Functional.crossEntropy(model.forward(x), y);
          loss.backward();
          if (stepper.clip()) GradClipping.clipGradNorm_(model.parameters(), 1.0).close();
          losses[i] = loss.item();
        }
        opt.step();
        stepper.afterStep().run();
      }
      assertArrayEquals(((Tensor) ref.get("losses")).toDoubleArray(), losses, 1e-4, name + ": PyTorch's losses");
      model.eval();
      try (TensorScope s = TensorScope.open(); GradMode.Scope off = GradMode.noGrad()) {
        assertArrayEquals(((Tensor) ref.get("logits")).toDoubleArray(), model.forward(x).toDoubleArray(), 1e-3,
            name + ": PyTorch's eval logits");
      }
    } finally {
      Tensors.closeAll(loaded);
    }
  }
}
