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
 * diag, diagEmbed, diagflat, trace, Tensor.trilIndices/triuIndices and Tensor.meshgrid against
 * PyTorch 2.13 (resources/shapes/diag.pt from make_fixtures.py): values, dtypes and gradients;
 * meshgrid's views; gradchecks; PyTorch's refusals.
 */
class DiagonalOpsTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture f = new PtFixture("/shapes/diag.pt");

  private static List<Tensor> apply(String op, long[] a, List<Tensor> xs) {
    Tensor[] all = xs.toArray(new Tensor[0]);
    DType indexType = a.length == 4 ? DType.INT32 : DType.INT64;
    switch (op) {
      case "diag": return List.of(all[0].diag(a[0]));
      case "diagEmbed": return List.of(all[0].diagEmbed(a[0], (int) a[1], (int) a[2]));
      case "diagflat": return List.of(all[0].diagflat(a[0]));
      case "trace": return List.of(all[0].trace());
      case "trilIndices": return List.of(Tensor.trilIndices(a[0], a[1], a[2], indexType));
      case "triuIndices": return List.of(Tensor.triuIndices(a[0], a[1], a[2], indexType));
      case "meshgridIJ": return Tensor.meshgrid("ij", all);
      case "meshgridXY": return Tensor.meshgrid("xy", all);
      default: throw new AssertionError(op);
    }
  }

  @Test
  void everyCaseMatchesPyTorchWithItsGradient() {
    assertEquals(55, FixtureCases.run(f, DiagonalOpsTest::apply));
  }

  @Test
  void viewsAndCopies() {
    Tensor m = Tensor.arange(9).reshape(3, 3).to(DType.FLOAT32), v = Tensor.arange(3).to(DType.FLOAT32);
    assertFalse(m.diag().isAliasOf(m), "a matrix's diag is a copy, as PyTorch's");
    assertFalse(v.diag().isAliasOf(v));
    for (Tensor g : Tensor.meshgrid("xy", v, m.select(0, 1))) assertTrue(g.isAliasOf(v) || g.isAliasOf(m), "meshgrid's grids are views");
    assertEquals(1, Tensor.meshgrid("xy", v).size());
    assertArrayEquals(new long[] {2, 0}, Tensor.trilIndices(Long.MAX_VALUE, 4, Long.MIN_VALUE).shape(), "no row holds an element: none walked");
    assertArrayEquals(new long[] {2, 0}, Tensor.triuIndices(Long.MAX_VALUE, 4, Long.MAX_VALUE).shape());
    assertArrayEquals(new long[] {2, 0}, Tensor.trilIndices(Long.MAX_VALUE, 0, 0).shape());
  }

  @Test
  void gradchecks() {
    Tensor v = Tensor.randn(new long[] {2, 3}, DType.FLOAT64, new Generator(431)).requiresGrad_(true);
    Tensor m = Tensor.randn(new long[] {3, 4}, DType.FLOAT64, new Generator(432)).requiresGrad_(true);
    GradCheck.check(in -> in.get(0).diagEmbed(1, 0, 2).mul(in.get(0).diagflat(-1).sum()), List.of(v));
    GradCheck.check(in -> in.get(0).diag(1).diag(-1).add(in.get(0).trace()), List.of(m));
    GradCheck.check(in -> Tensor.meshgrid("xy", in.get(0).flatten(), in.get(1).select(0, 0)).get(0).mul(Tensor.meshgrid("ij",
        in.get(0).flatten(), in.get(1).select(0, 1)).get(1).t()), List.of(v, m));
    GradCheck.checkSecondOrder(in -> in.get(0).diagEmbed().pow(2.0).diag(1).diagflat().trace(), List.of(m.select(1, 0)), 7);
  }

  @Test
  void refusalsInPyTorchsWords() {
    Tensor s = Tensor.scalar(1.0), m = Tensor.ones(2, 3), v = Tensor.ones(3);
    assertEquals("diag(): Supports 1D or 2D tensors. Got 0D", refused(s::diag));
    assertEquals("diag(): Supports 1D or 2D tensors. Got 3D", refused(() -> Tensor.ones(1, 1, 1).diag()));
    assertEquals("diagEmbed(): Dimension out of range (expected to be in range of [-1, 0], but got -2)", refused(s::diagEmbed));
    assertEquals("diagEmbed(): diagonal dimensions cannot be identical -3, 0", refused(() -> m.diagEmbed(0, -3, 0)));
    assertEquals("diagEmbed(): Dimension out of range (expected to be in range of [-3, 2], but got 3)", refused(() -> m.diagEmbed(0, 0, 3)));
    assertEquals("diagEmbed(): a side of 3 + |-9223372036854775808| overflows 64 bits", refused(() -> v.diagEmbed(Long.MIN_VALUE, 0, 1)));
    assertEquals("trace(): trace: expected a matrix, but got tensor with dim 1", refused(v::trace));
    assertEquals("trace(): \"trace\" not implemented for 'Bool'",
        assertThrows(UnsupportedOperationException.class, () -> Tensor.ones(new long[] {2, 2}, DType.BOOL).trace()).getMessage());
    assertEquals("trilIndices(): row must be non-negative, got-1", refused(() -> Tensor.trilIndices(-1, 3, 0)));
    assertEquals("triuIndices(): col must be non-negative, got-1", refused(() -> Tensor.triuIndices(3, -1, 0)));
    assertEquals("trilIndices(): \"tril_indices\" not implemented for 'Float'",
        assertThrows(UnsupportedOperationException.class, () -> Tensor.trilIndices(3, 3, 0, DType.FLOAT32)).getMessage());
    assertTrue(refused(() -> Tensor.trilIndices(1L << 20, 1L << 20, 0)).startsWith("trilIndices(): the triangle of a 1048576 x 1048576"));
    assertEquals("meshgrid(): meshgrid expects a non-empty TensorList", refused(() -> Tensor.meshgrid("ij")));
    assertEquals("meshgrid(): meshgrid expects all tensors to have the same dtype",
        refused(() -> Tensor.meshgrid("foo", v, Tensor.arange(2))));
    assertEquals("meshgrid(): torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: foo",
        refused(() -> Tensor.meshgrid("foo", v, m)));
    assertEquals("meshgrid(): torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got a 2-D tensor",
        refused(() -> Tensor.meshgrid("ij", v, m)));
    assertEquals("meshgrid(): expected a Tensor, got null", refused(() -> Tensor.meshgrid("ij", v, null)));
  }

  private static String refused(Runnable r) {
    return assertThrows(IllegalArgumentException.class, r::run).getMessage();
  }
}
