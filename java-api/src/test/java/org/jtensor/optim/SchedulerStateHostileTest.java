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
   * uninterrupted run: the same rates and the same parameters, bit for bit.
   */
  @Test
  void aNegativeScheduledRateResumesThroughPtFiles() throws IOException {
    for (boolean optimizerFirst : new boolean[] {true, false}) {
      Made run = make("step_neg"), resumed = make("step_neg");
      train(run, 3);
      assertEquals(-0.25, run.opt.lr());
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
          java.util.Arrays.toString(resumed.opt.parameters().get(0).toDoubleArray()), "optimizer first: " + optimizerFirst);
      run.opt.close();
      resumed.opt.close();
    }
  }
}
