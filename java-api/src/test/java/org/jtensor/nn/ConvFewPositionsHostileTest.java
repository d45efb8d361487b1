package org.jtensor.nn;

import static org.jtensor.nn.ConvHostileTest.cat;
import static org.jtensor.nn.ConvHostileTest.conv;
import static org.jtensor.nn.ConvHostileTest.det;
import static org.jtensor.nn.ConvHostileTest.refConv;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.jtensor.Close;
import org.jtensor.CloseRace;
import org.jtensor.DType;
import org.jtensor.RefusedMemory;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.Threads;
import org.jtensor.autograd.Autograd;
import org.junit.jupiter.api.Test;

/**
 * A hostile review of session 35's convolution changes: the few-positions forward (Note [Few
 * positions], taken where the weight is past 1 MB and batch × positions ≤ 2,048) and, since
 * session 36, its input gradient (Note [Few positions, the input's gradient]) at the edges of
 * its rule and of its blocks, at 1, 2, 3 and 7 threads (the same bits: a task owns whole output
 * elements), against float64 loops; its scratch refused by a memory limit; its operands closed from
 * another thread; and the autograd reads of Note [Absent after a close] on non-leaves.
 */
class ConvFewPositionsHostileTest extends ScopedTest {
  private static final DType F32 = DType.FLOAT32, F64 = DType.FLOAT64;
  private static final int[] THREADS = {1, 2, 3, 7};

  /** Conv at every thread count in THREADS: the same bits each time; returns the first. */
  private static double[] sameAtEveryThreadCount(String what, java.util.function.Supplier<Tensor> f) {
    return sameAtThreadCounts(what, THREADS, f);
  }

  private static double[] sameAtThreadCounts(String what, int[] threads, java.util.function.Supplier<Tensor> f) {
    int before = Threads.getNumThreads();
    double[] first = null;
    try {
      for (int n : threads) {
        Threads.setNumThreads(n);
        try (TensorScope s = TensorScope.open()) {
          double[] got = f.get().toDoubleArray();
          if (first == null) first = got;
          else assertArrayEquals(first, got, what + ": " + n + " threads differ from 1");
        }
      }
    } finally {
      Threads.setNumThreads(before);
    }
    return first;
  }

