package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.jtensor.autograd.GradCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * addcmul and addcdiv (and their in-place forms) against PyTorch 2.13 (resources/fused/fixtures.pt
 * from make_fixtures.py beside it): values (float32, float16 and bfloat16 bit for bit: one rounding,
 * as PyTorch's fused kernel), dtypes, the gradients of (out · up).sum() for all three tensors,
 * GradCheck, and refusals in PyTorch's words.
 */
class FusedArithmeticTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture fixtures = new PtFixture("/fused/fixtures.pt");

  private static final Map<String, Function<List<Tensor>, Tensor>> OPS = Map.ofEntries(
      Map.entry("addcmul", x -> x.get(0).addcmul(x.get(1), x.get(2), 0.7)),
      Map.entry("addcmul_default", x -> x.get(0).addcmul(x.get(1), x.get(2))),
      Map.entry("addcmul_f32", x -> x.get(0).addcmul(x.get(1), x.get(2), -0.3)),
      Map.entry("addcmul_f16", x -> x.get(0).addcmul(x.get(1), x.get(2), 0.1)),
      Map.entry("addcmul_bf16", x -> x.get(0).addcmul(x.get(1), x.get(2), 0.1)),
      Map.entry("addcmul_int", x -> x.get(0).addcmul(x.get(1), x.get(2), 3)),
      Map.entry("addcmul_int_half", x -> x.get(0).addcmul(x.get(1), x.get(2), 0.5)),
      Map.entry("addcmul_mixed", x -> x.get(0).addcmul(x.get(1), x.get(2), 2)),
      Map.entry("addcmul_f16_f32", x -> x.get(0).addcmul(x.get(1), x.get(2))),
      Map.entry("addcdiv", x -> x.get(0).addcdiv(x.get(1), x.get(2), -1.3)),
      Map.entry("addcdiv_f32", x -> x.get(0).addcdiv(x.get(1), x.get(2), 0.01)),
      Map.entry("addcdiv_bf16", x -> x.get(0).addcdiv(x.get(1), x.get(2), 0.5)),
      Map.entry("addcdiv_int_self", x -> x.get(0).addcdiv(x.get(1), x.get(2), 2)));

  private static final Set<String> BIT_FOR_BIT = Set.of("addcmul_f32", "addcmul_f16", "addcmul_bf16", "addcdiv_f32", "addcdiv_bf16");

  @Test
  void valuesDtypesAndGradientsMatchPyTorch() {
    List<?> cases = (List<?>) fixtures.get("cases");
    assertEquals(13, cases.size());
    for (Object c : cases) {
      String name = (String) c;
      boolean grad = fixtures.has(name + ".up");
      List<Tensor> in = new ArrayList<>();
      for (int k = 0; k < 3; k++) in.add(fixtures.tensor(name + ".in" + k).clone().requiresGrad_(grad));
      Tensor out = OPS.get(name).apply(in), want = fixtures.tensor(name + ".out");
      Goldens.assertMatches(want, out, name);
      if (BIT_FOR_BIT.contains(name)) assertArrayEquals(want.toDoubleArray(), out.toDoubleArray(), name + ": bit for bit");
      if (!grad) continue;
      out.mul(fixtures.tensor(name + ".up")).sum().backward();
      for (int k = 0; k < 3; k++) Goldens.assertMatches(fixtures.tensor(name + ".grad" + k), in.get(k).grad(), name + ": gradient of input " + k);
    }
  }

  @Test
  void inPlaceFormsWriteSelfAndKeepTheirGradient() {
    Tensor a = fixtures.tensor("addcmul_default.in0").clone(), b = fixtures.tensor("addcmul_default.in1"), c = fixtures.tensor("addcmul_default.in2");
    Tensor x = a.clone();
    assertSame(x, x.addcmul_(b, c));
    Goldens.assertMatches(fixtures.tensor("addcmul_default.out"), x, "addcmul_");
    Tensor y = a.clone();
    assertSame(y, y.addcdiv_(b, c.abs().add(1.0), 0.5));
    Goldens.assertMatches(a.addcdiv(b, c.abs().add(1.0), 0.5), y, "addcdiv_");
    Tensor f = Tensor.fromArray(new double[] {1, 2, 3}).to(DType.FLOAT32);  // a float64 operand computes in float64, written as float32
    assertEquals(DType.FLOAT32, f.addcmul_(Tensor.ones(new long[] {3}, DType.FLOAT64), Tensor.ones(3)).dtype());
    assertArrayEquals(new double[] {2, 3, 4}, f.toDoubleArray());
    GradCheck.check(t -> t.get(0).mul(1.0).addcmul_(t.get(1), t.get(2), -0.4), List.of(a.requiresGrad_(true), b, c));
    GradCheck.check(t -> t.get(0).mul(1.0).addcdiv_(t.get(1), t.get(2), 1.5), List.of(a, b, c.abs().add(1.0)));
  }

  @Test
  void gradientsPassGradCheck() {
    Generator g = new Generator(62);
    Function<long[], Tensor> rnd = shape -> Tensor.randn(shape, g).to(DType.FLOAT64);
    GradCheck.check(t -> t.get(0).addcmul(t.get(1), t.get(2), 0.7), List.of(rnd.apply(new long[] {2, 1}), rnd.apply(new long[] {3}), rnd.apply(new long[] {2, 3})));
    GradCheck.check(t -> t.get(0).addcdiv(t.get(1), t.get(2), -2), List.of(rnd.apply(new long[] {3}), rnd.apply(new long[] {2, 3}), rnd.apply(new long[] {3}).abs().add(0.5)));
  }

  @Test
  void badArgumentsAreRefusedInPyTorchsWords() {
    Tensor i = Tensor.fromArray(new long[] {1, 2, 3}), f = Tensor.ones(3), bools = Tensor.ones(new long[] {3}, DType.BOOL);
    Goldens.refused("addcdiv(): Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform a true division",
        () -> f.addcdiv(i, i));
    Goldens.refused("addcdiv_(): Integer division with addcdiv is no longer supported", () -> f.clone().addcdiv_(bools, i));
    Goldens.refused("addcmul(): \"addcmul_cpu_out\" not implemented for 'Bool'", () -> bools.addcmul(bools, bools));
    Goldens.refused("addcmul_(): output with shape [2, 1] doesn't match the broadcast shape [2, 3]", () -> Tensor.ones(2, 1).addcmul_(f, Tensor.ones(1, 3)));
    Goldens.refused("addcmul_(): result type float32 can't be cast to the desired output type int64", () -> i.clone().addcmul_(f, f));
    Goldens.refused("addcmul(): The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 0", () -> f.addcmul(f, Tensor.ones(4)));
  }
}
