package org.jtensor.optim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.junit.jupiter.api.Test;

/**
 * Hostile use of the optimizers, their state dicts, the schedulers and GradScaler: failing loads and
 * steps change nothing, the state is the optimizer's own copy, threads and closed tensors get clear
 * Java exceptions, and PyTorch's semantics where it has them.
 */
class StateHostileTest extends ScopedTest {
  private static Tensor param(double... v) {
    return Tensor.fromArray(v).to(DType.FLOAT32).requiresGrad_();
  }

  @SuppressWarnings("unchecked")
  private static void closeTensors(Object o) {
    if (o instanceof Tensor t) t.close();
    else if (o instanceof Map<?, ?> m) m.values().forEach(StateHostileTest::closeTensors);
    else if (o instanceof List<?> l) l.forEach(StateHostileTest::closeTensors);
  }

  private static void stepWith(Optimizer opt, Tensor p, double g) {
    try (Tensor grad = Tensor.full(p.shape(), g, p.dtype())) {
      p.setGrad(grad);
    }
    opt.step();
  }

  @Test
  void itsOwnStateLoadedIntoItselfThenClosedByTheCallerKeepsTheRun() {
    Tensor a = param(1, 2, 3), b = param(1, 2, 3);
    try (Adam reloaded = new Adam(List.of(a), 0.1); Adam plain = new Adam(List.of(b), 0.1)) {
      for (int i = 0; i < 3; i++) {
        stepWith(reloaded, a, i + 1);
        stepWith(plain, b, i + 1);
        Map<String, Object> sd = reloaded.stateDict();
        reloaded.loadStateDict(sd);
        closeTensors(sd);  // the optimizer keeps copies, not the caller's handles
      }
      stepWith(reloaded, a, 7);
      stepWith(plain, b, 7);
      assertArrayEquals(b.toDoubleArray(), a.toDoubleArray(), 0);
    }
  }

  @Test
  void aStateTensorClosedOrOnMetaIsRefusedBeforeAnythingChanges() {
    Tensor p = param(1, 2), q = param(3, 4);
    try (SGD opt = new SGD(List.of(p, q), 0.1, 0.9)) {
      p.setGrad(Tensor.ones(2));
      q.setGrad(Tensor.ones(2));
      opt.step();
      Map<String, Object> good = opt.stateDict();
      for (int bad = 0; bad < 2; bad++) {
        Tensor buffer = bad == 0 ? Tensor.ones(2) : Tensor.ones(new long[] {2}, DType.FLOAT32, Device.META);
        if (bad == 0) buffer.close();
        Map<Object, Object> states = new LinkedHashMap<>();
        states.put(0L, Map.of("momentum_buffer", Tensor.full(new long[] {2}, 42.0)));
        states.put(1L, Map.of("momentum_buffer", buffer));
        Map<String, Object> group = new LinkedHashMap<>(((List<Map<String, Object>>) (List<?>) good.get("param_groups")).get(0));
        group.put("lr", 5.0);
        Map<String, Object> sd = Map.of("state", states, "param_groups", List.of(group));
        assertThrows(RuntimeException.class, () -> opt.loadStateDict(sd));
        assertEquals(0.1, opt.lr(), "nothing changed");
        try (Tensor m = (Tensor) ((Map<?, ?>) ((Map<?, ?>) opt.stateDict().get("state")).get(0L)).get("momentum_buffer")) {
          assertArrayEquals(new double[] {1, 1}, m.toDoubleArray(), "parameter 0's buffer was not replaced");
        }
      }
      closeTensors(good);
    }
  }

  @Test
  void aNullParameterOrBetaIsRefusedByNameNotWithANullPointerException() {
    Tensor w = param(1);
    String m = assertThrows(IllegalArgumentException.class, () -> new SGD(Arrays.asList(w, null), 0.1)).getMessage();
    assertTrue(m.startsWith("SGD(): "), m);
    try (Adam adam = new Adam(List.of(w), 0.1)) {
      Map<String, Object> sd = adam.stateDict();
      Map<String, Object> group = new LinkedHashMap<>(((List<Map<String, Object>>) (List<?>) sd.get("param_groups")).get(0));
      group.put("betas", Arrays.asList(null, 0.999));
      m = assertThrows(IllegalArgumentException.class, () -> adam.loadStateDict(Map.of("state", Map.of(), "param_groups", List.of(group))))
          .getMessage();
      assertTrue(m.contains("betas"), m);
      group.put("betas", new Object[] {null, 0.999});  // the array form, as stateDict() gives it
      m = assertThrows(IllegalArgumentException.class, () -> adam.loadStateDict(Map.of("state", Map.of(), "param_groups", List.of(group))))
          .getMessage();
      assertTrue(m.contains("betas"), m);
    }
  }

