package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Advanced indexing and the masked/where family against PyTorch 2.13 (its answers noted beside each case). */
class IndexingHostileTest extends ScopedTest {
  private static final double INF = Double.POSITIVE_INFINITY;

  private static Tensor floats(double... v) {
    return Tensor.fromArray(v).to(DType.FLOAT32);
  }

  private static Tensor bools(boolean... v) {
    return Tensor.fromArray(v);
  }

  /** where's and maskedFill's gradients were g times the mask: an inf in g where the input was not taken gave NaN. */
  @Test
  void whereAndMaskedFillGradientsAreExactZerosWhereNotTaken() {
    Tensor c = bools(true, false);
    Tensor a = floats(0, 1).requiresGrad_(), b = floats(0, 0).requiresGrad_();
    Tensor.where(c, a, b).sqrt().sum().backward();  // torch: a.grad [inf, 0], b.grad [0, inf]
    assertArrayEquals(new double[] {INF, 0}, a.grad().toDoubleArray());
    assertArrayEquals(new double[] {0, INF}, b.grad().toDoubleArray());
    Tensor x = floats(1, 1).requiresGrad_();
    x.maskedFill(c, 0.0).sqrt().sum().backward();  // torch: [0, 0.5]
    assertArrayEquals(new double[] {0, 0.5}, x.grad().toDoubleArray());
    Tensor y = floats(1, 1).requiresGrad_(), v = Tensor.scalar(0.0).to(DType.FLOAT32).requiresGrad_();
    y.maskedFill(c, v).sqrt().sum().backward();  // torch: y.grad [0, 0.5], v.grad inf
    assertArrayEquals(new double[] {0, 0.5}, y.grad().toDoubleArray());
    assertArrayEquals(new double[] {INF}, v.grad().reshape(1).toDoubleArray());
  }

  /** set's gradient for the target was g times (1 - written): an inf in g at an overwritten element gave NaN. */
  @Test
  void setGradientIsAnExactZeroWhereOverwritten() {
    Tensor x = floats(4, 4).requiresGrad_();
    Tensor y = x.mul(1.0);
    y.set(0.0, Index.of(Tensor.fromArray(new long[] {0})));
    y.sqrt().sum().backward();  // torch: x.grad [0, 0.25] (sqrt's gradient at the written 0 is inf)
    assertArrayEquals(new double[] {0, 0.25}, x.grad().toDoubleArray());
    Tensor a = floats(4, 4).requiresGrad_(), v = floats(4).requiresGrad_();
    Tensor b = a.mul(1.0);
    b.set(v, Index.of(Tensor.fromArray(new long[] {0})));
    b.sub(4.0).reciprocal().sum().backward();  // torch: a.grad [0, -inf], v.grad [-inf]
    assertArrayEquals(new double[] {0, -INF}, a.grad().toDoubleArray());
    assertArrayEquals(new double[] {-INF}, v.grad().toDoubleArray());
  }