  /** Shapes at the rule's and the blocks' edges, forward and input gradient, each against the float64 loop and the same at every thread count. */
  @Test
  void edgeShapesMatchTheLoopAtEveryThreadCount() {
    // {n, c, o, groups, in (1 or 2), k (as many), stride, pad, dilation}
    long[][] shapes = {
        {1, 256, 256, 1, 7, 7, 3, 3, 1, 1, 1},          // a ResNet last stage at batch 1 (2.4 MB of weight)
        {1, 256, 256, 1, 6, 6, 2, 2, 1, 0, 1},          // weight exactly 1 MB in float32: the packed-whole forward
        {8, 512, 512, 1, 3, 3, 3, 3, 1, 0, 1},          // a 1 x 1 output plane: every tile spans samples
        {1, 1024, 4096, 1024, 9, 9, 9, 9, 1, 4, 1},     // cg = 1, og = 4: a vector's lanes mostly empty
        {2, 128, 130, 2, 6, 5, 7, 7, 1, 3, 1},          // og = 65: four AVX-512 vectors and one channel
        {1, 256, 66, 2, 6, 6, 7, 7, 1, 3, 1},           // og = 33: four AVX2 vectors and one channel
        {1, 8, 64, 1, 16, 16, 23, 23, 1, 11, 1},        // cg x taps past a run: a run is one channel, the kernel larger than a run
        {3, 96, 200, 1, 40, 15, 3, 0, 2},               // 1-D, stride 3, dilation 2
        {2, 64, 512, 2, 9, 8, 5, 5, 2, 1, 2},           // groups, stride 2, dilation 2
    };
    for (DType dt : new DType[] {F32, F64}) {
      for (long[] s : shapes) {
        int nsp = s.length == 9 ? 1 : 2;
        long[] in = Arrays.copyOfRange(s, 4, 4 + nsp), k = Arrays.copyOfRange(s, 4 + nsp, 4 + 2 * nsp);
        long[] stride = new long[nsp], pad = new long[nsp], dil = new long[nsp];
        Arrays.fill(stride, s[4 + 2 * nsp]);
        Arrays.fill(pad, s[5 + 2 * nsp]);
        Arrays.fill(dil, s[6 + 2 * nsp]);
        long groups = s[3];
        long[] fs = stride, fp = pad, fd = dil;
        try (TensorScope scope = TensorScope.open()) {
          Tensor x = det(dt, 1, cat(new long[] {s[0], s[1]}, in)), w = det(dt, 2, cat(new long[] {s[2], s[1] / groups}, k));
          Tensor b = det(dt, 3, s[2]);
          String what = dt + " " + Arrays.toString(s);
          double[] got = sameAtEveryThreadCount(what, () -> conv(nsp, x, w, b, fs, fp, fd, groups));
          double[] want = refConv(x, w, b, fs, fp, fd, groups, null)[0];
          assertEquals(want.length, got.length, what);
          Close.assertElements(what, want, got, Close.ofLargest(dt == F64 ? 1e-12 : 3e-5, want));
          // The input's gradient (Note [Few positions, the input's gradient] where the forward's rule
          // holds), float32 at 1 and 3 threads (one template for both dtypes; the suite's time)
          if (dt == F64) continue;
          Tensor up = det(dt, 4, conv(nsp, x, w, b, fs, fp, fd, groups).shape());
          double[] gotGx = sameAtThreadCounts(what + " input grad", new int[] {1, 3}, () -> {
            Tensor xg = x.detach().requiresGrad_();
            return Autograd.grad(List.of(conv(nsp, xg, w, b, fs, fp, fd, groups)), List.of(up), List.of(xg), false, false, false).get(0);
          });
          double[] wantGx = refConv(x, w, b, fs, fp, fd, groups, up)[1];
          Close.assertElements(what + " input grad", wantGx, gotGx, Close.ofLargest(3e-5, wantGx));
        }
      }
    }
  }

  /** Batch × positions 2,048 (the few-positions forward) and 2,049 (the packed-whole one), and a batch of 0. */
  @Test
  void twoThousandFortyEightPositionsAndOneMore() {
    long[] one = {1}, zero = {0}, four = {4};
    for (long len : new long[] {2048, 2049}) {
      try (TensorScope scope = TensorScope.open()) {
        Tensor x = det(F32, 4, 1, 128, len), w = det(F32, 5, 256, 128, 9), b = det(F32, 6, 256);  // 1.2 MB of weight
        double[] got = sameAtEveryThreadCount(len + " positions", () -> conv(1, x, w, b, one, four, one, 1));
        double[] xv = x.toDoubleArray(), wv = w.toDoubleArray(), bv = b.toDoubleArray();
        for (int i = 0; i < got.length; i += 997) {  // a sample of the elements against the float64 sum
          int u = (int) (i / len), o = (int) (i % len);
          double want = bv[u], mag = Math.abs(bv[u]);
          for (int c = 0; c < 128; c++)
            for (int t = 0; t < 9; t++) {
              int at = o - 4 + t;
              if (at < 0 || at >= len) continue;
              double p = xv[(int) (c * len + at)] * wv[(u * 128 + c) * 9 + t];
              want += p;
              mag += Math.abs(p);
            }
          assertEquals(want, got[i], 1e-6 * mag, len + " positions, element " + i);
        }
      }
    }
    Tensor y = conv(2, Tensor.zeros(0, 256, 7, 7), Tensor.ones(256, 256, 3, 3), null, one.clone(), one.clone(), one.clone(), 1);
    assertArrayEquals(new long[] {0, 256, 7, 7}, y.shape());
  }

