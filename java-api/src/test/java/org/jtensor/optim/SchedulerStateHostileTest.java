package org.jtensor.optim;

import static org.jtensor.optim.SchedulerStateDictTest.assertSameState;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtensor.PtFixture;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.jtensor.io.Tensors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hostile review of the schedulers' state dicts and the optimizers' against PyTorch 2.13
 * (resources/optim/scheduler_hostile.pt from make_scheduler_hostile.py beside it): odd arguments,
 * schedules past their end, states PyTorch writes that a fresh jtensor scheduler must take, and
 * save/resume through .pt files. Each expectation is PyTorch's answer to the same calls.
 */
class SchedulerStateHostileTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture fixtures = new PtFixture("/optim/scheduler_hostile.pt");
  @TempDir Path dir;

  private record Made(Optimizer opt, LRScheduler sched) {}

  /** The optimizer and scheduler the fixture's script makes for a case (SGD lr 0.5 momentum 0.9, or Adam/AdamW lr 0.5). */
  private static Made make(String name) {
    Tensor p = Tensor.zeros(1).requiresGrad_();
    Optimizer opt = name.endsWith("adamw") ? new AdamW(List.of(p), 0.5) : name.endsWith("adam") ? new Adam(List.of(p), 0.5)
        : new SGD(List.of(p), 0.5, 0.9, 0, 0, false);
    LRScheduler s = switch (name) {
      case "oc_nocm_sgd", "oc_nocm_adam" -> new OneCycleLR(opt, 1.0, 10, 0.3, "cos", false, 0.85, 0.95, 25, 1e4);
      case "oc_adamw" -> new OneCycleLR(opt, 1.0, 10, 0.3, "linear", true, 0.85, 0.95, 25, 1e4);
      case "oc_pct0" -> new OneCycleLR(opt, 1.0, 10, 0.0, "cos", true, 0.85, 0.95, 25, 1e4);
      case "step_gamma1" -> new StepLR(opt, 2, 1.0);
      case "step_neg" -> new StepLR(opt, 2, -0.5);
      case "cos_etamin_gt" -> new CosineAnnealingLR(opt, 4, 1.0);
      case "cos_past" -> new CosineAnnealingLR(opt, 4, 0.1);
      case "linear_t0" -> new LinearLR(opt, 0.5, 1.0, 0);
      case "seq_one" -> new SequentialLR(opt, List.of(new StepLR(opt, 2, 0.5)), new int[0]);
      case "seq_ms0" -> new SequentialLR(opt, List.of(new LinearLR(opt, 0.5, 1.0, 2), new StepLR(opt, 2, 0.5)), new int[] {0});
      case "seq_oc", "seq_oc_late" -> new SequentialLR(opt, List.of(new OneCycleLR(opt, 1.0, 5), new StepLR(opt, 2, 0.5)), new int[] {5});
      default -> throw new IllegalArgumentException(name);
    };
    return new Made(opt, s);
  }

  private static final List<String> CASES = List.of("oc_nocm_sgd", "oc_nocm_adam", "oc_adamw", "oc_pct0", "step_gamma1", "step_neg",
      "cos_etamin_gt", "cos_past", "linear_t0", "seq_one", "seq_ms0", "seq_oc", "seq_oc_late");

  @SuppressWarnings("unchecked")
  private static Map<String, Object> state(String name) {
    return (Map<String, Object>) fixtures.get(name + ".state");
  }

  private static int epoch(String name) {
    return ((Number) fixtures.get(name + ".epoch")).intValue();
  }

  private static double at(String key, int i) {
    return ((Number) ((List<?>) fixtures.get(key)).get(i)).doubleValue();
  }

  private static double momentum(Optimizer opt) {
    Map<String, Object> group = groupOf(opt.stateDict());
    return group.get("betas") instanceof Object[] b ? ((Number) b[0]).doubleValue() : ((Number) group.get("momentum")).doubleValue();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> groupOf(Map<String, Object> optimizerState) {
    return (Map<String, Object>) ((List<?>) optimizerState.get("param_groups")).get(0);
  }

  /**
   * OneCycleLR(opt, 1.0, total_steps=10, cycle_momentum=False).state_dict() has no 'use_beta1' (PyTorch sets it only
   * when it cycles the momentum); jtensor wrote one, and refused PyTorch's state ("has no 'use_beta1': it is not a
   * OneCycleLR's state"). The other cases were already PyTorch's: StepLR with gamma 1 or -0.5, CosineAnnealingLR with
   * eta_min above the base rate and past T_max, LinearLR over 0 iterations, OneCycleLR from pct_start 0 to its last
   * step, AdamW's beta1, SequentialLR of one scheduler, with milestone 0, with OneCycleLR before and after its end.
   */
  @Test
  void stateDictAtTheEdgesIsPyTorchs() {
    for (String name : CASES) {
      Made m = make(name);
      for (int i = 0; i < epoch(name); i++) m.sched.step();
      assertSameState(unreachedLastLr(state(name), m.sched.stateDict()), m.sched.stateDict(), name);
    }
  }

  /**
   * PyTorch's state with the _last_lr of each SequentialLR scheduler not reached yet (last_epoch -1) taken from got: PyTorch
   * keeps the rate that scheduler set when it was made (from the rate the one made before it had set), which neither
   * PyTorch's load nor jtensor's reads; jtensor writes the SequentialLR's first rate there (left, see docs/reliability.md).
   */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> unreachedLastLr(Map<String, Object> want, Map<String, Object> got) {
    if (!(want.get("_schedulers") instanceof List<?> subs)) return want;
    Map<String, Object> copy = new LinkedHashMap<>(want);
    List<Object> fixed = new java.util.ArrayList<>();
    for (int i = 0; i < subs.size(); i++) {
      Map<String, Object> sub = new LinkedHashMap<>((Map<String, Object>) subs.get(i));
      Map<String, Object> own = (Map<String, Object>) ((List<?>) got.get("_schedulers")).get(i);
      if (((Number) sub.get("last_epoch")).longValue() == -1 && own != null) sub.put("_last_lr", own.get("_last_lr"));
      fixed.add(sub);
    }
    copy.put("_schedulers", fixed);
    return copy;
  }

  /** PyTorch's state loaded into a fresh scheduler continues with PyTorch's rates and momenta (momentum or beta1). */
  @Test
  void pyTorchsStateAtTheEdgesContinuesAsPyTorch() {
    for (String name : CASES) {
      Made m = make(name);
      double momentumBefore = momentum(m.opt);
      m.sched.loadStateDict(state(name));
      assertEquals(epoch(name), m.sched.lastEpoch(), name);
      for (int i = 0; i < 3; i++) {
        m.sched.step();
        assertEquals(at(name + ".next", i), m.opt.lr(), 1e-12, name + " at epoch " + m.sched.lastEpoch());
        double want = at(name + ".mom", i);
        assertEquals(want, momentum(m.opt), 1e-12, name + "'s momentum at epoch " + m.sched.lastEpoch() + " (was " + momentumBefore + ")");
      }
    }
  }
  /** Steps run and the scheduler n times, each optimizer step from a gradient of ones. */
  private static void train(Made m, int n) {
    for (int i = 0; i < n; i++) {
      for (Tensor p : m.opt.parameters()) p.setGrad(Tensor.onesLike(p));
      m.opt.step();
      m.sched.step();
    }
  }

  /**
   * StepLR(opt, 2, gamma=-0.5) sets lr -0.25 after 2 steps (PyTorch sets a schedule's rate as computed); SGD's
   * state_dict() then holds lr -0.25 and torch.optim.SGD(...).load_state_dict(it) takes it (param_groups[0]['lr'] is
   * -0.25). jtensor refused its own optimizer's state ("the group's lr is -0.25"), so such a run could not resume.
   * Saved through .pt files and resumed (optimizer first, then scheduler, and the reverse), it continues as the
   * uninterrupted run: the same rates and the same parameters, bit for bit; so do AdamW and Adam under OneCycleLR (beta1
   * cycled or not), OneCycleLR inside a SequentialLR and CosineAnnealingLR past T_max.
   */
  @Test
  void aNegativeScheduledRateResumesThroughPtFiles() throws IOException {
    for (String name : List.of("step_neg", "oc_adamw", "oc_nocm_adam", "seq_oc", "cos_past")) for (boolean optimizerFirst : new boolean[] {true, false}) {
      Made run = make(name), resumed = make(name);
      train(run, 3);
      if (name.equals("step_neg")) assertEquals(-0.25, run.opt.lr());
      Map<String, Object> optState = run.opt.stateDict();
      Tensors.saveObject(optState, dir.resolve("opt.pt"));
      Tensors.closeAll(optState);
      Tensors.saveObject(run.sched.stateDict(), dir.resolve("sched.pt"));
      @SuppressWarnings("unchecked")
      Map<String, Object> opt = (Map<String, Object>) Tensors.loadObject(dir.resolve("opt.pt"));
      @SuppressWarnings("unchecked")
      Map<String, Object> sched = (Map<String, Object>) Tensors.loadObject(dir.resolve("sched.pt"));
      try (Tensor p = run.opt.parameters().get(0).detach()) {
        resumed.opt.parameters().get(0).detach().copy_(p).close();
      }
      if (optimizerFirst) resumed.opt.loadStateDict(opt);
      resumed.sched.loadStateDict(sched);
      if (!optimizerFirst) resumed.opt.loadStateDict(opt);
      Tensors.closeAll(opt);
      assertEquals(run.opt.lr(), resumed.opt.lr(), 0.0);
      train(run, 3);
      train(resumed, 3);
      assertEquals(run.opt.lr(), resumed.opt.lr(), 0.0);
      assertEquals(java.util.Arrays.toString(run.opt.parameters().get(0).toDoubleArray()),
          java.util.Arrays.toString(resumed.opt.parameters().get(0).toDoubleArray()), name + ", optimizer first: " + optimizerFirst);
      run.opt.close();
      resumed.opt.close();
    }
  }
  private static ReduceLROnPlateau plateau(String name, Optimizer opt) {
    return name.equals("plateau_list") ? new ReduceLROnPlateau(opt, "min", 0.5, 1, 1e-4, "rel", 0, 0.01, 0.1)
        : new ReduceLROnPlateau(opt, "max", 0.5, 0, 0.1, "abs", 2, 0.1, 1e-8);
  }

  /**
   * ReduceLROnPlateau(opt, mode="max", factor=0.5, patience=0, threshold=0.1, threshold_mode="abs", cooldown=2, min_lr=0.1)
   * before any metric (best -inf), in its cooldown and at min_lr, and ReduceLROnPlateau(opt, factor=0.5, patience=1,
   * min_lr=[0.01], eps=0.1) (default_min_lr None, eps larger than the last cut): jtensor's state after the same metrics is
   * PyTorch's, and PyTorch's state (with the optimizer's rate, which its own state carries) continues with PyTorch's rates.
   */
  @Test
  void plateauStatesAtTheEdgesArePyTorchsAndResume() {
    List<?> metrics = (List<?>) fixtures.get("metrics");
    for (String name : List.of("plateau_fresh", "plateau_cool", "plateau_minlr", "plateau_list")) {
      SGD opt = new SGD(List.of(Tensor.zeros(1).requiresGrad_()), 0.5);
      ReduceLROnPlateau run = plateau(name, opt);
      for (int i = 0; i < epoch(name); i++) run.step(((Number) metrics.get(i)).doubleValue());
      Map<String, Object> want = new LinkedHashMap<>(state(name));
      if (name.equals("plateau_list")) want.put("default_min_lr", 0.01);  // a list min_lr: jtensor's takes one number
      assertSameState(want, run.stateDict(), name);

      SGD fresh = new SGD(List.of(Tensor.zeros(1).requiresGrad_()), 0.5);
      ReduceLROnPlateau resumed = plateau(name, fresh);
      resumed.loadStateDict(state(name));
      fresh.setLr(((Number) fixtures.get(name + ".lr")).doubleValue());
      assertEquals(epoch(name), resumed.lastEpoch(), name);
      List<?> next = (List<?>) fixtures.get(name + ".next");
      for (int i = 0; i < next.size(); i++) {
        resumed.step(((Number) metrics.get(epoch(name) + i)).doubleValue());
        assertEquals(((Number) next.get(i)).doubleValue(), fresh.lr(), 1e-15, name + " after metric " + (epoch(name) + i));
      }
    }
  }
  private static Made makeResume(String name) {
    Tensor p = Tensor.fromArray(new double[] {1, -2, 3}).to(org.jtensor.DType.FLOAT32).requiresGrad_();
    return switch (name) {
      case "resume_adam_oc" -> {
        Adam opt = new Adam(List.of(p), 0.5);
        yield new Made(opt, new OneCycleLR(opt, 1.0, 10));
      }
      case "resume_sgd_oc" -> {
        SGD opt = new SGD(List.of(p), 0.5, 0.9, 0, 0, false);
        yield new Made(opt, new OneCycleLR(opt, 1.0, 10));
      }
      default -> {
        AdamW opt = new AdamW(List.of(p), 0.5);
        yield new Made(opt, new SequentialLR(opt, List.of(new LinearLR(opt, 0.1, 1.0, 3), new CosineAnnealingLR(opt, 5, 0)), new int[] {3}));
      }
    };
  }

  /**
   * PyTorch's run (Adam or SGD with OneCycleLR; AdamW with LinearLR then CosineAnnealingLR) saved after 4 of 7 steps with
   * optimizer.state_dict() and scheduler.state_dict(), resumed in jtensor as PyTorch users write it (optimizer first, then
   * scheduler, and the reverse): the last 3 steps end at PyTorch's rate and parameters (float32 rounding).
   */
  @Test
  void pyTorchsOptimizerAndSchedulerStatesResumeAsPyTorchsRun() {
    for (String name : List.of("resume_adam_oc", "resume_sgd_oc", "resume_adamw_seq")) {
      for (boolean optimizerFirst : new boolean[] {true, false}) {
        Made m = makeResume(name);
        Tensor p = m.opt.parameters().get(0);
        try (Tensor d = p.detach()) {
          d.copy_(fixtures.tensor(name + ".param_mid"));
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> opt = (Map<String, Object>) fixtures.get(name + ".opt");
        @SuppressWarnings("unchecked")
        Map<String, Object> sched = (Map<String, Object>) fixtures.get(name + ".sched");
        if (optimizerFirst) m.opt.loadStateDict(opt);
        m.sched.loadStateDict(sched);
        if (!optimizerFirst) m.opt.loadStateDict(opt);
        for (int k = 4; k < 7; k++) {
          p.setGrad(Tensor.fromArray(new double[] {0.1 * k + 0.05, -0.2, 0.3}).to(org.jtensor.DType.FLOAT32));
          m.opt.step();
          m.sched.step();
        }
        String where = name + (optimizerFirst ? ", optimizer first" : ", scheduler first");
        assertEquals(((Number) fixtures.get(name + ".lr_end")).doubleValue(), m.opt.lr(), 1e-12, where);
        double[] want = fixtures.tensor(name + ".param_end").toDoubleArray(), got = p.toDoubleArray();
        for (int j = 0; j < want.length; j++) assertEquals(want[j], got[j], 1e-6, where + " parameter [" + j + "]");
        m.opt.close();
      }
    }
  }
  /**
   * PyTorch's OneCycleLR reads max_lr, min_lr, initial_lr and the momenta from the optimizer's group at each step:
   * a run with final_div_factor=1e4 saved after 6 of 10 steps and resumed by a OneCycleLR(final_div_factor=1e2)
   * (optimizer.load_state_dict, then scheduler.load_state_dict) continues at the saved run's rates [0.18825834605023697,
   * 0.049519367986526286, 4e-06, 0.04951936798652623]. The scheduler's state holds none of those values, so jtensor took it
   * and went on with its own min_lr: 4e-04 at the last step where the run had 4e-06. The group's values that differ
   * from the OneCycleLR's are now refused by name (jtensor's schedules keep their arguments), in either order.
   */
  @Test
  void aOneCycleResumedWithOtherGroupValuesIsRefusedNotContinuedSilently() {
    Made run = makeCycle(1e4, 25, 0.95);
    train(run, 6);
    Map<String, Object> opt = run.opt.stateDict(), sched = run.sched.stateDict();
    for (boolean optimizerFirst : new boolean[] {true, false}) {
      for (Made other : List.of(makeCycle(1e2, 25, 0.95), makeCycle(1e4, 50, 0.95), makeCycle(1e4, 25, 0.99))) {
        if (!optimizerFirst) other.sched.loadStateDict(sched);
        double lr = other.opt.lr();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> other.opt.loadStateDict(opt));
        assertTrue(e.getMessage().startsWith("SGD.loadStateDict(): the group's '"), e.getMessage());
        assertTrue(e.getMessage().contains("make the OneCycleLR with the arguments the state was saved with"), e.getMessage());
        assertEquals(lr, other.opt.lr(), 0.0, "nothing loaded");
        other.opt.close();
      }
    }
    Made same = makeCycle(1e4, 25, 0.95);  // the same arguments: taken, and the run goes on as the uninterrupted one
    same.opt.loadStateDict(opt);
    same.sched.loadStateDict(sched);
    for (int i = 0; i < 4; i++) {
      run.sched.step();
      same.sched.step();
      assertEquals(run.opt.lr(), same.opt.lr(), 0.0);
    }
    Tensors.closeAll(opt);
    run.opt.close();
    same.opt.close();
  }

  private static Made makeCycle(double finalDivFactor, double divFactor, double maxMomentum) {
    SGD opt = new SGD(List.of(Tensor.zeros(1).requiresGrad_()), 0.5, 0.9, 0, 0, false);
    double maxLr = divFactor / 25;  // initial_lr 0.04 (base_lrs) whatever div_factor is
    return new Made(opt, new OneCycleLR(opt, maxLr, 10, 0.3, "cos", true, 0.85, maxMomentum, divFactor, finalDivFactor));
  }
  /**
   * A SequentialLR state whose '_schedulers' holds None where a scheduler's state should be (PyTorch's load_state_dict:
   * TypeError "'NoneType' object is not iterable", after it has taken the outer entries) was refused as "expected a
   * scheduler's state dict (a map), got null", naming no scheduler; one whose '_schedulers' is 'x' (PyTorch: ValueError
   * "dictionary update sequence element #0 has length 1; 2 is required") was said to have no '_schedulers'. Both now name
   * the entry, and leave the scheduler and the optimizer's rate as they were.
   */
  @Test
  void aSequentialStateWithABadSchedulersEntryIsRefusedNamingIt() {
    SGD opt = new SGD(List.of(Tensor.zeros(1).requiresGrad_()), 0.5, 0.9, 0, 0, false);
    SequentialLR seq = new SequentialLR(opt, List.of(new LinearLR(opt, 0.5, 1.0, 2), new StepLR(opt, 2, 0.5)), new int[] {2});
    seq.step();
    Map<String, Object> state = seq.stateDict();
    Map<String, Object> none = new LinkedHashMap<>(state);
    List<Object> subs = new java.util.ArrayList<>((List<?>) state.get("_schedulers"));
    subs.set(1, null);
    none.put("_schedulers", subs);
    refusedSeq(seq, opt, none, "SequentialLR.loadStateDict(): the state of scheduler 1 (StepLR) is None; expected a scheduler's state dict");
    Map<String, Object> str = new LinkedHashMap<>(state);
    str.put("_schedulers", "x");
    refusedSeq(seq, opt, str, "SequentialLR.loadStateDict(): the state has '_schedulers' 'x'; expected a list of 2 schedulers' states");
    Map<String, Object> missing = new LinkedHashMap<>(state);
    missing.remove("_schedulers");
    refusedSeq(seq, opt, missing, "SequentialLR.loadStateDict(): the state has no '_schedulers'; expected a list of 2 schedulers' states");
  }

  private static void refusedSeq(SequentialLR seq, Optimizer opt, Map<String, Object> state, String message) {
    int epoch = seq.lastEpoch();
    double lr = opt.lr();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> seq.loadStateDict(state));
    assertEquals(message, e.getMessage());
    assertEquals(epoch, seq.lastEpoch());
    assertEquals(lr, opt.lr(), 0.0);
  }
  /**
   * Refusals quote the state's floats as Python prints them: a StepLR state with last_epoch 1e12 was refused as
   * "'last_epoch' 1.0E12", with inf as "Infinity"; Python's repr gives 1000000000000.0, inf, 1e-05, 1e+16.
   */
  @Test
  void refusalsQuoteFloatsAsPython() {
    SGD opt = new SGD(List.of(Tensor.zeros(1).requiresGrad_()), 0.5);
    StepLR step = new StepLR(opt, 2, 0.5);
    Map<String, Object> state = step.stateDict();
    for (Object[] c : new Object[][] {{1e12, "1000000000000.0"}, {Double.POSITIVE_INFINITY, "inf"}, {Double.NaN, "nan"}, {2.5, "2.5"}}) {
      Map<String, Object> bad = new LinkedHashMap<>(state);
      bad.put("last_epoch", c[0]);
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> step.loadStateDict(bad));
      assertEquals("StepLR.loadStateDict(): the state has 'last_epoch' " + c[1] + "; expected a whole number of at least 0", e.getMessage());
    }
    Map<String, Object> bad = new LinkedHashMap<>(state);
    bad.put("base_lrs", List.of(1e-5, 1e16));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> step.loadStateDict(bad));
    assertTrue(e.getMessage().contains("has 'base_lrs' [1e-05, 1e+16], this StepLR has [0.5]"), e.getMessage());
    // OneCycleLR(..., three_phase=True)'s state has three phases; its entries read as Python's dicts, not {end_step=2.0, ...}
    SGD sgd = new SGD(List.of(Tensor.zeros(1).requiresGrad_()), 0.5, 0.9, 0, 0, false);
    OneCycleLR cycle = new OneCycleLR(sgd, 1.0, 10);
    Map<String, Object> three = new LinkedHashMap<>(cycle.stateDict());
    List<Object> phases = new java.util.ArrayList<>((List<?>) three.get("_schedule_phases"));
    phases.add(phases.get(1));
    three.put("_schedule_phases", phases);
    e = assertThrows(IllegalArgumentException.class, () -> cycle.loadStateDict(three));
    assertTrue(e.getMessage().contains("has '_schedule_phases' [{'end_step': 2.0, 'start_lr': 'initial_lr', 'end_lr': 'max_lr', "
        + "'start_momentum': 'max_momentum', 'end_momentum': 'base_momentum'}, {'end_step': 9, "), e.getMessage());
    assertEquals("-2.5e-07", org.jtensor.core.PyRepr.pyFloat(-2.5e-7));
    assertEquals("123456789.125", org.jtensor.core.PyRepr.pyFloat(123456789.125));
    assertEquals("0.0001", org.jtensor.core.PyRepr.pyFloat(1e-4));
    assertEquals(0, step.lastEpoch());
  }
  /**
   * LambdaLR(opt, lambda e: 0.9 ** e).load_state_dict(a StepLR's state_dict()) raises KeyError 'lr_lambdas'; jtensor's
   * LambdaLR, with no arguments of its own to compare, took any schedule's state (base_lrs and last_epoch) and jumped
   * to its epoch. Now refused by name, nothing changed; its own state and PyTorch's still load.
   */
  @Test
  void aLambdaTakesOnlyALambdasState() {
    SGD opt = new SGD(List.of(Tensor.zeros(1).requiresGrad_()), 0.5);
    StepLR step = new StepLR(opt, 2, 0.5);
    for (int i = 0; i < 3; i++) step.step();
    Map<String, Object> stepState = step.stateDict();
    SGD opt2 = new SGD(List.of(Tensor.zeros(1).requiresGrad_()), 0.5);
    LambdaLR lambda = new LambdaLR(opt2, e -> Math.pow(0.9, e));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> lambda.loadStateDict(stepState));
    assertEquals("LambdaLR.loadStateDict(): the state has no 'lr_lambdas': it is not a LambdaLR's state", e.getMessage());
    Map<String, Object> bad = new LinkedHashMap<>(stepState);
    bad.put("lr_lambdas", "f");
    e = assertThrows(IllegalArgumentException.class, () -> lambda.loadStateDict(bad));
    assertEquals("LambdaLR.loadStateDict(): the state has 'lr_lambdas' 'f'; expected a list", e.getMessage());
    assertEquals(0, lambda.lastEpoch());
    assertEquals(0.5, opt2.lr(), 0.0);
    LambdaLR other = new LambdaLR(opt, x -> Math.pow(0.9, x));
    other.setLastEpoch(3);
    lambda.loadStateDict(other.stateDict());
    assertEquals(3, lambda.lastEpoch());
    assertEquals(0.5 * Math.pow(0.9, 3), opt2.lr(), 1e-15);
  }
}
