package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.jtensor.Close;
import org.jtensor.DType;
import org.jtensor.PtFixture;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.jtensor.autograd.GradCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * F.instance_norm and InstanceNorm1d/2d/3d against PyTorch 2.13 (resources/nnlayers/fixtures.pt from
 * make_fixtures.py beside it): outputs, running statistics after a training call, every gradient,
 * a PyTorch state_dict loaded into InstanceNorm2d; GradCheck in float64; PyTorch's refusals and
 * its empty-input results.
 */
class InstanceNormTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture fixtures = new PtFixture("/nnlayers/fixtures.pt");

  private static Tensor f(String name) {
    return fixtures.tensor(name);
  }

  private static Tensor opt(String name) {
    return fixtures.has(name) ? f(name).clone() : null;
  }

  private static void close(String what, Tensor want, Tensor got) {
    Close.assertTensor(what, want, got, want.dtype() == DType.FLOAT64 ? 1e-12 : 2e-6);
  }

  @Test
  void functionalMatchesPyTorchWithRunningStatisticsAndGradients() {
    double[][] args = {{1, 0.1, 1e-5}, {1, 0.1, 1e-3}, {1, 0.3, 1e-5}, {0, 0.1, 1e-5}, {1, 0.1, 1e-5}};  // useInputStats, momentum, eps
    List<String> cases = List.of("plain", "affine2d", "running", "eval", "float32_3d");
    for (int i = 0; i < cases.size(); i++) {
      String pre = "in." + cases.get(i) + ".";
      Tensor x = f(pre + "x").clone().requiresGrad_(true), w = opt(pre + "weight"), b = opt(pre + "bias");
      if (w != null) w.requiresGrad_(true);
      if (b != null) b.requiresGrad_(true);
      Tensor rm = opt(pre + "running_mean"), rv = opt(pre + "running_var");
      Tensor y = Functional.instanceNorm(x, rm, rv, w, b, args[i][0] == 1, args[i][1], args[i][2]);
      close(pre + "out", f(pre + "out"), y);
      if (rm != null) {
        close(pre + "running_mean", f(pre + "rm_after"), rm);
        close(pre + "running_var", f(pre + "rv_after"), rv);
      }
      y.mul(f(pre + "up")).sum().backward();
      close(pre + "grad_x", f(pre + "grad_x"), x.grad());
      if (w != null) close(pre + "grad_weight", f(pre + "grad_weight"), w.grad());
      if (b != null) close(pre + "grad_bias", f(pre + "grad_bias"), b.grad());
    }
  }

  @Test
  void instanceNorm2dLoadsPyTorchsStateDictAndMatchesItInEvalAndTraining() {
    try (InstanceNorm2d m = new InstanceNorm2d(3, 1e-5, 0.1, true, true)) {
      check(m);
    }
  }

  private static void check(InstanceNorm2d m) {
    assertEquals(Set.of("weight", "bias", "running_mean", "running_var", "num_batches_tracked"), m.stateDict().keySet());
    fixtures.loadInto(m, "mod");
    Tensor x = f("mod.x");
    close("eval", f("mod.eval_out"), m.forward(x));
    close("unbatched eval", f("mod.unbatched_eval_out"), m.forward(x.select(0, 1)));
    m.train();
    close("train", f("mod.train_out"), m.forward(x));
    close("running_mean", f("mod.rm_after"), m.stateDict().get("running_mean"));
    close("running_var", f("mod.rv_after"), m.stateDict().get("running_var"));
    assertEquals(0L, (long) m.stateDict().get("num_batches_tracked").item(), "PyTorch's instance norm never counts its batches");
  }

  @Test
  void defaultsHoldNoStateAndNullMomentumKeepsTheStatistics() {
    try (InstanceNorm1d plain = new InstanceNorm1d(3); InstanceNorm3d affine = new InstanceNorm3d(2, 1e-5, 0.1, true, false);
         InstanceNorm1d m = new InstanceNorm1d(2, 1e-5, null, false, true)) {
      assertTrue(plain.stateDict().isEmpty(), "InstanceNorm1d(3): affine=False, track_running_stats=False");
      assertEquals(Set.of("weight", "bias"), affine.stateDict().keySet());
      m.forward(Tensor.randn(3, 2, 4));
      assertArrayEquals(new double[] {0, 0}, m.stateDict().get("running_mean").toDoubleArray(), 0);
      assertArrayEquals(new double[] {1, 1}, m.stateDict().get("running_var").toDoubleArray(), 0);
      // without affine parameters num_features is unused (PyTorch warns): 4 channels pass a module built for 3
      assertArrayEquals(new long[] {2, 4, 5}, plain.forward(Tensor.randn(2, 4, 5)).shape());
    }
  }

  @Test
  void gradientsPassGradCheckInFloat64() {
    Tensor x = Tensor.randn(2, 3, 4).to(DType.FLOAT64), w = Tensor.randn(3).to(DType.FLOAT64);
    Tensor b = Tensor.randn(3).to(DType.FLOAT64), rm = Tensor.randn(3).to(DType.FLOAT64);
    Tensor rv = Tensor.rand(3).to(DType.FLOAT64).add(0.5);
    GradCheck.check(in -> Functional.instanceNorm(in.get(0), null, null, in.get(1), in.get(2), true, 0.1, 1e-5), List.of(x, w, b));
    GradCheck.check(in -> Functional.instanceNorm(in.get(0), rm, rv, in.get(1), in.get(2), false, 0.1, 1e-5), List.of(x, w, b));
  }

  /** PyTorch 2.13: NaN statistics from an empty batch (the mean over no instances); no spatial elements leave them; no channels pass. */
  @Test
  void emptyInputsGivePyTorchsResults() {
    Tensor rm = Tensor.zeros(3), rv = Tensor.ones(3);
    assertArrayEquals(new long[] {0, 3, 4}, Functional.instanceNorm(Tensor.randn(0, 3, 4), rm, rv, null, null, true, 0.1, 1e-5).shape());
    assertTrue(Double.isNaN(rm.toDoubleArray()[0]) && Double.isNaN(rv.toDoubleArray()[2]), "an empty batch's statistics are NaN, as PyTorch's");
    Tensor rm2 = Tensor.zeros(3), rv2 = Tensor.ones(3);
    assertArrayEquals(new long[] {2, 3, 0}, Functional.instanceNorm(Tensor.randn(2, 3, 0), rm2, rv2, null, null, true, 0.1, 1e-5).shape());
    assertArrayEquals(new double[] {0, 0, 0, 1, 1, 1}, Tensor.cat(List.of(rm2, rv2), 0).toDoubleArray(), 0);
    assertArrayEquals(new long[] {2, 0, 4}, Functional.instanceNorm(Tensor.randn(2, 0, 4)).shape());
  }

  @Test
  void badArgumentsAreRefusedInPyTorchsWords() {
    Tensor x = Tensor.randn(2, 3, 4);
    assertMessage("instanceNorm(): Expected more than 1 spatial element when training, got input size [2, 3, 1]",
        () -> Functional.instanceNorm(Tensor.randn(2, 3, 1)));
    assertMessage("instanceNorm(): Expected more than 1 spatial element when training, got input size [2, 3]",
        () -> Functional.instanceNorm(Tensor.randn(2, 3)));
    assertMessage("instanceNorm(): Expected running_mean and running_var to be defined when use_input_stats is false",
        () -> Functional.instanceNorm(x, null, null, null, null, false, 0.1, 1e-5));
    assertMessage("instanceNorm(): running_mean and running_var must either both be None or neither be None",
        () -> Functional.instanceNorm(x, Tensor.zeros(3), null, null, null, true, 0.1, 1e-5));
    assertMessage("instanceNorm(): weight should contain 3 elements not 2",
        () -> Functional.instanceNorm(x, null, null, Tensor.ones(2), null, true, 0.1, 1e-5));
    assertMessage("instanceNorm(): running_mean should contain 3 elements not 2",
        () -> Functional.instanceNorm(x, Tensor.zeros(2), Tensor.ones(2), null, null, true, 0.1, 1e-5));
    assertMessage("instanceNorm(): weight must be 1-D, got shape [3, 1]",
        () -> Functional.instanceNorm(x, null, null, Tensor.ones(3, 1), null, true, 0.1, 1e-5));
    try (InstanceNorm1d m1 = new InstanceNorm1d(3); InstanceNorm2d m2 = new InstanceNorm2d(3);
         InstanceNorm1d affine = new InstanceNorm1d(3, 1e-5, 0.1, true, false)) {
      assertMessage("InstanceNorm1d: expected 2D or 3D input (got 1D input)", () -> m1.forward(Tensor.randn(4)));
      assertMessage("InstanceNorm2d: expected 3D or 4D input (got 2D input)", () -> m2.forward(Tensor.randn(3, 5)));
      assertMessage("InstanceNorm1d: expected input's size at dim=1 to match num_features (3), but got: 4.",
          () -> affine.forward(Tensor.randn(2, 4, 5)));
      assertMessage("InstanceNorm1d: expected input's size at dim=0 to match num_features (3), but got: 4.",
          () -> affine.forward(Tensor.randn(4, 5)));
    }
    UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
        () -> Functional.instanceNorm(Tensor.ones(new long[] {2, 3, 4}, DType.INT64)));
    assertEquals("instanceNorm(): expected a floating point input, got int64", e.getMessage());
  }

  private static void assertMessage(String want, org.junit.jupiter.api.function.Executable call) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
    assertEquals(want, e.getMessage());
  }
}
