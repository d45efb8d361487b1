package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jtensor.autograd.GradCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * logspace, vander and fullLike against PyTorch 2.13 (resources/factories/fixtures.pt from
 * make_fixtures.py beside it), vander's gradient through GradCheck (PyTorch 2.13's own vander
 * cannot backward), randLike/randnLike/randintLike's shapes, dtypes, ranges and generator replay,
 * and the refusals.
 */
class DerivedFactoriesTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture fixtures = new PtFixture("/factories/fixtures.pt");

  private static final Map<String, Function<Tensor, Tensor>> OPS = Map.ofEntries(
      Map.entry("logspace", x -> Tensor.logspace(-2, 3, 11)),
      Map.entry("logspace_base2", x -> Tensor.logspace(0, 10, 7, 2, DType.FLOAT64)),
      Map.entry("logspace_down", x -> Tensor.logspace(3, -1.5, 5, 3.5, DType.FLOAT64)),
      Map.entry("logspace_one", x -> Tensor.logspace(2, 5, 1)),
      Map.entry("logspace_zero", x -> Tensor.logspace(2, 5, 0)),
      Map.entry("logspace_i64", x -> Tensor.logspace(0, 3, 4, 10, DType.INT64)),
      Map.entry("logspace_f16", x -> Tensor.logspace(-1, 1, 6, 10, DType.FLOAT16)),
      Map.entry("vander", Tensor::vander),
      Map.entry("vander_n", x -> Tensor.vander(x, 6L, true)),
      Map.entry("vander_n1", x -> Tensor.vander(x, 1L, false)),
      Map.entry("vander_n0", x -> Tensor.vander(x, 0L, false)),
      Map.entry("vander_i8", Tensor::vander),
      Map.entry("vander_bool", x -> Tensor.vander(x, 3L, false)),
      Map.entry("vander_f32", x -> Tensor.vander(x, 5L, false)),
      Map.entry("fulllike_i64", x -> Tensor.fullLike(Tensor.ones(new long[] {2, 3}, DType.INT64), 2.7)),
      Map.entry("fulllike_bool", x -> Tensor.fullLike(Tensor.ones(new long[] {3}, DType.BOOL), 2L)),
      Map.entry("fulllike_f16", x -> Tensor.fullLike(Tensor.ones(new long[] {2}, DType.FLOAT16), 1.0 / 3)));

  @Test
  void valuesAndDtypesMatchPyTorch() {
    List<?> cases = (List<?>) fixtures.get("cases");
    assertEquals(17, cases.size());
    for (Object c : cases) {
      String name = (String) c;
      Tensor in = fixtures.has(name + ".in0") ? fixtures.tensor(name + ".in0") : null;
      Goldens.assertMatches(fixtures.tensor(name + ".out"), OPS.get(name).apply(in), name);
    }
  }

  @Test
  void vandersGradientPassesGradCheck() {
    Tensor x = Tensor.fromArray(new double[] {0.5, -1.25, 2.0});
    GradCheck.check(t -> Tensor.vander(t.get(0), 4L, false), List.of(x));
    GradCheck.check(t -> Tensor.vander(t.get(0), 3L, true), List.of(x));
  }

  @Test
  void randomLikesFollowTheirTemplateAndGenerator() {
    Tensor t = Tensor.ones(new long[] {3, 4}, DType.FLOAT64);
    Tensor u = Tensor.randLike(t, new Generator(7));
    assertEquals(DType.FLOAT64, u.dtype());
    assertArrayEquals(new long[] {3, 4}, u.shape());
    assertArrayEquals(Tensor.rand(new long[] {3, 4}, DType.FLOAT64, new Generator(7)).toDoubleArray(), u.toDoubleArray(), "rand's draws");
    for (double v : u.toDoubleArray()) assertTrue(v >= 0 && v < 1, "in [0, 1): " + v);
    Tensor n = Tensor.randnLike(t.to(DType.FLOAT32), new Generator(8));
    assertEquals(DType.FLOAT32, n.dtype());
    assertArrayEquals(Tensor.randn(new long[] {3, 4}, DType.FLOAT32, new Generator(8)).toDoubleArray(), n.toDoubleArray(), "randn's draws");
    Tensor i = Tensor.randintLike(Tensor.ones(new long[] {50}, DType.INT8), -3, 4, new Generator(9));
    assertEquals(DType.INT8, i.dtype());
    for (double v : i.toDoubleArray()) assertTrue(v >= -3 && v < 4, "in [-3, 4): " + v);
    assertEquals(DType.FLOAT32, Tensor.randintLike(Tensor.ones(2), 5).dtype(), "a float template keeps its dtype, as PyTorch's");
    Tensor f = Tensor.fullLike(t.t(), 2.5);
    assertArrayEquals(new long[] {4, 3}, f.shape());
    assertEquals(DType.FLOAT64, f.dtype());
  }

  @Test
  void badArgumentsAreRefusedInPyTorchsWords() {
    Tensor ints = Tensor.ones(new long[] {2}, DType.INT64);
    Goldens.refused("randLike(): \"check_uniform_bounds\" not implemented for 'Long'", () -> Tensor.randLike(ints));
    Goldens.refused("randnLike(): \"normal_kernel_cpu\" not implemented for 'Long'", () -> Tensor.randnLike(ints));
    Goldens.refused("random_ expects 'from' to be less than 'to', but got from=5 >= to=3", () -> Tensor.randintLike(ints, 5, 3));
    Goldens.refused("vander(): x must be a one-dimensional tensor.", () -> Tensor.vander(Tensor.ones(2, 2)));
    Goldens.refused("vander(): N must be non-negative.", () -> Tensor.vander(Tensor.ones(2), -1L, false));
    Goldens.refused("logspace(): number of steps must be non-negative", () -> Tensor.logspace(0, 1, -1));
    Goldens.refused("fullLike(): value 300 cannot be converted to type int8 without overflow", () -> Tensor.fullLike(Tensor.ones(new long[] {2}, DType.INT8), 300L));
    Goldens.refused("fullLike(): expected a Tensor, got null", () -> Tensor.fullLike(null, 1.0));
  }
}