  @Test
  void sgdWithNegativeDampeningLoadsItsOwnStateDict() {
    // PyTorch's SGD takes any dampening (it checks lr, momentum and weight_decay only); what stateDict() gives, loadStateDict takes
    Tensor w = param(1, 2);
    try (SGD opt = new SGD(List.of(w), 0.1, 0.9, -0.5, 0, false)) {
      stepWith(opt, w, 1);
      stepWith(opt, w, 1);
      Map<String, Object> sd = opt.stateDict();
      opt.loadStateDict(sd);
      closeTensors(sd);
    }
  }

  @Test
  void concurrentStepsFromTwoThreadsNeitherFailNorLoseAStep() throws Exception {
    Tensor w = param(new double[64]);
    int perThread = 300;
    try (Adam opt = new Adam(List.of(w), 1e-3)) {
      try (Tensor g = Tensor.ones(64)) {
        w.setGrad(g);
      }
      AtomicReference<Throwable> failure = new AtomicReference<>();
      CountDownLatch go = new CountDownLatch(1);
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < 2; t++) {
        Thread th = new Thread(() -> {
          try {
            go.await();
            for (int i = 0; i < perThread; i++) opt.step();
          } catch (Throwable e) {
            failure.compareAndSet(null, e);
          }
        });
        threads.add(th);
        th.start();
      }
      go.countDown();
      for (Thread th : threads) th.join();
      if (failure.get() != null) throw new AssertionError("a concurrent step failed: " + failure.get(), failure.get());
      Map<String, Object> sd = opt.stateDict();
      Tensor step = (Tensor) ((Map<?, ?>) ((Map<?, ?>) sd.get("state")).get(0L)).get("step");
      assertEquals(2 * perThread, step.item(), "every step counted once");
      closeTensors(sd);
    }
  }

  @Test
  void aStepAfterCloseSaysTheOptimizerIsClosed() {
    Tensor w = param(1, 2);
    Adam opt = new Adam(List.of(w), 0.1);
    stepWith(opt, w, 1);
    opt.close();
    double[] before = w.toDoubleArray();
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> opt.step());
    assertTrue(e.getMessage().contains("step()") && e.getMessage().contains("closed"), e.getMessage());
    assertArrayEquals(before, w.toDoubleArray(), 0);
    opt.close();
  }

  @Test
  void aSchedulerThatFailsToConstructLeavesNoInitialLrBehind() {
    Tensor w = param(1);
    try (SGD opt = new SGD(List.of(w), 0.1)) {
      assertThrows(IllegalArgumentException.class, () -> new LinearLR(opt, 2.0, 1.0, 5));  // PyTorch checks before touching the group
      assertThrows(IllegalArgumentException.class, () -> new OneCycleLR(opt, 1.0, 0));
      Map<String, Object> sd = opt.stateDict();
      assertFalse(((Map<?, ?>) ((List<?>) sd.get("param_groups")).get(0)).containsKey("initial_lr"), "no initial_lr: " + sd);
      opt.setLr(0.5);
      new StepLR(opt, 1, 0.5).step();
      assertEquals(0.25, opt.lr(), 1e-15, "the schedule starts from the rate set before it was made");
    }
  }

  @Test
  void aNanScheduleIsRefusedNamingTheSchedulerAndTheEpochStays() {
    Tensor w = param(1);
    try (SGD opt = new SGD(List.of(w), 0.1)) {
      LambdaLR s = new LambdaLR(opt, e -> e == 2 ? Double.NaN : 1.0 / (e + 1));
      s.step();
      String m = assertThrows(IllegalArgumentException.class, s::step).getMessage();
      assertEquals(1, s.lastEpoch());
      assertEquals(0.05, opt.lr(), 1e-15);
      assertTrue(m.contains("LambdaLR"), m);
      m = assertThrows(IllegalArgumentException.class, () -> new CosineAnnealingLR(opt, 10, Double.NaN)).getMessage();
      assertTrue(m.contains("CosineAnnealingLR"), m);
      ReduceLROnPlateau plateau = new ReduceLROnPlateau(opt, "min", 0.5, 0, 1e-4, "rel", 0, 0, 1e-8);
      plateau.step(Double.NaN);
      plateau.step(Double.NaN);  // NaN never improves: a bad epoch, as PyTorch
      assertEquals(0.0125, opt.lr(), 1e-15);
    }
  }
  /** State saved by an older PyTorch lacks the flags later versions added: they load as their defaults, as PyTorch's __setstate__ sets them. */
  @Test
  @SuppressWarnings("unchecked")
  void stateWithoutTheFlagsOlderVersionsLackedLoadsAsTheirDefaults() {
    Tensor a = param(1, 2, 3), b = param(1, 2, 3), c = param(1, 2, 3), d = param(1, 2, 3);
    try (AdamW saved = new AdamW(List.of(a), 0.1, 0.01); AdamW loaded = new AdamW(List.of(b), 0.5, 0.01);
         SGD sgdSaved = new SGD(List.of(c), 0.1, 0.9, 0, 0, false); SGD sgdLoaded = new SGD(List.of(d), 0.1, 0.9, 0, 0, true)) {
      stepWith(saved, a, 1);
      stepWith(sgdSaved, c, 1);
      Map<String, Object> sd = saved.stateDict(), sgdSd = sgdSaved.stateDict();
      Map<String, Object> group = (Map<String, Object>) ((List<?>) sd.get("param_groups")).get(0);
      for (String k : List.of("amsgrad", "maximize", "foreach", "capturable", "differentiable", "fused", "decoupled_weight_decay")) {
        assertTrue(group.containsKey(k), k);
        group.remove(k);
      }
      Map<String, Object> sgdGroup = (Map<String, Object>) ((List<?>) sgdSd.get("param_groups")).get(0);
      sgdGroup.remove("nesterov");
      loaded.loadStateDict(sd);
      sgdLoaded.loadStateDict(sgdSd);
      try (Tensor bv = b.detach(); Tensor dv = d.detach()) {  // the parameters as the saved run left them
        bv.copy_(a);
        dv.copy_(c);
      }
      closeTensors(sd);
      closeTensors(sgdSd);
      for (int i = 2; i < 4; i++) {
        stepWith(saved, a, i);
        stepWith(loaded, b, i);
        stepWith(sgdSaved, c, i);
        stepWith(sgdLoaded, d, i);  // was nesterov: the state said nothing, so False, as the saved one
      }
      assertArrayEquals(a.toDoubleArray(), b.toDoubleArray(), 0);
      assertArrayEquals(c.toDoubleArray(), d.toDoubleArray(), 0);
      // a number is no flag: a missing eps is still refused by name
      Map<String, Object> noEps = saved.stateDict();
      ((Map<String, Object>) ((List<?>) noEps.get("param_groups")).get(0)).remove("eps");
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> loaded.loadStateDict(noEps));
      assertTrue(e.getMessage().contains("'eps'"), e.getMessage());
      closeTensors(noEps);
    }
  }
  /** A parameter shared by two modules is listed once, as PyTorch's parameters(); one listed twice is refused by the optimizer, not stepped twice from one state. */
  @Test
  void aSharedParameterIsListedOnceAndADuplicateIsRefused() {
    Tensor shared = param(1, 2);
    try (org.jtensor.nn.Module tied = new Tied(shared)) {
      assertEquals(List.of("own", "a.w"), new ArrayList<>(tied.namedParameters().keySet()));
      assertEquals(List.of("own", "a.w", "b.w"), new ArrayList<>(closing(tied.stateDict()).keySet()));
      try (Adam ok = new Adam(tied.parameters(), 0.1)) {
        assertEquals(2, ok.parameters().size());
      }
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Adam(List.of(shared, shared), 0.1));
      assertTrue(e.getMessage().contains("duplicate parameters"), e.getMessage());
    }
  }

  private static Map<String, Tensor> closing(Map<String, Tensor> sd) {
    sd.values().forEach(Tensor::close);
    return sd;
  }

  private static final class Holder extends org.jtensor.nn.Module {
    Holder(Tensor w) {
      registerParameter("w", w);
    }

    @Override
    public Tensor forward(Tensor x) {
      return x;
    }
  }

  private static final class Tied extends org.jtensor.nn.Module {
    Tied(Tensor shared) {
      registerModule("a", new Holder(shared));
      registerModule("b", new Holder(shared));
      registerParameter("own", param(3));
    }

    @Override
    public Tensor forward(Tensor x) {
      return x;
    }
  }
  /** A closed parameter is named by the optimizer, in its constructor and in step(), before anything changes. */
  @Test
  void aClosedParameterIsNamedByTheOptimizer() {
    Tensor a = param(1, 2), b = param(3, 4), closed = param(5);
    closed.close();
    IllegalArgumentException made = assertThrows(IllegalArgumentException.class, () -> new SGD(List.of(a, closed), 0.1));
    assertEquals("SGD(): parameter 1 is closed", made.getMessage());
    try (SGD sgd = new SGD(List.of(a, b), 0.1)) {
      try (Tensor g = Tensor.ones(2)) {
        a.setGrad(g);
      }
      b.close();
      IllegalStateException e = assertThrows(IllegalStateException.class, sgd::step);
      assertTrue(e.getMessage().startsWith("SGD.step(): parameter 1 is closed"), e.getMessage());
      assertArrayEquals(new double[] {1, 2}, a.toDoubleArray(), 0);  // nothing stepped
    }
  }
}
