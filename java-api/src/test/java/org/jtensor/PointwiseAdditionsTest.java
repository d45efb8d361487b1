package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jtensor.autograd.GradCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Session 33's pointwise ops against PyTorch 2.13 (resources/pointwise/fixtures.pt from
 * make_fixtures.py beside it): the hyperbolic functions and their inverses, log10, erfc, the degree
 * conversions, signbit, isposinf/isneginf, fmax/fmin, float_power, gcd and lcm over every integer
 * dtype with their edges (0, -1, the lowest value, an lcm that wraps), and the gradients of
 * (out · up).sum() in float64 and float32.
 */
class PointwiseAdditionsTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture fixtures = new PtFixture("/pointwise/fixtures.pt");

  private static final Map<String, Function<List<Tensor>, Tensor>> OPS = Map.ofEntries(
      Map.entry("sinh", x -> x.get(0).sinh()),
      Map.entry("cosh", x -> x.get(0).cosh()),
      Map.entry("asinh", x -> x.get(0).asinh()),
      Map.entry("acosh", x -> x.get(0).acosh()),
      Map.entry("atanh", x -> x.get(0).atanh()),
      Map.entry("log10", x -> x.get(0).log10()),
      Map.entry("erfc", x -> x.get(0).erfc()),
      Map.entry("deg2rad", x -> x.get(0).deg2rad()),
      Map.entry("rad2deg", x -> x.get(0).rad2deg()),
      Map.entry("signbit", x -> x.get(0).signbit()),
      Map.entry("isposinf", x -> x.get(0).isposinf()),
      Map.entry("isneginf", x -> x.get(0).isneginf()),
      Map.entry("fmax", x -> x.get(0).fmax(x.get(1))),
      Map.entry("fmax_bcast", x -> x.get(0).fmax(x.get(1))),
      Map.entry("fmin", x -> x.get(0).fmin(x.get(1))),
      Map.entry("float_power", x -> x.get(0).floatPower(x.get(1))),
      Map.entry("gcd", x -> x.get(0).gcd(x.get(1))),
      Map.entry("gcd_bcast", x -> x.get(0).gcd(x.get(1))),
      Map.entry("lcm", x -> x.get(0).lcm(x.get(1))));

  /** "fmax_bcast_special_f16" -> "fmax_bcast"; "gcd_special_int8" -> "gcd". */
  private static String base(String name) {
    String s = name.substring(0, name.lastIndexOf('_'));
    return s.endsWith("_special") ? s.substring(0, s.length() - "_special".length()) : s;
  }

  @Test
  void valuesDtypesAndGradientsMatchPyTorch() {
    GoldenComparison golden = new GoldenComparison();
    List<?> cases = (List<?>) fixtures.get("cases");
    assertEquals(129, cases.size());
    for (Object c : cases) {
      String name = (String) c;
      Function<List<Tensor>, Tensor> op = OPS.get(base(name));
      assertTrue(op != null, "no op for case " + name);
      golden.checkCase(fixtures, name, op, true);
    }
    golden.assertNone();
  }

  /** A float64 leaf of n values drawn from [lo, hi). */
  private static Tensor leaf(double lo, double hi, int n) {
    return Tensor.rand(new long[] {n}).to(DType.FLOAT64).mul(hi - lo).add(lo).requiresGrad_(true);
  }

  @Test
  void gradientsPassGradCheckInFloat64() {
    Tensor x = leaf(-0.8, 0.8, 6), big = leaf(1.5, 3, 6), y = leaf(-0.8, 0.8, 6);
    List<Function<List<Tensor>, Tensor>> unary = List.of(t -> t.get(0).sinh(), t -> t.get(0).cosh(), t -> t.get(0).asinh(),
        t -> t.get(0).atanh(), t -> t.get(0).erfc(), t -> t.get(0).deg2rad(), t -> t.get(0).rad2deg());
    for (Function<List<Tensor>, Tensor> f : unary) GradCheck.check(f, List.of(x));
    GradCheck.check(t -> t.get(0).acosh(), List.of(big));
    GradCheck.check(t -> t.get(0).log10(), List.of(big));
    GradCheck.check(t -> t.get(0).fmax(t.get(1)), List.of(x, y));
    GradCheck.check(t -> t.get(0).fmin(t.get(1)), List.of(x, y));
    GradCheck.check(t -> t.get(0).floatPower(t.get(1)), List.of(big, y));
    GradCheck.checkSecondOrder(t -> t.get(0).sinh().mul(t.get(0).atanh()).mul(t.get(0).add(1.0).log10().add(t.get(0).erfc())), List.of(x), 33);
  }

  @Test
  void gcdAndLcmWhereIntegerArithmeticWouldTrap() {
    // PyTorch 2.13's own kernels stop the process with SIGFPE here (INT_MIN % -1, INT_MIN / -1);
    // jtensor answers as the wrapped arithmetic does: gcd(lowest, -1) is 1, lcm wraps to the lowest
    long min = Long.MIN_VALUE;
    Tensor a = Tensor.fromArray(new long[] {min, -1, min, min});
    Tensor b = Tensor.fromArray(new long[] {-1, min, 1048577, 0});
    assertArrayEquals(new long[] {1, 1, -1, min}, a.gcd(b).toLongArray());
    assertArrayEquals(new long[] {min, min, min, 0}, a.lcm(b).toLongArray());
    Tensor i32 = Tensor.fromArray(new long[] {Integer.MIN_VALUE}).to(DType.INT32);
    Tensor other = Tensor.fromArray(new long[] {1048577}).to(DType.INT32);
    assertArrayEquals(new long[] {-1}, i32.gcd(other).toLongArray(), "as PyTorch's gcd, which does not trap here");
    assertArrayEquals(new long[] {Integer.MIN_VALUE}, i32.lcm(other).toLongArray());
  }

  @Test
  void aliasesAreTheOpsTheyName() {
    Tensor x = Tensor.fromArray(new double[] {-2.5, -0.5, 0.0, 0.7, 3, Double.NaN});
    Tensor y = Tensor.fromArray(new double[] {1, -2, 4, 0.5, -0.0, 2});
    Map<Tensor, Tensor> pairs = new java.util.LinkedHashMap<>();
    pairs.put(x.arcsin(), x.asin());
    pairs.put(x.arccos(), x.acos());
    pairs.put(x.arctan(), x.atan());
    pairs.put(x.arctan2(y), x.atan2(y));
    pairs.put(x.arcsinh(), x.asinh());
    pairs.put(x.arccosh(), x.acosh());
    pairs.put(x.arctanh(), x.atanh());
    pairs.put(x.sgn(), x.sign());
    pairs.put(x.negative(), x.neg());
    pairs.put(x.trueDivide(y), x.div(y));
    pairs.put(x.trueDivide(3.0), x.div(3.0));
    pairs.put(x.clip(-1.0, 1.0), x.clamp(-1.0, 1.0));
    pairs.put(x.clip(y.sub(1.0), y), x.clamp(y.sub(1.0), y));
    pairs.put(x.floatPower(2.0), x.to(DType.FLOAT64).pow(2.0));
    pairs.forEach((alias, op) -> assertArrayEquals(op.toDoubleArray(), alias.toDoubleArray(), 0));
    assertEquals(DType.FLOAT64, x.floatPower(2.0).dtype());
    Tensor ints = Tensor.fromArray(new long[] {3, -4});
    assertArrayEquals(new long[] {1, 0}, ints.clip(-1L, 1L).sub(Tensor.fromArray(new long[] {0, -1})).toLongArray());
    Tensor p = x.positive();
    assertEquals(x.dataPtr(), p.dataPtr(), "positive is self, as PyTorch's");
    assertTrue(x.requiresGrad() == p.requiresGrad());
    Tensor n = x.clone();
    n.negative_();
    assertArrayEquals(x.neg().toDoubleArray(), n.toDoubleArray(), 0);
    Tensor c = x.clone();
    c.clip_(-1.0, 1.0);
    assertArrayEquals(x.clamp(-1.0, 1.0).toDoubleArray(), c.toDoubleArray(), 0);
  }

  @Test
  void theOpsKeepPyTorchsDtypesAndRefusals() {
    Tensor ints = Tensor.fromArray(new long[] {180, -90});
    assertEquals(DType.FLOAT32, ints.sinh().dtype());
    assertEquals(DType.FLOAT32, ints.deg2rad().dtype());
    assertEquals(DType.FLOAT32, ints.gt(0L).log10().dtype());
    assertEquals(DType.INT64, ints.fmax(ints.neg()).dtype());
    assertEquals(DType.FLOAT32, ints.fmax(Tensor.fromArray(new float[] {1, 2})).dtype());
    assertEquals(DType.BOOL, ints.signbit().dtype());
    assertFalse(ints.isposinf().any().item() != 0 || ints.isneginf().any().item() != 0, "integers hold no infinity");
    assertEquals(DType.FLOAT64, ints.floatPower(Tensor.fromArray(new long[] {2, 3})).dtype());
    RuntimeException e = assertThrows(UnsupportedOperationException.class, () -> Tensor.fromArray(new float[] {1, 2}).gcd(Tensor.fromArray(new float[] {3, 4})));
    assertEquals("gcd(): \"gcd_cpu\" not implemented for 'Float'", e.getMessage());
    e = assertThrows(UnsupportedOperationException.class, () -> ints.gt(0L).lcm(ints.gt(0L)));
    assertEquals("lcm(): \"lcm_cpu\" not implemented for 'Bool'", e.getMessage());
    // an alias's refusals name the alias, as the user called it
    Tensor closed = Tensor.fromArray(new double[] {1, 2});
    closed.close();
    Map<String, Runnable> aliases = Map.of("arcsin", closed::arcsin, "arctan2", () -> closed.arctan2(ints), "sgn", closed::sgn,
        "negative_", closed::negative_, "trueDivide", () -> closed.trueDivide(2.0), "clip", () -> closed.clip(0.0, 1.0),
        "clip_", () -> closed.clip_(0L, 1L), "floatPower", () -> closed.floatPower(2.0));
    aliases.forEach((name, call) -> assertTrue(assertThrows(IllegalStateException.class, call::run).getMessage().startsWith(name + "(): tensor is closed"), name));
    e = assertThrows(IllegalArgumentException.class, () -> Tensor.fromArray(new long[] {1}).to(DType.UINT8).clip_(-1.5, 1.0));
    assertTrue(e.getMessage().startsWith("clip_(): "), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> ints.gt(0L).positive());
    assertEquals("positive(): The `+` operator, on a bool tensor is not supported.", e.getMessage());
  }
}