  /** NaN and infinities in the input and the weight reach only the outputs whose windows read them, as PyTorch's. */
  @Test
  void nonFiniteValuesStayInTheirWindows() {
    long[] one = {1};
    for (DType dt : new DType[] {F32, F64}) {
      try (TensorScope scope = TensorScope.open()) {
        double[] xv = det(F64, 7, 1, 256, 7, 7).toDoubleArray(), wv = det(F64, 8, 256, 256, 3, 3).toDoubleArray();
        xv[3 * 49 + 2 * 7 + 2] = Double.NaN;       // channel 3, (2, 2)
        xv[9 * 49 + 6 * 7 + 6] = Double.POSITIVE_INFINITY;  // channel 9, (6, 6)
        wv[(17 * 256 + 4) * 9 + 4] = Double.NEGATIVE_INFINITY;  // output 17, input 4, centre tap
        Tensor x = Tensor.fromArray(xv, 1, 256, 7, 7).to(dt), w = Tensor.fromArray(wv, 256, 256, 3, 3).to(dt);
        double[] got = sameAtEveryThreadCount(dt + " non-finite", () -> conv(2, x, w, null, one, one, one, 1));
        double[] want = refConv(x, w, null, one, one, one, 1, null)[0];
        for (int i = 0; i < want.length; i++) {
          boolean finite = Double.isFinite(want[i]);
          assertEquals(finite, Double.isFinite(got[i]), dt + " element " + i + ": want " + want[i] + ", got " + got[i]);
          if (!finite) assertEquals(Double.isNaN(want[i]), Double.isNaN(got[i]), dt + " element " + i);
          else assertEquals(want[i], got[i], dt == F64 ? 1e-9 : 1e-3, dt + " element " + i);
        }
      }
    }
  }

  /**
   * The memory limit at what is reserved and the free space filled, then given back 64 KB at a
   * time: each forward and backward fails with the allocator's exception (the output's allocation
   * or the kernels' scratch refused) or gives the right bits, and nothing is left (ScopedTest).
   */
  @Test
  void aRefusedScratchFailsCleanly() {
    long[] one = {1};
    Tensor x = det(F32, 9, 1, 256, 7, 7), w = det(F32, 10, 256, 256, 3, 3);
    double[][] want = {conv(2, x, w, null, one, one, one, 1).toDoubleArray()};
    RefusedMemory.stepThrough("few-positions convolution", 64 << 10, 3, want, () -> {
      Tensor xg = x.detach().requiresGrad_(), wg = w.detach().requiresGrad_();
      Tensor y = conv(2, xg, wg, null, one, one, one, 1);
      Autograd.grad(List.of(y), List.of(Tensor.ones(y.shape())), List.of(xg, wg), false, false, false);
      return new double[][] {y.toDoubleArray()};
    });
  }

  /** The few-positions forward and its gradients while another thread closes an operand: the right bits or IllegalStateException. */
  @Test
  void closingOperandsDuringTheFewPositionsConvolution() throws Exception {
    long[] one = {1};
    for (int victim = 0; victim < 3; victim++) {
      Tensor x = det(F32, 11, 1, 256, 7, 7).requiresGrad_(), w = det(F32, 12, 256, 256, 3, 3).requiresGrad_(), b = det(F32, 13, 256).requiresGrad_();
      Tensor[] all = {x, w, b};
      double[][] want = forwardAndGrads(all);
      CloseRace.closeDuring(() -> {
        double[][] got = forwardAndGrads(all);
        for (int j = 0; j < got.length; j++) if (!Arrays.equals(want[j], got[j])) throw new AssertionError("result " + j + " differs");
      }, all[victim], 2, 0, 200, 2, "victim " + victim);
    }
  }

