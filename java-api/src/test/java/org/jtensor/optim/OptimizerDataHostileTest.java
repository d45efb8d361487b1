package org.jtensor.optim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jtensor.DType;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.jtensor.data.Batch;
import org.jtensor.data.Collate;
import org.jtensor.data.DataLoader;
import org.jtensor.data.TensorDataset;
import org.junit.jupiter.api.Test;

/**
 * A hostile review (session 32) of the optimizers' new options and of the data loader, against PyTorch 2.13 (CPU):
 * each test is named after a bug it found, and failed before its fix. Expected values are PyTorch's, printed by it.
 */
class OptimizerDataHostileTest extends ScopedTest {
  private static Tensor param() {
    return Tensor.fromArray(new float[] {1, 2}).requiresGrad_();
  }

  /** Two steps (gradients [1, -1] then [0.5, 0.25]) after loading the optimizer's own groups with state {0: saved}. */
  private static double[] twoStepsAfterLoading(Function<List<Tensor>, Optimizer> make, Map<String, Object> saved) {
    Tensor p = param();
    try (Optimizer opt = make.apply(List.of(p))) {
      Map<String, Object> dict = new LinkedHashMap<>(opt.stateDict());
      Map<Object, Object> state = new HashMap<>();
      state.put(0L, saved);
      dict.put("state", state);
      opt.loadStateDict(dict);
      p.setGrad(Tensor.fromArray(new float[] {1, -1}));
      opt.step();
      p.setGrad(Tensor.fromArray(new float[] {0.5f, 0.25f}));
      opt.step();
      return p.toDoubleArray();
    }
  }

  /**
   * Older PyTorch releases saved {'momentum_buffer': None} for every parameter an SGD without momentum stepped, and reading
   * opt.state[p] leaves an empty entry; PyTorch 2.13 loads both (None and {} are no state: its step starts afresh).
   * jtensor refused them ("has no tensor 'momentum_buffer'", "'step' ... got null"), so such a checkpoint could not resume.
   */
  @Test
  void aSavedStateThatIsEmptyOrANoneMomentumBufferIsNoStateAsPyTorchs() {
    Map<String, Object> none = new HashMap<>();
    none.put("momentum_buffer", null);
    assertArrayEquals(new double[] {0.8499999642372131, 2.0749998092651367}, twoStepsAfterLoading(ps -> new SGD(ps, 0.1), none));
    assertArrayEquals(new double[] {0.7599999904632568, 2.1649999618530273}, twoStepsAfterLoading(ps -> new SGD(ps, 0.1, 0.9), none));
    assertArrayEquals(new double[] {0.7599999904632568, 2.1649999618530273}, twoStepsAfterLoading(ps -> new SGD(ps, 0.1, 0.9), Map.of()));
    assertArrayEquals(new double[] {0.806782066822052, 2.146946668624878}, twoStepsAfterLoading(ps -> new Adam(ps, 0.1), Map.of()));
    assertArrayEquals(new double[] {-0.9606442451477051, 3.263235330581665},
        twoStepsAfterLoading(ps -> new RMSprop(ps, 0.1, 0.99, 1e-8, 0, 0.5, true), Map.of()), 1e-7);  // torch's sqrt is MKL's
    // Adagrad's constructor makes every state: PyTorch's step fails on an empty one (KeyError 'step'); still refused here
    String m = assertThrows(IllegalArgumentException.class, () -> twoStepsAfterLoading(ps -> new Adagrad(ps, 0.1), Map.of())).getMessage();
    assertTrue(m.contains("Adagrad.loadStateDict()") && m.contains("'step'"), m);
    // a None beside a real buffer is still no tensor
    Map<String, Object> adamNone = new HashMap<>();
    adamNone.put("step", 1L);
    adamNone.put("exp_avg", null);
    adamNone.put("exp_avg_sq", Tensor.zeros(2));
    m = assertThrows(IllegalArgumentException.class, () -> twoStepsAfterLoading(ps -> new Adam(ps, 0.1), adamNone)).getMessage();
    assertTrue(m.contains("has no tensor 'exp_avg'"), m);
    assertEquals(DType.FLOAT32, param().dtype());
  }

