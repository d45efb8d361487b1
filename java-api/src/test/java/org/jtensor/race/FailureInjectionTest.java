package org.jtensor.race;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.core.DeviceMemory;
import org.jtensor.io.Tensors;
import org.jtensor.memory.Memory;
import org.jtensor.memory.TensorOutOfMemoryException;
import org.jtensor.nn.BatchNorm1d;
import org.jtensor.nn.BatchNorm2d;
import org.jtensor.nn.Conv2d;
import org.jtensor.nn.Embedding;
import org.jtensor.nn.Functional;
import org.jtensor.nn.LayerNorm;
import org.jtensor.nn.Linear;
import org.jtensor.nn.Module;
import org.jtensor.nn.ReLU;
import org.jtensor.nn.Sequential;
import org.jtensor.optim.Adam;
import org.jtensor.optim.AdamW;
import org.jtensor.optim.Optimizer;
import org.jtensor.optim.SGD;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 18, point 2: the n-th allocation fails (DeviceMemory.failNthAllocation), for every n in
 * turn until the work runs through without reaching it. After each failure, once memory is back,
 * the work must go on exactly as if the failure had never happened (a training step gives the
 * reference run's parameters, a file loads what was saved) and, once every handle is closed, no
 * byte is left (MemoryAccounting checks each test; each round also checks its own).
 */
class FailureInjectionTest {
  @AfterEach
  void disarm() {
    DeviceMemory.failNthAllocation(0);
  }

  private static Module mlp() {
    Generator g = new Generator(5);
    return new Sequential(new Linear(12, 16, g), new ReLU(), new Linear(16, 4, g));
  }

  /** One training step of model with opt on a fixed batch; true when it ran to the end. */
  private static void trainStep(Module model, Optimizer opt, Tensor x, Tensor y) {
    opt.zeroGrad();
    try (TensorScope s = TensorScope.open()) {
      Functional.crossEntropy(model.forward(x), y).backward();
    }
    opt.step();
  }

  private static List<float[]> values(Module m) {
    List<float[]> v = new ArrayList<>();
    for (Tensor p : m.parameters()) v.add(p.toFloatArray());
    return v;
  }

  private static void assertSameValues(String what, List<float[]> want, List<float[]> got) {
    assertEquals(want.size(), got.size(), what);
    for (int i = 0; i < want.size(); i++) org.junit.jupiter.api.Assertions.assertArrayEquals(want.get(i), got.get(i), what + ": parameter " + i);
  }

  private static void trainingGoesOnAfterEveryFailure(String name, java.util.function.Function<List<Tensor>, Optimizer> make) {
    Generator g = new Generator(9);
    try (Tensor x = Tensor.randn(new long[] {8, 12}, DType.FLOAT32, g); Tensor y = Tensor.randint(0, 4, new long[] {8}, g)) {
      // the reference: three clean steps
      List<float[]> want;
      try (Module ref = mlp(); Optimizer opt = make.apply(ref.parameters())) {
        for (int i = 0; i < 3; i++) trainStep(ref, opt, x, y);
        want = values(ref);
      }
      int failures = FailureInjection.everyFailure(name + " training step", n -> {
        try (Module model = mlp(); Optimizer opt = make.apply(model.parameters())) {
          // the failure lands in one of the three steps: the first makes the optimizer's state, the
          // others have state to keep whole
          DeviceMemory.failNthAllocation(n);
          for (int done = 0; done < 3; ) {
            try {
              trainStep(model, opt, x, y);
              done++;
            } catch (TensorOutOfMemoryException e) {
              DeviceMemory.failNthAllocation(0);  // memory is back: the failed step is taken again, from its start
            }
          }
          assertSameValues(name + " after allocation " + n + " failed", want, values(model));
        }
      });
      assertTrue(failures > 30, name + ": only " + failures + " allocations in the three steps");
    }
  }

  @Test
  void adamTrainsOnAfterEveryFailure() {
    trainingGoesOnAfterEveryFailure("Adam", p -> new Adam(p, 1e-2));
  }

  @Test
  void adamWAndSgdTrainOnAfterEveryFailure() {
    trainingGoesOnAfterEveryFailure("AdamW", p -> new AdamW(p, 1e-2, 0.1));
    trainingGoesOnAfterEveryFailure("SGD", p -> new SGD(p, 1e-2, 0.9, 0, 1e-3, true));
  }

  @Test
  void ptSaveAndLoadGoOnAfterEveryFailure(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("w.pt");
    try (Tensor a = Tensor.randn(new long[] {40, 30}, DType.FLOAT32, new Generator(1)); Tensor b = Tensor.arange(100);
         Tensor b2 = b.reshape(10, 10); Tensor bt = b2.t()) {
      Map<String, Tensor> saved = new LinkedHashMap<>();
      saved.put("a", a);
      saved.put("b", bt);
      int failures = FailureInjection.everyFailure("pt save/load", n -> {
        try {
          DeviceMemory.failNthAllocation(n);
          try {
            Tensors.save(saved, file);
            Tensors.closeAll(Tensors.load(file));
          } catch (TensorOutOfMemoryException e) {
            DeviceMemory.failNthAllocation(0);
            Tensors.save(saved, file);
          }
          Map<String, Tensor> back = Tensors.load(file);
          try {
            assertTrue(back.get("a").equal(a) && back.get("b").equal(bt), "pt after allocation " + n + " failed");
          } finally {
            Tensors.closeAll(back);
          }
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
      assertTrue(failures >= 2, "pt: only " + failures + " allocations");
      assertTrue(Files.size(file) > 4000);
    }
  }

  @Test
  void everyModuleConstructorLeavesNothingWhenItFails() {
    Map<String, Supplier<Module>> modules = new LinkedHashMap<>();
    modules.put("Linear", () -> new Linear(6, 5, new Generator(1)));
    modules.put("Conv2d", () -> new Conv2d(3, 4, 3, 1, 1, new Generator(1)));
    modules.put("Embedding", () -> new Embedding(10, 4, new Generator(1)));
    modules.put("LayerNorm", () -> new LayerNorm(4, 5));
    modules.put("BatchNorm1d", () -> new BatchNorm1d(7));
    modules.put("BatchNorm2d", () -> new BatchNorm2d(7));
    for (Map.Entry<String, Supplier<Module>> e : modules.entrySet()) {
      int failures = FailureInjection.everyFailure(e.getKey() + "()", n -> {
        DeviceMemory.failNthAllocation(n);
        e.getValue().get().close();
      });
      assertTrue(failures >= 1, e.getKey() + ": no allocation to fail");
    }
  }
}
