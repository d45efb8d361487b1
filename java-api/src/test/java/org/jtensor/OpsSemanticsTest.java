package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jtensor.memory.Memory;
import org.jtensor.ops.ViewOps;
import org.junit.jupiter.api.Test;

/** In-place and out= casting rules, output layouts, META, random ops, dispatch errors. */
class OpsSemanticsTest extends ScopedTest {
  @Test
  void inPlaceAndOutFollowPyTorchCastingRules() {
    Tensor i = Tensor.arange(3);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> i.add_(1.5));
    assertTrue(e.getMessage().contains("can't be cast"), e.getMessage());
    Tensor h = Tensor.ones(new long[] {3}, DType.FLOAT16);
    assertSame(h, h.add_(Tensor.fromArray(new float[] {0.5f, 1, 2})), "in-place returns the same handle");
    assertArrayEquals(new float[] {1.5f, 2, 3}, h.toFloatArray());
    assertEquals(DType.FLOAT16, h.dtype());
    Tensor row = Tensor.zeros(3);
    assertThrows(IllegalArgumentException.class, () -> row.add_(Tensor.zeros(2, 3)), "in-place cannot broadcast self");
    Tensor out = Tensor.empty(new long[] {2, 3}, DType.FLOAT64);
    Tensor a = Tensor.ones(2, 3);
    assertSame(out, a.addOut(Tensor.fromArray(new float[] {1, 2, 3}), out));
    assertArrayEquals(new double[] {2, 3, 4, 2, 3, 4}, out.toDoubleArray());
    int v = out.version();
    a.mulOut(a, out);
    assertTrue(out.version() > v);
    Tensor x = Tensor.arange(0, 10, 1, DType.FLOAT32);
    assertThrows(IllegalArgumentException.class, () -> x.narrow(0, 1, 5).addOut(x.narrow(0, 0, 5), x.narrow(0, 0, 5)),
        "a partially overlapping out is refused");
    assertThrows(IllegalArgumentException.class, () -> Tensor.ones(new long[] {3}, DType.INT32).add(Tensor.arange(3), 0.5));
    assertEquals(DType.FLOAT32, Tensor.ones(new long[] {3}, DType.INT32).add(Tensor.ones(3), 0.5).dtype(), "a float operand allows it");
    assertThrows(IllegalArgumentException.class, () -> Tensor.arange(3).pow(-1L));
    assertThrows(IllegalArgumentException.class, () -> Tensor.ones(2).div(Tensor.ones(2), "round"));
  }

  @Test
  void outputsFollowTheInputsLayout() {
    Tensor t = Tensor.ones(3, 4).t();
    Tensor r = t.exp();
    assertArrayEquals(t.stride(), r.stride(), "a transposed input gives a transposed output");
    Tensor mixed = t.add(Tensor.ones(4, 3));
    assertArrayEquals(new long[] {1, 4}, mixed.stride(), "the first input's order wins a tie");
    assertArrayEquals(new long[] {3, 1}, Tensor.ones(4, 3).add(t).stride());
  }

  @Test
  void largeTransposedOperandsTakeTheBlockedPathCorrectly() {
    // above the 32768-element grain, a transposed input is walked in packed tiles (every element size)
    for (DType dt : new DType[] {DType.FLOAT32, DType.FLOAT64, DType.INT16, DType.INT8}) {
      for (long[] shape : new long[][] {{300, 250}, {3, 130, 97}}) {
        int nd = shape.length;
        long[] rev = shape.clone();
        ViewOps.swap(rev, nd - 1, nd - 2);
        Tensor a = Tensor.randint(-50, 50, shape, dt, new Generator(1));
        Tensor bt = Tensor.randint(-50, 50, rev, dt, new Generator(2)).transpose(-1, -2);
        Tensor sum = a.add(bt);
        double[] av = a.to(DType.FLOAT64).toDoubleArray(), bv = bt.contiguous().to(DType.FLOAT64).toDoubleArray();
        double[] got = sum.to(DType.FLOAT64).toDoubleArray();
        for (int i = 0; i < got.length; i++) {
          double want = ElementwiseReference.narrow((long) (av[i] + bv[i]), dt);
          assertEquals(want, got[i], dt + " " + java.util.Arrays.toString(shape) + " at " + i);
        }
      }
    }
  }

  @Test
  void metaRunsEveryOpWithoutBytes() {
    long before = Memory.memoryAllocated(Device.CPU);
    Tensor a = Tensor.empty(new long[] {8, 1, 5}, DType.FLOAT16, Device.META);
    Tensor b = Tensor.empty(new long[] {3, 5}, DType.FLOAT32, Device.META);
    Tensor s = a.add(b);
    assertArrayEquals(new long[] {8, 3, 5}, s.shape());
    assertEquals(DType.FLOAT32, s.dtype());
    assertEquals(Device.META, s.device());
    assertArrayEquals(new long[] {8, 3}, s.sum(2, false).shape());
    assertEquals(DType.BOOL, s.gt(0.5).dtype());
    assertArrayEquals(new long[] {8, 3, 3}, s.matmul(b.t()).shape());
    assertArrayEquals(new long[] {8, 5}, s.argmax(1, false).shape());
    assertArrayEquals(new long[] {8, 3, 5}, s.softmax(-1).shape());
    assertEquals(DType.INT64, Tensor.empty(new long[] {2}, DType.INT8, Device.META).sum().dtype());
    assertEquals(before, Memory.memoryAllocated(Device.CPU), "META allocates nothing");
    assertThrows(IllegalArgumentException.class, () -> s.add(Tensor.ones(3, 5)), "devices must agree");
  }

  @Test
  void missingKernelsNameOpDeviceAndDtype() {
    UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
        () -> Tensor.ones(new long[] {2}, DType.INT32).gelu());
    assertEquals("gelu has no CPU kernel for int32", e.getMessage());
    // bool - bool is refused in PyTorch's words (a RuntimeError there, not a missing kernel): PromotionHostileTest
    assertThrows(IllegalArgumentException.class, () -> Tensor.ones(new long[] {2}, DType.BOOL).sub(Tensor.ones(2).gt(0L)));
    assertThrows(UnsupportedOperationException.class, () -> Tensor.ones(new long[] {2}, DType.FLOAT32).bitwiseAnd(Tensor.ones(2)));
  }

  @Test
  void randomOpsAreSeededAndThreadCountFree() {
    int threads = Threads.getNumThreads();
    float[] one;
    try {
      Threads.setNumThreads(1);
      one = Tensor.empty(50_000).uniform_(-1, 1, new Generator(9)).toFloatArray();
      Threads.setNumThreads(Math.max(2, threads));
      float[] many = Tensor.empty(50_000).uniform_(-1, 1, new Generator(9)).toFloatArray();
      assertArrayEquals(one, many, "the same draws whatever the thread count");
    } finally {
      Threads.setNumThreads(threads);
    }
    double[] n = Tensor.empty(new long[] {100_000}, DType.FLOAT64).normal_(3, 2, new Generator(1)).toDoubleArray();
    double mean = 0;
    for (double v : n) mean += v;
    mean /= n.length;
    assertEquals(3, mean, 0.03);
    Tensor p = Tensor.full(new long[] {100_000}, 0.25, DType.FLOAT32);
    assertEquals(0.25, p.bernoulli(new Generator(2)).mean().item(), 0.01);
    Tensor d = Tensor.ones(100_000).dropout(0.4, true, new Generator(4));
    assertEquals(1.0, d.mean().item(), 0.02, "kept values are scaled by 1/(1-p)");
    assertEquals(0.4, d.eq(0L).to(DType.FLOAT32).mean().item(), 0.01);
    assertArrayEquals(new float[] {1, 1}, Tensor.ones(2).dropout(0.5, false, new Generator(0)).toFloatArray());
    assertFalse(java.util.Arrays.equals(one, Tensor.empty(50_000).uniform_(-1, 1, new Generator(10)).toFloatArray()));
    assertThrows(IllegalArgumentException.class, () -> Tensor.full(new long[] {1}, 1.5, DType.FLOAT32).bernoulli(new Generator(0)));
  }
}
