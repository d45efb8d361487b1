package org.jtensor.optim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.jtensor.PtFixture;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.jtensor.io.Tensors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * The options a PyTorch user reaches for first, against PyTorch 2.13 bit for bit (resources/optim/optimizer_options.pt
 * from make_optimizer_options.py beside it): Adam and AdamW with amsgrad and maximize, SGD with maximize, Nesterov
 * and dampening, RMSprop (centered, momentum), Adagrad (lr decay, initial accumulator), each over two parameter groups that set the options differently, 20
 * steps in float32 and float64 (RMSprop and Adagrad bit for bit against PyTorch with a correctly rounded sqrt: see tol).
 * Every step's parameters equal PyTorch's; PyTorch's state after 10 steps loaded into an optimizer made without the
 * options (the loaded groups bring them) resumes to PyTorch's parameters; jtensor's state after 10 steps is PyTorch's
 * (groups, state names, tensors) and, saved as .pt and loaded back, resumes as the run that never stopped. Bad options
 * are refused with the messages PyTorch gave when the fixture was written.
 */
class OptimizerOptionsTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture fixtures = new PtFixture("/optim/optimizer_options.pt");
  @TempDir Path dir;

  private static final List<String> DTYPES = List.of("float32", "float64");

  private static List<ParamGroup> groups(List<Tensor> ps, UnaryOperator<ParamGroup> first, UnaryOperator<ParamGroup> second) {
    return List.of(first.apply(ParamGroup.of(ps.subList(0, 2))), second.apply(ParamGroup.of(ps.subList(2, 3))));
  }

  /** make_optimizer_options.py's CASES, option for option. */
  private static final Map<String, Function<List<Tensor>, Optimizer>> CASES = new LinkedHashMap<>();
  /** The same groups with no options of their own: a loaded state brings them. */
  private static final Map<String, Function<List<Tensor>, Optimizer>> PLAIN = new LinkedHashMap<>();

  static {
    CASES.put("adam", ps -> new Adam(groups(ps, g -> g, g -> g.set("amsgrad", false).set("maximize", true).lr(1e-3)),
        3e-3, 0.8, 0.95, 1e-8, 0.01, true, false));
    CASES.put("adamw", ps -> new AdamW(groups(ps, g -> g.set("weight_decay", 0.1), g -> g.set("amsgrad", false)
        .set("betas", new double[] {0.85, 0.99})), 3e-3, 0.9, 0.999, 1e-8, 0.01, true, true));
    CASES.put("sgd", ps -> new SGD(groups(ps, g -> g, g -> g.set("momentum", 0.5).set("dampening", 0.1).set("nesterov", false)
        .set("maximize", false)), 0.05, 0.9, 0, 0.01, true, true));
    CASES.put("rmsprop", ps -> new RMSprop(groups(ps, g -> g, g -> g.set("momentum", 0.0).set("centered", false).set("maximize", true)
        .set("alpha", 0.9).set("weight_decay", 0.0)), 1e-2, 0.99, 1e-8, 0.01, 0.9, true));
    CASES.put("rmsprop2", ps -> new RMSprop(groups(ps, g -> g.set("momentum", 0.5), g -> g.set("centered", true).lr(3e-3)), 1e-2));
    CASES.put("adagrad", ps -> new Adagrad(groups(ps, g -> g, g -> g.lr(0.05).set("lr_decay", 0.0).set("initial_accumulator_value", 0.5)
        .set("maximize", true)), 0.1, 0.01, 0.01, 0.1, 1e-10));
    PLAIN.put("adam", ps -> new Adam(groups(ps, g -> g, g -> g), 0.7));
    PLAIN.put("adamw", ps -> new AdamW(groups(ps, g -> g, g -> g), 0.7));
    PLAIN.put("sgd", ps -> new SGD(groups(ps, g -> g, g -> g), 0.7));
    PLAIN.put("rmsprop", ps -> new RMSprop(groups(ps, g -> g, g -> g), 0.7));
    PLAIN.put("rmsprop2", PLAIN.get("rmsprop"));
    PLAIN.put("adagrad", ps -> new Adagrad(groups(ps, g -> g, g -> g), 0.7));
  }

  private static Tensor f(String name) {
    return fixtures.tensor(name);
  }

  private static List<Tensor> params(String prefix) {
    return List.of(f(prefix + "0").clone().requiresGrad_(), f(prefix + "1").clone().requiresGrad_(), f(prefix + "2").clone().requiresGrad_());
  }

  /**
   * torch's CPU sqrt is MKL's, not correctly rounded (up to 0.75 ulp; 14% of float32 results an ulp from IEEE's), jtensor's
   * IEEE's: where the step divides by a square root without Adam's bias correction damping it, PyTorch's own parameters
   * are matched within tol, and its run with a correctly rounded sqrt ("ieee", from the same script) bit for bit.
   */
  private static double tol(String name, String dt) {
    return !name.startsWith("rmsprop") && !name.startsWith("adagrad") ? 0 : dt.equals("float32") ? 1e-6 : 1e-13;
  }

  /** Steps from..to-1 with PyTorch's gradients; with want ("traj" or "ieee"), every parameter is the fixture's within tol after every step. */
  private static void steps(String name, String dt, Optimizer opt, List<Tensor> ps, int from, int to, String want, double tol) {
    List<?> grads = (List<?>) fixtures.get(dt + ".grads");
    for (int step = from; step < to; step++) {
      for (int i = 0; i < 3; i++) ps.get(i).setGrad(((Tensor) grads.get(step * 3 + i)).clone());
      opt.step();
      for (int i = 0; want != null && i < 3; i++) {
        assertArrayEquals(f(name + "." + dt + "." + want + i).select(0, step).toDoubleArray(), ps.get(i).toDoubleArray(), tol,
            name + " " + dt + " p" + i + " step " + step + " against " + want);
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> state(String name, String dt) {
    return (Map<String, Object>) fixtures.get(name + "." + dt + ".state");
  }

  @Test
  void trajectoriesFollowPyTorchBitForBit() {
    for (String name : CASES.keySet()) {
      for (String dt : DTYPES) {
        List<Tensor> ps = params(dt + ".start");
        try (Optimizer opt = CASES.get(name).apply(ps)) {
          steps(name, dt, opt, ps, 0, 20, "ieee", 0);
        }
        List<Tensor> qs = params(dt + ".start");
        try (Optimizer opt = CASES.get(name).apply(qs)) {
          steps(name, dt, opt, qs, 0, 20, "traj", tol(name, dt));
        }
      }
    }
  }

  @Test
  void pyTorchsStateBringsItsOptionsAndResumesBitForBit() {
    for (String name : PLAIN.keySet()) {
      for (String dt : DTYPES) {
        List<Tensor> ps = params(name + "." + dt + ".mid");
        try (Optimizer opt = PLAIN.get(name).apply(ps)) {
          opt.loadStateDict(state(name, dt));
          steps(name, dt, opt, ps, 10, 20, "traj", tol(name, dt));
        }
      }
    }
  }

  /** jtensor's state after 10 steps is PyTorch's; written as .pt, loaded back and continued, it is the run that never stopped. */
  @Test
  void ownStateIsPyTorchsAndRoundTripsThroughPt() throws Exception {
    for (String name : CASES.keySet()) {
      for (String dt : DTYPES) {
        List<Tensor> a = params(dt + ".start"), b = params(dt + ".start");
        try (Optimizer straight = CASES.get(name).apply(a); Optimizer resumed = PLAIN.get(name).apply(b)) {
          steps(name, dt, straight, a, 0, 10, null, 0);
          Map<String, Object> saved = straight.stateDict();
          assertSameState(name + " " + dt, state(name, dt), saved, tol(name, dt));
          Path file = dir.resolve("jtensor_" + name + "_" + dt + ".pt");
          Tensors.saveObject(saved, file);
          Tensors.closeAll(saved);
          String keep = System.getProperty("jt.test.keepPt");  // for make_optimizer_options.py --check DIR
          if (keep != null) Files.copy(file, Path.of(keep, file.getFileName().toString()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
          for (int i = 0; i < 3; i++) b.get(i).detach().copy_(a.get(i).detach());
          @SuppressWarnings("unchecked")
          Map<String, Object> back = (Map<String, Object>) Tensors.loadObject(file);
          resumed.loadStateDict(back);
          Tensors.closeAll(back);
          steps(name, dt, straight, a, 10, 20, "ieee", 0);
          steps(name, dt, resumed, b, 10, 20, "ieee", 0);
        }
      }
    }
  }

  /** Every group's keys and values, every parameter's state names and tensors, as PyTorch's. */
  private static void assertSameState(String what, Map<String, Object> theirs, Map<String, Object> ours, double tol) {
    List<?> mineGroups = (List<?>) ours.get("param_groups"), wantGroups = (List<?>) theirs.get("param_groups");
    assertEquals(wantGroups.size(), mineGroups.size(), what);
    for (int g = 0; g < mineGroups.size(); g++) {
      Map<?, ?> mine = (Map<?, ?>) mineGroups.get(g), want = (Map<?, ?>) wantGroups.get(g);
      assertEquals(want.keySet(), mine.keySet().stream().map(String::valueOf).collect(Collectors.toSet()), what + " group " + g);
      for (Map.Entry<?, ?> e : want.entrySet()) {
        Object v = mine.get(e.getKey()) instanceof Object[] arr ? Arrays.asList(arr) : mine.get(e.getKey());
        Object w = e.getValue() instanceof Object[] arr ? Arrays.asList(arr) : e.getValue();
        assertTrue(SchedulerState.same(v, w), what + " group " + g + " '" + e.getKey() + "': " + v + " against PyTorch's " + w);
      }
    }
    Map<?, ?> mineStates = (Map<?, ?>) ours.get("state"), wantStates = (Map<?, ?>) theirs.get("state");
    assertEquals(wantStates.keySet(), mineStates.keySet(), what);
    for (Map.Entry<?, ?> e : wantStates.entrySet()) {
      Map<?, ?> mine = (Map<?, ?>) mineStates.get(e.getKey()), want = (Map<?, ?>) e.getValue();
      assertEquals(List.copyOf(want.keySet()), List.copyOf(mine.keySet()), what + " state " + e.getKey() + ": PyTorch's names in its order");
      for (Map.Entry<?, ?> t : want.entrySet()) {
        Tensor w = (Tensor) t.getValue(), m = (Tensor) mine.get(t.getKey());
        assertEquals(w.dtype(), m.dtype(), what + " " + t.getKey());
        assertArrayEquals(w.toDoubleArray(), m.toDoubleArray(), t.getKey().equals("step") ? 0 : tol, what + " state " + e.getKey() + " " + t.getKey());
      }
    }
  }

  /**
   * A loaded group with amsgrad on needs its parameters' max_exp_avg_sq: refused at the load (PyTorch's load takes it and its
   * next step fails with a KeyError). A state without amsgrad turns off the amsgrad the optimizer was made with.
   */
  @Test
  void amsgradFollowsTheLoadedGroups() {
    Tensor p = Tensor.ones(3).requiresGrad_();
    try (Adam opt = new Adam(List.of(p), 0.1)) {
      p.setGrad(Tensor.ones(3));
      opt.step();
      Map<String, Object> sd = opt.stateDict();
      @SuppressWarnings("unchecked")
      Map<String, Object> g0 = (Map<String, Object>) ((List<?>) sd.get("param_groups")).get(0);
      g0.put("amsgrad", true);
      String m = assertThrows(IllegalArgumentException.class, () -> opt.loadStateDict(sd)).getMessage();
      assertTrue(m.contains("has no tensor 'max_exp_avg_sq'"), m);
      Tensors.closeAll(sd);
      double[] before = p.toDoubleArray();
      try (Adam other = new Adam(List.of(ParamGroup.of(List.of(p)).set("amsgrad", true)), 0.1)) {
        other.loadStateDict(opt.stateDict());  // an Adam state without amsgrad: the loaded group turns it off
        p.setGrad(Tensor.ones(3));
        other.step();
        assertTrue(p.toDoubleArray()[0] < before[0]);
      }
    }
  }

  /**
   * As PyTorch's, a fresh Adagrad has every parameter's state (step 0, sum full of the constructor's initial_accumulator_value,
   * a group's own ignored): its state dict is PyTorch's fresh one, and PyTorch's fresh one loads (step 0 is a state here).
   */
  @Test
  void freshAdagradHasPyTorchsState() {
    @SuppressWarnings("unchecked")
    Map<String, Object> theirs = (Map<String, Object>) fixtures.get("adagrad.fresh");
    List<Tensor> ps = params("float32.start");
    try (Optimizer opt = CASES.get("adagrad").apply(ps); Optimizer other = PLAIN.get("adagrad").apply(params("float32.start"))) {
      assertSameState("fresh adagrad", theirs, opt.stateDict(), 0);
      other.loadStateDict(theirs);
      assertSameState("loaded fresh adagrad", theirs, other.stateDict(), 0);
    }
  }

  /** A momentum set after the state was made without one (OneCycleLR's setMomentum) has no momentum_buffer: refused, nothing changed. */
  @Test
  void rmspropMomentumSetAfterTheFirstStepIsRefusedWhole() {
    Tensor p = Tensor.ones(3).requiresGrad_();
    try (RMSprop opt = new RMSprop(List.of(p))) {
      p.setGrad(Tensor.ones(3));
      opt.step();
      double[] before = p.toDoubleArray();
      opt.setMomentum(0.5);
      assertEquals("RMSprop.step(): the state of parameter 0 has no 'momentum_buffer': it was made before its group's momentum was set",
          assertThrows(IllegalStateException.class, opt::step).getMessage());
      assertArrayEquals(before, p.toDoubleArray(), 0);
    }
  }

  @Test
  void badOptionsRefusedInPyTorchsWords() {
    List<Tensor> ps = List.of(Tensor.zeros(2).requiresGrad_());
    Map<String, Executable> makers = new LinkedHashMap<>();
    makers.put("adam.lr", () -> new Adam(ps, -1.0));
    makers.put("adam.eps", () -> new Adam(ps, 1e-3, 0.9, 0.999, -1.0, 0, true, true));
    makers.put("adam.beta0", () -> new Adam(ps, 1e-3, 1.0, 0.9, 1e-8, 0, false, true));
    makers.put("adam.beta1", () -> new Adam(List.of(ParamGroup.of(ps).set("betas", new double[] {0.9, -0.5})), 1e-3));
    makers.put("adamw.weight_decay", () -> new AdamW(ps, 1e-3, 0.9, 0.999, 1e-8, -1.0, true, false));
    makers.put("sgd.lr", () -> new SGD(ps, -1.0, 0, 0, 0, false, true));
    makers.put("sgd.momentum", () -> new SGD(ps, 0.1, -1.0, 0, 0, false, true));
    makers.put("sgd.weight_decay", () -> new SGD(ps, 0.1, 0, 0, -1.0, false, false));
    makers.put("sgd.nesterov_dampening", () -> new SGD(ps, 0.1, 0.9, 0.5, 0, true, true));
    makers.put("sgd.nesterov_no_momentum", () -> new SGD(List.of(ParamGroup.of(ps).set("nesterov", true)), 0.1));
    makers.put("rmsprop.lr", () -> new RMSprop(ps, -1.0));
    makers.put("rmsprop.eps", () -> new RMSprop(ps, 1e-2, 0.99, -1.0, 0, 0, false));
    makers.put("rmsprop.momentum", () -> new RMSprop(ps, 1e-2, 0.99, 1e-8, 0, -1.0, true));
    makers.put("rmsprop.weight_decay", () -> new RMSprop(List.of(ParamGroup.of(ps).set("weight_decay", -1.0)), 1e-2));
    makers.put("rmsprop.alpha", () -> new RMSprop(ps, 1e-2, -1.0, 1e-8, 0, 0, false));
    makers.put("adagrad.lr", () -> new Adagrad(ps, -1.0));
    makers.put("adagrad.lr_decay", () -> new Adagrad(ps, 1e-2, -1.0, 0, 0, 1e-10));
    makers.put("adagrad.weight_decay", () -> new Adagrad(ps, 1e-2, 0, -1.0, 0, 1e-10));
    makers.put("adagrad.initial_accumulator_value", () -> new Adagrad(ps, 1e-2, 0, 0, -1.0, 1e-10));
    makers.put("adagrad.eps", () -> new Adagrad(List.of(ParamGroup.of(ps).set("eps", -1.0)), 1e-2));
    Map<?, ?> want = (Map<?, ?>) fixtures.get("refusals");
    assertEquals(want.keySet(), makers.keySet());
    for (Map.Entry<String, Executable> e : makers.entrySet()) {
      String cls = Map.of("adam", "Adam", "adamw", "AdamW", "sgd", "SGD", "rmsprop", "RMSprop", "adagrad", "Adagrad").get(e.getKey().split("\\.")[0]);
      assertEquals(cls + "(): " + want.get(e.getKey()), assertThrows(IllegalArgumentException.class, e.getValue()).getMessage(), e.getKey());
    }
    assertEquals("Adam(): the group's 'amsgrad' is 1", assertThrows(IllegalArgumentException.class,
        () -> new Adam(List.of(ParamGroup.of(ps).set("amsgrad", 1)), 1e-3)).getMessage());
    try (Optimizer adam = new AdamW(ps, 1e-3, 0.9, 0.999, 1e-8, 0.01, true, true); Optimizer sgd = new SGD(ps, 0.1, 0.9, 0, 0, false, true)) {
      Map<?, ?> a = (Map<?, ?>) ((List<?>) adam.stateDict().get("param_groups")).get(0), s = (Map<?, ?>) ((List<?>) sgd.stateDict().get("param_groups")).get(0);
      assertEquals(List.of(true, true, true, true), List.of(a.get("amsgrad"), a.get("maximize"), a.get("decoupled_weight_decay"), s.get("maximize")));
    }
  }
}
