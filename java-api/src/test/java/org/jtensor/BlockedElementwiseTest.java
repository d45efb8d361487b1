package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Note [Blocked elementwise loops] walks a transposed operand in packed tiles, but only above
 * the grain size (32768 elements) and with both tile dims at least 16: the small shapes of the
 * property tests never reach it. These shapes do, with partial tiles in both dims, an outer dim,
 * every element size (1, 2, 4 and 8 bytes) and more than one packed operand.
 */
class BlockedElementwiseTest {
  private static final Generator GEN = new Generator(7);

  /** out[x][i][j] = a[x][i][j] + b[x][j][i] against plain loops, for float64 and int64. */
  @Test
  void transposedOperandMatchesPlainLoops() {
    for (DType dt : new DType[] {DType.FLOAT64, DType.INT64}) {
      long X = 3, I = 70, J = 171;  // 35910 elements: past the grain, partial 32-wide tiles
      try (TensorScope s = TensorScope.open()) {
        Tensor a = values(new long[] {X, I, J}, dt);
        Tensor bBase = values(new long[] {X, J, I}, dt);
        Tensor out = a.add(bBase.transpose(1, 2));
        double[] av = a.toDoubleArray(), bv = bBase.toDoubleArray(), got = out.toDoubleArray();
        assertArrayEquals(new long[] {X, I, J}, out.shape());
        for (int x = 0; x < X; x++) {
          for (int i = 0; i < I; i++) {
            for (int j = 0; j < J; j++) {
              double want = av[(int) ((x * I + i) * J + j)] + bv[(int) ((x * J + j) * I + i)];
              assertEquals(want, got[(int) ((x * I + i) * J + j)], 0, dt + " at " + x + "," + i + "," + j);
            }
          }
        }
      }
    }
  }

  /** Every element size, one or both inputs packed, long rows split into several tiles. */
  @Test
  void everyElementSizeMatchesTheContiguousPath() {
    DType[] dtypes = {DType.UINT8, DType.INT16, DType.FLOAT16, DType.BFLOAT16, DType.FLOAT32, DType.INT32,
                      DType.FLOAT64, DType.INT64};
    for (DType dt : dtypes) {
      for (long[] shape : new long[][] {{40, 3000}, {2, 129, 300}}) {
        try (TensorScope s = TensorScope.open()) {
          int n = shape.length;
          long[] flipped = shape.clone();
          flipped[n - 2] = shape[n - 1];
          flipped[n - 1] = shape[n - 2];
          Tensor a = values(shape, dt);
          Tensor b = values(flipped, dt).transpose(n - 2, n - 1);
          Tensor c = values(flipped, dt).transpose(n - 2, n - 1);
          check(dt + " a*b", a.mul(b), a.mul(b.contiguous()));
          check(dt + " b*c, both packed", b.mul(c), b.contiguous().mul(c.contiguous()));
          Tensor cond = b.gt(c);
          check(dt + " where, packed bool condition", Tensor.where(cond, a, b),
              Tensor.where(cond.contiguous(), a, b.contiguous()));
        }
      }
    }
  }

  /** With no memory left for the pack buffers, the tiles are walked unpacked: same result. */
  @Test
  void withoutScratchMemoryTheResultIsTheSame() {
    try (TensorScope s = TensorScope.open()) {
      Tensor a = values(new long[] {40, 3000}, DType.FLOAT32);
      Tensor b = values(new long[] {3000, 40}, DType.FLOAT32).t();
      Tensor want = a.add(b.contiguous());
      Tensor out = Tensor.empty(new long[] {40, 3000}, DType.FLOAT32);
      long ooms = org.jtensor.memory.Memory.memoryStats(Device.CPU).get("num_ooms");
      org.jtensor.memory.Memory.emptyCache(Device.CPU);
      org.jtensor.memory.Memory.setMemoryLimit(Device.CPU, org.jtensor.memory.Memory.memoryReserved(Device.CPU));
      try {
        a.addOut(b, out);
      } finally {
        org.jtensor.memory.Memory.setMemoryLimit(Device.CPU, 0);
      }
      assertTrue(org.jtensor.memory.Memory.memoryStats(Device.CPU).get("num_ooms") > ooms, "the pack buffer was refused");
      check("add without scratch", out, want);
    }
  }

  private static void check(String what, Tensor got, Tensor want) {
    assertArrayEquals(want.shape(), got.shape(), what);
    assertArrayEquals(want.toDoubleArray(), got.toDoubleArray(), 0, what);
  }

  /** Small integers, exact in every dtype and in their products. */
  private static Tensor values(long[] shape, DType dt) {
    try (Tensor r = Tensor.randint(0, 9, shape, GEN)) {
      return r.to(dt);
    }
  }
}