  private static double[][] forwardAndGrads(Tensor[] all) {
    long[] one = {1};
    try (TensorScope s = TensorScope.open()) {
      Tensor y = conv(2, all[0], all[1], all[2], one, one, one, 1);
      List<Tensor> g = Autograd.grad(List.of(y), List.of(det(F32, 14, y.shape())), List.of(all), false, false, false);
      return new double[][] {y.toDoubleArray(), g.get(0).toDoubleArray(), g.get(1).toDoubleArray(), g.get(2).toDoubleArray()};
    }
  }

  /**
   * isLeaf, gradFn and gradientEdge on a non-leaf that another thread closes meanwhile: the
   * non-leaf's answer or IllegalStateException. The close releases the metadata in place (its
   * gradFn set to null, the metadata still there), which reads as a leaf with no gradFn.
   */
  @Test
  void aNonLeafClosedWhileAskedIsNeverALeaf() throws InterruptedException {
    assertNoWrongAnswer("isLeaf", t -> !t.isLeaf());
    assertNoWrongAnswer("gradFn", t -> t.gradFn() != null);
    assertNoWrongAnswer("gradientEdge", t -> !t.gradientEdge().function().getClass().getSimpleName().equals("AccumulateGrad"));
  }

  /** grad() of a leaf with a gradient, closed meanwhile: the gradient (a handle of its own) or IllegalStateException, never null. */
  @Test
  void aLeafClosedWhileItsGradIsReadGivesTheGradOrIsRefused() throws InterruptedException {
    AtomicReference<Tensor> current = new AtomicReference<>();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger nulls = new AtomicInteger(), wrong = new AtomicInteger(), right = new AtomicInteger(), refusals = new AtomicInteger();
    Thread reader = new Thread(() -> {
      while (!stop.get()) {
        Tensor t = current.get();
        if (t == null) continue;
        try (TensorScope s = TensorScope.open()) {
          Tensor g = t.grad();
          if (g == null) nulls.incrementAndGet();
          else (g.toDoubleArray()[0] == 3 ? right : wrong).incrementAndGet();
        } catch (IllegalStateException e) {
          refusals.incrementAndGet();
        }
      }
    });
    reader.start();
    for (int i = 0; i < 20_000; i++) {
      Tensor t = Tensor.zeros(1).requiresGrad_();
      try (TensorScope s = TensorScope.open()) {
        t.mul(3).sum().backward();
      }
      current.set(t);
      for (int k = 0; k < i % 97; k++) Thread.onSpinWait();
      t.close();
    }
    stop.set(true);
    reader.join();
    assertEquals(0, nulls.get() + wrong.get(), nulls + " null, " + wrong + " wrong (" + right + " right, " + refusals + " refused)");
  }

  private static void assertNoWrongAnswer(String what, Predicate<Tensor> rightAnswer) throws InterruptedException {
    AtomicReference<Tensor> current = new AtomicReference<>();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger right = new AtomicInteger(), wrong = new AtomicInteger(), refusals = new AtomicInteger();
    AtomicReference<Throwable> other = new AtomicReference<>();
    Thread reader = new Thread(() -> {
      while (!stop.get()) {
        Tensor t = current.get();
        if (t == null) continue;
        try {
          (rightAnswer.test(t) ? right : wrong).incrementAndGet();
        } catch (IllegalStateException e) {
          refusals.incrementAndGet();
        } catch (Throwable e) {
          other.compareAndSet(null, e);
        }
      }
    });
    reader.start();
    Tensor leaf = Tensor.zeros(1).requiresGrad_();
    for (int i = 0; i < 50_000; i++) {
      Tensor t = leaf.mul(2);
      current.set(t);
      for (int k = 0; k < i % 97; k++) Thread.onSpinWait();
      t.close();
    }
    stop.set(true);
    reader.join();
    leaf.close();
    if (other.get() != null) throw new AssertionError(what, other.get());
    assertEquals(0, wrong.get(), what + " answered as for a leaf on a closed non-leaf (" + right + " right, " + refusals + " refused)");
    assertTrue(right.get() > 0, what + ": " + right + " right, " + refusals + " refused");
  }
}
