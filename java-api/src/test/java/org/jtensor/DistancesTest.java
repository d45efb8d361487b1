package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jtensor.autograd.GradCheck;
import org.jtensor.nn.Functional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * dist, cdist (exact and GEMM paths), pairwiseDistance, pdist, cosineSimilarity, trapezoid and
 * cumulativeTrapezoid against PyTorch
 * 2.13 (resources/distances/fixtures.pt from make_fixtures.py beside it): values, dtypes, the
 * gradients of (out · up).sum() in float64 (zero distances among them), GradCheck, and refusals.
 */
class DistancesTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture fixtures = new PtFixture("/distances/fixtures.pt");

  private static final Map<String, Function<List<Tensor>, Tensor>> OPS = Map.ofEntries(
      Map.entry("dist", x -> x.get(0).dist(x.get(1))),
      Map.entry("dist_p1", x -> x.get(0).dist(x.get(1), 1)),
      Map.entry("dist_p0", x -> x.get(0).dist(x.get(1), 0)),
      Map.entry("dist_inf", x -> x.get(0).dist(x.get(1), Double.POSITIVE_INFINITY)),
      Map.entry("dist_p3", x -> x.get(0).dist(x.get(1), 3)),
      Map.entry("dist_f32", x -> x.get(0).dist(x.get(1))),
      Map.entry("cdist", x -> Tensor.cdist(x.get(0), x.get(1))),
      Map.entry("cdist_p1", x -> Tensor.cdist(x.get(0), x.get(1), 1)),
      Map.entry("cdist_p3", x -> Tensor.cdist(x.get(0), x.get(1), 3)),
      Map.entry("cdist_inf", x -> Tensor.cdist(x.get(0), x.get(1), Double.POSITIVE_INFINITY)),
      Map.entry("cdist_batch", x -> Tensor.cdist(x.get(0), x.get(1))),
      Map.entry("cdist_gemm", x -> Tensor.cdist(x.get(0), x.get(1))),
      Map.entry("cdist_mm", x -> Tensor.cdist(x.get(0), x.get(1), 2, "use_mm_for_euclid_dist")),
      Map.entry("cdist_nomm", x -> Tensor.cdist(x.get(0), x.get(1), 2, "donot_use_mm_for_euclid_dist")),
      Map.entry("cdist_f32", x -> Tensor.cdist(x.get(0), x.get(1))),
      Map.entry("cdist_empty", x -> Tensor.cdist(x.get(0), x.get(1))),
      Map.entry("pairwise", x -> Functional.pairwiseDistance(x.get(0), x.get(1))),
      Map.entry("pairwise_p1_keep", x -> Functional.pairwiseDistance(x.get(0), x.get(1), 1, 1e-3, true)),
      Map.entry("pairwise_int", x -> Functional.pairwiseDistance(x.get(0), x.get(1))),
      Map.entry("pdist", x -> Functional.pdist(x.get(0))),
      Map.entry("pdist_p1", x -> Functional.pdist(x.get(0), 1)),
      Map.entry("pdist_one", x -> Functional.pdist(x.get(0))),
      Map.entry("cosine", x -> Functional.cosineSimilarity(x.get(0), x.get(1), 1, 1e-8)),
      Map.entry("trapezoid", x -> Tensor.trapezoid(x.get(0))),
      Map.entry("trapezoid_dx", x -> Tensor.trapezoid(x.get(0), 0.3, 0)),
      Map.entry("trapezoid_x", x -> Tensor.trapezoid(x.get(0), x.get(1), 1)),
      Map.entry("trapezoid_x2d", x -> Tensor.trapezoid(x.get(0), x.get(1), -1)),
      Map.entry("trapezoid_int", x -> Tensor.trapezoid(x.get(0))),
      Map.entry("trapezoid_empty", x -> Tensor.trapezoid(x.get(0), 1.0, 1)),
      Map.entry("cumtrapz", x -> Tensor.cumulativeTrapezoid(x.get(0), 0.5, 1)),
      Map.entry("cumtrapz_x", x -> Tensor.cumulativeTrapezoid(x.get(0), x.get(1), 0)));

  @Test
  void valuesDtypesAndGradientsMatchPyTorch() {
    List<?> cases = (List<?>) fixtures.get("cases");
    assertEquals(31, cases.size());
    for (Object c : cases) {
      String name = (String) c;
      boolean grad = fixtures.has(name + ".up");
      List<Tensor> in = new ArrayList<>();
      for (int k = 0; fixtures.has(name + ".in" + k); k++) in.add(fixtures.tensor(name + ".in" + k).clone().requiresGrad_(grad));
      Tensor out = OPS.get(name).apply(in);
      Goldens.assertMatches(fixtures.tensor(name + ".out"), out, name);
      if (!grad) continue;
      out.mul(fixtures.tensor(name + ".up")).sum().backward();
      for (int k = 0; k < in.size(); k++) {
        Tensor want = fixtures.tensor(name + ".grad" + k), got = in.get(k).grad();
        if (got == null && want.numel() == 0) continue;  // an empty input: PyTorch's gradient is an empty tensor, jtensor's none
        Goldens.assertMatches(want, got, name + ": gradient of input " + k);
      }
    }
  }

  @Test
  void gradientsPassGradCheck() {
    Generator g = new Generator(46);
    Function<long[], Tensor> rnd = shape -> Tensor.randn(shape, g).to(DType.FLOAT64);
    GradCheck.check(t -> t.get(0).dist(t.get(1), 3), List.of(rnd.apply(new long[] {2, 3}), rnd.apply(new long[] {3})));
    GradCheck.check(t -> Tensor.cdist(t.get(0), t.get(1), 1.5), List.of(rnd.apply(new long[] {2, 3, 2}), rnd.apply(new long[] {4, 2})));
    GradCheck.check(t -> Tensor.cdist(t.get(0), t.get(1), 2, "use_mm_for_euclid_dist"), List.of(rnd.apply(new long[] {3, 2}), rnd.apply(new long[] {4, 2})));
    GradCheck.check(t -> Functional.pairwiseDistance(t.get(0), t.get(1)), List.of(rnd.apply(new long[] {3, 4}), rnd.apply(new long[] {4})));
    GradCheck.check(t -> Functional.pdist(t.get(0), 2.5), List.of(rnd.apply(new long[] {4, 3})));
  }

  @Test
  void badArgumentsAreRefusedInPyTorchsWords() {
    Tensor a = Tensor.ones(2, 3), ints = Tensor.ones(new long[] {2, 3}, DType.INT64);
    Goldens.refused("dist(): norm(): input dtype should be either floating point or complex. Got Long instead.", () -> ints.dist(ints));
    Goldens.refused("dist(): The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1", () -> a.dist(Tensor.ones(4)));
    Goldens.refused("cdist(): X1 and X2 must have the same number of columns. X1: 3 X2: 2", () -> Tensor.cdist(a, Tensor.ones(4, 2)));
    Goldens.refused("cdist(): cdist only supports at least 2D tensors, X1 got: 1D", () -> Tensor.cdist(Tensor.ones(3), a));
    Goldens.refused("cdist(): cdist only supports floating-point dtypes, X1 got: Long", () -> Tensor.cdist(ints, ints));
    Goldens.refused("cdist(): expected scalar type Float but found Double", () -> Tensor.cdist(a, a.to(DType.FLOAT64)));
    Goldens.refused("cdist(): cdist only supports non-negative p values", () -> Tensor.cdist(a, a, -1));
    Goldens.refused("cdist(): x is not a valid value for compute_mode", () -> Tensor.cdist(a, a, 2, "x"));
    Goldens.refused("cdist(): \"cdist\" not implemented for 'Half'", () -> Tensor.cdist(a.to(DType.FLOAT16), a.to(DType.FLOAT16)));
    Goldens.refused("pairwiseDistance(): The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1",
        () -> Functional.pairwiseDistance(a, Tensor.ones(4)));
    Goldens.refused("pdist(): pdist only supports 2D tensors, got: 1D", () -> Functional.pdist(Tensor.ones(4)));
    Goldens.refused("pdist(): pdist only supports floating-point dtypes", () -> Functional.pdist(ints));
    Goldens.refused("pdist(): pdist only supports non-negative p values", () -> Functional.pdist(a, -1));
    Goldens.refused("trapezoid(): There must be one `x` value for each sample point", () -> Tensor.trapezoid(a, Tensor.ones(4), 1));
    Goldens.refused("trapezoid(): received a bool input for `y`, but bool is not supported", () -> Tensor.trapezoid(a.gt(0.0)));
    Goldens.refused("cumulativeTrapezoid(): Dimension out of range (expected to be in range of [-2, 1], but got 2)",
        () -> Tensor.cumulativeTrapezoid(a, 1.0, 2));
  }
}
