package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jtensor.autograd.GradMode;
import org.junit.jupiter.api.Test;

/**
 * Corners where jtensor did what PyTorch does not (issue 22 points 9 and 10); each expectation is
 * PyTorch 2.13's answer to the same call, noted beside it.
 */
class PyTorchEdgeParityTest extends ScopedTest {

  /** torch.tensor([5, -3], dtype=torch.int8) % 2**40 raises ZeroDivisionError: the scalar is read as an int8, 0. */
  @Test
  void anIntegerScalarDivisorIsCheckedAsTheDtypeReadsIt() {
    Tensor i8 = Tensor.fromArray(new byte[] {5, -3});
    for (long divisor : new long[] {1L << 40, 256, -256, 1L << 8 | 1L << 32}) {
      assertThrows(ArithmeticException.class, () -> i8.remainder(divisor), "remainder by " + divisor);
      assertThrows(ArithmeticException.class, () -> i8.floorDivide(divisor), "floorDivide by " + divisor);
    }
    Tensor i16 = Tensor.fromArray(new short[] {7});
    assertThrows(ArithmeticException.class, () -> i16.remainder(1L << 16));
    Tensor i32 = Tensor.fromArray(new int[] {7});
    assertThrows(ArithmeticException.class, () -> i32.remainder(1L << 32));
    // 300 wraps to 44 in int8, as PyTorch reads it: -3 % 44 = 41
    assertArrayEquals(new long[] {5, 41}, i8.remainder(300L).to(DType.INT64).toLongArray());
    assertEquals(0L, i16.remainder(65537L).to(DType.INT64).toLongArray()[0]);  // 65537 reads as 1 in int16
  }

  /** base[:2] made before base[2:].copy_(w * 2) gave base a history: PyTorch regenerates the sibling's (AsStridedBackward0). */
  @Test
  void aSiblingViewRequiresGradOnceAnotherViewsInPlaceOpGaveTheBaseAHistory() {
    Tensor base = Tensor.zeros(4);
    Tensor v1 = base.narrow(0, 0, 2), v2 = base.narrow(0, 2, 2);
    Tensor nested = v1.narrow(0, 0, 1);
    Tensor w = Tensor.ones(2).requiresGrad_(true);
    assertFalse(v1.requiresGrad());
    v2.copy_(w.mul(2.0));
    assertTrue(base.requiresGrad());
    assertTrue(v1.requiresGrad(), "the sibling made before");
    assertTrue(nested.requiresGrad(), "a view of the sibling");
    assertFalse(v1.isLeaf());
    assertNotNull(v1.gradFn());
    assertTrue(v1.toString().contains("grad_fn=<AsStridedBackward0>"), v1.toString());
    v1.sum().add(v2.sum().mul(3.0)).backward();
    assertArrayEquals(new float[] {6, 6}, w.grad().toFloatArray());  // v1 holds zeros: only v2's path reaches w
  }

  /**
   * with torch.no_grad(): v = base[:2] after the base has a history: v takes none (grad_fn None), yet it requires grad
   * through its base (PyTorch 2.13: True), and an in-place op on it with grad mode on is refused (ViewInplaceHostileTest).
   */
  @Test
  void aViewMadeWithGradModeOffTakesNoHistory() {
    Tensor base = Tensor.zeros(4);
    Tensor w = Tensor.ones(2).requiresGrad_(true);
    base.narrow(0, 2, 2).copy_(w);
    Tensor v;
    try (var g = GradMode.noGrad()) {
      v = base.narrow(0, 0, 2);
    }
    assertTrue(v.requiresGrad());
    assertNull(v.gradFn());
  }

  /** fromArray(data) is 1-D; fromArray(data, new long[0]) is 0-dim, as torch.tensor(3.) (issue 22 point 10). */
  @Test
  void anEmptyShapeIsZeroDimAndNoShapeIsOneDim() {
    assertArrayEquals(new long[0], Tensor.fromArray(new float[] {3}, new long[0]).shape());
    assertEquals(3.0, Tensor.fromArray(new double[] {3}, new long[0]).item());
    assertArrayEquals(new long[] {1}, Tensor.fromArray(new float[] {3}).shape());
    assertArrayEquals(new long[] {2}, Tensor.fromArray(new long[] {3, 4}).shape());
    assertArrayEquals(new long[0], Tensor.fromArray(new boolean[] {true}, new long[0]).shape());
    assertArrayEquals(new long[0], Tensor.fromArray(new int[] {7}, new long[0]).shape());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Tensor.fromArray(new float[] {1, 2}, new long[0]));
    assertTrue(e.getMessage().startsWith("fromArray(): "), e.getMessage());
  }

  /** x.to(torch.float64) on a float32 leaf: grad_fn=<ToCopyBackward0>, and the gradient comes back as float32. */
  @Test
  void aDtypeConversionIsToCopyBackward0() {
    Tensor x = Tensor.ones(2).requiresGrad_(true);
    Tensor y = x.to(DType.FLOAT64);
    assertEquals("ToCopyBackward0", y.gradFn().name());
    y.mul(3.0).sum().backward();
    assertEquals(DType.FLOAT32, x.grad().dtype());
    assertArrayEquals(new float[] {3, 3}, x.grad().toFloatArray());
  }

  /** torch.tensor(3.).flatten(0, 1) raises IndexError (dims of a 0-dim tensor are in [-1, 0]); flatten(0, 0) is [1]. Found by the strict fuzzer. */
  @Test
  void aZeroDimFlattenChecksItsDims() {
    Tensor s = Tensor.scalar(3.0);
    assertArrayEquals(new long[] {1}, s.flatten(0, 0).shape());
    assertArrayEquals(new long[] {1}, s.flatten(-1, -1).shape());
    assertThrows(IllegalArgumentException.class, () -> s.flatten(0, 1));
    assertThrows(IllegalArgumentException.class, () -> s.flatten(2, 5));
  }

  /** x[0] = None raises TypeError in PyTorch; set with a null number was a NullPointerException. Found by the strict fuzzer. */
  @Test
  void aNullNumberIsRefusedByName() {
    Tensor x = Tensor.zeros(3);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> x.set(new Index[] {Index.at(0)}, (Number) null));
    assertEquals("set(): value must be a number or a tensor, not null", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> x.set((Number) null, Index.at(1)));
  }
}