  /**
   * A 0-dim integer tensor index was an advanced index: beside another one across a slice it moved the
   * index dims to the front (x[i, :, j] came out transposed), and alone it gave a copy, not a view.
   */
  @Test
  void zeroDimIntegerTensorIndexSelectsAsAnInteger() {
    Tensor x = Tensor.arange(18).view(2, 3, 3).to(DType.FLOAT32);
    Tensor i = Tensor.scalar(1L), j = Tensor.fromArray(new long[] {0, 1, 2});
    Tensor r = x.get(Index.of(i), Index.all(), Index.of(j));  // torch: x[1] itself, [[9, 10, 11], ...]
    assertArrayEquals(new double[] {9, 10, 11, 12, 13, 14, 15, 16, 17}, r.reshape(-1).toDoubleArray());
    Tensor y = Tensor.zeros(2, 3, 3);
    y.set(Tensor.arange(9).view(3, 3).to(DType.FLOAT32), Index.of(i), Index.all(), Index.of(j));
    assertArrayEquals(new double[] {0, 1, 2, 3, 4, 5, 6, 7, 8}, y.select(0, 1).reshape(-1).toDoubleArray());
    Tensor v = x.get(Index.of(Tensor.scalar(-1L).to(DType.INT16)));  // torch takes int8/int16 0-dim indices too
    assertTrue(v.isAliasOf(x));
    v.set(100.0, Index.at(0), Index.at(0));
    assertEquals(100.0, x.get(Index.at(1), Index.at(0), Index.at(0)).item());
    IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> x.get(Index.of(Tensor.scalar(2L))));
    assertEquals("get(): index 2 is out of bounds for dimension 0 with size 2", e.getMessage());
  }

  /**
   * An index tensor in the bytes set writes was read again after earlier writes changed it: x[x] = v
   * with x = [1, 0] wrote 7 at x[102], outside the storage. Refused as PyTorch refuses it; an alias
   * too strided to tell apart is read as it was before the call.
   */
  @Test
  void setRefusesAnIndexInTheBytesItWrites() {
    Tensor x = Tensor.fromArray(new long[] {1, 0});
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> x.set(Tensor.fromArray(new long[] {100, 7}), Index.of(x)));  // torch: RuntimeError, nothing written
    assertTrue(e.getMessage().startsWith("set(): unsupported operation: some elements of the input tensor"), e.getMessage());
    assertArrayEquals(new long[] {1, 0}, x.toLongArray());
    Tensor y = Tensor.zeros(new long[] {8}, DType.INT64);
    y.set(1L, Index.at(0));
    // torch reads the index live: IndexError for 100 after writing y[2] = 100; here the index as it was
    y.get(Index.slice(null, null, 2L)).set(Tensor.fromArray(new long[] {100, 7}), Index.of(y.get(Index.slice(0, 4, 2))));
    assertArrayEquals(new long[] {7, 0, 100, 0, 0, 0, 0, 0}, y.toLongArray());
  }

  /** maskedFill read an integral value as a float: -1 into uint8 was refused, where PyTorch wraps it to 255. */
  @Test
  void maskedFillTakesAnIntegralValueAsAPythonInt() {
    Tensor m = bools(true, false, true);
    Tensor u = Tensor.zeros(new long[] {3}, DType.UINT8);
    assertArrayEquals(new long[] {255, 0, 255}, u.maskedFill(m, -1).to(DType.INT64).toLongArray());  // torch: [255, 0, 255]
    assertArrayEquals(new long[] {255, 0, 255}, u.maskedFill_(m, -1).to(DType.INT64).toLongArray());
    assertThrows(IllegalArgumentException.class, () -> Tensor.zeros(new long[] {3}, DType.INT8).maskedFill(m, -128.5));  // torch: overflow
  }

  /**
   * Not indexing: FuzzTest met it once the fixes above moved its stream. std of equal huge values
   * squared the mean's rounding error (about 1e283) into inf.
   */
  @Test
  void stdOfEqualHugeValuesIsZero() {
    Tensor x = Tensor.full(new long[] {3}, 3.80952380952381E299, DType.FLOAT64);
    assertEquals(0.0, x.std().item());  // torch: 0 (std, var, and along dim 0)
    assertEquals(0.0, x.var().item());
    assertEquals(0.0, x.std(0).item());
  }

  /** set refused a value with leading size-1 dims (x[0] = tensor([5.])), which Python's x[...] = v drops first. */
  @Test
  void setDropsTheValuesLeadingSizeOneDims() {
    Tensor x = Tensor.zeros(3);
    x.set(Tensor.fromArray(new double[] {5}).to(DType.FLOAT32), Index.at(0));  // torch: [5, 0, 0]
    x.set(Tensor.ones(1, 1, 2), Index.of(Tensor.fromArray(new long[] {1, 2})));  // torch: [5, 1, 1]
    assertArrayEquals(new double[] {5, 1, 1}, x.toDoubleArray());
    Tensor m = Tensor.zeros(2, 3);
    m.set(Tensor.ones(1, 2), Index.all(), Index.at(0));  // torch: column 0 set
    assertArrayEquals(new double[] {1, 0, 0, 1, 0, 0}, m.reshape(-1).toDoubleArray());
    assertThrows(IllegalArgumentException.class, () -> m.set(Tensor.ones(2, 1), Index.all(), Index.at(0)));  // torch: refused
    Tensor v = Tensor.ones(1, 1, 2).requiresGrad_();
    Tensor y = Tensor.zeros(4).mul(1.0);
    y.set(v, Index.of(Tensor.fromArray(new long[] {0, 2})));
    y.mul(Tensor.arange(4).to(DType.FLOAT32)).sum().backward();  // torch: v.grad [[[0, 2]]]
    assertArrayEquals(new long[] {1, 1, 2}, v.grad().shape());
    assertArrayEquals(new double[] {0, 2}, v.grad().reshape(-1).toDoubleArray());
  }

  /** PyTorch's IndexError words for get and set, the dimension counted as PyTorch counts it (None and selected dims included). */
  @Test
  void outOfRangeAndUnbroadcastableIndicesAreRefusedInPyTorchsWordsNamingGetOrSet() {
    Tensor x = Tensor.zeros(3, 4);
    String[][] cases = {  // what, PyTorch 2.13's message
        {"x[5]", "get(): index 5 is out of bounds for dimension 0 with size 3"},
        {"x[None, 0, 5]", "get(): index 5 is out of bounds for dimension 2 with size 4"},
        {"x[..., 7]", "get(): index 7 is out of bounds for dimension 1 with size 4"},
        {"x[tensor(0), 5]", "get(): index 5 is out of bounds for dimension 1 with size 4"},
        {"x[[0, 1], [0, 1, 2]]", "get(): shape mismatch: indexing tensors could not be broadcast together with shapes [2], [3]"},
        {"x[5] = 1", "set(): index 5 is out of bounds for dimension 0 with size 3"}};
    java.util.List<org.junit.jupiter.api.function.Executable> calls = java.util.List.of(
        () -> x.get(Index.at(5)),
        () -> x.get(Index.none(), Index.at(0), Index.at(5)),
        () -> x.get(Index.ellipsis(), Index.at(7)),
        () -> x.get(Index.of(Tensor.scalar(0L)), Index.at(5)),
        () -> x.get(Index.of(Tensor.arange(2)), Index.of(Tensor.arange(3))),
        () -> x.set(Tensor.scalar(1.0), Index.at(5)));
    for (int i = 0; i < cases.length; i++) {
      String m = assertThrows(IndexOutOfBoundsException.class, calls.get(i), cases[i][0]).getMessage();
      assertEquals(cases[i][1], m, cases[i][0]);
    }
    assertEquals(0.0, x.sum().item(), "nothing written");
  }
}
