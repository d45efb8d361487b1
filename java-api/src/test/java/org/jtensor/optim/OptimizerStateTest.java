package org.jtensor.optim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jtensor.PtFixture;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.jtensor.io.Tensors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Optimizer state dicts in PyTorch's layout and the schedulers' rates, against PyTorch 2.13
 * (resources/optim/fixtures.pt from make_fixtures.py beside it): PyTorch's AdamW and SGD state
 * loaded mid-run continue to PyTorch's parameters; jtensor's own state saved as .pt, loaded back
 * and continued equals the run that never stopped; bad states are refused whole.
 */
class OptimizerStateTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture fixtures = new PtFixture("/optim/fixtures.pt");
  @TempDir Path dir;

  private static Tensor f(String name) {
    return fixtures.tensor(name);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> state(String name) {
    return (Map<String, Object>) fixtures.get(name + ".state");
  }

  private static final Map<String, Function<List<Tensor>, Optimizer>> MAKERS = Map.of(
      "adamw", ps -> new AdamW(ps, 0.01, 0.8, 0.95, 1e-8, 0.1),
      "sgd", ps -> new SGD(ps, 0.1, 0.9, 0, 0, true));

  /** steps from..to-1 with PyTorch's gradients (g·(i + 1)). */
  private static void steps(Optimizer opt, Tensor p0, Tensor p1, int from, int to) {
    for (int i = from; i < to; i++) {
      p0.setGrad(f("g0").mul(i + 1));
      p1.setGrad(f("g1").mul(i + 1));
      opt.step();
    }
  }

  @Test
  void pyTorchsStateLoadsAndContinuesAsPyTorch() {
    for (String name : MAKERS.keySet()) {
      Tensor p0 = f(name + ".p0").clone().requiresGrad_(), p1 = f(name + ".p1").clone().requiresGrad_();
      try (Optimizer opt = MAKERS.get(name).apply(List.of(p0, p1))) {
        opt.loadStateDict(state(name));
        steps(opt, p0, p1, 3, 5);
        assertArrayEquals(f(name + ".after0").toDoubleArray(), p0.toDoubleArray(), 1e-6, name);
        assertArrayEquals(f(name + ".after1").toDoubleArray(), p1.toDoubleArray(), 1e-6, name);
      }
    }
  }

  @Test
  void ownStateSavedAsPtResumesBitForBit() throws Exception {
    for (String name : MAKERS.keySet()) {
      Tensor a0 = f(name + ".p0").clone().requiresGrad_(), a1 = f(name + ".p1").clone().requiresGrad_();
      Tensor b0 = a0.detach().clone().requiresGrad_(), b1 = a1.detach().clone().requiresGrad_();
      try (Optimizer straight = MAKERS.get(name).apply(List.of(a0, a1)); Optimizer resumed = MAKERS.get(name).apply(List.of(b0, b1))) {
        steps(straight, a0, a1, 0, 3);
        Map<String, Object> saved = straight.stateDict();
        Map<?, ?> group = (Map<?, ?>) ((List<?>) saved.get("param_groups")).get(0);
        assertEquals(List.of(0L, 1L), group.get("params"));
        Path file = dir.resolve(name + ".pt");
        Tensors.saveObject(saved, file);
        Tensors.closeAll(saved);
        b0.detach().copy_(a0.detach());
        b1.detach().copy_(a1.detach());
        @SuppressWarnings("unchecked")
        Map<String, Object> back = (Map<String, Object>) Tensors.loadObject(file);
        resumed.loadStateDict(back);
        Tensors.closeAll(back);
        steps(straight, a0, a1, 3, 5);
        steps(resumed, b0, b1, 3, 5);
        assertArrayEquals(a0.toDoubleArray(), b0.toDoubleArray(), 0, name);
        assertArrayEquals(a1.toDoubleArray(), b1.toDoubleArray(), 0, name);
      }
    }
  }

  @Test
  void aStateThatDoesNotFitIsRefusedBeforeAnythingChanges() {
    Tensor p0 = Tensor.zeros(3, 4).requiresGrad_(), other = Tensor.zeros(5).requiresGrad_();
    try (Optimizer adam = new AdamW(List.of(p0, other), 0.5); Optimizer sgd = new SGD(List.of(p0, other), 0.5)) {
      String m = assertThrows(IllegalArgumentException.class, () -> adam.loadStateDict(state("adamw"))).getMessage();
      assertTrue(m.contains("'exp_avg' of shape [4] does not fit the parameter of shape [5]"), m);
      assertEquals(0.5, adam.lr(), "nothing changed");
      m = assertThrows(IllegalArgumentException.class, () -> new Adam(List.of(p0, other), 0.5).loadStateDict(state("adamw"))).getMessage();
      assertTrue(m.contains("this optimizer is Adam"), m);
      m = assertThrows(IllegalArgumentException.class, () -> sgd.loadStateDict(state("adamw"))).getMessage();
      assertTrue(m.contains("momentum"), m);
      m = assertThrows(IllegalArgumentException.class, () -> sgd.loadStateDict(Map.of("state", Map.of()))).getMessage();
      assertTrue(m.contains("param_groups"), m);
    }
  }

  @Test
  void oneCycleCyclesTheRateAndTheMomentumAsPyTorch() {
    Tensor p = Tensor.zeros(1).requiresGrad_();
    try (SGD opt = new SGD(List.of(p), 0.5, 0.9)) {
      OneCycleLR s = new OneCycleLR(opt, 0.8, 30);
      double[] lr = f("lr.onecycle").toDoubleArray(), momentum = f("momentum.onecycle").toDoubleArray();
      assertEquals(lr[0], opt.lr(), 1e-12);
      for (int i = 1; i < lr.length; i++) {
        s.step();
        assertEquals(lr[i], opt.lr(), 1e-12, "lr at step " + i);
        assertEquals(momentum[i], s.momentumAt(i), 1e-12, "momentum at step " + i);
      }
      s.step();
      assertThrows(IllegalStateException.class, s::step, "past total_steps");
    }
    Tensor q = Tensor.zeros(1).requiresGrad_();
    try (Adam adam = new Adam(List.of(q), 0.1)) {
      new OneCycleLR(adam, 0.8, 30);
      @SuppressWarnings("unchecked")
      List<Object> betas = (List<Object>) java.util.Arrays.asList((Object[]) ((Map<?, ?>) ((List<?>) adam.stateDict().get("param_groups"))
          .get(0)).get("betas"));
      assertEquals(0.95, (Double) betas.get(0), 1e-12, "beta1 starts at max_momentum");
    }
  }

  /** The group entries PyTorch 2.13's OneCycleLR writes (printed by it for SGD(lr 0.1, momentum 0.9), max_lr 1, 10 steps), which its resume reads. */
  @Test
  void oneCycleWritesPyTorchsGroupEntriesAndALoadKeepsThem() {
    Tensor p = Tensor.zeros(2).requiresGrad_();
    try (SGD opt = new SGD(List.of(p), 0.1, 0.9); SGD again = new SGD(List.of(p), 0.1, 0.9)) {
      new OneCycleLR(opt, 1.0, 10);
      Map<?, ?> group = (Map<?, ?>) ((List<?>) opt.stateDict().get("param_groups")).get(0);
      Map<String, Double> want = Map.of("initial_lr", 0.04, "max_lr", 1.0, "min_lr", 4e-06, "max_momentum", 0.95, "base_momentum", 0.85);
      for (Map.Entry<String, Double> e : want.entrySet()) assertEquals(e.getValue(), (Double) group.get(e.getKey()), 1e-15, e.getKey());
      assertEquals(0.040000000000000036, (Double) group.get("lr"), 1e-15);
      again.loadStateDict(opt.stateDict());
      Map<?, ?> loaded = (Map<?, ?>) ((List<?>) again.stateDict().get("param_groups")).get(0);
      for (String key : want.keySet()) assertEquals(group.get(key), loaded.get(key), key + " survives a load");
    }
    try (AdamW adamw = new AdamW(List.of(p), 0.1)) {
      new OneCycleLR(adamw, 1.0, 10, 0.3, "cos", false, 0.85, 0.95, 25, 1e4);
      Map<?, ?> group = (Map<?, ?>) ((List<?>) adamw.stateDict().get("param_groups")).get(0);
      assertEquals(1.0, (Double) group.get("max_lr"));
      assertTrue(!group.containsKey("max_momentum") && !group.containsKey("base_momentum"), "no momentum entries without cycle_momentum");
    }
  }

  @Test
  void schedulersGivePyTorchsRates() {
    Map<String, Function<Optimizer, LRScheduler>> makers = Map.of(
        "lambda", o -> new LambdaLR(o, e -> Math.pow(0.95, e)),
        "linear", o -> new LinearLR(o, 0.1, 1.0, 10),
        "step", o -> new StepLR(o, 7, 0.5),
        "cosine", o -> new CosineAnnealingLR(o, 30, 0.01),
        "sequential", o -> new SequentialLR(o, List.of(new LinearLR(o, 0.1, 1.0, 10), new CosineAnnealingLR(o, 20, 0.0)), new int[] {10}));
    for (Map.Entry<String, Function<Optimizer, LRScheduler>> e : makers.entrySet()) {
      Tensor p = Tensor.zeros(1).requiresGrad_();
      try (Optimizer opt = new SGD(List.of(p), 0.5)) {
        LRScheduler s = e.getValue().apply(opt);
        double[] want = f("lr." + e.getKey()).toDoubleArray(), got = new double[want.length];
        got[0] = opt.lr();
        for (int i = 1; i < want.length; i++) {
          s.step();
          got[i] = opt.lr();
        }
        assertArrayEquals(want, got, 1e-12, e.getKey());
        s.setLastEpoch(5);
        assertEquals(want[5], opt.lr(), 1e-12, e.getKey() + " resumed at epoch 5");
      }
    }
  }
}
