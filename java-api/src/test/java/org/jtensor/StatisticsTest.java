package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
      Map.entry("nanquantile_all", (x, m) -> List.of(x.get(0).nanquantile(x.get(1), null, true))));

  private static final List<String> MODES = List.of("linear", "lower", "higher", "midpoint", "nearest");

  private static List<Tensor> pair(MinMax r) { return List.of(r.min(), r.max()); }
  private static List<Tensor> pair(VarMean r) { return List.of(r.var(), r.mean()); }
  private static List<Tensor> pair(StdMean r) { return List.of(r.std(), r.mean()); }

  @Test
  void valuesDtypesAndGradientsMatchPyTorch() {
    List<?> cases = (List<?>) fixtures.get("cases");
    assertEquals(37, cases.size());
    for (Object c : cases) {
      String name = (String) c, mode = name.substring(name.lastIndexOf('_') + 1);
      String base = MODES.contains(mode) ? name.substring(0, name.lastIndexOf('_')) : name;
      boolean grad = fixtures.has(name + ".up0");
      List<Tensor> in = new ArrayList<>();
      for (int k = 0; fixtures.has(name + ".in" + k); k++) {
        boolean level = name.contains("quantile") && k == 1;  // q: a level, without a gradient
        in.add(fixtures.tensor(name + ".in" + k).clone().requiresGrad_(grad && !level));
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
        Goldens.assertMatches(fixtures.tensor(name + ".grad" + k), in.get(k).grad(), name + ": gradient of input " + k);
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

  private static void refused(String message, Runnable call) {
    RuntimeException e = assertThrows(RuntimeException.class, call::run);
    assertTrue(e instanceof IllegalArgumentException || e instanceof UnsupportedOperationException, "type: " + e);
    assertTrue(e.getMessage().contains(message), "message: " + e.getMessage() + "\nexpected: " + message);
  }

  @Test
  void badArgumentsAreRefusedInPyTorchsWords() {
    Tensor x = Tensor.ones(2, 3), ints = Tensor.ones(new long[] {2, 3}, DType.INT64);
    refused("aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity.", () -> Tensor.ones(0).aminmax());
    refused("aminmax(): aminmax: Expected reduction dim 1 to have non-zero size.", () -> Tensor.ones(2, 0).aminmax(1, false));
    refused("aminmax(): Dimension out of range (expected to be in range of [-2, 1], but got 2)", () -> x.aminmax(2, false));
    refused("varMean(): var_mean only support floating point and complex dtypes", ints::varMean);
    refused("stdMean(): std_mean only support floating point and complex dtypes", ints::stdMean);
    refused("varMean(): dim 0 appears multiple times in the list of dims", () -> x.varMean(new int[] {0, 0}, 1, false));
    refused("quantile(): interpolation must be one of linear, lower, higher, midpoint or nearest, but got foo",
        () -> x.quantile(0.5, 1, false, "foo"));
    refused("nanquantile(): input tensor must be either float or double dtype", () -> ints.nanquantile(0.5));
    refused("nanquantile(): q values must be in the range [0, 1]", () -> x.nanquantile(1.5));
    refused("nanquantile(): input tensor must be non-empty", () -> Tensor.ones(0).nanquantile(0.5));
    refused("nanquantile(): q tensor must be same dtype as the input tensor", () -> x.nanquantile(Tensor.fromArray(new double[] {0.5}), 1, false));
  }
}
