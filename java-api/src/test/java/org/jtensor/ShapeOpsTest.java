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
 * broadcastTo, broadcastTensors, moveaxis, ravel, fliplr, flipud, rot90, the stacks, the splits,
 * atleast1d/2d/3d, blockDiag, cartesianProd, argwhere, unravelIndex and combinations against PyTorch 2.13
 * (resources/shapes/fixtures.pt and joins.pt from make_fixtures.py): values,
 * dtypes and gradients; views where PyTorch's are views; gradchecks; PyTorch's refusals.
 */
class ShapeOpsTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture f = new PtFixture("/shapes/fixtures.pt");
  @RegisterExtension
  static final PtFixture joins = new PtFixture("/shapes/joins.pt");

  private static List<Tensor> apply(String op, long[] a, List<Tensor> xs) {
    Tensor x = xs.get(0);
    Tensor[] all = xs.toArray(new Tensor[0]);
    switch (op) {
      case "broadcastTo": return List.of(x.broadcastTo(a));
      case "broadcastTensors": return Tensor.broadcastTensors(all);
      case "moveaxis":
        return List.of(a.length == 2 ? x.moveaxis((int) a[0], (int) a[1])
            : x.moveaxis(new int[] {(int) a[0], (int) a[1]}, new int[] {(int) a[2], (int) a[3]}));
      case "ravel": return List.of(x.ravel());
      case "fliplr": return List.of(x.fliplr());
      case "flipud": return List.of(x.flipud());
      case "rot90": return List.of(x.rot90(a[0], (int) a[1], (int) a[2]));
      case "hstack": return List.of(Tensor.hstack(all));
      case "vstack": return List.of(Tensor.vstack(xs));
      case "dstack": return List.of(Tensor.dstack(all));
      case "columnStack": return List.of(Tensor.columnStack(all));
      case "hsplitN": return x.hsplit(a[0]);
      case "hsplitAt": return x.hsplit(a);
      case "vsplitN": return x.vsplit(a[0]);
      case "vsplitAt": return x.vsplit(a);
      case "dsplitN": return x.dsplit(a[0]);
      case "dsplitAt": return x.dsplit(a);
      case "atleast1d": return List.of(Tensor.atleast1d(x));
      case "atleast2d": return List.of(Tensor.atleast2d(x));
      case "atleast3d": return Tensor.atleast3d(all);
      case "blockDiag": return List.of(Tensor.blockDiag(all));
      case "cartesianProd": return List.of(Tensor.cartesianProd(all));
      case "argwhere": return List.of(x.argwhere());
      case "unravelIndex": return Tensor.unravelIndex(x, a);
      case "combinations": return List.of(x.combinations((int) a[0], a[1] == 1));
      default: throw new AssertionError(op);
    }
  }

  @Test
  void everyCaseMatchesPyTorchWithItsGradient() {
    assertEquals(50, FixtureCases.run(f, ShapeOpsTest::apply));
    assertEquals(22, FixtureCases.run(joins, ShapeOpsTest::apply));
  }

  @Test
  void blockDiagCartesianProdArgwhereRefusalsAndEdges() {
    assertEquals("blockDiag(): torch.block_diag: Input tensors must have 2 or fewer dimensions. Input 1 has 3 dimensions",
        refused(() -> Tensor.blockDiag(Tensor.ones(2), Tensor.ones(1, 1, 1))));
    assertArrayEquals(new long[] {1, 0}, Tensor.blockDiag().shape(), "no tensors: a [1, 0] float32, as PyTorch's");
    assertEquals("cartesianProd(): Expect a 1D vector, but got shape [2, 2]", refused(() -> Tensor.cartesianProd(Tensor.ones(2, 2))));
    assertEquals("cartesianProd(): meshgrid expects all tensors to have the same dtype",
        refused(() -> Tensor.cartesianProd(Tensor.arange(2), Tensor.ones(3))));
    assertEquals("cartesianProd(): meshgrid expects a non-empty TensorList", refused(() -> Tensor.cartesianProd()));
    Tensor r = Tensor.arange(3);
    assertTrue(Tensor.cartesianProd(r).isAliasOf(r), "one tensor: itself, as PyTorch's");
    assertArrayEquals(new long[] {1, 0}, Tensor.scalar(2.0).argwhere().shape());
    assertEquals("unravelIndex(): expected 'indices' to be integer dtype, but got " + DType.FLOAT32,
        refused(() -> Tensor.unravelIndex(Tensor.ones(1), 3, 2)));
    assertEquals("unravelIndex(): 'shape' cannot have negative values, but got [3, -2]", refused(() -> Tensor.unravelIndex(r, 3, -2)));
    assertThrows(ArithmeticException.class, () -> Tensor.unravelIndex(r, 3, 0));
    assertEquals("combinations(): Expect a 1D vector, but got shape [2, 2]", refused(() -> Tensor.ones(2, 2).combinations()));
    assertEquals("combinations(): Expect a non-negative number, but got -1", refused(() -> r.combinations(-1, false)));
    assertArrayEquals(new long[] {0}, r.combinations(0, true).shape());
    Tensor a = Tensor.randn(new long[] {2, 2}, DType.FLOAT64, new Generator(45)).requiresGrad_(true);
    Tensor b = Tensor.randn(new long[] {3}, DType.FLOAT64, new Generator(46)).requiresGrad_(true);
    GradCheck.check(in -> Tensor.blockDiag(in.get(0), in.get(1)).mul(Tensor.blockDiag(in.get(1).pow(2.0), in.get(0))), List.of(a, b));
    GradCheck.check(in -> Tensor.cartesianProd(in.get(0).flatten(), in.get(1)), List.of(a, b));
    GradCheck.check(in -> in.get(1).combinations(3, true), List.of(a, b));
  }

  @Test
  void viewsShareStorageAndCopiesDoNot() {
    Tensor x = Tensor.arange(12).reshape(3, 4).to(DType.FLOAT32);
    assertTrue(x.reshape(3, 1, 4).broadcastTo(2, 3, 5, 4).isAliasOf(x));
    assertTrue(x.moveaxis(0, 1).isAliasOf(x));
    assertTrue(x.ravel().isAliasOf(x), "a contiguous tensor's ravel is a view");
    assertFalse(x.t().ravel().isAliasOf(x), "a transposed one's is a copy");
    for (Tensor p : x.hsplit(2)) assertTrue(p.isAliasOf(x));
    for (Tensor p : x.vsplit(1, 2)) assertTrue(p.isAliasOf(x));
    for (Tensor p : Tensor.broadcastTensors(x, Tensor.ones(2, 1, 1))) assertTrue(p.isView());
    assertTrue(Tensor.atleast3d(x).isAliasOf(x));
    assertTrue(Tensor.atleast1d(x).isAliasOf(x), "already 1-D or more: the tensor itself");
    for (int k = -1; k <= 4; k++) assertFalse(x.rot90(k, 0, 1).isAliasOf(x), "rot90 copies, even for k = " + k);
    assertFalse(x.fliplr().isAliasOf(x));
    assertFalse(Tensor.hstack(x).isAliasOf(x));
    assertTrue(x.t().rot90(0, 0, 1).isContiguous(), "k = 0: a contiguous clone, as ATen's");
    assertEquals(List.of(), Tensor.broadcastTensors());
    assertEquals(List.of(), Tensor.atleast2d());
  }

  @Test
  void gradchecks() {
    Tensor x = Tensor.randn(new long[] {2, 3, 4}, DType.FLOAT64, new Generator(43)).requiresGrad_(true);
    Tensor y = Tensor.randn(new long[] {3, 1}, DType.FLOAT64, new Generator(44)).requiresGrad_(true);
    GradCheck.check(in -> in.get(0).rot90(3, 2, 0).mul(in.get(0).broadcastTo(2, 3, 4).moveaxis(0, -1).ravel().view(4, 3, 2)), List.of(x));
    GradCheck.check(in -> Tensor.broadcastTensors(in.get(0), in.get(1)).get(1).mul(in.get(0)).fliplr().flipud(), List.of(x, y));
    GradCheck.check(in -> Tensor.columnStack(in.get(0).view(6, 4), Tensor.vstack(in.get(1), in.get(1)).view(6, 1)), List.of(x, y));
    GradCheck.check(in -> Tensor.dstack(in.get(0).dsplit(1, 3)).mul(Tensor.hstack(in.get(1).hsplit(1))), List.of(x, y));
    GradCheck.checkSecondOrder(in -> in.get(0).rot90(1, 0, 1).pow(2.0).ravel(), List.of(x), 5);
  }

  @Test
  void refusalsInPyTorchsWords() {
    Tensor x = Tensor.ones(2, 3), v = Tensor.ones(3), s = Tensor.scalar(1.0);
    assertEquals("broadcastTo(): The expanded size of the tensor (4) must match the existing size (3) at non-singleton dimension 1."
        + "  Target sizes: [2, 4].  Tensor sizes: [2, 3]", refused(() -> x.broadcastTo(2, 4)));
    assertEquals("broadcastTo(): the number of sizes provided (1) must be greater or equal to the number of dimensions in the tensor (2)",
        refused(() -> x.broadcastTo(3)));
    assertEquals("broadcastTensors(): The size of tensor a (3) must match the size of tensor b (5) at non-singleton dimension 2",
        refused(() -> Tensor.broadcastTensors(x, Tensor.ones(4, 1, 1), Tensor.ones(5))));
    assertEquals("moveaxis(): repeated dim in `source` ([0, 0])", refused(() -> x.moveaxis(new int[] {0, 0}, new int[] {1, 0})));
    assertEquals("moveaxis(): Dimension out of range (expected to be in range of [-2, 1], but got 2)", refused(() -> x.moveaxis(0, 2)));
    assertEquals("fliplr(): Input must be >= 2-d.", refused(v::fliplr));
    assertEquals("flipud(): Input must be >= 1-d.", refused(s::flipud));
    assertEquals("rot90(): expected total rotation dims == 2, but got dims = 1", refused(() -> x.rot90(1, 0)));
    assertEquals("rot90(): expected total dims >= 2, but got total dims = 1", refused(() -> v.rot90(1, 0, 1)));
    assertEquals("rot90(): expected rotation dims to be different, but got dim0 = 0 and dim1 = -2", refused(() -> x.rot90(1, 0, -2)));
    assertEquals("rot90(): Dimension out of range (expected to be in range of [-2, 1], but got -3)", refused(() -> x.rot90(1, 1, -3)));
    assertEquals("hstack(): hstack expects a non-empty TensorList", refused(() -> Tensor.hstack()));
    assertEquals("columnStack(): column_stack expects a non-empty TensorList", refused(() -> Tensor.columnStack(List.of())));
    assertTrue(refused(() -> Tensor.vstack(v, Tensor.ones(2))).startsWith("vstack(): Sizes of tensors must match except in dimension 0"));
    assertEquals("hsplit(): torch.hsplit requires a tensor with at least 1 dimension, but got a tensor with 0 dimensions!",
        refused(() -> s.hsplit(1)));
    assertEquals("vsplit(): torch.vsplit requires a tensor with at least 2 dimension, but got a tensor with 1 dimensions!",
        refused(() -> v.vsplit(1)));
    assertEquals("dsplit(): torch.dsplit requires a tensor with at least 3 dimension, but got a tensor with 2 dimensions!",
        refused(() -> x.dsplit(1)));
    assertEquals("hsplit(): torch.hsplit attempted to split along dimension 1, but the size of the dimension 3 is not divisible by the split_size 2!",
        refused(() -> x.hsplit(2)));
    assertEquals("vsplit(): torch.vsplit attempted to split along dimension 0, but the size of the dimension 2 is not divisible by the split_size 0!",
        refused(() -> x.vsplit(0)));
    assertEquals("hsplit(): number of sections must be larger than 0, got -3", refused(() -> x.hsplit(-3)));
    assertEquals("hstack(): expected a Tensor, got null", refused(() -> Tensor.hstack(x, null)));
    assertEquals(1, x.hsplit(new long[0]).size());
    assertArrayEquals(new long[] {1}, s.ravel().shape());
  }

  private static String refused(Runnable r) {
    return assertThrows(IllegalArgumentException.class, r::run).getMessage();
  }
}
