package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.jtensor.autograd.GradCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * flip, repeat and tile against PyTorch 2.13 (resources/rearrange/fixtures.pt from
 * make_fixtures.py): values, the input's gradient, gradchecks, PyTorch's refusals, and that each
 * result is a copy, never a view of its input.
 */
class RearrangeTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture f = new PtFixture("/rearrange/fixtures.pt");

  private static Tensor apply(String op, long[] args, Tensor x) {
    switch (op) {
      case "flip": return x.flip(java.util.Arrays.stream(args).mapToInt(v -> (int) v).toArray());
      case "repeat": return x.repeat(args);
      default: return x.tile(args);
    }
  }

  @Test
  void everyCaseMatchesPyTorchWithItsGradient() {
    List<?> cases = (List<?>) f.get("cases");
    assertEquals(10, cases.size());
    for (int i = 0; i < cases.size(); i++) {
      List<?> c = (List<?>) cases.get(i);
      String op = (String) c.get(0);
      long[] args = ((List<?>) c.get(1)).stream().mapToLong(v -> ((Number) v).longValue()).toArray();
      String what = op + java.util.Arrays.toString(args);
      Tensor x = f.tensor(i + ".x").clone().requiresGrad_(true);
      Tensor y = apply(op, args, x);
      assertArrayEquals(f.tensor(i + ".out").shape(), y.shape(), what + ": shape");
      assertArrayEquals(f.tensor(i + ".out").toDoubleArray(), y.toDoubleArray(), 0, what + ": values");
      assertFalse(y.isAliasOf(x), what + ": a copy, as PyTorch's");
      y.mul(f.tensor(i + ".up")).sum().backward();
      assertArrayEquals(f.tensor(i + ".grad").toDoubleArray(), x.grad().toDoubleArray(), 1e-12, what + ": gradient");
    }
  }

  @Test
  void gradchecksFirstAndSecondOrder() {
    Tensor x = Tensor.randn(new long[] {2, 3}, DType.FLOAT64, new Generator(3)).requiresGrad_(true);
    GradCheck.check(in -> in.get(0).flip(0, 1).mul(in.get(0)), List.of(x));
    GradCheck.check(in -> in.get(0).repeat(2, 1, 2), List.of(x));
    GradCheck.check(in -> in.get(0).tile(3), List.of(x));
    GradCheck.checkSecondOrder(in -> in.get(0).repeat(1, 2).pow(2.0).flip(1), List.of(x), 5);
  }

  @Test
  void refusalsInPyTorchsWords() {
    Tensor x = Tensor.ones(2, 3);
    assertEquals("repeat(): Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor",
        assertThrows(IllegalArgumentException.class, () -> x.repeat(2)).getMessage());
    assertEquals("repeat(): Trying to create tensor with negative dimension -3: [4, -3]",
        assertThrows(IllegalArgumentException.class, () -> x.repeat(2, -1)).getMessage());
    assertEquals("flip(): dim 0 appears multiple times in the list of dims",
        assertThrows(IllegalArgumentException.class, () -> x.flip(0, -2)).getMessage());
    assertThrows(IllegalArgumentException.class, () -> x.flip(2));
    assertArrayEquals(new long[] {0, 6}, x.repeat(0, 2).shape());
    assertEquals(3.0, Tensor.scalar(3.0).flip(0).item());
  }
}
