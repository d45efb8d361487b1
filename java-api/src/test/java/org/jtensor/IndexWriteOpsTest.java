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
 * takeAlongDim, selectScatter, sliceScatter, diagonalScatter, indexFill(_), indexCopy(_), maskedScatter(_) and indexPut(_) against PyTorch 2.13
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
      case "indexFill": return List.of(x.indexFill((int) a[0], y, a[1]));
      case "indexFill_": return List.of(x.clone().indexFill_((int) a[0], y, a[1]));
      case "indexFillT": return List.of(x.indexFill((int) a[0], y, xs.get(2)));
      case "indexFillT_": return List.of(x.clone().indexFill_((int) a[0], y, xs.get(2)));
      case "indexCopy": return List.of(x.indexCopy((int) a[0], y, xs.get(2)));
      case "indexCopy_": return List.of(x.clone().indexCopy_((int) a[0], y, xs.get(2)));
      case "maskedScatter": return List.of(x.maskedScatter(y, xs.get(2)));
      case "maskedScatter_": return List.of(x.clone().maskedScatter_(y, xs.get(2)));
      case "indexPut": return List.of(x.indexPut(middle(xs), xs.get(xs.size() - 1), a[0] == 1));
      case "indexPut_": return List.of(x.clone().indexPut_(middle(xs), xs.get(xs.size() - 1), a[0] == 1));
      default: throw new AssertionError(op);
    }
  }

  @Test
  void everyCaseMatchesPyTorchWithItsGradient() {
    assertEquals(39, FixtureCases.run(f, IndexWriteOpsTest::apply));
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

  @Test
  void indexFillAndIndexCopyRefusals() {
    Tensor x = Tensor.ones(3, 4), at = Tensor.fromArray(new long[] {0, 2}), src = Tensor.ones(3, 2);
    int version = x.version();
    assertEquals("indexFill(): index 4 is out of bounds for dimension 1 with size 4",
        assertThrows(IndexOutOfBoundsException.class, () -> x.indexFill(1, Tensor.fromArray(new long[] {4}), 1.0)).getMessage());
    assertEquals("indexFill_(): index -5 is out of bounds for dimension 1 with size 4",
        assertThrows(IndexOutOfBoundsException.class, () -> x.indexFill_(1, Tensor.fromArray(new long[] {-5}), 1.0)).getMessage());
    assertEquals("indexFill(): index_fill_(): Expected dtype int64 for index.", refused(() -> x.indexFill(1, Tensor.fromArray(new int[] {0}), 1.0)));
    assertEquals("indexFill(): Index has to be a vector/scalar", refused(() -> x.indexFill(1, Tensor.fromArray(new long[] {0}, 1, 1), 1.0)));
    assertEquals("indexFill(): Dimension out of range (expected to be in range of [-2, 1], but got 2)", refused(() -> x.indexFill(2, at, 1.0)));
    assertEquals("indexFill(): index_fill_ only supports a 0-dimensional value tensor, but got tensor with 1 dimension(s).",
        refused(() -> x.indexFill(1, at, Tensor.ones(1))));
    assertEquals("indexCopy(): Number of indices (2) should be equal to source.size(dim) (3)",
        assertThrows(IndexOutOfBoundsException.class, () -> x.indexCopy(1, at, Tensor.ones(3, 3))).getMessage());
    assertEquals("indexCopy(): Source/destination tensor must have same slice shapes. Destination slice shape: 3 at dimension 1 and "
        + "source slice shape: 2 at dimension 0.", refused(() -> x.indexCopy(1, at, Tensor.ones(2, 2))));
    assertEquals("indexCopy_(): index -1 is out of bounds for dimension 1 with size 4", assertThrows(IndexOutOfBoundsException.class,
        () -> x.indexCopy_(1, Tensor.fromArray(new long[] {0, -1}), src)).getMessage());
    assertEquals("indexCopy(): self and source expected to have the same dtype, but got (self) Float and (source) Double",
        refused(() -> x.indexCopy(1, at, src.to(DType.FLOAT64))));
    assertEquals("indexCopy(): Expected a long tensor for index, but got Int", refused(() -> x.indexCopy(1, at.to(DType.INT32), src)));
    assertEquals("indexCopy(): Index should have dimension 1 or 0 (got 2)",
        assertThrows(IndexOutOfBoundsException.class, () -> x.indexCopy(1, at.view(1, 2), src)).getMessage());
    assertEquals("indexCopy(): When source and destination are not scalars, their dimensionality must match. Source dimensionality (1), "
        + "destination dimensionality (2)", assertThrows(IndexOutOfBoundsException.class, () -> x.indexCopy(1, at, Tensor.ones(3))).getMessage());
    assertEquals("indexCopy(): When source is scalar, index should have one element (got 2)",
        assertThrows(IndexOutOfBoundsException.class, () -> x.indexCopy(1, at, Tensor.scalar(1.0))).getMessage());
    assertEquals("indexCopy(): Source/destination tensor must have same slice shapes. Destination slice shape: 2 4 at dimension 1 and "
        + "source slice shape: 2 5 at dimension 0.", refused(() -> Tensor.ones(2, 3, 4).indexCopy(1, at, Tensor.ones(2, 2, 5))));
    assertEquals(1.0, x.amin().item(), "nothing written by a refused indexCopy_ or indexFill_");
    assertEquals(1.0, x.amax().item());
    assertEquals(version, x.version());
  }

  @Test
  void indexFillAndIndexCopyGradchecks() {
    Tensor x = Tensor.randn(new long[] {3, 4}, DType.FLOAT64, new Generator(4303)).requiresGrad_(true);
    Tensor v = Tensor.scalar(0.5, DType.FLOAT64).requiresGrad_(true);
    Tensor s = Tensor.randn(new long[] {3, 2}, DType.FLOAT64, new Generator(4304)).requiresGrad_(true);
    Tensor at = Tensor.fromArray(new long[] {3, 1});
    GradCheck.check(in -> in.get(0).indexFill(1, at, in.get(1)).mul(in.get(0).indexCopy(1, at, in.get(2))), List.of(x, v, s));
    GradCheck.check(in -> in.get(0).mul(2.0).indexFill_(0, Tensor.fromArray(new long[] {-1}), in.get(1)).indexCopy_(1, at, in.get(2)),
        List.of(x, v, s));
  }

  @Test
  void maskedScatterRefusalsAndOverlap() {
    Tensor x = Tensor.zeros(2, 3), six = Tensor.arange(1, 7).to(DType.FLOAT32);
    Tensor m = Tensor.fromArray(new boolean[] {true, false, true, false, true, false}, 2, 3);
    assertEquals("maskedScatter(): Number of elements of source < number of ones in mask", refused(() -> x.maskedScatter(m, six.narrow(0, 0, 2))));
    assertEquals("maskedScatter(): masked_scatter: expected self and source to have same dtypes but gotFloat and Double",
        refused(() -> x.maskedScatter(m, six.to(DType.FLOAT64))));
    assertEquals("maskedScatter(): masked_scatter_ only supports boolean masks, but got mask with dtype Byte",
        refused(() -> x.maskedScatter(m.to(DType.UINT8), six)));
    assertEquals("maskedScatter_(): the number of sizes provided (1) must be greater or equal to the number of dimensions in the tensor (2)",
        refused(() -> Tensor.zeros(3).maskedScatter_(m, six)));
    assertEquals("maskedScatter(): The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 1",
        refused(() -> x.maskedScatter(Tensor.ones(new long[] {2}, DType.BOOL), six)));
    assertEquals(0.0, x.amax().item(), "nothing written");
    Tensor b = Tensor.arange(0, 6, 1, DType.FLOAT32);
    b.narrow(0, 0, 3).maskedScatter_(Tensor.ones(new long[] {3}, DType.BOOL), b.narrow(0, 1, 3));  // read before the write, as torch 2.13
    assertArrayEquals(new float[] {1, 2, 3, 3, 4, 5}, b.toFloatArray());
    assertFalse(x.maskedScatter(m, six).isAliasOf(x));
  }

  @Test
  void maskedScatterGradcheck() {
    Tensor x = Tensor.randn(new long[] {2, 3}, DType.FLOAT64, new Generator(4305)).requiresGrad_(true);
    Tensor s = Tensor.randn(new long[] {7}, DType.FLOAT64, new Generator(4306)).requiresGrad_(true);
    Tensor m = Tensor.fromArray(new boolean[] {true, false, true}, 3);
    GradCheck.check(in -> in.get(0).maskedScatter(m, in.get(1)).mul(in.get(0).mul(1.0).maskedScatter_(m.logicalNot(), in.get(1).flip(0))),
        List.of(x, s));
  }

  /** The index tensors of an indexPut case: every input between self and values. */
  private static Tensor[] middle(List<Tensor> xs) {
    return xs.subList(1, xs.size() - 1).toArray(new Tensor[0]);
  }

  @Test
  void indexPutRefusalsAndKeptBits() {
    Tensor x = Tensor.zeros(3, 4), one = Tensor.scalar(1.0f), i = Tensor.fromArray(new long[] {0, 3});
    assertEquals("indexPut(): Index put requires the source and destination dtypes match, got Float for the destination and Double "
        + "for the source.", refused(() -> x.indexPut(new Tensor[] {i}, Tensor.scalar(1.0, DType.FLOAT64), true)));
    assertEquals("indexPut(): index 3 is out of bounds for dimension 0 with size 3",
        assertThrows(IndexOutOfBoundsException.class, () -> x.indexPut(new Tensor[] {i}, one, true)).getMessage());
    assertEquals("indexPut(): too many indices for tensor of dimension 2 (got 3)", assertThrows(IndexOutOfBoundsException.class,
        () -> x.indexPut(new Tensor[] {i, i, i}, one, true)).getMessage());
    assertEquals("indexPut(): shape mismatch: value tensor of shape [3] cannot be broadcast to indexing result of shape [2, 4]",
        refused(() -> x.indexPut(new Tensor[] {Tensor.fromArray(new long[] {0, 1})}, Tensor.ones(3), true)));
    assertEquals("indexPut(): tensors used as indices must be long, int, byte or bool tensors",
        refused(() -> x.indexPut(new Tensor[] {Tensor.ones(2)}, Tensor.ones(4), true)));
    assertEquals("indexPut(): shape mismatch: indexing tensors could not be broadcast together with shapes [2], [3]",
        assertThrows(IndexOutOfBoundsException.class, () -> x.indexPut(new Tensor[] {Tensor.fromArray(new long[] {0, 1}),
            Tensor.fromArray(new long[] {0, 1, 2})}, one, true)).getMessage());
    assertEquals("indexPut_(): indices must hold at least one tensor", refused(() -> x.indexPut_(new Tensor[0], one, true)));
    Tensor b = Tensor.arange(0, 6, 1, DType.FLOAT32);
    assertEquals("indexPut_(): " + PartialOverlapWritePathsTest.WORDS,
        refused(() -> b.narrow(0, 0, 3).indexPut_(new Tensor[] {Tensor.fromArray(new long[] {0, 1, 2})}, b.narrow(0, 1, 3), true)));
    Tensor z = Tensor.fromArray(new float[] {-0.0f, 1.0f});
    Tensor r = z.indexPut(new Tensor[] {Tensor.fromArray(new long[] {1})}, one, true);
    assertEquals(Float.floatToRawIntBits(-0.0f), Float.floatToRawIntBits(r.toFloatArray()[0]), "untouched -0.0 kept, as PyTorch's");
    assertEquals(2.0f, r.toFloatArray()[1]);
  }

  @Test
  void indexPutGradchecks() {
    Tensor x = Tensor.randn(new long[] {3, 4}, DType.FLOAT64, new Generator(4307)).requiresGrad_(true);
    Tensor v = Tensor.randn(new long[] {3}, DType.FLOAT64, new Generator(4308)).requiresGrad_(true);
    Tensor[] at = {Tensor.fromArray(new long[] {0, 2, 0}), Tensor.fromArray(new long[] {1, 1, 1})};
    Tensor[] distinct = {Tensor.fromArray(new long[] {0, 2, 1}), Tensor.fromArray(new long[] {1, 1, 3})};  // set's gradient is PyTorch's only without repeats
    GradCheck.check(in -> in.get(0).indexPut(at, in.get(1), true).mul(in.get(0).indexPut(distinct, in.get(1).flip(0), false)), List.of(x, v));
    GradCheck.check(in -> in.get(0).mul(1.0).indexPut_(at, in.get(1), true), List.of(x, v));
  }

  private static String refused(Runnable r) {
    return assertThrows(IllegalArgumentException.class, r::run).getMessage();
  }
}
