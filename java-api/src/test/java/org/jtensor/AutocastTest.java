package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.jtensor.nn.Functional;
import org.jtensor.nn.Linear;
import org.jtensor.nn.Reduction;
import org.junit.jupiter.api.Test;

/**
 * Autocast (torch.autocast on the CPU, Note [Autocast]): each op on its table computes in its
 * list's dtype and gives what explicit casts give, bit for bit; gradients flow back through the
 * casts to float32 leaves in float32; float64, integer tensors and ops off the table are left
 * alone; scopes nest, restore, are the thread's own; a dtype other than bfloat16/float16 is refused.
 */
class AutocastTest extends ScopedTest {
  private static final DType BF16 = DType.BFLOAT16;

  private static Tensor randn(long... shape) {
    return Tensor.randn(shape, new Generator(shape.length * 31L + shape[0]));
  }

  private static Tensor on(Tensor t, DType d) {
    return t.to(d);
  }

  /** Each op of the table, called on float32 operands (float32-list ops on bfloat16 ones): the dtype it computed in. */
  private static Map<String, Supplier<Tensor>> calls() {
    Tensor a = randn(4, 8), w = randn(6, 8), b = randn(6), s3 = randn(2, 4, 8), s3t = randn(2, 8, 5), c3 = randn(2, 4, 5);
    Tensor img = randn(1, 2, 6, 6), k2 = randn(3, 2, 3, 3), img1 = randn(1, 2, 6), k1 = randn(3, 2, 3), img3 = randn(1, 2, 4, 4, 4);
    Tensor k3 = randn(3, 2, 2, 2, 2), q = randn(1, 2, 4, 8);
    Tensor hb = on(a, BF16), probs = on(a.sigmoid(), BF16);
    Tensor target = Tensor.fromArray(new long[] {0, 1, 2, 3});
    long[] one1 = {1}, zero1 = {0}, one2 = {1, 1}, zero2 = {0, 0}, one3 = {1, 1, 1}, zero3 = {0, 0, 0};
    Map<String, Supplier<Tensor>> m = new TreeMap<>();
    m.put("matmul", () -> a.matmul(w.t()));
    m.put("mm", () -> a.mm(w.t()));
    m.put("bmm", () -> s3.bmm(s3t));
    m.put("addmm", () -> b.addmm(a, w.t()));
    m.put("baddbmm", () -> c3.baddbmm(s3, s3t));
    m.put("linear", () -> Functional.linear(a, w, b));
    m.put("conv1d", () -> Functional.conv1d(img1, k1, null, one1, zero1, one1, 1));
    m.put("conv2d", () -> Functional.conv2d(img, k2, null, one2, zero2, one2, 1));
    m.put("conv3d", () -> Functional.conv3d(img3, k3, null, one3, zero3, one3, 1));
    m.put("convTranspose1d", () -> Functional.convTranspose1d(img1, k1.transpose(0, 1), null, one1, zero1, zero1, 1, one1));
    m.put("convTranspose2d", () -> Functional.convTranspose2d(img, k2.transpose(0, 1), null, one2, zero2, zero2, 1, one2));
    m.put("convTranspose3d", () -> Functional.convTranspose3d(img3, k3.transpose(0, 1), null, one3, zero3, zero3, 1, one3));
    m.put("scaledDotProductAttention", () -> Functional.scaledDotProductAttention(q, q, q, null, 0, true));
    m.put("prod", () -> hb.prod());
    m.put("crossEntropy", () -> Functional.crossEntropy(hb, target));
    m.put("nllLoss", () -> Functional.nllLoss(hb, target));
    m.put("mseLoss", () -> Functional.mseLoss(hb, hb));
    m.put("l1Loss", () -> Functional.l1Loss(hb, hb, Reduction.MEAN));
    m.put("smoothL1Loss", () -> Functional.smoothL1Loss(hb, hb, Reduction.MEAN, 1.0));
    m.put("huberLoss", () -> Functional.huberLoss(hb, hb, Reduction.MEAN, 1.0));
    m.put("klDiv", () -> Functional.klDiv(hb, probs, Reduction.MEAN, true, false));
    m.put("binaryCrossEntropy", () -> Functional.binaryCrossEntropy(probs, probs, Reduction.MEAN));
    m.put("binaryCrossEntropyWithLogits", () -> Functional.binaryCrossEntropyWithLogits(hb, probs, Reduction.MEAN));
    return m;
  }

