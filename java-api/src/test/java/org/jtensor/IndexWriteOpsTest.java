package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jtensor.autograd.GradCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * takeAlongDim, selectScatter, sliceScatter and diagonalScatter against PyTorch 2.13
 * (resources/shapes/index.pt from make_fixtures.py): values, dtypes and gradients of input and src;
 * copies, never views; gradchecks; PyTorch's refusals.
 */
class IndexWriteOpsTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture f = new PtFixture("/shapes/index.pt");

  private static List<Tensor> apply(String op, long[] a, List<Tensor> xs) {
    Tensor x = xs.get(0), y = xs.get(1);
    switch (op) {
      case "takeAlongDim": return List.of(a.length == 0 ? x.takeAlongDim(y) : x.takeAlongDim(y, (int) a[0]));
      case "selectScatter": return List.of(x.selectScatter(y, (int) a[0], a[1]));
      case "sliceScatter": return List.of(x.sliceScatter(y, (int) a[0], a[1], a[2], a[3]));
      case "diagonalScatter": return List.of(x.diagonalScatter(y, a[0], (int) a[1], (int) a[2]));
      default: throw new AssertionError(op);
    }
  }

  @Test
  void everyCaseMatchesPyTorchWithItsGradient() {
    assertEquals(14, FixtureCases.run(f, IndexWriteOpsTest::apply));
  }

  @Test
  void copiesNotViews() {
    Tensor x = Tensor.arange(12).reshape(3, 4).to(DType.FLOAT32);
    Tensor row = Tensor.ones(4);
    Tensor r = x.selectScatter(row, 0, 1);
    assertFalse(r.isAliasOf(x));
    assertFalse(r.isView());
    assertArrayEquals(new double[] {4, 5, 6, 7}, x.select(0, 1).toDoubleArray(), 0, "the input is left as it was");
    assertFalse(x.sliceScatter(x).isAliasOf(x));
    assertFalse(x.diagonalScatter(Tensor.zeros(3)).isAliasOf(x));
    assertEquals(DType.FLOAT32, x.selectScatter(Tensor.ones(new long[] {4}, DType.INT64), 0, 0).dtype(), "src is cast to the input's dtype");
  }

  @Test
  void gradchecks() {
    Tensor x = Tensor.randn(new long[] {3, 4}, DType.FLOAT64, new Generator(4301)).requiresGrad_(true);
    Tensor s = Tensor.randn(new long[] {3}, DType.FLOAT64, new Generator(4302)).requiresGrad_(true);
    Tensor idx = Tensor.fromArray(new long[] {2, 0, 3}, 3, 1);
    GradCheck.check(in -> in.get(0).diagonalScatter(in.get(1)).selectScatter(in.get(1), 1, 2).takeAlongDim(idx, 1), List.of(x, s));
    GradCheck.check(in -> in.get(0).sliceScatter(in.get(1).view(3, 1).mul(in.get(1).view(3, 1)), 1, 1, 2, 1).takeAlongDim(
        Tensor.fromArray(new long[] {11, 0, 4})), List.of(x, s));
    GradCheck.checkSecondOrder(in -> in.get(0).selectScatter(in.get(1).pow(2.0), 1, 0).pow(2.0), List.of(x, s), 9);
  }

  @Test
  void refusalsInPyTorchsWords() {
    Tensor x = Tensor.ones(3, 4);
    assertEquals("takeAlongDim(): torch.take_along_dim(): input and indices should have the same number of dimensions, but got 2 "
        + "dimensions for input, and 1 dimensions for indices", refused(() -> x.takeAlongDim(Tensor.fromArray(new long[] {0}), 1)));
    assertEquals("takeAlongDim(): torch.take_along_dim(): dtype of indices should be Long but got Int",
        refused(() -> x.takeAlongDim(Tensor.fromArray(new int[] {0}, 1, 1), 1)));
    assertEquals("takeAlongDim(): The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0",
        refused(() -> x.takeAlongDim(Tensor.fromArray(new long[] {0, 2}, 2, 1), 1)));
    assertEquals("takeAlongDim(): Dimension out of range (expected to be in range of [-2, 1], but got 2)",
        refused(() -> x.takeAlongDim(Tensor.fromArray(new long[] {0}, 1, 1), 2)));
    assertEquals("takeAlongDim(): Dimension specified as 0 but tensor has no dimensions",
        refused(() -> Tensor.scalar(1.0).takeAlongDim(Tensor.scalar(0L), 0)));
    assertTrue(assertThrows(RuntimeException.class, () -> x.takeAlongDim(Tensor.fromArray(new long[] {5}, 1, 1), 1)).getMessage()
        .contains("out of bounds"), "gather's refusal, not PyTorch 2.13's wrap to 1");
    assertEquals("selectScatter(): expected src to have a size equal to the slice of self. src size = [1, 4], slice size = [4]",
        refused(() -> x.selectScatter(Tensor.ones(1, 4), 0, 1)));
    assertEquals("sliceScatter(): expected src to have a size equal to the slice of self. src size = [3, 1], slice size = [3, 2]",
        refused(() -> x.sliceScatter(Tensor.ones(3, 1), 1, 0, 4, 2)));
    assertEquals("diagonalScatter(): expected src to have a size equal to the slice of self. src size = [3], slice size = [2]",
        refused(() -> x.diagonalScatter(Tensor.ones(3), 2, 0, 1)));
    assertThrows(RuntimeException.class, () -> x.selectScatter(Tensor.ones(4), 0, 3));
    assertEquals("selectScatter(): expected a Tensor, got null", refused(() -> x.selectScatter(null, 0, 0)));
  }

  private static String refused(Runnable r) {
    return assertThrows(IllegalArgumentException.class, r::run).getMessage();
  }
}
