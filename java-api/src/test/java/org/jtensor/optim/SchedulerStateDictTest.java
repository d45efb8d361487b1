package org.jtensor.optim;

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
 * Schedulers' state dicts against PyTorch 2.13 (resources/optim/scheduler_states.pt from
 * make_scheduler_states.py beside it): after the same steps jtensor's stateDict() is PyTorch's
 * state_dict() (keys in order, ints as ints, values), PyTorch's state resumes a fresh scheduler at
 * PyTorch's next rates, jtensor's own state survives a .pt round trip, and a state of another
 * schedule is refused whole.
 */
class SchedulerStateDictTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture fixtures = new PtFixture("/optim/scheduler_states.pt");
  @TempDir Path dir;

  private static final List<String> CASES = List.of("step", "cosine", "lambda", "linear", "onecycle", "onecycle_adam", "sequential0",
      "sequential3", "sequential5", "sequential8");

  /** The optimizer and scheduler the fixture's script makes for a case (SGD lr 0.5 momentum 0.9, or Adam lr 0.5). */
  private record Made(Optimizer opt, LRScheduler sched) {}

  private static Made make(String name) {
    Tensor p = Tensor.zeros(1).requiresGrad_();
    Optimizer opt = name.endsWith("adam") ? new Adam(List.of(p), 0.5) : new SGD(List.of(p), 0.5, 0.9, 0, 0, false);
    LRScheduler s = switch (name) {
      case "step" -> new StepLR(opt, 3, 0.5);
      case "cosine" -> new CosineAnnealingLR(opt, 10, 0.001);
      case "lambda" -> new LambdaLR(opt, e -> Math.pow(0.9, e));
      case "linear" -> new LinearLR(opt, 0.1, 1.0, 5);
      case "onecycle" -> new OneCycleLR(opt, 0.8, 30);
      case "onecycle_adam" -> new OneCycleLR(opt, 1.0, 20, 0.25, "linear", true, 0.85, 0.95, 25, 1e4);
      default -> new SequentialLR(opt, List.of(new LinearLR(opt, 0.1, 1.0, 5), new StepLR(opt, 2, 0.1), new CosineAnnealingLR(opt, 10, 0.0)),
          new int[] {5, 7});
    };
    return new Made(opt, s);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> state(String name) {
    return (Map<String, Object>) fixtures.get(name + ".state");
  }

  private static int epoch(String name) {
    return ((Number) fixtures.get(name + ".epoch")).intValue();
  }

  private static List<?> next(String name) {
    return (List<?>) fixtures.get(name + ".next");
  }

  @Test
  void stateDictIsPyTorchsAfterTheSameSteps() {
    for (String name : CASES) {
      Made m = make(name);
      for (int i = 0; i < epoch(name); i++) m.sched.step();
      assertSameState(state(name), m.sched.stateDict(), name);
    }
  }

  @Test
  void pyTorchsStateResumesAtItsEpochAndContinuesAsPyTorch() {
    for (String name : CASES) {
      Made m = make(name);
      m.sched.loadStateDict(state(name));
      assertEquals(epoch(name), m.sched.lastEpoch(), name);
      for (Object want : next(name)) {
        m.sched.step();
        assertEquals(((Number) want).doubleValue(), m.opt.lr(), 1e-12, name + " at epoch " + m.sched.lastEpoch());
      }
    }
  }

  @Test
  void ownStateSavedAsPtResumesWhereTheRunWas() throws IOException {
    for (String name : CASES) {
      Made run = make(name), resumed = make(name);
      for (int i = 0; i < epoch(name) + 2; i++) run.sched.step();
      Path file = dir.resolve(name + ".pt");
      Tensors.saveObject(run.sched.stateDict(), file);
      @SuppressWarnings("unchecked")
      Map<String, Object> loaded = (Map<String, Object>) Tensors.loadObject(file);
      resumed.sched.loadStateDict(loaded);
      assertEquals(run.opt.lr(), resumed.opt.lr(), 0.0, name);
      for (int i = 0; i < 2; i++) {
        run.sched.step();
        resumed.sched.step();
        assertEquals(run.opt.lr(), resumed.opt.lr(), 0.0, name);
      }
    }
  }

  /** ReduceLROnPlateau's counters (in its cooldown; one bad epoch counted) come back, and its next rates are PyTorch's. */
  @Test
  void plateauStateIsPyTorchsAndResumes() {
    List<?> metrics = (List<?>) fixtures.get("metrics");
    for (String name : List.of("plateau4", "plateau6")) {
      SGD opt = new SGD(List.of(Tensor.zeros(1).requiresGrad_()), 0.5);
      ReduceLROnPlateau run = plateau(opt);
      for (int i = 0; i < epoch(name); i++) run.step(((Number) metrics.get(i)).doubleValue());
      assertSameState(state(name), run.stateDict(), name);

      SGD fresh = new SGD(List.of(Tensor.zeros(1).requiresGrad_()), 0.5);
      ReduceLROnPlateau resumed = plateau(fresh);
      resumed.loadStateDict(state(name));
      fresh.setLr(((Number) fixtures.get(name + ".lr")).doubleValue());  // the optimizer's own state carries its rate
      assertEquals(epoch(name), resumed.lastEpoch(), name);
      List<?> want = next(name);
      for (int i = 0; i < want.size(); i++) {
        resumed.step(((Number) metrics.get(epoch(name) + i)).doubleValue());
        assertEquals(((Number) want.get(i)).doubleValue(), fresh.lr(), 1e-15, name + " after metric " + (epoch(name) + i));
      }
    }
  }

  private static ReduceLROnPlateau plateau(Optimizer opt) {
    return new ReduceLROnPlateau(opt, "min", 0.5, 1, 1e-4, "rel", 1, 0.01, 1e-8);
  }

  @Test
  void aStateOfAnotherScheduleIsRefusedWholeNamingTheEntry() {
    Made step = make("step");
    step.sched.step();
    refused(step, state("cosine"), "StepLR.loadStateDict(): the state has no 'step_size': it is not a StepLR's state");
    refused(step, with(state("step"), "gamma", 0.1), "StepLR.loadStateDict(): the state has 'gamma' 0.1, this StepLR has 0.5; make the "
        + "scheduler with the arguments (and the optimizer's rate) the state was saved with");
    refused(step, with(state("step"), "base_lrs", List.of(0.1)), "the state has 'base_lrs' [0.1], this StepLR has [0.5]");
    refused(step, with(state("step"), "last_epoch", -1L), "the state has 'last_epoch' -1; expected a whole number of at least 0");
    refused(step, with(state("step"), "last_epoch", 2.5), "the state has 'last_epoch' 2.5; expected a whole number of at least 0");
    refused(step, with(state("step"), "last_epoch", true), "the state has 'last_epoch' True; expected a whole number");
    assertThrows(IllegalArgumentException.class, () -> step.sched.loadStateDict(null));

    Made cycle = make("onecycle");
    refused(cycle, with(state("onecycle"), "last_epoch", 31L), "OneCycleLR.loadStateDict(): the state's last_epoch 31 does not fit this "
        + "schedule: OneCycleLR.step(): Tried to step 31 times. The specified number of total steps is 30");
    refused(cycle, state("onecycle_adam"), "the state has 'total_steps' 20, this OneCycleLR has 30");

    Made seq = make("sequential5");
    refused(seq, with(state("sequential5"), "_milestones", List.of(5L, 8L)), "SequentialLR.loadStateDict(): the state has '_milestones' "
        + "[5, 8], this SequentialLR has [5, 7]");
    @SuppressWarnings("unchecked")
    List<Object> subs = new java.util.ArrayList<>((List<Object>) state("sequential5").get("_schedulers"));
    @SuppressWarnings("unchecked")
    Map<String, Object> second = (Map<String, Object>) subs.get(1);
    subs.set(1, with(second, "gamma", 0.5));
    refused(seq, with(state("sequential5"), "_schedulers", subs), "SequentialLR.loadStateDict(): the state of scheduler 1 (StepLR) has "
        + "'gamma' 0.5, this StepLR has 0.1");
    refused(seq, with(state("sequential5"), "_schedulers", subs.subList(0, 2)), "the state has 2 schedulers' states, this SequentialLR has 3");

    SGD opt = new SGD(List.of(Tensor.zeros(1).requiresGrad_()), 0.5);
    ReduceLROnPlateau p = plateau(opt);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> p.loadStateDict(with(state("plateau6"), "mode", "max")));
    assertEquals("ReduceLROnPlateau.loadStateDict(): the state has 'mode' 'max', this ReduceLROnPlateau has 'min'; make the scheduler with "
        + "the arguments (and the optimizer's rate) the state was saved with", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> p.loadStateDict(with(state("plateau6"), "num_bad_epochs", -1L)));
    assertTrue(e.getMessage().contains("'num_bad_epochs' -1; expected a whole number of at least 0"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> p.loadStateDict(with(state("plateau6"), "best", Double.NaN)));
    assertTrue(e.getMessage().contains("'best' nan"), e.getMessage());
    assertEquals(0, p.lastEpoch(), "nothing loaded");
  }

  /** A refused load names the entry and leaves the scheduler's epoch and the optimizer's rate as they were. */
  private static void refused(Made m, Map<String, Object> state, String message) {
    int epoch = m.sched.lastEpoch();
    double lr = m.opt.lr();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> m.sched.loadStateDict(state));
    assertTrue(e.getMessage().contains(message), e.getMessage());
    assertEquals(epoch, m.sched.lastEpoch());
    assertEquals(lr, m.opt.lr(), 0.0);
  }

  private static Map<String, Object> with(Map<String, Object> state, String key, Object value) {
    Map<String, Object> copy = new LinkedHashMap<>(state);
    copy.put(key, value);
    return copy;
  }

  /** PyTorch's state and jtensor's alike: the same keys in the same order, ints where PyTorch has ints, floats within rounding. */
  static void assertSameState(Object want, Object got, String where) {
    if (want instanceof Map<?, ?> w) {
      assertTrue(got instanceof Map<?, ?>, where + ": expected a map, got " + got);
      Map<?, ?> g = (Map<?, ?>) got;
      assertEquals(List.copyOf(w.keySet()).toString(), List.copyOf(g.keySet()).toString(), where + ": keys");
      for (Map.Entry<?, ?> e : w.entrySet()) assertSameState(e.getValue(), g.get(e.getKey()), where + "." + e.getKey());
    } else if (want instanceof List<?> w) {
      assertTrue(got instanceof List<?> g && g.size() == w.size(), where + ": expected " + w + ", got " + got);
      for (int i = 0; i < w.size(); i++) assertSameState(w.get(i), ((List<?>) got).get(i), where + "[" + i + "]");
    } else if (want instanceof Double w) {
      assertTrue(got instanceof Double, where + ": expected a float, got " + got);
      assertEquals(w, (Double) got, 1e-12 * Math.max(1, Math.abs(w)), where);
    } else {
      assertEquals(want, got, where);  // Long (a Python int), Boolean, String, null
    }
  }
}
