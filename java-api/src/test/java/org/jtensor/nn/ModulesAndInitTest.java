package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtensor.Generator;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.junit.jupiter.api.Test;

/**
 * Issue 21 point 4's module helpers and initialisers: Module.apply, ModuleDict, Identity,
 * Softmax/LogSoftmax, and torch.nn.init's normal_, constant_, kaiming_normal_, xavier_normal_ and
 * calculate_gain (values from PyTorch 2.13).
 */
class ModulesAndInitTest extends ScopedTest {
  @Test
  void applyVisitsEverySubmoduleThenTheModule() {
    Generator g = new Generator(1);
    try (Sequential net = new Sequential(new Linear(3, 4, g), new ReLU(), new Sequential(new Linear(4, 2, g)))) {
      List<String> seen = new ArrayList<>();
      net.apply(m -> seen.add(m.getClass().getSimpleName()));
      assertEquals(List.of("Linear", "ReLU", "Linear", "Sequential", "Sequential"), seen);
      net.apply(m -> {
        if (m instanceof Linear l) Init.zeros_(l.bias());
      });
      assertArrayEquals(new double[] {0, 0}, ((Linear) ((Sequential) net.namedChildren().get("2")).namedChildren().get("0")).bias()
          .toDoubleArray(), 0);
    }
  }

  @Test
  void moduleDictNamesItsModulesByKey() {
    Map<String, Module> layers = new LinkedHashMap<>();
    layers.put("encoder", new Linear(3, 2, new Generator(2)));
    layers.put("act", new Identity());
    try (ModuleDict<Module> d = new ModuleDict<>(layers)) {
      assertEquals(List.of("encoder.weight", "encoder.bias"), List.copyOf(d.namedParameters().keySet()));
      Tensor x = Tensor.ones(2, 3);
      assertArrayEquals(x.toDoubleArray(), d.get("act").forward(x).toDoubleArray(), 0);
      assertThrows(IllegalArgumentException.class, () -> d.get("decoder"));
      assertThrows(UnsupportedOperationException.class, () -> d.forward(x));
    }
  }

  @Test
  void softmaxModules() {
    Tensor x = Tensor.fromArray(new double[] {1, 2, 3}).reshape(1, 3);
    try (Softmax sm = new Softmax(1); Softmax lsm = Softmax.log(1)) {
      assertArrayEquals(x.softmax(1).toDoubleArray(), sm.forward(x).toDoubleArray(), 0);
      assertArrayEquals(x.logSoftmax(1).toDoubleArray(), lsm.forward(x).toDoubleArray(), 0);
    }
  }

  @Test
  void initialisersDrawWithPyTorchsScales() {
    assertEquals(1.4142135623730951, Init.calculateGain("relu", Double.NaN), 0);
    assertEquals(1.4141428569978354, Init.calculateGain("leaky_relu", Double.NaN), 1e-15);
    assertEquals(1.3867504905630728, Init.calculateGain("leaky_relu", 0.2), 1e-15);
    assertEquals(1.6666666666666667, Init.calculateGain("tanh", Double.NaN), 1e-15);
    assertEquals(0.75, Init.calculateGain("selu", Double.NaN), 0);
    Generator g = new Generator(3);
    Tensor w = Tensor.empty(256, 512);
    Init.kaimingNormal_(w, 0.0, "fan_in", "relu", g);
    double want = Math.sqrt(2.0 / 512);
    assertEquals(want, w.std().item(), want * 0.02, "kaiming normal, fan_in 512, relu");
    Init.kaimingNormal_(w, 0.0, "fan_out", "relu", g);
    assertEquals(Math.sqrt(2.0 / 256), w.std().item(), Math.sqrt(2.0 / 256) * 0.02, "fan_out 256");
    Init.xavierNormal_(w, 2.0, g);
    assertEquals(2.0 * Math.sqrt(2.0 / 768), w.std().item(), 2.0 * Math.sqrt(2.0 / 768) * 0.02);
    Init.constant_(w, 0.5);
    assertEquals(0.5, w.amin().item(), 0);
    assertEquals(0.5, w.amax().item(), 0);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Init.kaimingNormal_(w, 0, "fan_avg", "relu", g));
    assertTrue(e.getMessage().contains("Mode fan_avg not supported"), e.getMessage());
  }
}
