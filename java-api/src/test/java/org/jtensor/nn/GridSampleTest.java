package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.PtFixture;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.jtensor.autograd.Autograd;
import org.jtensor.autograd.GradCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.Executable;

/**
 * F.grid_sample and F.affine_grid against PyTorch 2.13 (resources/gridsample/fixtures.pt from
 * make_fixtures.py beside it): values and both gradients for every mode × padding × align_corners
 * (4-D; 5-D bilinear and nearest; a size-1 spatial dim) in float64 and float32 with grids reaching outside [-1, 1] and holding NaN, ±inf and 1e30;
 * float16/bfloat16 forwards; gradcheck in float64; PyTorch's refusals.
 */
class GridSampleTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture fixtures = new PtFixture("/gridsample/fixtures.pt");

  private static final String[] MODES = {"bilinear", "nearest", "bicubic"}, PADS = {"zeros", "border", "reflection"};

  /** "bicubic_border_1_f32" (or "nonfinite_", "unit_", "3d_" before it) -> {mode, padding, align}. */
  private static String[] parse(String name) {
    String[] p = name.replace("nonfinite_", "").replace("unit_", "").replace("3d_", "").split("_");
    return new String[] {p[0], p[1], p[2]};
  }

  /** A fixture's tensor as a new leaf (the fixture's own stays free of gradients). */
  private static Tensor fresh(String key) {
    return fixtures.tensor(key).detach().clone();
  }

  private static Tensor sample(String name, Tensor x, Tensor grid) {
    String[] p = parse(name);
    return Functional.gridSample(x, grid, p[0], p[1], p[2].equals("1"));
  }

  private static double tolerance(DType t) {
    return switch (t) {
      case FLOAT64 -> 1e-10;
      case FLOAT32 -> 2e-5;
      case FLOAT16 -> 1e-3;  // an ulp (float32's sampling rounded once against float64's)
      default -> 8e-3;
    };
  }

  /** want and got agree elementwise within tol·(1 + |want|), NaN where want is NaN. */
  static void close(String what, Tensor want, Tensor got, double tol) {
    assertArrayEquals(want.shape(), got.shape(), what + ": shape");
    assertEquals(want.dtype(), got.dtype(), what + ": dtype");
    double[] w = want.toDoubleArray(), g = got.toDoubleArray();
    for (int i = 0; i < w.length; i++) {
      boolean ok = Double.isNaN(w[i]) ? Double.isNaN(g[i]) : Math.abs(w[i] - g[i]) <= tol * (1 + Math.abs(w[i]));
      assertTrue(ok, what + ": element " + i + " PyTorch " + w[i] + ", jtensor " + g[i]);
    }
  }

  @Test
  void valuesAndGradientsMatchPyTorch() {
    List<?> cases = (List<?>) fixtures.get("cases");
    assertEquals(172, cases.size());
    for (Object c : cases) {
      String name = (String) c;
      Tensor x = fresh(name + ".x"), grid = fresh(name + ".grid");
      double tol = tolerance(x.dtype());
      boolean grads = fixtures.has(name + ".grad_x");
      if (grads) {
        x.requiresGrad_(true);
        grid.requiresGrad_(true);
      }
      Tensor y = sample(name, x, grid);
      if (fixtures.has(name + ".out64")) {  // float16, bfloat16: see make_fixtures.py
        close(name + " out", fixtures.tensor(name + ".out64").to(x.dtype()), y, tol);
        continue;
      }
      close(name + " out", fixtures.tensor(name + ".out"), y, tol);
      if (!grads) continue;
      y.mul(fixtures.tensor(name + ".up")).sum().backward();
      close(name + " grad_x", fixtures.tensor(name + ".grad_x"), x.grad(), tol * 10);
      close(name + " grad_grid", fixtures.tensor(name + ".grad_grid"), grid.grad(), tol * 10);
    }
  }

  /**
   * PyTorch 2.13's bilinear backward with border or reflection padding segfaults on a NaN (and,
   * for reflection, an infinite) grid coordinate. jtensor samples such a point where its forward
   * does (PyTorch's forward: the coordinate clamped to the border) and gives the grid no gradient
   * there: the input's gradient is that of the grid with those coordinates at the border they reach.
   */
  @Test
  void bilinearBackwardOnNonFiniteGridIsTheForwardsPosition() {
    for (String pad : new String[] {"border", "reflection"}) {
      for (String align : new String[] {"0", "1"}) {
        String name = "nonfinite_bilinear_" + pad + "_" + align + "_f64";
        Tensor x = fresh(name + ".x").requiresGrad_(true), grid = fresh(name + ".grid").requiresGrad_(true);
        Tensor up = Tensor.randn(new long[] {1, 2, 2, 4}, DType.FLOAT64, new Generator(7));
        sample(name, x, grid).mul(up).sum().backward();
        double[] g = grid.toDoubleArray(), gg = grid.grad().toDoubleArray(), at = g.clone();
        for (int i = 0; i < g.length; i++) {
          if (Double.isFinite(g[i])) continue;
          assertTrue(gg[i] == 0, name + ": the grid's gradient at non-finite element " + i + ": " + gg[i]);
          at[i] = pad.equals("border") && g[i] == Double.POSITIVE_INFINITY ? 1 : -1;
        }
        Tensor x2 = fresh(name + ".x").requiresGrad_(true);
        sample(name, x2, Tensor.fromArray(at).reshape(grid.shape())).mul(up).sum().backward();
        close(name + " grad_x", x2.grad(), x.grad(), 1e-12);
      }
    }
  }

  /** PyTorch 2.13 differentiates grid_sample's gradients; jtensor refuses to rather than drop their second-order terms. */
  @Test
  void doubleBackwardIsRefusedNotDropped() {
    String name = "bilinear_zeros_0_f64";
    Tensor x = fresh(name + ".x").requiresGrad_(true), grid = fresh(name + ".grid").requiresGrad_(true);
    Tensor y = sample(name, x, grid).mul(fixtures.tensor(name + ".up")).sum();
    List<Tensor> g = Autograd.grad(y, List.of(x, grid), true);
    close("createGraph grad_x", fixtures.tensor(name + ".grad_x"), g.get(0), 1e-9);
    close("createGraph grad_grid", fixtures.tensor(name + ".grad_grid"), g.get(1), 1e-9);
    Tensor penalty = g.get(1).pow(2.0).sum();
    UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, penalty::backward);
    String want = "gridSampleBackward(): the derivative of grid_sample's gradients (double backward) is not implemented";
    assertTrue(e.getMessage().contains(want), e.getMessage());
  }

  @Test
  void nonContiguousInputAndGridReadAsTheirValues() {
    String[] names = {"bilinear_zeros_0_f64", "bicubic_reflection_1_f64", "nearest_border_0_f32", "3d_bilinear_reflection_1_f64"};
    for (String name : names) {
      Tensor x = fresh(name + ".x"), grid = fresh(name + ".grid");
      Tensor xs = x.transpose(2, 3).contiguous().transpose(2, 3).requiresGrad_(true);  // same values, column-major planes
      int last = grid.dim() - 1;
      Tensor gs = grid.transpose(0, last).contiguous().transpose(0, last).requiresGrad_(true);
      assertTrue(!xs.isContiguous() && !gs.isContiguous());
      Tensor y = sample(name, xs, gs);
      close(name + " strided out", fixtures.tensor(name + ".out"), y, tolerance(x.dtype()));
      y.mul(fixtures.tensor(name + ".up")).sum().backward();
      close(name + " strided grad_x", fixtures.tensor(name + ".grad_x"), xs.grad(), tolerance(x.dtype()) * 10);
      close(name + " strided grad_grid", fixtures.tensor(name + ".grad_grid"), gs.grad(), tolerance(x.dtype()) * 10);
    }
    // a grid sliced out of a wider one, and an expanded input batch
    Tensor x = Tensor.randn(new long[] {1, 2, 3, 4}, DType.FLOAT64, new Generator(3)).expand(2, 2, 3, 4);
    Tensor wide = Tensor.rand(new long[] {2, 3, 5, 3}, DType.FLOAT64, new Generator(4)).mul(2.0).sub(1.0);
    Tensor grid = wide.narrow(3, 0, 2);
    close("sliced grid", Functional.gridSample(x.contiguous(), grid.contiguous(), "bicubic", "zeros", false),
        Functional.gridSample(x, grid, "bicubic", "zeros", false), 0);
  }

  @Test
  void gradcheckEveryModeAndPaddingInFloat64() {
    Generator gen = new Generator(53);
    for (int nsp = 2; nsp <= 3; nsp++) {
      long[] sizes = nsp == 2 ? new long[] {3, 4} : new long[] {2, 3, 4};  // (d,) h, w; grid's x runs along w
      long[] in = new long[nsp + 2], grid = new long[nsp + 2];
      in[0] = grid[0] = 2;
      in[1] = 2;
      System.arraycopy(sizes, 0, in, 2, nsp);
      for (int k = 1; k <= nsp; k++) grid[k] = 2;
      grid[nsp + 1] = nsp;
      for (String mode : nsp == 2 ? MODES : new String[] {"bilinear", "nearest"}) {
        for (String pad : PADS) {
          for (boolean align : new boolean[] {false, true}) {
            Tensor x = Tensor.randn(in, DType.FLOAT64, gen).requiresGrad_(true);
            // points off the kinks: source coordinates 0.25 from an integer and from a half
            double[] g = Tensor.rand(grid, DType.FLOAT64, gen).mul(2.4).sub(1.2).toDoubleArray();
            for (int i = 0; i < g.length; i++) g[i] = offKink(g[i], sizes[nsp - 1 - i % nsp], align);
            Tensor gr = Tensor.fromArray(g).reshape(grid).requiresGrad_(true);
            GradCheck.check(t -> Functional.gridSample(t.get(0), t.get(1), mode, pad, align), List.of(x, gr));
          }
        }
      }
    }
  }

  /** v moved so that its source coordinate along a dim of size n is 0.25 from an integer and from a half. */
  private static double offKink(double v, long n, boolean align) {
    double src = align ? (v + 1) / 2 * (n - 1) : ((v + 1) * n - 1) / 2;
    double moved = Math.floor(src) + 0.25 + (src - Math.floor(src) >= 0.5 ? 0.5 : 0);
    return align ? moved * 2 / (n - 1) - 1 : (2 * moved + 1) / n - 1;
  }

  @Test
  void affineGridMatchesPyTorch() {
    List<?> cases = (List<?>) fixtures.get("affine");
    assertEquals(6, cases.size());
    for (Object c : cases) {
      String name = (String) c;
      Tensor theta = fresh(name + ".theta").requiresGrad_(true);
      long[] size = fixtures.tensor(name + ".size").toLongArray();
      Tensor g = Functional.affineGrid(theta, size, name.endsWith("_1"));
      close(name + " out", fixtures.tensor(name + ".out"), g, 1e-12);
      g.mul(fixtures.tensor(name + ".up")).sum().backward();
      close(name + " grad", fixtures.tensor(name + ".grad"), theta.grad(), 1e-12);
    }
  }

  /** An identity θ samples the input back (align_corners false: the grid hits the pixel centres). */
  @Test
  void identityTransformSamplesTheInput() {
    Tensor x = Tensor.randn(new long[] {2, 3, 5, 7}, DType.FLOAT64, new Generator(11));
    Tensor theta = Tensor.fromArray(new double[] {1, 0, 0, 0, 1, 0}).reshape(1, 2, 3).expand(2, 2, 3);
    Tensor grid = Functional.affineGrid(theta, x.shape(), false);
    for (String mode : MODES) close(mode, x, Functional.gridSample(x, grid, mode, "zeros", false), 1e-12);
  }

  @Test
  void emptyBatchChannelsAndGridGiveEmptyOutputs() {
    assertArrayEquals(new long[] {0, 2, 3, 4}, empty(new long[] {0, 2, 5, 5}, new long[] {0, 3, 4, 2}, "bilinear", "zeros"));
    assertArrayEquals(new long[] {1, 0, 3, 4}, empty(new long[] {1, 0, 5, 5}, new long[] {1, 3, 4, 2}, "bicubic", "border"));
    assertArrayEquals(new long[] {1, 2, 0, 4}, empty(new long[] {1, 2, 5, 5}, new long[] {1, 0, 4, 2}, "nearest", "reflection"));
    assertArrayEquals(new long[] {0, 2, 1, 3, 4}, empty(new long[] {0, 2, 2, 5, 5}, new long[] {0, 1, 3, 4, 3}, "bilinear", "border"));
  }

  private static long[] empty(long[] input, long[] grid, String mode, String pad) {
    return Functional.gridSample(Tensor.zeros(input), Tensor.zeros(grid), mode, pad, false).shape();
  }

  private static <T extends RuntimeException> void refused(Class<T> type, String message, Executable call) {
    assertEquals(message, assertThrows(type, call).getMessage());
  }

  @Test
  void refusalsInPyTorchsWords() {
    Tensor x = Tensor.randn(1, 1, 3, 3), g = Tensor.rand(1, 2, 2, 2);
    Class<IllegalArgumentException> bad = IllegalArgumentException.class;
    refused(bad, "gridSample(): expected grid to have size 2 in last dimension, but got grid with sizes [1, 2, 2, 3]",
        () -> Functional.gridSample(x, Tensor.rand(1, 2, 2, 3), "bilinear", "zeros", false));
    refused(bad, "gridSample(): expected grid and input to have same batch size, but got input with sizes [1, 1, 3, 3] and grid with "
        + "sizes [2, 2, 2, 2]", () -> Functional.gridSample(x, Tensor.rand(2, 2, 2, 2), "bilinear", "zeros", false));
    refused(bad, "gridSample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', but got: 'foo'",
        () -> Functional.gridSample(x, g, "foo", "zeros", false));
    refused(bad, "gridSample(): expected padding_mode to be 'zeros', 'border', or 'reflection', but got: 'foo'",
        () -> Functional.gridSample(x, g, "bilinear", "foo", false));
    refused(bad, "gridSample(): bicubic interpolation only supports 4D input",
        () -> Functional.gridSample(Tensor.randn(1, 1, 2, 2, 2), Tensor.rand(1, 2, 2, 2, 3), "bicubic", "zeros", false));
    refused(bad, "gridSample(): expected 4D input and grid with same number of dimensions, but got input with sizes [1, 1, 3, 3] and grid "
        + "with sizes [1, 2, 2]", () -> Functional.gridSample(x, Tensor.rand(1, 2, 2), "bilinear", "zeros", false));
    refused(bad, "gridSample(): expected input to have non-empty spatial dimensions, but input has sizes [1, 1, 0, 2] with dimension 2 "
        + "being empty", () -> Functional.gridSample(Tensor.randn(1, 1, 0, 2), g, "bilinear", "zeros", false));
    refused(bad, "gridSample(): expected scalar type Float but found Double (input float32, grid float64)",
        () -> Functional.gridSample(x, g.to(DType.FLOAT64), "bilinear", "zeros", false));
    refused(UnsupportedOperationException.class, "gridSample(): \"grid_sampler_2d_cpu_kernel_impl\" not implemented for 'Int'",
        () -> Functional.gridSample(x.to(DType.INT32), g.to(DType.INT32), "bilinear", "zeros", false));
    refused(UnsupportedOperationException.class, "gridSample(): \"grid_sampler3d_cpu\" not implemented for 'Int'",
        () -> Functional.gridSample(Tensor.randn(1, 1, 2, 2, 2).to(DType.INT32), Tensor.rand(1, 2, 2, 2, 3).to(DType.INT32), "bilinear",
            "zeros", false));

    Tensor theta = Tensor.rand(1, 2, 3);
    refused(bad, "affineGrid(): Expected a batch of 3D affine matrices of shape Nx3x4 for size [1, 1, 2, 2, 2]. Got [1, 2, 3].",
        () -> Functional.affineGrid(theta, new long[] {1, 1, 2, 2, 2}, false));
    refused(bad, "affineGrid(): affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, respectively. Got size [1, 1, 2].",
        () -> Functional.affineGrid(theta, new long[] {1, 1, 2}, false));
    refused(bad, "affineGrid(): Expected non-zero, positive output size. Got [1, 1, 0, 2]",
        () -> Functional.affineGrid(theta, new long[] {1, 1, 0, 2}, false));
    refused(bad, "affineGrid(): Expected theta to have floating point type, but got int32",
        () -> Functional.affineGrid(theta.to(DType.INT32), new long[] {1, 1, 2, 2}, false));
    refused(bad, "affineGrid(): Expected theta's batch 1 to equal size[0] = 2 (PyTorch: Expected size for first two dimensions of batch2 "
        + "tensor to be: [2, 3] but got: [1, 3].)", () -> Functional.affineGrid(theta, new long[] {2, 1, 2, 2}, false));
  }
}
