package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.CloseRace;
import org.jtensor.PtFixture;
import org.jtensor.RefusedMemory;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.autograd.Autograd;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * F.grid_sample attacked where GridSampleTest does not go (resources/gridsample/hostile_fixtures.pt
 * from make_hostile_fixtures.py beside it, PyTorch 2.13's values): grids of magnitude up to 1e4
 * folded by reflection, grids exactly on the borders and pixel edges (the gradient's kinks), 1 x 1
 * inputs, 16-bit NaN; each also with a channels-last input and a strided grid; then operands
 * closed from another thread during the forward and backward, and a memory limit refusing each
 * allocation.
 */
class GridSampleHostileTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture fixtures = new PtFixture("/gridsample/hostile_fixtures.pt");

  /** "far_bicubic_border_1_f32" -> {mode, padding, align}. */
  private static String[] parse(String name) {
    String[] p = name.split("_");
    return new String[] {p[1], p[2], p[3]};
  }

  private static Tensor fresh(String key) {
    return fixtures.tensor(key).detach().clone();
  }

  /** t with the same values in another layout: channels last for an input, its middle dims transposed in memory for a grid. */
  private static Tensor strided(Tensor t, boolean input) {
    int d = t.dim();
    if (input) {
      int[] last = new int[d], back = new int[d];
      last[0] = 0;
      for (int k = 1; k < d; k++) last[k] = k == d - 1 ? 1 : k + 1;
      for (int k = 0; k < d; k++) back[last[k]] = k;
      return t.permute(last).contiguous().permute(back);
    }
    return t.transpose(1, 2).contiguous().transpose(1, 2);
  }

  private static double tolerance(DType t) {
    return switch (t) {
      case FLOAT64 -> 1e-10;
      case FLOAT32 -> 2e-5;
      case FLOAT16 -> 1e-3;
      default -> 8e-3;
    };
  }

  /** Every case, each a failure of its own in the report (a wrong rounding shows in many at once). */
  @Test
  void stressedCoordinatesMatchPyTorchInEveryLayout() {
    List<?> cases = (List<?>) fixtures.get("cases");
    assertEquals(168, cases.size());
    List<String> failures = new ArrayList<>();
    for (Object c : cases) {
      for (boolean layout : new boolean[] {false, true}) {
        try (TensorScope s = TensorScope.open()) {
          check((String) c, layout);
        } catch (AssertionError e) {
          failures.add(e.getMessage());
        }
      }
    }
    assertTrue(failures.isEmpty(), failures.size() + " failures:\n" + String.join("\n", failures));
  }

  /** One case's value and gradients, the operands as the fixture holds them or (layout) strided. */
  private static void check(String name, boolean layout) {
    String[] p = parse(name);
    String what = name + (layout ? " strided" : "");
    Tensor x = fresh(name + ".x"), grid = fresh(name + ".grid");
    if (layout) {
      x = strided(x, true);
      grid = strided(grid, false);
    }
    double tol = tolerance(x.dtype());
    boolean grads = fixtures.has(name + ".grad_x");
    if (grads) {
      x.requiresGrad_(true);
      grid.requiresGrad_(true);
    }
    Tensor y = Functional.gridSample(x, grid, p[0], p[1], p[2].equals("1"));
    if (fixtures.has(name + ".out64")) {
      GridSampleTest.close(what + " out", fixtures.tensor(name + ".out64").to(x.dtype()), y, tol);
      return;
    }
    GridSampleTest.close(what + " out", fixtures.tensor(name + ".out"), y, tol);
    if (!grads) return;
    List<Tensor> g = Autograd.grad(y.mul(fixtures.tensor(name + ".up")).sum(), List.of(x, grid));
    GridSampleTest.close(what + " grad x", fixtures.tensor(name + ".grad_x"), g.get(0), tol);
    GridSampleTest.close(what + " grad grid", fixtures.tensor(name + ".grad_grid"), g.get(1), tol);
  }

  private static final String[][] SETTINGS = {{"bilinear", "zeros"}, {"bicubic", "reflection"}, {"nearest", "border"}};

  /**
   * The input or the grid closed from another thread while gridSample and its backward run, the
   * rounds holding no scope: each ends in the right bits or IllegalStateException, and once every
   * handle is closed no byte is left.
   */
  @Test
  void operandsClosedDuringTheForwardAndBackward() throws InterruptedException {
    for (String[] setting : SETTINGS) {
      for (int victim = 0; victim < 2; victim++) race(setting, victim, Arrays.toString(setting) + " victim " + victim);
    }
  }

  private static void race(String[] setting, int victim, String what) throws InterruptedException {
    long before = RefusedMemory.allocated();
    Tensor[] operands;
    try (TensorScope s = TensorScope.open()) {
      Generator gen = new Generator(64);
      Tensor x = Tensor.randn(new long[] {4, 3, 16, 16}, DType.FLOAT32, gen), grid = Tensor.rand(new long[] {4, 12, 12, 2}, DType.FLOAT32, gen);
      operands = new Tensor[] {TensorScope.escape(x.requiresGrad_(true)), TensorScope.escape(grid.mul(2.4).sub(1.2).requiresGrad_(true))};
    }
    double[][] want = run(setting, operands);
    CloseRace.closeDuringLeavingNothing(() -> {
      double[][] got = run(setting, operands);
      for (int k = 0; k < got.length; k++) if (!Arrays.equals(want[k], got[k])) throw new AssertionError("result " + k + " differs");
    }, operands, victim, before, 300, 3, what);
  }

  /** The sample and the gradients of its sum, each handle closed here (whichever thread runs it). */
  private static double[][] run(String[] setting, Tensor[] operands) {
    List<Tensor> made = new ArrayList<>();
    try {
      Tensor y = Functional.gridSample(operands[0], operands[1], setting[0], setting[1], false);
      made.add(y);
      Tensor sum = y.sum();
      made.add(sum);
      List<Tensor> g = Autograd.grad(sum, List.of(operands));
      made.addAll(g);
      return new double[][] {y.toDoubleArray(), g.get(0).toDoubleArray(), g.get(1).toDoubleArray()};
    } finally {
      for (Tensor t : made) t.close();
    }
  }

  /**
   * Memory refused at each allocation (RefusedMemory, 4 KB given back at a time): a float32 and a
   * float16 sample (its float32 copies) and the backward fail with the allocator's exception or
   * give the right bits, and nothing is left at any step.
   */
  @Test
  void aRefusedAllocationFailsCleanlyAtEachStep() {
    Generator gen = new Generator(65);
    // each allocation past the 4 KB fillers, so that none fits in what they leave
    Tensor x = Tensor.randn(new long[] {2, 3, 32, 32}, DType.FLOAT32, gen), grid = Tensor.rand(new long[] {2, 24, 24, 2}, DType.FLOAT32, gen);
    for (DType t : new DType[] {DType.FLOAT32, DType.FLOAT16}) {
      Tensor xt = x.to(t), gt = grid.to(t);
      double[][] want;
      try (TensorScope s = TensorScope.open()) {
        want = gradients(xt, gt);
      }
      RefusedMemory.stepThrough(t.toString(), 4 << 10, 2, want, () -> gradients(xt, gt));
    }
  }

  private static double[][] gradients(Tensor x, Tensor grid) {
    Tensor xg = x.detach().requiresGrad_(true), gg = grid.detach().requiresGrad_(true);
    Tensor y = Functional.gridSample(xg, gg, "bicubic", "reflection", true);
    List<Tensor> g = Autograd.grad(y.sum(), List.of(xg, gg));
    return new double[][] {y.toDoubleArray(), g.get(0).toDoubleArray(), g.get(1).toDoubleArray()};
  }

}