  /**
   * DataLoader(TensorDataset(zeros(0, 3)), shuffle=True) raises "num_samples should be a positive integer value, but got
   * num_samples=0" in PyTorch 2.13 (its RandomSampler, when the loader is made); jtensor served an empty epoch. Unshuffled,
   * both serve none.
   */
  @Test
  void shufflingAnEmptyDatasetIsRefusedAsPyTorchs() {
    TensorDataset empty = new TensorDataset(Tensor.zeros(0, 3));
    String m = assertThrows(IllegalArgumentException.class, () -> DataLoader.builder(empty).shuffle(true).build()).getMessage();
    assertTrue(m.contains("num_samples should be a positive integer value, but got num_samples=0"), m);
    try (DataLoader<List<Tensor>> loader = DataLoader.builder(empty).batchSize(2).build()) {
      int batches = 0;
      for (Batch b : loader) batches++;
      assertEquals(0, batches);
      assertEquals(0, loader.size());
    }
  }

  /**
   * An expanded leaf parameter (ones(1).expand(3), a leaf PyTorch also takes) with a gradient failed its write
   * ("unsupported operation: more than one element of the written-to tensor refers to a single memory location", PyTorch's
   * words too) after the parameters before it were written and their state changed: a half-stepped model, against Note
   * [A step is whole or nothing]. PyTorch 2.13 fails the same way half-way; jtensor now refuses before the first write.
   */
  @Test
  void anExpandedParameterIsRefusedBeforeAnyParameterIsStepped() {
    List<Function<List<Tensor>, Optimizer>> makers = List.of(ps -> new SGD(ps, 0.1, 0.9), ps -> new Adam(ps, 0.1),
        ps -> new AdamW(ps, 0.1), ps -> new RMSprop(ps, 0.1), ps -> new Adagrad(ps, 0.1));
    for (Function<List<Tensor>, Optimizer> make : makers) {
      Tensor a = param(), b = Tensor.ones(1).expand(3).requiresGrad_();
      try (Optimizer opt = make.apply(List.of(a, b))) {
        Map<String, Object> before = opt.stateDict();
        a.setGrad(Tensor.ones(2));
        b.setGrad(Tensor.fromArray(new float[] {1, 2, 3}));
        String m = assertThrows(IllegalArgumentException.class, opt::step).getMessage();
        assertTrue(m.contains(opt.getClass().getSimpleName() + ".step(): parameter 1") && m.contains("more than one element of the written-to tensor"), m);
        assertArrayEquals(new double[] {1, 2}, a.toDoubleArray(), opt.getClass().getSimpleName() + " stepped parameter 0");
        assertEquals(((Map<?, ?>) before.get("state")).keySet(), ((Map<?, ?>) opt.stateDict().get("state")).keySet());
        b.setGrad(null);  // without its gradient the expanded parameter is skipped, as PyTorch's
        opt.step();
        assertTrue(a.toDoubleArray()[0] < 1);
      }
    }
  }

  /**
   * defaultCollate([[1, [2, 3]], [4, [5, 6]]]): PyTorch collates the nested list recursively ([tensor([1, 4]),
   * [tensor([2, 5]), tensor([3, 6])]]); a Batch is flat, so it is refused, but the refusal said a field "must be a
   * Tensor, a Number, a Boolean or a List of them, got java.util.ImmutableCollections$List12": a List, refused as not one.
   */
  @Test
  void aNestedListIsRefusedNamingTheNesting() {
    String m = assertThrows(IllegalArgumentException.class, () -> Collate.defaultCollate(List.of(List.of(1, List.of(2, 3)),
        List.of(4, List.of(5, 6))))).getMessage();
    assertTrue(m.contains("defaultCollate(): a field 1 is a List: nested lists are not collated") && m.contains("collate function"), m);
  }
}