  @Test
  void everyOpOnTheTableComputesInItsListsDtype() {
    Map<String, Supplier<Tensor>> calls = calls();
    TreeSet<String> table = new TreeSet<>(Autocast.lowerPrecisionOps());
    table.addAll(Autocast.float32Ops());
    assertEquals(table, calls.keySet(), "the test calls exactly the ops on the autocast table");
    for (DType low : List.of(DType.BFLOAT16, DType.FLOAT16)) {
      try (Autocast ac = Autocast.enable(Device.CPU, low)) {
        for (var e : calls.entrySet()) {
          DType want = Autocast.lowerPrecisionOps().contains(e.getKey()) ? low : DType.FLOAT32;
          assertEquals(want, e.getValue().get().dtype(), e.getKey() + " under autocast " + low);
        }
      }
    }
    // outside a scope nothing is cast: the lower-precision ops stay float32, the float32 ones bfloat16
    for (var e : calls.entrySet()) {
      DType want = Autocast.lowerPrecisionOps().contains(e.getKey()) ? DType.FLOAT32 : BF16;
      assertEquals(want, e.getValue().get().dtype(), e.getKey() + " without autocast");
    }
  }

  @Test
  void resultsEqualExplicitCasts() {
    Tensor x = randn(5, 8), w = randn(6, 8), b = randn(6), img = randn(2, 3, 7, 7), k = randn(4, 3, 3, 3), q = randn(1, 2, 5, 8);
    long[] one = {1, 1}, pad = {1, 1};
    Tensor[] got;
    try (Autocast ac = Autocast.enable(Device.CPU, BF16)) {
      got = new Tensor[] {Functional.linear(x, w, b), x.matmul(w.t()), Functional.conv2d(img, k, b.narrow(0, 0, 4), one, pad, one, 1),
          Functional.scaledDotProductAttention(q, q, q, null, 0, true), Tensor.einsum("ij,kj->ik", x, w)};
    }
    Tensor xb = x.to(BF16), wb = w.to(BF16), bb = b.to(BF16), qb = q.to(BF16);
    Tensor[] want = {Functional.linear(xb, wb, bb), xb.matmul(wb.t()), Functional.conv2d(img.to(BF16), k.to(BF16), bb.narrow(0, 0, 4), one,
        pad, one, 1), Functional.scaledDotProductAttention(qb, qb, qb, null, 0, true), Tensor.einsum("ij,kj->ik", xb, wb)};
    for (int i = 0; i < want.length; i++) {
      assertEquals(BF16, got[i].dtype(), "result " + i);
      assertArrayEquals(want[i].toDoubleArray(), got[i].toDoubleArray(), 0, "result " + i + " against explicit casts");
    }
  }

  @Test
  void gradientsReachFloat32LeavesInFloat32() {
    Tensor x = randn(8, 16).requiresGrad_(true);
    Tensor target = Tensor.fromArray(new long[] {0, 1, 2, 3, 0, 1, 2, 3});
    try (Linear l1 = new Linear(16, 12, true, new Generator(1)); Linear l2 = new Linear(12, 4, true, new Generator(2))) {
      Tensor loss;
      try (Autocast ac = Autocast.enable(Device.CPU, BF16)) {
        Tensor h = l1.forward(x).relu();
        assertEquals(BF16, h.dtype());
        loss = Functional.crossEntropy(l2.forward(h), target);
      }
      assertEquals(DType.FLOAT32, loss.dtype(), "crossEntropy is on the float32 list");
      loss.backward();
      List<Tensor> params = List.of(l1.weight(), l1.bias(), l2.weight(), l2.bias(), x);
      double[][] grads = new double[params.size()][];
      for (int i = 0; i < params.size(); i++) {
        assertEquals(DType.FLOAT32, params.get(i).grad().dtype(), "leaf " + i + "'s gradient");
        grads[i] = params.get(i).grad().toDoubleArray();
        params.get(i).grad().zero_();
      }
      // the same graph with the casts written out
      Tensor h = Functional.linear(x.to(BF16), l1.weight().to(BF16), l1.bias().to(BF16)).relu();
      Functional.crossEntropy(Functional.linear(h, l2.weight().to(BF16), l2.bias().to(BF16)).to(DType.FLOAT32), target).backward();
      for (int i = 0; i < params.size(); i++) {
        assertArrayEquals(params.get(i).grad().toDoubleArray(), grads[i], 0, "leaf " + i + "'s gradient against explicit casts");
      }
    }
  }

