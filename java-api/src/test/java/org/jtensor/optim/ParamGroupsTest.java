package org.jtensor.optim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
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
 * Parameter groups against PyTorch 2.13 (resources/optim/param_groups.pt from make_param_groups.py
 * beside it): SGD (nesterov momentum and weight decay in one group, plain damped momentum in the
 * other) and AdamW (weight decay 0.1 against 0, other lr and betas) over 20 steps; PyTorch's
 * two-group state loaded mid-run resumes to PyTorch's parameters, jtensor's state holds PyTorch's
 * groups and survives a .pt round trip; schedulers set both groups' rates as PyTorch's; PyTorch's refusals.
 */
class ParamGroupsTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture fixtures = new PtFixture("/optim/param_groups.pt");
  @TempDir Path dir;

  private static final Map<String, Function<List<Tensor>, Optimizer>> MAKERS = Map.of(
      "sgd", ps -> new SGD(List.of(ParamGroup.of(ps.subList(0, 2)), ParamGroup.of(ps.subList(2, 3)).lr(0.05).set("momentum", 0.5)
          .set("dampening", 0.1).set("nesterov", false).set("weight_decay", 0.0)), 0.1, 0.9, 0, 0.01, true),
      "adamw", ps -> new AdamW(List.of(ParamGroup.of(ps.subList(0, 2)).set("weight_decay", 0.1),
          ParamGroup.of(ps.subList(2, 3)).set("weight_decay", 0.0).lr(1e-3).set("betas", new double[] {0.8, 0.99})), 3e-3));

  private static Tensor f(String name) {
    return fixtures.tensor(name);
  }

  private static List<Tensor> params(String name, String which) {
    return List.of(f(name + "." + which + "0").clone().requiresGrad_(), f(name + "." + which + "1").clone().requiresGrad_(),
        f(name + "." + which + "2").clone().requiresGrad_());
  }

  /** Steps from..to-1 with PyTorch's gradients, checking every parameter against PyTorch's after each step when check. */
  private static void steps(String name, Optimizer opt, List<Tensor> ps, int from, int to, boolean check) {
    List<?> grads = (List<?>) fixtures.get("grads");
    for (int step = from; step < to; step++) {
      for (int i = 0; i < 3; i++) ps.get(i).setGrad(((Tensor) grads.get(step * 3 + i)).clone());
      opt.step();
      for (int i = 0; check && i < 3; i++) {
        assertArrayEquals(f(name + ".traj" + i).select(0, step).toDoubleArray(), ps.get(i).toDoubleArray(), 1e-6, name + " p" + i + " step " + step);
      }
    }
  }

  @Test
  void twoGroupTrajectoriesFollowPyTorch() {
    for (String name : MAKERS.keySet()) {
      List<Tensor> ps = params(name, "start");
      try (Optimizer opt = MAKERS.get(name).apply(ps)) {
        assertEquals(2, opt.paramGroupCount());
        steps(name, opt, ps, 0, 20, true);
      }
    }
  }

  @Test
  void pyTorchsTwoGroupStateLoadsAndResumesAsPyTorch() {
    for (String name : MAKERS.keySet()) {
      List<Tensor> ps = params(name, "mid");
      List<ParamGroup> groups = List.of(ParamGroup.of(ps.subList(0, 2)), ParamGroup.of(ps.subList(2, 3)));
      try (Optimizer opt = name.equals("sgd") ? new SGD(groups, 0.7) : new AdamW(groups, 0.7)) {
        opt.loadStateDict(state(name));  // PyTorch's groups' lr and options replace those it was made with
        assertEquals(name.equals("sgd") ? 0.05 : 1e-3, opt.lr(1), 1e-15);
        steps(name, opt, ps, 10, 20, true);
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> state(String name) {
    return (Map<String, Object>) fixtures.get(name + ".state");
  }

  /** jtensor's state after 10 steps holds PyTorch's groups (every key and value) and state; written as .pt, loaded back and continued, it is the run that never stopped. */
  @Test
  void ownStateIsPyTorchsAndRoundTripsThroughPt() throws Exception {
    for (String name : MAKERS.keySet()) {
      List<Tensor> a = params(name, "start"), b = params(name, "start");
      try (Optimizer straight = MAKERS.get(name).apply(a); Optimizer resumed = MAKERS.get(name).apply(b)) {
        steps(name, straight, a, 0, 10, false);
        Map<String, Object> saved = straight.stateDict();
        List<?> ours = (List<?>) saved.get("param_groups"), theirs = (List<?>) state(name).get("param_groups");
        assertEquals(theirs.size(), ours.size());
        for (int g = 0; g < ours.size(); g++) {
          Map<?, ?> mine = (Map<?, ?>) ours.get(g), want = (Map<?, ?>) theirs.get(g);
          assertEquals(want.keySet(), mine.keySet().stream().map(String::valueOf).collect(java.util.stream.Collectors.toSet()), name + " group " + g);
          for (Map.Entry<?, ?> e : want.entrySet()) {
            Object v = mine.get(e.getKey()) instanceof Object[] arr ? Arrays.asList(arr) : mine.get(e.getKey());
            Object w = e.getValue() instanceof Object[] arr ? Arrays.asList(arr) : e.getValue();
            assertTrue(SchedulerState.same(v, w), name + " group " + g + " '" + e.getKey() + "': " + v + " against PyTorch's " + w);
          }
        }
        Map<?, ?> ourStates = (Map<?, ?>) saved.get("state"), theirStates = (Map<?, ?>) state(name).get("state");
        assertEquals(theirStates.size(), ourStates.size());
        for (Map.Entry<?, ?> e : theirStates.entrySet()) {
          Map<?, ?> mine = (Map<?, ?>) ourStates.get(e.getKey());
          for (Map.Entry<?, ?> t : ((Map<?, ?>) e.getValue()).entrySet()) {
            assertArrayEquals(((Tensor) t.getValue()).toDoubleArray(), ((Tensor) mine.get(t.getKey())).toDoubleArray(), 1e-6,
                name + " state " + e.getKey() + " " + t.getKey());
          }
        }
        Path file = dir.resolve(name + ".pt");
        Tensors.saveObject(saved, file);
        Tensors.closeAll(saved);
        String keep = System.getProperty("jt.test.keepPt");  // for checking the file in PyTorch by hand (make_param_groups.py --check)
        if (keep != null) Files.copy(file, Path.of(keep, "jtensor_" + name + ".pt"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        for (int i = 0; i < 3; i++) b.get(i).detach().copy_(a.get(i).detach());
        @SuppressWarnings("unchecked")
        Map<String, Object> back = (Map<String, Object>) Tensors.loadObject(file);
        resumed.loadStateDict(back);
        Tensors.closeAll(back);
        steps(name, straight, a, 10, 20, false);
        steps(name, resumed, b, 10, 20, false);
        for (int i = 0; i < 3; i++) assertArrayEquals(a.get(i).toDoubleArray(), b.get(i).toDoubleArray(), 0, name + " p" + i);
      }
    }
  }

  /** The rates PyTorch's schedulers set over SGD(lr 0.5; group 1 lr 0.02), [step][group]. */
  @Test
  void schedulersSetEveryGroupsRateAsPyTorch() {
    Map<String, Function<Optimizer, LRScheduler>> makers = Map.of(
        "step", o -> new StepLR(o, 7, 0.5),
        "lambdas", o -> new LambdaLR(o, List.of(e -> Math.pow(0.95, e), e -> 1.0 / (e + 1))),
        "sequential", o -> new SequentialLR(o, List.of(new LinearLR(o, 0.1, 1.0, 10), new CosineAnnealingLR(o, 20, 0.001)), new int[] {10}),
        "onecycle", o -> new OneCycleLR(o, new double[] {0.8, 0.08}, 31));
    for (Map.Entry<String, Function<Optimizer, LRScheduler>> e : makers.entrySet()) {
      Tensor a = Tensor.zeros(1).requiresGrad_(), b = Tensor.zeros(1).requiresGrad_();
      try (Optimizer opt = twoGroups(a, b)) {
        LRScheduler s = e.getValue().apply(opt);
        Tensor want = f("lr." + e.getKey());
        for (int i = 0; i < want.shape()[0]; i++) {
          if (i > 0) s.step();
          assertArrayEquals(want.select(0, i).toDoubleArray(), s.getLastLr().stream().mapToDouble(Double::doubleValue).toArray(), 1e-12,
              e.getKey() + " at step " + i);
        }
        if (e.getKey().equals("step")) {
          Map<String, Object> mine = s.stateDict();
          @SuppressWarnings("unchecked")
          Map<String, Object> theirs = (Map<String, Object>) fixtures.get("lr.step.state");
          for (String key : List.of("base_lrs", "last_epoch", "_last_lr")) assertTrue(SchedulerState.same(mine.get(key), theirs.get(key)), key);
          s.loadStateDict(theirs);
        }
      }
    }
  }

  @Test
  void plateauLowersEachGroupToItsOwnMinimumAsPyTorch() {
    Tensor a = Tensor.zeros(1).requiresGrad_(), b = Tensor.zeros(1).requiresGrad_();
    try (Optimizer opt = twoGroups(a, b)) {
      ReduceLROnPlateau s = new ReduceLROnPlateau(opt, "min", 0.5, 2, 1e-4, "rel", 0, new double[] {0.01, 0.005}, 1e-8);
      Tensor want = f("lr.plateau");
      for (int i = 0; i < want.shape()[0]; i++) {
        if (i > 0) s.step(1.0 / (1 + Math.min(i - 1, 5)));
        assertArrayEquals(want.select(0, i).toDoubleArray(), new double[] {opt.lr(0), opt.lr(1)}, 1e-12, "step " + i);
      }
      @SuppressWarnings("unchecked")
      Map<String, Object> theirs = (Map<String, Object>) fixtures.get("lr.plateau.state");
      Map<String, Object> mine = s.stateDict();
      for (String key : List.of("default_min_lr", "min_lrs", "_last_lr", "best", "num_bad_epochs")) {
        assertTrue(SchedulerState.same(mine.get(key), theirs.get(key)), key + ": " + mine.get(key) + " against " + theirs.get(key));
      }
      s.loadStateDict(theirs);
    }
  }

  private static Optimizer twoGroups(Tensor a, Tensor b) {
    return new SGD(List.of(ParamGroup.of(List.of(a)), ParamGroup.of(List.of(b)).lr(0.02)), 0.5, 0.9);
  }

  @Test
  void eachGroupIsReachedByItsIndexAndGroupZeroIsTheDefault() {
    Tensor a = Tensor.zeros(2).requiresGrad_(), b = Tensor.zeros(3).requiresGrad_(), c = Tensor.zeros(1).requiresGrad_();
    try (Optimizer opt = new SGD(List.of(ParamGroup.of(List.of(a, b)), ParamGroup.of(List.of(c)).lr(0.02).set("my_tag", 7L)), 0.5)) {
      assertEquals(List.of(a, b, c), opt.parameters());
      assertEquals(List.of(c), opt.parameters(1));
      assertEquals(0.5, opt.lr());
      assertEquals(0.02, opt.lr(1));
      opt.setLr(1, 0.03);
      assertEquals(0.03, opt.lr(1));
      assertEquals(0.5, opt.lr(0), "group 0 untouched");
      assertEquals(0.03, opt.initialLr(1));
      assertThrows(IndexOutOfBoundsException.class, () -> opt.lr(2));
      assertThrows(IllegalArgumentException.class, () -> opt.setLr(1, -1));
      Map<String, Object> sd = opt.stateDict();
      Map<?, ?> g1 = (Map<?, ?>) ((List<?>) sd.get("param_groups")).get(1);
      assertEquals(7L, g1.get("my_tag"), "an option SGD does not have is kept, as PyTorch keeps it");
      assertEquals(List.of(2L), g1.get("params"), "indices numbered across the groups");
    }
  }

  @Test
  void refusalsInPyTorchsWords() {
    Tensor a = Tensor.zeros(2).requiresGrad_(), b = Tensor.zeros(3).requiresGrad_();
    assertMessage("SGD(): some parameters appear in more than one parameter group",
        () -> new SGD(List.of(ParamGroup.of(List.of(a)), ParamGroup.of(List.of(b, a))), 0.1));
    assertMessage("AdamW(): optimizer got an empty parameter list", () -> new AdamW(List.<ParamGroup>of(), 0.1));
    assertMessage("SGD(): Invalid momentum value: -1.0", () -> new SGD(List.of(ParamGroup.of(List.of(a)), ParamGroup.of(List.of(b))
        .set("momentum", -1.0)), 0.1));
    assertMessage("SGD(): Invalid learning rate: -0.5", () -> new SGD(List.of(ParamGroup.of(List.of(a)).lr(-0.5)), 0.1));
    assertMessage("AdamW(): Invalid beta parameter at index 0: 2.0", () -> new AdamW(List.of(ParamGroup.of(List.of(a)), ParamGroup.of(List.of(b))
        .set("betas", new double[] {2, 0.9})), 0.1));
    assertMessage("SGD(): Nesterov momentum requires a momentum and zero dampening", () -> new SGD(List.of(ParamGroup.of(List.of(a)),
        ParamGroup.of(List.of(b)).set("nesterov", true).set("dampening", 0.5)), 0.1, 0.9));
    try (Optimizer two = twoGroups(a, b); Optimizer one = new SGD(List.of(a, b), 0.1, 0.9);
         Optimizer sizes = new SGD(List.of(ParamGroup.of(List.of(a, b)), ParamGroup.of(List.of())), 0.1, 0.9)) {
      String m = assertThrows(IllegalArgumentException.class, () -> one.loadStateDict(two.stateDict())).getMessage();
      assertTrue(m.startsWith("SGD.loadStateDict(): loaded state dict has a different number of parameter groups"), m);
      m = assertThrows(IllegalArgumentException.class, () -> sizes.loadStateDict(two.stateDict())).getMessage();
      assertTrue(m.startsWith("SGD.loadStateDict(): loaded state dict contains a parameter group that doesn't match the size of optimizer's group"), m);
      assertEquals(0.02, two.lr(1), "nothing changed");
      assertMessage("LambdaLR(): Expected 2 lr_lambdas, but got 1", () -> new LambdaLR(two, List.of(e -> 1.0)));
      assertMessage("OneCycleLR(): max_lr must have the same length as optimizer.param_groups. max_lr has 1 values, param_groups has 2.",
          () -> new OneCycleLR(two, new double[] {0.1}, 10));
      assertMessage("ReduceLROnPlateau(): expected 2 min_lrs, got 1",
          () -> new ReduceLROnPlateau(two, "min", 0.1, 10, 1e-4, "rel", 0, new double[] {0.1}, 1e-8));
    }
  }

  private static void assertMessage(String want, org.junit.jupiter.api.function.Executable make) {
    assertEquals(want, assertThrows(IllegalArgumentException.class, make).getMessage());
  }
}
