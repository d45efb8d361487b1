package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The activations and special functions added in session 32 against PyTorch 2.13
 * (resources/activations/fixtures.pt from make_fixtures.py beside it): values and dtypes over
 * float64, float32, float16, bfloat16, int64 and bool inputs holding the kinks (±3, ±lambd, the
 * bounds), 0, -0.0, NaN and infinities, and the gradients of (out · up).sum() for PyTorch's up in
 * float64 and float32. float64 must agree to a few ulps; float32 and the 16-bit types within a few
 * of their ulps (PyTorch's vectorized exp, log1p and tanh are Sleef's, jtensor's its own).
 */
class ActivationsAndSpecialTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture fixtures = new PtFixture("/activations/fixtures.pt");

  private static final Map<String, Function<List<Tensor>, Tensor>> OPS = Map.ofEntries(
      Map.entry("hardswish", x -> x.get(0).hardswish()),
      Map.entry("hardsigmoid", x -> x.get(0).hardsigmoid()),
      Map.entry("mish", x -> x.get(0).mish()),
      Map.entry("selu", x -> x.get(0).selu()),
      Map.entry("celu", x -> x.get(0).celu(0.7)),
      Map.entry("elu_selu_like", x -> x.get(0).elu(1.3)),
      Map.entry("logsigmoid", x -> x.get(0).logSigmoid()),
      Map.entry("hardshrink", x -> x.get(0).hardshrink()),
      Map.entry("hardshrink_1.2", x -> x.get(0).hardshrink(1.2)),
      Map.entry("softshrink", x -> x.get(0).softshrink()),
      Map.entry("softshrink_1.2", x -> x.get(0).softshrink(1.2)),
      Map.entry("tanhshrink", x -> x.get(0).tanhshrink()),
      Map.entry("softsign", x -> x.get(0).softsign()),
      Map.entry("threshold", x -> x.get(0).dtype() == DType.INT64 ? x.get(0).threshold(1.5, 7.9) : x.get(0).threshold(0.3, -2.0)),
      Map.entry("hardtanh", x -> x.get(0).dtype() == DType.INT64 ? x.get(0).hardtanh(-1.5, 1.5) : x.get(0).hardtanh()),
      Map.entry("hardtanh_wide", x -> x.get(0).hardtanh(-0.5, 2.0)),
      Map.entry("relu6", x -> x.get(0).relu6()),
      Map.entry("frac", x -> x.get(0).frac()),
      Map.entry("sinc", x -> x.get(0).sinc()),
      Map.entry("lgamma", x -> x.get(0).lgamma()),
      Map.entry("digamma", x -> x.get(0).digamma()),
      Map.entry("hypot", x -> x.get(0).hypot(x.get(1))),
      Map.entry("logaddexp", x -> x.get(0).logaddexp(x.get(1))),
      Map.entry("logaddexp2", x -> x.get(0).logaddexp2(x.get(1))),
      Map.entry("xlogy", x -> x.get(0).xlogy(x.get(1))),
      Map.entry("copysign", x -> x.get(0).copysign(x.get(1))),
      Map.entry("fmod", x -> x.get(0).fmod(x.get(1))),
      Map.entry("heaviside", x -> x.get(0).heaviside(x.get(1))),
      Map.entry("glu", x -> x.get(0).glu(0)),
      Map.entry("glu_last", x -> x.get(0).glu()),
      Map.entry("prelu", x -> x.get(0).prelu(x.get(1))),
      Map.entry("prelu_one", x -> x.get(0).prelu(x.get(1))),
      Map.entry("nansum", x -> x.get(0).nansum()),
      Map.entry("nansum_dim", x -> x.get(0).nansum(1, true)),
      Map.entry("nanmean", x -> x.get(0).nanmean()),
      Map.entry("nanmean_dim", x -> x.get(0).nanmean(1, false)),
      Map.entry("nanmean_dim0", x -> x.get(0).nanmean(0, true)));

  /** "hardshrink_1.2_special_f16" -> "hardshrink_1.2". */
  private static String base(String name) {
    String s = name.substring(0, name.lastIndexOf('_'));
    return s.endsWith("_special") ? s.substring(0, s.length() - "_special".length()) : s;
  }

  private final GoldenComparison golden = new GoldenComparison();

  @Test
  void valuesDtypesAndGradientsMatchPyTorch() {
    List<?> cases = (List<?>) fixtures.get("cases");
    assertEquals(198, cases.size());
    for (Object c : cases) {
      String name = (String) c;
      Function<List<Tensor>, Tensor> op = OPS.get(base(name));
      assertTrue(op != null, "no op for case " + name);
      if (name.equals("fmod_special_f64")) {
        // PyTorch's vectorized fmod (Sleef's) gives NaN for a subnormal divisor; C's fmod (Java's %) and
        // jtensor give the exact remainder, as PyTorch's own scalar loop does
        Tensor x = fixtures.tensor(name + ".x"), y = fixtures.tensor(name + ".y");
        double[] w = fixtures.tensor(name + ".out").toDoubleArray(), a = x.toDoubleArray(), b = y.toDoubleArray();
        for (int i = 0; i < w.length; i++) if (b[i] != 0 && Math.abs(b[i]) < Double.MIN_NORMAL) w[i] = a[i] % b[i];
        golden.compare(DType.FLOAT64, w, op.apply(List.of(x, y)).toDoubleArray(), false, true, name);
        continue;
      }
      // -0.0 is PyTorch's, except softshrink's: its vectorized loop gives +0.0 and its scalar tail -0.0 (0 · x)
      golden.checkCase(fixtures, name, op, !name.startsWith("softshrink"));
    }
    golden.assertNone();
  }

  private static void refused(Class<? extends RuntimeException> type, String message, Runnable call) {
    RuntimeException e = org.junit.jupiter.api.Assertions.assertThrows(type, call::run);
    assertTrue(e.getMessage().contains(message), "message: " + e.getMessage());
  }

  @Test
  void badArgumentsAreRefusedInPyTorchsWords() {
    Tensor x = Tensor.randn(new long[] {2, 4, 3});
    Tensor ints = Tensor.fromArray(new long[] {5, -3});
    refused(IllegalArgumentException.class, "hardtanh(): min_val cannot be greater than max_val", () -> x.hardtanh(2, 1));
    refused(IllegalArgumentException.class, "Bool inputs not supported for hardtanh", () -> ints.gt(0L).relu6());
    refused(IllegalArgumentException.class, "cannot do hardtanh on an unsigned type with negative limits", () -> ints.to(DType.UINT8).hardtanh());
    refused(IllegalArgumentException.class, "lambda must be in range [0, ", () -> x.softshrink(-1));
    refused(ArithmeticException.class, "alpha cannot be 0 for CELU", () -> x.celu(0));
    refused(UnsupportedOperationException.class, "selu(): \"selu\" not implemented for 'Long'", ints::selu);
    refused(UnsupportedOperationException.class, "not implemented for 'Long'", ints::hardswish);
    refused(UnsupportedOperationException.class, "not implemented for 'Long'", ints::frac);
    refused(IllegalArgumentException.class, "Halving dimension must be even, but dimension 2 is size 3", () -> x.glu(2));
    refused(IllegalArgumentException.class, "glu does not support scalars", () -> Tensor.scalar(1.0).glu());
    refused(IllegalArgumentException.class, "Found parameter numbers = 3 and channel size = 4.", () -> x.prelu(Tensor.ones(new long[] {3})));
    refused(IllegalArgumentException.class, "Expected `weight` to be a scalar or 1D tensor, but got: ndim = 2", () -> x.prelu(Tensor.ones(new long[] {2, 2})));
    refused(IllegalArgumentException.class, "Type promoting not supported. Got Float and Double",
        () -> x.prelu(Tensor.ones(new long[] {4}, DType.FLOAT64)));
    refused(IllegalArgumentException.class, "heaviside is not yet implemented for tensors with different dtypes", () -> x.heaviside(ints));
    refused(ArithmeticException.class, "ZeroDivisionError", () -> ints.fmod(Tensor.fromArray(new long[] {1, 0})));
    refused(ArithmeticException.class, "ZeroDivisionError", () -> ints.fmod(0L));
    refused(IllegalArgumentException.class, "nanmean(): expected input to have floating point or complex dtype but got Long", ints::nanmean);
    assertEquals(DType.INT64, ints.nansum().dtype(), "integers nansum to int64, as sum");
  }

  @Test
  void theModulesApplyTheirActivationWithPyTorchsDefaults() {
    Tensor x = Tensor.randn(new long[] {2, 3, 4});
    Map<org.jtensor.nn.Module, Tensor> expected = new java.util.LinkedHashMap<>();
    expected.put(new org.jtensor.nn.Hardswish(), x.hardswish());
    expected.put(new org.jtensor.nn.Hardsigmoid(), x.hardsigmoid());
    expected.put(new org.jtensor.nn.Mish(), x.mish());
    expected.put(new org.jtensor.nn.SELU(), x.selu());
    expected.put(new org.jtensor.nn.CELU(), x.celu(1.0));
    expected.put(new org.jtensor.nn.ELU(), x.elu(1.0));
    expected.put(new org.jtensor.nn.LeakyReLU(), x.leakyRelu(0.01));
    expected.put(new org.jtensor.nn.Softplus(), x.softplus(1.0, 20.0));
    expected.put(new org.jtensor.nn.ReLU6(), x.hardtanh(0, 6));
    expected.put(new org.jtensor.nn.Hardtanh(), x.hardtanh(-1, 1));
    expected.put(new org.jtensor.nn.Hardshrink(), x.hardshrink(0.5));
    expected.put(new org.jtensor.nn.Softshrink(), x.softshrink(0.5));
    expected.put(new org.jtensor.nn.Tanhshrink(), x.sub(x.tanh()));
    expected.put(new org.jtensor.nn.Softsign(), x.div(x.abs().add(1.0)));
    expected.put(new org.jtensor.nn.LogSigmoid(), x.sigmoid().log());
    expected.put(new org.jtensor.nn.Threshold(0.1, 20), x.threshold(0.1, 20));
    expected.put(new org.jtensor.nn.GLU(), x.narrow(2, 0, 2).mul(x.narrow(2, 2, 2).sigmoid()));
    for (Map.Entry<org.jtensor.nn.Module, Tensor> e : expected.entrySet()) {
      try (org.jtensor.nn.Module m = e.getKey()) {
        org.junit.jupiter.api.Assertions.assertArrayEquals(e.getValue().toDoubleArray(), m.forward(x).toDoubleArray(), 1e-6, m.getClass().getSimpleName());
      }
    }
    // PReLU: one learned slope per channel, named "weight", initialised to init; its gradient sums x · g where x ≤ 0
    try (org.jtensor.nn.PReLU p = new org.jtensor.nn.PReLU(3, 0.25)) {
      assertEquals(List.of("weight"), List.copyOf(p.stateDict().keySet()));
      org.junit.jupiter.api.Assertions.assertArrayEquals(new double[] {0.25, 0.25, 0.25}, p.weight().toDoubleArray(), 0);
      p.forward(x).sum().backward();
      Tensor negative = Tensor.where(x.gt(0.0), 0.0, x);
      org.junit.jupiter.api.Assertions.assertArrayEquals(negative.sum(new int[] {0, 2}, false).toDoubleArray(), p.weight().grad().toDoubleArray(), 1e-5);
    }
  }
}
