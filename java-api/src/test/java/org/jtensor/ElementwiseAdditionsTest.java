package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 21 point 4's elementwise ops against PyTorch 2.13 (resources/elementwise/fixtures.pt from
 * make_fixtures.py beside it): asin, acos, atan, atan2 (broadcast), elu, nanToNum and the
 * isinf/isfinite predicates, values and dtypes over float64, float32, float16 and int64 inputs
 * with NaN, infinities, -0.0 and a float16 overflow; the gradients of the differentiable ones for
 * PyTorch's upstream gradient. Their gradchecks are GradCheckOpsTest's.
 */
class ElementwiseAdditionsTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture fixtures = new PtFixture("/elementwise/fixtures.pt");

  private static Tensor f(String name) {
    return fixtures.tensor(name);
  }

  private static final Map<String, Function<List<Tensor>, Tensor>> OPS = Map.ofEntries(
      Map.entry("asin", x -> x.get(0).asin()),
      Map.entry("acos", x -> x.get(0).acos()),
      Map.entry("atan", x -> x.get(0).atan()),
      Map.entry("atan2", x -> x.get(0).atan2(x.get(1))),
      Map.entry("elu", x -> x.get(0).elu()),
      Map.entry("elu_alpha", x -> x.get(0).elu(0.5)),
      Map.entry("nan_to_num_grad", x -> x.get(0).nanToNum(0.0, 3.0, -3.0)),
      Map.entry("nan_to_num_default", x -> x.get(0).nanToNum()),
      Map.entry("nan_to_num_values", x -> x.get(0).nanToNum(7.0, 8.0, -9.0)),
      Map.entry("isinf", x -> x.get(0).isinf()),
      Map.entry("isfinite", x -> x.get(0).isfinite()));

  private static Function<List<Tensor>, Tensor> op(String name) {
    String key = OPS.containsKey(name) ? name : name.substring(0, name.lastIndexOf('_'));  // "isinf_f16" -> "isinf"
    return OPS.get(key);
  }

  @Test
  void valuesDtypesAndGradientsMatchPyTorch() {
    List<?> cases = (List<?>) fixtures.get("cases");
    assertEquals(22, cases.size());
    for (Object c : cases) {
      String name = (String) c;
      boolean grad = fixtures.has(name + ".up");
      Tensor x = f(name + ".x").clone().requiresGrad_(grad), y = fixtures.has(name + ".y") ? f(name + ".y").clone().requiresGrad_(grad) : null;
      Tensor out = op(name).apply(y == null ? List.of(x) : List.of(x, y)), want = f(name + ".out");
      assertEquals(want.dtype(), out.dtype(), name + ": dtype");
      assertArrayEquals(want.shape(), out.shape(), name + ": shape");
      assertArrayEquals(want.toDoubleArray(), out.toDoubleArray(), 1e-12, name + ": values");
      if (grad) {
        out.mul(f(name + ".up")).sum().backward();
        assertArrayEquals(f(name + ".grad_x").toDoubleArray(), x.grad().toDoubleArray(), 1e-12, name + ": x's gradient");
        if (y != null) assertArrayEquals(f(name + ".grad_y").toDoubleArray(), y.grad().toDoubleArray(), 1e-12, name + ": y's gradient");
      }
    }
  }

  @Test
  void theDefaultBoundsAreEachDtypesLargestFiniteValues() {
    Tensor inf = Tensor.fromArray(new float[] {Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NaN});
    assertArrayEquals(new double[] {65504, -65504, 0}, inf.to(DType.FLOAT16).nanToNum().toDoubleArray(), 0);
    assertArrayEquals(new double[] {Float.MAX_VALUE, -Float.MAX_VALUE, 0}, inf.nanToNum().toDoubleArray(), 0);
    assertArrayEquals(new double[] {0x1.fep127, -0x1.fep127, 0}, inf.to(DType.BFLOAT16).nanToNum().toDoubleArray(), 0);
    assertTrue(Tensor.fromArray(new long[] {1, 2}).isfinite().all().item() != 0, "integers are finite");
  }
}
