package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import org.jtensor.autograd.GradCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * aminmax, varMean, stdMean, quantile's interpolations and nanquantile against PyTorch 2.13
 * (resources/statistics/fixtures.pt from make_fixtures.py beside it): values and dtypes over
 * float64, float32, int64, bool, 0-dim, empty inputs and rows holding NaN (a row of NaN among
 * them), the gradients of Σ out_k · up_k in float64, GradCheck, and PyTorch's refusals.
 */
class StatisticsTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture fixtures = new PtFixture("/statistics/fixtures.pt");

  /** Each case's call (mode: the interpolation its name ends in), with make_fixtures.py's arguments. */
  private static final Map<String, BiFunction<List<Tensor>, String, List<Tensor>>> OPS = Map.ofEntries(
      Map.entry("aminmax_all", (x, m) -> pair(x.get(0).aminmax())),
      Map.entry("aminmax_dim", (x, m) -> pair(x.get(0).aminmax(1, true))),
      Map.entry("aminmax_dim0", (x, m) -> pair(x.get(0).aminmax(0, false))),
      Map.entry("aminmax_i64", (x, m) -> pair(x.get(0).aminmax(-1, false))),
      Map.entry("aminmax_bool", (x, m) -> pair(x.get(0).aminmax())),
      Map.entry("aminmax_scalar", (x, m) -> pair(x.get(0).aminmax(0, false))),
      Map.entry("aminmax_empty", (x, m) -> pair(x.get(0).aminmax(0, false))),
      Map.entry("aminmax_nan", (x, m) -> pair(x.get(0).aminmax())),
      Map.entry("varmean_all", (x, m) -> pair(x.get(0).varMean())),
      Map.entry("varmean_dim", (x, m) -> pair(x.get(0).varMean(new int[] {1}, 0, true))),
      Map.entry("varmean_dims", (x, m) -> pair(x.get(0).varMean(new int[] {0, 1}, 2, false))),
      Map.entry("varmean_f32", (x, m) -> pair(x.get(0).varMean(new int[] {0}, 1, false))),
      Map.entry("varmean_one", (x, m) -> pair(x.get(0).varMean())),
      Map.entry("stdmean_all", (x, m) -> pair(x.get(0).stdMean())),
      Map.entry("stdmean_dim", (x, m) -> pair(x.get(0).stdMean(new int[] {-1}, 0, true))),
      Map.entry("stdmean_f32", (x, m) -> pair(x.get(0).stdMean(new int[] {1}, 1, false))),
      Map.entry("quantile", (x, m) -> List.of(x.get(0).quantile(x.get(1), 1, false, m))),
      Map.entry("nanquantile", (x, m) -> List.of(x.get(0).nanquantile(x.get(1), 1, false, m))),
      Map.entry("nanquantile_f32", (x, m) -> List.of(x.get(0).nanquantile(x.get(1), 0, true, m))),
      Map.entry("quantile_all", (x, m) -> List.of(x.get(0).quantile(x.get(1), null, false, m))),
      Map.entry("nanquantile_all", (x, m) -> List.of(x.get(0).nanquantile(x.get(1), null, true))),
      Map.entry("cov", (x, m) -> List.of(x.get(0).cov())),
      Map.entry("cov_1d", (x, m) -> List.of(x.get(0).cov())),
      Map.entry("cov_corr0", (x, m) -> List.of(x.get(0).cov(0, null, null))),
      Map.entry("cov_weights", (x, m) -> List.of(x.get(0).cov(1, x.get(1), x.get(2)))),
      Map.entry("cov_fweights", (x, m) -> List.of(x.get(0).cov(2, x.get(1), null))),
      Map.entry("cov_int", (x, m) -> List.of(x.get(0).cov())),
      Map.entry("cov_mixed", (x, m) -> List.of(x.get(0).cov(1, null, x.get(1)))),
      Map.entry("cov_dof", (x, m) -> List.of(x.get(0).cov(7, null, null))),
      Map.entry("corrcoef", (x, m) -> List.of(x.get(0).corrcoef())),
      Map.entry("histc", (x, m) -> List.of(x.get(0).histc(7))),
      Map.entry("histc_range", (x, m) -> List.of(x.get(0).histc(4, -1, 1))),
      Map.entry("histc_same", (x, m) -> List.of(x.get(0).histc(3))),
      Map.entry("histc_f64", (x, m) -> List.of(x.get(0).histc(5))),
      Map.entry("histc_inf", (x, m) -> List.of(x.get(0).histc(3, 0, 2))),
      Map.entry("histc_empty", (x, m) -> List.of(x.get(0).histc(3))),
      Map.entry("histogram", (x, m) -> pair(x.get(0).histogram(5))),
      Map.entry("histogram_range", (x, m) -> pair(x.get(0).histogram(4, new double[] {-1, 1}, x.get(1), false))),
      Map.entry("histogram_density", (x, m) -> pair(x.get(0).histogram(6, null, null, true))),
      Map.entry("histogram_edges", (x, m) -> pair(x.get(0).histogram(x.get(1), null, false))),
      Map.entry("histogram_edges_density", (x, m) -> pair(x.get(0).histogram(x.get(1), x.get(2), true))),
      Map.entry("histogram_same", (x, m) -> pair(x.get(0).histogram(3))),
      Map.entry("histogram_empty", (x, m) -> pair(x.get(0).histogram(3))),
      Map.entry("renorm", (x, m) -> List.of(x.get(0).renorm(2, 0, 1.5))),
      Map.entry("renorm_p1", (x, m) -> List.of(x.get(0).renorm(1, 1, 1.0))),
      Map.entry("renorm_inf", (x, m) -> List.of(x.get(0).renorm(Double.POSITIVE_INFINITY, 0, 1.0))),
      Map.entry("renorm_half_p", (x, m) -> List.of(x.get(0).renorm(0.5, 0, 3.0))),
      Map.entry("renorm_f32", (x, m) -> List.of(x.get(0).renorm(2, -1, 0.5))),
      Map.entry("renorm_f16", (x, m) -> List.of(x.get(0).renorm(2, 0, 1.0))),
      Map.entry("logit", (x, m) -> List.of(x.get(0).logit())),
      Map.entry("logit_eps", (x, m) -> List.of(x.get(0).logit(0.1))),
      Map.entry("logit_f32", (x, m) -> List.of(x.get(0).logit(1e-6))),
      Map.entry("logit_f16", (x, m) -> List.of(x.get(0).logit(0.2))),
      Map.entry("logit_wide_eps", (x, m) -> List.of(x.get(0).logit(0.7))));

  private static final List<String> MODES = List.of("linear", "lower", "higher", "midpoint", "nearest");

  private static List<Tensor> pair(MinMax r) { return List.of(r.min(), r.max()); }
  private static List<Tensor> pair(VarMean r) { return List.of(r.var(), r.mean()); }
  private static List<Tensor> pair(StdMean r) { return List.of(r.std(), r.mean()); }
  private static List<Tensor> pair(Histogram r) { return List.of(r.hist(), r.binEdges()); }

  @Test
  void valuesDtypesAndGradientsMatchPyTorch() {
    List<?> cases = (List<?>) fixtures.get("cases");
    assertEquals(74, cases.size());
    for (Object c : cases) {
      String name = (String) c, mode = name.substring(name.lastIndexOf('_') + 1);
      String base = MODES.contains(mode) ? name.substring(0, name.lastIndexOf('_')) : name;
      if (!OPS.containsKey(base)) base = base.substring(0, base.lastIndexOf('_'));  // corrcoef_f32 is corrcoef's call
      boolean grad = fixtures.has(name + ".up0");
      List<Tensor> in = new ArrayList<>();
      for (int k = 0; fixtures.has(name + ".in" + k); k++) {
        boolean level = name.contains("quantile") && k == 1;  // q: a level, without a gradient
        Tensor t = fixtures.tensor(name + ".in" + k).clone();
        in.add(t.requiresGrad_(grad && !level && t.dtype() == DType.FLOAT64));
      }
      List<Tensor> out = OPS.get(base).apply(in, mode);
      Tensor total = null;
      for (int k = 0; k < out.size(); k++) {
        Goldens.assertMatches(fixtures.tensor(name + ".out" + k), out.get(k), name + ": result " + k);
        if (grad) {
          Tensor term = out.get(k).mul(fixtures.tensor(name + ".up" + k)).sum();
          total = total == null ? term : total.add(term);
        }
      }
      if (!grad) continue;
      total.backward();
      for (int k = 0; fixtures.has(name + ".grad" + k); k++) {
        Tensor want = fixtures.tensor(name + ".grad" + k), got = in.get(k).grad();
        if (name.equals("logit")) {
          // outside [0, 1], where logit is NaN, PyTorch's gradient is NaN and jtensor's that of log(x) − log1p(−x): finite (a known difference)
          Tensor x = in.get(0).detach(), kept = x.ge(0.0).logicalAnd(x.le(1.0)).logicalOr(x.isnan());
          want = want.maskedSelect(kept);
          got = got.maskedSelect(kept);
        }
        Goldens.assertMatches(want, got, name + ": gradient of input " + k);
      }
    }
  }

  @Test
  void gradientsPassGradCheck() {
    Generator g = new Generator(45);
    Tensor x = Tensor.randn(new long[] {3, 4}, g).to(DType.FLOAT64);
    GradCheck.check(t -> t.get(0).aminmax(1, false).max().add(t.get(0).aminmax(1, false).min().mul(2.0)), List.of(x));
    GradCheck.check(t -> t.get(0).varMean(new int[] {0}, 1, true).var().add(t.get(0).varMean(new int[] {0}, 1, true).mean()), List.of(x));
    GradCheck.check(t -> t.get(0).stdMean(new int[] {1}, 0, false).std(), List.of(x));
    Tensor nans = x.clone();
    nans.select(0, 1).select(0, 2).fill_(Double.NaN);
    for (String mode : MODES) {
      Tensor levels = Tensor.fromArray(new double[] {0.1, 0.5, 0.9});
      GradCheck.check(t -> t.get(0).nanquantile(levels, 1, false, mode).nanToNum(0.0, 0.0, 0.0), List.of(nans));
      GradCheck.check(t -> t.get(0).quantile(levels, 0, true, mode), List.of(x));
    }
  }

  @Test
  void badArgumentsAreRefusedInPyTorchsWords() {
    Tensor x = Tensor.ones(2, 3), ints = Tensor.ones(new long[] {2, 3}, DType.INT64);
    Goldens.refused("aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity.", () -> Tensor.ones(0).aminmax());
    Goldens.refused("aminmax(): aminmax: Expected reduction dim 1 to have non-zero size.", () -> Tensor.ones(2, 0).aminmax(1, false));
    Goldens.refused("aminmax(): Dimension out of range (expected to be in range of [-2, 1], but got 2)", () -> x.aminmax(2, false));
    Goldens.refused("varMean(): var_mean only support floating point and complex dtypes", ints::varMean);
    Goldens.refused("stdMean(): std_mean only support floating point and complex dtypes", ints::stdMean);
    Goldens.refused("varMean(): dim 0 appears multiple times in the list of dims", () -> x.varMean(new int[] {0, 0}, 1, false));
    Goldens.refused("quantile(): interpolation must be one of linear, lower, higher, midpoint or nearest, but got foo",
        () -> x.quantile(0.5, 1, false, "foo"));
    Goldens.refused("nanquantile(): input tensor must be either float or double dtype", () -> ints.nanquantile(0.5));
    Goldens.refused("nanquantile(): q values must be in the range [0, 1]", () -> x.nanquantile(1.5));
    Goldens.refused("nanquantile(): input tensor must be non-empty", () -> Tensor.ones(0).nanquantile(0.5));
    Goldens.refused("nanquantile(): q tensor must be same dtype as the input tensor", () -> x.nanquantile(Tensor.fromArray(new double[] {0.5}), 1, false));
    Tensor v = Tensor.ones(2, 4);
    Tensor fw = Tensor.fromArray(new long[] {1, 2, 1, 3}), aw = Tensor.fromArray(new float[] {0.5f, 1, 2, 1});
    Goldens.refused("cov(): expected input to have two or fewer dimensions but got an input with 3 dimensions", () -> Tensor.ones(2, 2, 2).cov());
    Goldens.refused("cov(): bool dtype is not supported for input", () -> v.gt(0.0).cov());
    Goldens.refused("cov(): expected fweights to have integral dtype but got fweights with Float dtype", () -> v.cov(1, aw, null));
    Goldens.refused("cov(): fweights cannot be negative", () -> v.cov(1, fw.neg(), null));
    Goldens.refused("cov(): aweights cannot be negative", () -> v.cov(1, null, aw.neg()));
    Goldens.refused("cov(): expected fweights to have the same numel as there are observations in the input but got 3 != 4", () -> v.cov(1, fw.narrow(0, 0, 3), null));
    Goldens.refused("cov(): expected fweights to have one or fewer dimensions but got fweights with 2 dimensions", () -> v.cov(1, fw.reshape(2, 2), null));
    Goldens.refused("cov(): expected aweights to have floating point dtype but got aweights with Long dtype", () -> v.cov(1, null, fw));
    Goldens.refused("cov(): weights sum to zero, can't be normalized", () -> v.cov(1, fw.mul(0L), null));
    Goldens.refused("corrcoef(): expected input to have two or fewer dimensions but got an input with 3 dimensions", () -> Tensor.ones(2, 2, 2).corrcoef());
    Goldens.refused("corrcoef(): bool dtype is not supported for input", () -> v.gt(0.0).corrcoef());
    Goldens.refused("histc(): \"histogram_cpu\" not implemented for 'Long'", () -> ints.histc(3));
    Goldens.refused("histc(): torch.histogram(): bins must be > 0, but got 0 for dimension 0", () -> v.histc(0));
    Goldens.refused("histc(): torch.histc: max must be larger than min", () -> v.histc(3, 3, 1));
    Goldens.refused("histc(): torch.histc: range of [1, inf] is not finite", () -> Tensor.fromArray(new float[] {1, Float.POSITIVE_INFINITY}).histc(3));
    Goldens.refused("histc(): torch.histc: range of [nan, 3] is not finite", () -> v.histc(3, Double.NaN, 3));
    Goldens.refused("histogram(): \"histogramdd\" not implemented for 'Long'", () -> ints.histogram(3));
    Goldens.refused("histogram(): torch.histogram(): bins must be > 0, but got 0 for dimension 0", () -> v.histogram(0));
    Goldens.refused("histogram(): torch.histogram(): bins must be > 0, but got 0 for dimension 0", () -> v.histogram(Tensor.ones(1), null, false));
    Goldens.refused("histogram(): torch.histogramdd: min should not exceed max, but got min 3 max 1 for dimension 0",
        () -> v.histogram(3, new double[] {3, 1}, null, false));
    Goldens.refused("histogram(): torch.histogramdd: bins tensor should have one dimension, but got 2 dimensions in the bins tensor for dimension 0",
        () -> v.histogram(Tensor.ones(1, 2), null, false));
    Goldens.refused("histogram(): torch.histogramdd: if weight tensor is provided it should have the same shape as the input tensor excluding its "
        + "innermost dimension, but got input with shape [8, 1] and weight with shape [3]", () -> v.histogram(3, null, Tensor.ones(3), false));
    Goldens.refused("histogram(): torch.histogramdd: dimension 0's range [nan, nan] is not finite", () -> Tensor.fromArray(new float[] {1, Float.NaN}).histogram(3));
    Goldens.refused("renorm(): renorm: expected maxnorm to be >= 0 but got -1", () -> v.renorm(2, 0, -1));
    Goldens.refused("renorm(): renorm: non-positive-norm not supported", () -> v.renorm(0, 0, 1));
    Goldens.refused("renorm(): renorm: input needs at least 2 dimensions, got 1 dimensions", () -> Tensor.ones(3).renorm(2, 0, 1));
    Goldens.refused("renorm(): Dimension out of range (expected to be in range of [-2, 1], but got 2)", () -> v.renorm(2, 2, 1));
    Goldens.refused("renorm(): linalg.vector_norm: Expected a floating point or complex tensor as input. Got Long", () -> ints.renorm(2, 0, 1));
  }
}
