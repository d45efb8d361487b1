package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.jtensor.memory.LeakDetector;
import org.jtensor.memory.Memory;
import org.junit.jupiter.api.Test;

/**
 * Paths that once kept a reference and never gave it back: matrix products, indexAdd_ with
 * alpha, copy_ between strided aliases, ops that failed after they allocated. Every tensor here
 * is closed by try-with-resources, and the allocator must end where it started.
 */
class LeakRegressionTest {
  private static long allocated() {
    return Memory.memoryAllocated(Device.CPU);
  }

  @Test
  void aThousandTrainingLikeStepsEndWhereTheyStarted() {
    long before = allocated(), leaks = LeakDetector.leaksReported();
    Generator g = new Generator(3);
    try (Tensor w = Tensor.randn(new long[] {64, 64}, g); Tensor x = Tensor.randn(new long[] {16, 64}, g);
         Tensor b = Tensor.zeros(64); Tensor v = Tensor.randn(new long[] {64}, g); Tensor wt = w.t();
         Tensor w3 = w.view(4, 16, 64); Tensor w3t = w.view(4, 64, 16); Tensor xt = x.t()) {
      for (int i = 0; i < 1000; i++) {
        try (Tensor h = x.matmul(w); Tensor hb = h.add(b); Tensor a = hb.relu(); Tensor l = Tensor.linear(a, w, b);
             Tensor m = l.mm(wt); Tensor s = w3.bmm(w3t); Tensor d = v.dot(v); Tensor mv = w.matmul(v);
             Tensor am = b.addmm(xt, x)) {
          if (i == 999) assertEquals(8, s.size(0) + d.dim() + mv.dim() + m.dim() + am.dim() - 1);
        }
      }
    }
    System.gc();
    assertEquals(before, allocated(), "every matmul gave its operands' references back");
    assertEquals(leaks, LeakDetector.leaksReported(), "and nothing was left for the leak detector");
  }

  @Test
  void indexAddWithAlphaClosesItsScaledCopy() {
    long before = allocated();
    try (Tensor self = Tensor.zeros(4, 2); Tensor index = Tensor.fromArray(new long[] {3, 0});
         Tensor src = Tensor.ones(2, 2)) {
      for (int i = 0; i < 3; i++) self.indexAdd_(0, index, src, 2.5);
      assertArrayEquals(new float[] {7.5f, 7.5f, 0, 0, 0, 0, 7.5f, 7.5f}, self.toFloatArray());
      try (Tensor ints = Tensor.zeros(new long[] {3}, DType.INT64); Tensor one = Tensor.ones(new long[] {2}, DType.INT64);
           Tensor first = index.narrow(0, 1, 1); Tensor twice = first.expand(2); Tensor oneOne = one.narrow(0, 0, 1)) {
        ints.indexAdd_(0, twice, one, 3);
        assertArrayEquals(new long[] {6, 0, 0}, ints.toLongArray());
        ints.indexAdd_(0, first, oneOne, 0.5);  // an integer self takes alpha truncated, as PyTorch's: 0.5 adds nothing
        ints.indexAdd_(0, first, oneOne, -2.5);
        assertArrayEquals(new long[] {4, 0, 0}, ints.toLongArray());
      }
    }
    assertEquals(before, allocated());
  }

  @Test
  void copyBetweenStridedAliasesStagesThroughATemporaryItFrees() {
    long before = allocated();
    try (Tensor base = Tensor.arange(0, 16, 1, DType.FLOAT32); Tensor v = base.asStrided(new long[] {4, 4}, new long[] {1, 2})) {
      v.copy_(v);  // the same tensor: nothing moves
      try (Tensor t = v.t()) {
        t.copy_(v);  // overlapping, neither dense: staged through a temporary
      }
    }
    try (Tensor base = Tensor.arange(0, 16, 1, DType.FLOAT32); Tensor odd = base.slice(0, 1, 16, 2);
         Tensor even = base.slice(0, 0, 16, 2); Tensor head = base.narrow(0, 0, 4)) {
      odd.copy_(even);
      assertArrayEquals(new float[] {0, 0, 2, 2}, head.toFloatArray());
    }
    assertEquals(before, allocated());
  }

  @Test
  void opsThatFailAfterAllocatingFreeWhatTheyAllocated() {
    long before = allocated();
    try (Tensor x = Tensor.ones(64); Tensor idx = Tensor.fromArray(new long[] {0, 99}); Tensor ints = Tensor.arange(64);
         Tensor zeros = Tensor.zeros(new long[] {64}, DType.INT64); Tensor square = x.view(8, 8)) {
      assertThrows(IndexOutOfBoundsException.class, () -> x.indexSelect(0, idx));
      assertThrows(IndexOutOfBoundsException.class, () -> x.scatter(0, idx, x));
      assertThrows(IllegalArgumentException.class, () -> Tensor.full(new long[] {1 << 16}, 1e9, DType.INT16));
      assertThrows(ArithmeticException.class, () -> ints.remainder(zeros));
      assertThrows(IllegalArgumentException.class, () -> ints.addOut(x, zeros));  // float result into int64 out
      assertThrows(IndexOutOfBoundsException.class, () -> x.get(Index.of(idx)));
      assertThrows(IllegalArgumentException.class, () -> Tensor.cat(java.util.List.of(x, square), 0));
    }
    assertEquals(before, allocated());
  }
}
