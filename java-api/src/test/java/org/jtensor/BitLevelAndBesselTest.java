package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jtensor.autograd.GradCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Session 34's pointwise ops against PyTorch 2.13 (resources/bitlevel/fixtures.pt from
 * make_fixtures.py beside it): i0 and special.i0e/i1/i1e (over a wide range too), polygamma, frexp,
 * special.xlog1py, ldexp, nextafter, the shifts over every integer dtype and isin. Cases named
 * "_exact_" (nextafter, the shifts, isin) must agree bit for bit; the others as GoldenComparison
 * decides, gradients of (out · up).sum() included.
 */
class BitLevelAndBesselTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture fixtures = new PtFixture("/bitlevel/fixtures.pt");

  private static final Map<String, Function<List<Tensor>, Tensor>> OPS = Map.ofEntries(
      Map.entry("i0", x -> x.get(0).i0()),
      Map.entry("i0e", x -> Special.i0e(x.get(0))),
      Map.entry("i1", x -> Special.i1(x.get(0))),
      Map.entry("i1e", x -> Special.i1e(x.get(0))),
      Map.entry("frexp", x -> x.get(0).frexp().mantissa()),
      Map.entry("xlog1py", x -> Special.xlog1py(x.get(0), x.get(1))),
      Map.entry("ldexp", x -> x.get(0).ldexp(x.get(1))),
      Map.entry("nextafter", x -> x.get(0).nextafter(x.get(1))),
      Map.entry("lshift", x -> x.get(0).bitwiseLeftShift(x.get(1))),
      Map.entry("rshift", x -> x.get(0).bitwiseRightShift(x.get(1))),
      Map.entry("isin", x -> Tensor.isin(x.get(0), x.get(1))));

  private final List<String> exactMismatches = new ArrayList<>();

  @Test
  void valuesDtypesAndGradientsMatchPyTorch() {
    GoldenComparison golden = new GoldenComparison();
    List<?> cases = (List<?>) fixtures.get("cases");
    assertEquals(123, cases.size());
    for (Object c : cases) {
      String name = (String) c;
      String op = name.substring(0, name.indexOf('_'));
      if (op.startsWith("polygamma")) {  // "polygamma3_f32": n is in the name
        int n = op.charAt("polygamma".length()) - '0';
        golden.checkCase(fixtures, name, x -> x.get(0).polygamma(n), true);
        continue;
      }
      assertTrue(OPS.containsKey(op), "no op for case " + name);
      if (name.contains("_exact_")) {
        List<Tensor> in = fixtures.has(name + ".y") ? List.of(fixtures.tensor(name + ".x"), fixtures.tensor(name + ".y"))
            : List.of(fixtures.tensor(name + ".x"));
        Tensor got = name.contains("invert") ? Tensor.isin(in.get(0), in.get(1), false, true) : OPS.get(op).apply(in);
        exact(fixtures.tensor(name + ".out"), got, name);
      } else {
        golden.checkCase(fixtures, name, OPS.get(op), true);
      }
      if (op.equals("frexp")) exact(fixtures.tensor(name + ".exponent"), fixtures.tensor(name + ".x").frexp().exponent(), name + ": exponent");
    }
    golden.assertNone();
    assertTrue(exactMismatches.isEmpty(), exactMismatches.size() + " differ:\n" + String.join("\n", exactMismatches.subList(0, Math.min(40, exactMismatches.size()))));
  }

  /** Bit for bit: the same dtype and shape, and each element's double the same bits (-0.0 and NaN included). */
  private void exact(Tensor want, Tensor got, String what) {
    assertEquals(want.dtype(), got.dtype(), what + ": dtype");
    assertEquals(Arrays.toString(want.shape()), Arrays.toString(got.shape()), what + ": shape");
    if (!want.dtype().isFloatingPoint()) {
      long[] w = want.toLongArray(), g = got.toLongArray();
      for (int i = 0; i < w.length; i++) if (w[i] != g[i]) exactMismatches.add(what + ": element " + i + " is " + g[i] + ", PyTorch's " + w[i]);
      return;
    }
    double[] w = want.toDoubleArray(), g = got.toDoubleArray();
    for (int i = 0; i < w.length; i++) {
      if (Double.doubleToLongBits(w[i]) != Double.doubleToLongBits(g[i])) exactMismatches.add(what + ": element " + i + " is " + g[i] + ", PyTorch's " + w[i]);
    }
  }

  @Test
  void isinTakesAScalarInTheElementsDtypeAsPyTorch() {
    Tensor i8 = Tensor.fromArray(new long[] {1, 2}).to(DType.INT8);
    assertArrayEquals(fixtures.tensor("isin_scalar_int8_258").toDoubleArray(), Tensor.isin(i8, 258L).toDoubleArray(), "258 is int8's 2");
    Tensor u8 = Tensor.fromArray(new long[] {1, 255}).to(DType.UINT8);
    assertArrayEquals(fixtures.tensor("isin_scalar_u8_m1").toDoubleArray(), Tensor.isin(u8, -1L).toDoubleArray());
    Tensor i32 = Tensor.fromArray(new long[] {2, 3}).to(DType.INT32);
    assertArrayEquals(fixtures.tensor("isin_scalar_i32_2p5").toDoubleArray(), Tensor.isin(i32, 2.5).toDoubleArray());
    assertArrayEquals(fixtures.tensor("isin_scalar_f32_2").toDoubleArray(), Tensor.isin(Tensor.fromArray(new float[] {2, 3}), 2.0).toDoubleArray());
    assertEquals(DType.BOOL, Tensor.isin(i32, 2L).dtype());
  }

  /** A float64 leaf of n values drawn from [lo, hi). */
  private static Tensor leaf(double lo, double hi, int n) {
    return Tensor.rand(new long[] {n}).to(DType.FLOAT64).mul(hi - lo).add(lo).requiresGrad_(true);
  }

  @Test
  void gradientsPassGradCheckInFloat64() {
    Tensor x = leaf(-12, 12, 8), y = leaf(-0.5, 3, 8), e = leaf(-3, 3, 8);
    GradCheck.check(t -> t.get(0).i0(), List.of(x));
    GradCheck.check(t -> Special.i0e(t.get(0)), List.of(x));
    GradCheck.check(t -> Special.i1(t.get(0)), List.of(x));
    GradCheck.check(t -> Special.i1e(t.get(0)), List.of(x));
    GradCheck.check(t -> Special.xlog1py(t.get(0), t.get(1)), List.of(x, y));
    GradCheck.check(t -> t.get(0).ldexp(t.get(1)), List.of(x, e));
    GradCheck.check(t -> t.get(0).frexp().mantissa(), List.of(x));
    GradCheck.check(t -> t.get(0).polygamma(2), List.of(leaf(0.5, 4, 8)));
    GradCheck.checkSecondOrder(t -> t.get(0).i0().add(Special.i1e(t.get(0))).mul(Special.xlog1py(t.get(0), 2.0)), List.of(x), 34);
  }

  @Test
  void inPlaceFormsWriteSelf() {
    Tensor i8 = Tensor.fromArray(new long[] {1, -3, 100}).to(DType.INT8);
    long[] counts = {3, 9, 1};
    i8.bitwiseLeftShift_(Tensor.fromArray(counts));  // int64 counts, the int8 result cast back, as PyTorch's
    assertEquals(DType.INT8, i8.dtype());
    assertArrayEquals(new long[] {8, 0, -56}, i8.toLongArray());
    i8.bitwiseRightShift_(2L);
    assertArrayEquals(new long[] {2, 0, -14}, i8.toLongArray());
    Tensor f = Tensor.fromArray(new float[] {1.5f, -3f});
    f.ldexp_(Tensor.fromArray(new long[] {2, -1}));
    assertArrayEquals(new double[] {6, -1.5}, f.toDoubleArray(), 0);
    f.nextafter_(Tensor.fromArray(new float[] {10, 0}));
    assertArrayEquals(new double[] {Math.nextUp(6f), Math.nextUp(-1.5f)}, f.toDoubleArray(), 0);
    Tensor h = Tensor.fromArray(new float[] {1, 2}).to(DType.FLOAT16);
    h.ldexp_(Tensor.fromArray(new long[] {3, 20}));
    assertArrayEquals(new double[] {8, Double.POSITIVE_INFINITY}, h.toDoubleArray(), 0);
    Tensor g = Tensor.fromArray(new double[] {0.5, 9});
    Tensor want = g.i0();
    g.i0_();
    assertArrayEquals(want.toDoubleArray(), g.toDoubleArray(), 0);
  }

  @Test
  void refusalsNameTheOpAsCalledInPyTorchsWords() {
    Tensor f = Tensor.fromArray(new float[] {1, 2}), ints = Tensor.fromArray(new long[] {1, 2}), bools = ints.gt(1L);
    RuntimeException e = assertThrows(UnsupportedOperationException.class, () -> f.bitwiseLeftShift(f));
    assertEquals("bitwiseLeftShift(): \"lshift_cpu\" not implemented for 'Float'", e.getMessage());
    e = assertThrows(UnsupportedOperationException.class, () -> bools.bitwiseRightShift(bools));
    assertEquals("bitwiseRightShift(): \"rshift_cpu\" not implemented for 'Bool'", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> bools.bitwiseRightShift_(1L));  // the int64 result into bool (jtensor's dtype names)
    assertEquals("bitwiseRightShift_(): result type int64 can't be cast to the desired output type bool", e.getMessage());
    e = assertThrows(UnsupportedOperationException.class, () -> ints.nextafter(ints));
    assertEquals("nextafter(): \"nextafter_cpu\" not implemented for 'Long'", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> ints.frexp());
    assertEquals("frexp(): torch.frexp() only supports floating-point dtypes", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> ints.ldexp_(ints));
    assertEquals("ldexp_(): ldexp can't be cast to the desired output type Long", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> f.polygamma_(-1));
    assertEquals("polygamma_(): polygamma(n, x) does not support negative n.", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Tensor.isin(ints, bools));
    assertEquals("isin(): Unsupported input type encountered for isin(): Bool", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Tensor.isin(bools, 1L));
    assertEquals("isin(): Unsupported input type encountered for isin(): Bool", e.getMessage());
    Tensor closed = Tensor.fromArray(new double[] {1, 2});
    closed.close();
    Map<String, Runnable> calls = Map.of("i0e", () -> Special.i0e(closed), "xlog1py", () -> Special.xlog1py(closed, 1.0),
        "ldexp", () -> closed.ldexp(ints), "frexp", closed::frexp, "nextafter_", () -> closed.nextafter_(f),
        "bitwiseLeftShift", () -> closed.bitwiseLeftShift(1L), "isin", () -> Tensor.isin(closed, 1.0), "i0_", closed::i0_,
        "polygamma", () -> Special.polygamma(2, closed));
    calls.forEach((name, call) -> assertTrue(assertThrows(IllegalStateException.class, call::run).getMessage().startsWith(name + "(): tensor is closed"), name));
  }

  @Test
  void resultDtypesFollowPyTorchsRules() {
    Tensor ints = Tensor.fromArray(new long[] {1, 2});
    assertEquals(DType.FLOAT32, ints.i0().dtype());
    assertEquals(DType.FLOAT32, Special.i1e(ints.gt(1L)).dtype());
    assertEquals(DType.FLOAT32, ints.ldexp(ints).dtype(), "integers scale in the default float");
    assertEquals(DType.FLOAT64, Tensor.fromArray(new float[] {1, 2}).ldexp(Tensor.fromArray(new double[] {1, 2})).dtype());
    assertEquals(DType.FLOAT32, Special.xlog1py(ints, Tensor.fromArray(new long[] {0, 1})).dtype());
    assertEquals(DType.FLOAT64, Special.xlog1py(2.0, Tensor.fromArray(new double[] {1, 0})).dtype());
    assertEquals(DType.INT32, Tensor.fromArray(new double[] {3}).frexp().exponent().dtype());
    assertEquals(DType.UINT8, ints.to(DType.UINT8).bitwiseLeftShift(300L).dtype(), "a Python int count takes self's dtype");
  }
}
