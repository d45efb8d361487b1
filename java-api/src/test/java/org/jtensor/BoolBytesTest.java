package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * A bool tensor's bytes: every op writes only 0 and 1 into one, and a bool tensor viewed over
 * other bytes (int8/uint8 .view(bool)) reads every nonzero byte as True, as PyTorch reads it.
 */
class BoolBytesTest extends ScopedTest {
  /** The raw bytes of a bool tensor, through a uint8 view (not normalised by any read). */
  private static long[] rawBytes(Tensor b) {
    return b.view(DType.UINT8).toLongArray();
  }

  private static Tensor bools(boolean... v) {
    return Tensor.fromArray(v, v.length);
  }

  @Test
  void indexAddWithAlphaOnBoolWritesOnlyZeroAndOne() {
    // The route the fuzzer found: source * alpha promoted bool to int64, whose bytes the kernel then
    // read as bool elements (4, 255 ... landed in self). PyTorch: self |= source && alpha != 0.
    Tensor index = Tensor.fromArray(new long[] {0, 2, 2}, 3);
    for (double alpha : new double[] {4, -3, 2, -1}) {
      Tensor self = bools(false, true, false, false);
      self.indexAdd_(0, index, bools(true, true, false), alpha);
      assertArrayEquals(new long[] {1, 1, 1, 0}, rawBytes(self), "indexAdd_ alpha " + alpha);
    }
    Tensor self = bools(false, true, false, false);
    self.indexAdd_(0, index, bools(true, true, false), 0);
    assertArrayEquals(new long[] {0, 1, 0, 0}, rawBytes(self), "alpha 0 adds nothing");

    Tensor rows = Tensor.fromArray(new boolean[] {false, false, false, true, false, false}, 2, 3);
    rows.indexAdd_(1, Tensor.fromArray(new long[] {2, 0}, 2), Tensor.fromArray(new boolean[] {true, false, false, true}, 2, 2), 5);
    assertArrayEquals(new long[] {0, 0, 1, 1, 0, 0}, rawBytes(rows), "along dim 1, strided source");
  }

  @Test
  void boolViewOfOtherBytesReadsNonzeroAsTrue() {
    Tensor b = Tensor.fromArray(new byte[] {0, 1, (byte) 191, 2}, 4).view(DType.BOOL);
    assertArrayEquals(new long[] {0, 1, 191, 2}, rawBytes(b), "the view keeps the bytes, as PyTorch's");
    assertArrayEquals(new long[] {0, 1, 1, 1}, b.toLongArray());
    assertArrayEquals(new double[] {0, 1, 1, 1}, b.toDoubleArray());
    assertArrayEquals(new int[] {0, 1, 1, 1}, b.toIntArray());
    assertArrayEquals(new boolean[] {false, true, true, true}, b.toBooleanArray());
    assertEquals(3, b.sum().item(), "sum counts the True elements");
    assertEquals(DType.BOOL, b.amax().dtype());
    assertEquals(1, b.amax().item(), "amax is True");
    assertEquals(0, b.amin().item(), "amin is False");
    assertEquals(1, b.getDouble(2), "one element reads True");
    assertEquals(1, b.narrow(0, 2, 2).amin().item(), "all True");
    assertEquals(0, b.all().item(), "not all: element 0 is False");
    assertEquals(1, b.any().item());
    assertArrayEquals(new long[] {0, 1, 2, 3}, b.cumsum(0).toLongArray());
    assertArrayEquals(new long[] {1, 2, 3}, b.nonzero().view(-1).toLongArray());
    assertEquals(1, b.argmax().item(), "the first True");

    // ops over it read True and write only 0/1
    Tensor not = b.bitwiseNot(), lnot = b.logicalNot(), and = b.mul(b), or = b.add(b), eq = b.eq(bools(false, true, true, true));
    for (Tensor r : new Tensor[] {not, lnot}) assertArrayEquals(new long[] {1, 0, 0, 0}, rawBytes(r));
    for (Tensor r : new Tensor[] {and, or}) assertArrayEquals(new long[] {0, 1, 1, 1}, rawBytes(r));
    assertArrayEquals(new long[] {1, 1, 1, 1}, rawBytes(eq));
    assertArrayEquals(new long[] {0, 1, 1, 1}, rawBytes(b.to(DType.UINT8)), "to(uint8) converts, 191 -> 1");
    assertArrayEquals(new double[] {20, 10, 10, 10}, Tensor.where(b, Tensor.full(new long[] {4}, 10.0, DType.FLOAT64, Device.CPU), 20).toDoubleArray());
    assertArrayEquals(new long[] {0, 1, 1, 1}, rawBytes(Tensor.where(bools(true, true, true, true), b, bools(false, false, false, false))));
    assertArrayEquals(new long[] {0, 1, 1, 1}, Tensor.zeros(new long[] {4}, DType.BOOL).add_(b).view(DType.UINT8).toLongArray());
    assertArrayEquals(new double[] {3}, b.view(1, 4).to(DType.FLOAT32).matmul(Tensor.ones(4, 1)).view(-1).toDoubleArray());
    assertArrayEquals(new long[] {1}, rawBytes(b.view(1, 4).matmul(b.view(4, 1)).view(-1)), "bool matmul");
  }
}