  @Test
  void float64IntegersAndOpsOffTheTableAreLeftAlone() {
    Tensor d = randn(3, 4).to(DType.FLOAT64), i = Tensor.arange(12).reshape(3, 4), f = randn(3, 4), h = f.to(BF16);
    try (Autocast ac = Autocast.enable(Device.CPU, BF16)) {
      assertEquals(DType.FLOAT64, d.matmul(d.t()).dtype(), "float64 is never cast");
      assertEquals(DType.INT64, i.matmul(i.t()).dtype(), "integers are never cast");
      assertEquals(DType.FLOAT32, f.get(Index.at(0)).dot(f.get(Index.at(1))).dtype(), "dot is on neither list");
      assertEquals(DType.FLOAT32, f.exp().dtype());
      assertEquals(BF16, h.softmax(1).dtype(), "softmax is on neither CPU list");
      assertEquals(DType.FLOAT32, f.add(h).dtype(), "two floating inputs promote to the widest");
      assertEquals(DType.FLOAT32, Tensor.cat(List.of(f, h), 0).dtype(), "cat promotes to the widest");
    }
  }

  @Test
  void scopesNestRestoreAndMayDisable() {
    Tensor a = randn(3, 4);
    assertFalse(Autocast.isEnabled(Device.CPU));
    assertEquals(BF16, Autocast.dtype(Device.CPU), "torch.get_autocast_dtype('cpu') by default");
    try (Autocast outer = Autocast.enable(Device.CPU, BF16)) {
      assertEquals(BF16, a.mm(a.t()).dtype());
      try (Autocast off = Autocast.disable(Device.CPU)) {
        assertFalse(Autocast.isEnabled(Device.CPU));
        assertEquals(DType.FLOAT32, a.mm(a.t()).dtype(), "enabled=False inside an autocast scope");
        try (Autocast half = Autocast.enable(Device.CPU, DType.FLOAT16)) {
          assertEquals(DType.FLOAT16, a.mm(a.t()).dtype());
        }
        assertFalse(Autocast.isEnabled(Device.CPU));
      }
      assertTrue(Autocast.isEnabled(Device.CPU));
      assertEquals(BF16, Autocast.dtype(Device.CPU));
      assertEquals(BF16, a.mm(a.t()).dtype());
      outer.close();
      outer.close();  // a second close does nothing
      assertFalse(Autocast.isEnabled(Device.CPU));
    }
    assertFalse(Autocast.isEnabled(Device.CPU), "restored after the scopes");
    assertFalse(Autocast.isEnabled(Device.cuda(0)), "each device type has its own state");
  }

  @Test
  void restoredWhenTheBlockThrows() {
    Tensor a = randn(3, 4), b = randn(5, 6);
    assertThrows(IllegalArgumentException.class, () -> {
      try (Autocast ac = Autocast.enable(Device.CPU, BF16)) {
        a.mm(b);
      }
    });
    assertFalse(Autocast.isEnabled(Device.CPU));
  }

  @Test
  void theStateIsTheThreadsOwn() throws Exception {
    AtomicReference<Object> seen = new AtomicReference<>();
    try (Autocast ac = Autocast.enable(Device.CPU, BF16)) {
      Thread t = new Thread(() -> {
        try (TensorScope s = TensorScope.open()) {
          Tensor a = randn(2, 3);
          seen.set(Autocast.isEnabled(Device.CPU) + " " + a.mm(a.t()).dtype());
        } catch (Throwable e) {
          seen.set(e);
        }
      });
      t.start();
      t.join();
      assertEquals("false float32", String.valueOf(seen.get()));
      Thread closer = new Thread(() -> {
        try {
          ac.close();
          seen.set("closed");
        } catch (IllegalStateException e) {
          seen.set(e.getMessage());
        }
      });
      closer.start();
      closer.join();
      assertTrue(String.valueOf(seen.get()).contains("belongs to thread"), String.valueOf(seen.get()));
      assertTrue(Autocast.isEnabled(Device.CPU), "another thread cannot close this thread's scope");
    }
  }

  @Test
  void aDtypeOtherThanBfloat16OrFloat16IsRefused() {
    for (DType d : List.of(DType.FLOAT32, DType.FLOAT64, DType.INT64, DType.INT32, DType.BOOL)) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Autocast.enable(Device.CPU, d));
      assertEquals("Autocast.enable(): dtype must be a lower-precision floating dtype (bfloat16 or float16), got " + d, e.getMessage());
    }
    assertThrows(IllegalArgumentException.class, () -> Autocast.enable(Device.CPU, null));
    assertThrows(IllegalArgumentException.class, () -> Autocast.enable(null, BF16));
    assertThrows(IllegalArgumentException.class, () -> Autocast.enable(Device.META, BF16));
    assertFalse(Autocast.isEnabled(Device.CPU), "a refused scope changes nothing");
  }
}
