package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * DeviceParity, the CUDA tests' judge, on the CPU (CPU against CPU, as in a dry run): a twin keeps
 * sizes, strides, offset and values; a result that differs, or an exception on the second device
 * alone, fails; an exception on both is the CPU's, rethrown; integers must be equal and floats close.
 */
class DeviceParityTest extends ScopedTest {
  private static final DeviceParity TWICE = new DeviceParity(Device.CPU, true);

  @Test
  void aTwinKeepsTheLayoutAndValuesInItsOwnStorage() {
    Tensor base = Tensor.arange(0, 60, 1, DType.INT32).view(3, 4, 5);
    for (Tensor t : new Tensor[] {base.transpose(0, 2), base.select(1, 2).unsqueeze(0).expand(4, 3, 5), base.slice(2, 1, 5, 2),
        Tensor.empty(new long[] {0, 3}, DType.FLOAT16)}) {
      Tensor twin = TWICE.twin(t);
      assertArrayEquals(t.shape(), twin.shape());
      assertArrayEquals(t.stride(), twin.stride());
      assertEquals(t.storageOffset(), twin.storageOffset());
      assertArrayEquals(t.toLongArray(), twin.toLongArray());
      assertTrue(t.numel() == 0 || !twin.isAliasOf(t), "a copy, not a view of the original");
    }
  }

  @Test
  void aDifferentResultOrAnExceptionOnTheSecondRunAloneFails() {
    Tensor x = Tensor.fromArray(new long[] {1, 2, 3});
    AtomicInteger calls = new AtomicInteger();
    assertThrows(AssertionError.class, () -> TWICE.apply("drifting", t -> t[0].add((long) calls.getAndIncrement()), x));
    AtomicInteger runs = new AtomicInteger();
    AssertionError e = assertThrows(AssertionError.class, () -> TWICE.apply("second throws", t -> {
      if (runs.getAndIncrement() == 1) throw new UnsupportedOperationException("cumsum has no CUDA kernel for int64");
      return t[0].cumsum(0);
    }, x));
    assertTrue(e.getMessage().contains("the CPU gave a result"), e.getMessage());
    assertThrows(IndexOutOfBoundsException.class, () -> TWICE.apply("both refuse", t -> t[0].get(Index.at(5)), x));
    assertArrayEquals(new long[] {1, 3, 6}, TWICE.apply("agrees", t -> t[0].cumsum(0), x).toLongArray());
  }

  @Test
  void integersMustBeEqualAndFloatsWithinTheDtypesTolerance() {
    assertThrows(AssertionError.class, () -> DeviceParity.assertAgree("int", Tensor.fromArray(new long[] {1, 2}),
        Tensor.fromArray(new long[] {1, 3})));
    float[] a = {1f, Float.NaN, 100f};
    DeviceParity.assertAgree("float close", Tensor.fromArray(a), Tensor.fromArray(new float[] {1f + 5e-6f, Float.NaN, 100f * (1 + 5e-6f)}));
    assertThrows(AssertionError.class, () -> DeviceParity.assertAgree("float far", Tensor.fromArray(a),
        Tensor.fromArray(new float[] {1.001f, Float.NaN, 100f})));
    assertThrows(AssertionError.class, () -> DeviceParity.assertAgree("dtype", Tensor.fromArray(a), Tensor.fromArray(a).to(DType.FLOAT64)));
    assertEquals(1e-2, DeviceParity.tolerance(DType.BFLOAT16));
  }
}
