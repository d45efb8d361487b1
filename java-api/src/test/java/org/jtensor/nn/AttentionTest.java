package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.jtensor.Close;
import org.jtensor.ops.AttentionOps;
import org.jtensor.Cpu;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Generator;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.jtensor.autograd.GradCheck;
import org.jtensor.memory.Memory;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Fused scaled dot-product attention against an oracle in plain double loops (below) and the
 * reference composition's gradients: masks of every kind and broadcast, causal with L below, at
 * and above S, key/value heads fewer than the query's, sizes across the kernel's blocks, rows
 * with every key masked, empty sequences; dropout's statistics and gradients; gradchecks in
 * float64 of the first and second order; PyTorch's refusals.
 */
class AttentionTest extends ScopedTest {
  /** One case: shapes [b, h, l, e] / [b, hk, s, e] / [b, hk, s, ev] and the options. */
  private record Case(long b, long h, long hk, long l, long s, long e, long ev, boolean causal, String mask) {}

  private static final Case[] CASES = {
      new Case(2, 3, 3, 5, 7, 4, 4, false, "none"),
      new Case(1, 2, 2, 37, 70, 16, 8, true, "none"),      // two query blocks, two key blocks, causal L < S
      new Case(2, 2, 2, 70, 37, 8, 5, true, "none"),       // causal L > S: rows past S see every key
      new Case(1, 4, 2, 33, 65, 8, 8, false, "bool"),       // GQA, a bool mask [l, s]
      new Case(2, 6, 3, 20, 20, 12, 7, true, "additive"),   // GQA, causal and an additive mask [b, 1, l, s]
      new Case(1, 1, 1, 64, 128, 64, 64, false, "bool-rows"),  // rows with every key masked
      new Case(1, 2, 2, 3, 0, 4, 4, false, "none"),        // no keys: zeros
      new Case(1, 2, 2, 0, 5, 4, 4, false, "none"),        // no queries: empty
  };

  @Test
  void forwardMatchesTheOracleInFloat32AndFloat64() {
    Generator g = new Generator(3);
    for (Case c : CASES) {
      for (DType dtype : new DType[] {DType.FLOAT64, DType.FLOAT32}) {
        Tensor q = Tensor.randn(new long[] {c.b, c.h, c.l, c.e}, g).to(dtype);
        Tensor k = Tensor.randn(new long[] {c.b, c.hk, c.s, c.e}, g).to(dtype);
        Tensor v = Tensor.randn(new long[] {c.b, c.hk, c.s, c.ev}, g).to(dtype);
        Tensor mask = mask(c, g, dtype);
        Tensor out = Functional.scaledDotProductAttention(q, k, v, mask, 0, c.causal, null, c.hk != c.h, g);
        assertArrayEquals(new long[] {c.b, c.h, c.l, c.ev}, out.shape(), c.toString());
        assertEquals(dtype, out.dtype());
        double[] want = oracle(c, q, k, v, mask, 1 / Math.sqrt(c.e));
        assertArrayEquals(want, out.toDoubleArray(), dtype == DType.FLOAT64 ? 1e-12 : 2e-5, c + " " + dtype);
      }
    }
  }

  @Test
  void gradientsMatchTheReferenceComposition() {
    Generator g = new Generator(5);
    for (Case c : CASES) {
      Tensor q = Tensor.randn(new long[] {c.b, c.h, c.l, c.e}, g).to(DType.FLOAT64).requiresGrad_();
      Tensor k = Tensor.randn(new long[] {c.b, c.hk, c.s, c.e}, g).to(DType.FLOAT64).requiresGrad_();
      Tensor v = Tensor.randn(new long[] {c.b, c.hk, c.s, c.ev}, g).to(DType.FLOAT64).requiresGrad_();
      Tensor mask = mask(c, g, DType.FLOAT64);
      Tensor up = Tensor.randn(new long[] {c.b, c.h, c.l, c.ev}, g).to(DType.FLOAT64);
      Functional.scaledDotProductAttention(q, k, v, mask, 0, c.causal, null, c.hk != c.h, g).backward(up);
      double[][] fused = {q.grad().toDoubleArray(), k.grad().toDoubleArray(), v.grad().toDoubleArray()};
      for (Tensor t : List.of(q, k, v)) t.setGrad(null);
      Tensor fullMask = mask == null ? null : mask.expand(c.b, c.h, c.l, c.s);
      AttentionOps.reference(q, k, v, fullMask, 1 / Math.sqrt(c.e), c.causal, null).backward(up);
      double[][] ref = {q.grad().toDoubleArray(), k.grad().toDoubleArray(), v.grad().toDoubleArray()};
      for (int i = 0; i < 3; i++) assertArrayEquals(ref[i], fused[i], 1e-10, c + " gradient of input " + i);
    }
  }

  @Test
  void gradcheckFirstAndSecondOrderInFloat64() {
    Generator g = new Generator(7);
    Tensor q = Tensor.randn(new long[] {1, 2, 3, 4}, g).to(DType.FLOAT64).requiresGrad_();
    Tensor k = Tensor.randn(new long[] {1, 1, 5, 4}, g).to(DType.FLOAT64).requiresGrad_();
    Tensor v = Tensor.randn(new long[] {1, 1, 5, 3}, g).to(DType.FLOAT64).requiresGrad_();
    Tensor mask = Tensor.randn(new long[] {3, 5}, g).to(DType.FLOAT64);
    GradCheck.check(in -> Functional.scaledDotProductAttention(in.get(0), in.get(1), in.get(2), mask, 0, true, 0.7, true, g),
        List.of(q, k, v));
    GradCheck.checkSecondOrder(in -> Functional.scaledDotProductAttention(in.get(0), in.get(1), in.get(2), mask, 0, false, null, true, g),
        List.of(q, k, v), 11);
    Generator drops = new Generator(0);  // the same factors at every call: reseeded inside
    GradCheck.check(in -> Functional.scaledDotProductAttention(in.get(0), in.get(1), in.get(2), null, 0.3, false, null, true,
        drops.setSeed(9)), List.of(q, k, v));
  }

  @Test
  void dropoutKeepsOneMinusPOfTheProbabilitiesScaled() {
    // q = 0: every key equally likely; v = identity: out[i][j] is the kept, scaled probability of key j.
    long l = 256, s = 64;
    double p = 0.25;
    Tensor q = Tensor.zeros(1, 1, l, 8), k = Tensor.randn(new long[] {1, 1, s, 8}, new Generator(1));
    Tensor v = Tensor.eye(s).reshape(1, 1, s, s);
    Generator g = new Generator(21);
    double[] out = Functional.scaledDotProductAttention(q, k, v, null, p, false, null, false, g).toDoubleArray();
    long zeros = Arrays.stream(out).filter(x -> x == 0).count();
    double kept = 1.0 / (1 - p) / s;
    for (double x : out) assertTrue(x == 0 || Close.within(x, kept, 1e-6), "a probability neither dropped nor scaled: " + x);
    double fraction = zeros / (double) out.length, sd = Math.sqrt(p * (1 - p) / out.length);
    assertEquals(p, fraction, 5 * sd, "fraction dropped");
    double[] again = Functional.scaledDotProductAttention(q, k, v, null, p, false, null, false, g).toDoubleArray();
    assertTrue(!Arrays.equals(out, again), "a second call draws new factors");
    double[] same = Functional.scaledDotProductAttention(q, k, v, null, p, false, null, false, g.setSeed(21)).toDoubleArray();
    assertArrayEquals(out, same, 0, "the same seed draws the same factors");
    double[] all = Functional.scaledDotProductAttention(q, k, v, null, 1.0, false, null, false, g).toDoubleArray();
    assertTrue(Arrays.stream(all).allMatch(x -> x == 0), "p = 1 drops everything");
  }

  @Test
  void leadingDimsBroadcastAndHalfPrecisionRunsInFloat32() {
    Generator g = new Generator(13);
    Tensor q = Tensor.randn(new long[] {2, 3, 6, 4}, g), k = Tensor.randn(new long[] {1, 3, 9, 4}, g), v = Tensor.randn(new long[] {9, 5}, g);
    Tensor out = Functional.scaledDotProductAttention(q, k, v, null, 0, false);
    assertArrayEquals(new long[] {2, 3, 6, 5}, out.shape());
    Tensor ref = Functional.scaledDotProductAttention(q, k.expand(2, 3, 9, 4).contiguous(), v.expand(2, 3, 9, 5).contiguous(), null, 0, false);
    assertArrayEquals(ref.toDoubleArray(), out.toDoubleArray(), 1e-6);
    Tensor flat = Functional.scaledDotProductAttention(q.select(0, 1).select(0, 2), k.select(0, 0).select(0, 2), v, null, 0, true);
    assertArrayEquals(new long[] {6, 5}, flat.shape());
    Tensor causalRef = Functional.scaledDotProductAttention(q, k.expand(2, 3, 9, 4), v.expand(2, 3, 9, 5), null, 0, true);
    assertArrayEquals(causalRef.select(0, 1).select(0, 2).toDoubleArray(), flat.toDoubleArray(), 1e-6);
    Tensor transposed = Functional.scaledDotProductAttention(q.transpose(2, 3).transpose(2, 3), k, v, null, 0, false);
    assertArrayEquals(out.toDoubleArray(), transposed.toDoubleArray(), 0);
    for (DType half : new DType[] {DType.BFLOAT16, DType.FLOAT16}) {
      Tensor h = Functional.scaledDotProductAttention(q.to(half), k.to(half), v.to(half), null, 0, false);
      assertEquals(half, h.dtype());
      assertArrayEquals(out.toDoubleArray(), h.toDoubleArray(), half == DType.BFLOAT16 ? 0.05 : 0.01);
    }
  }

  @Test
  void everyCpuCapabilityAgreesToRounding() {
    Generator g = new Generator(23);
    Case c = CASES[4];
    Tensor q = Tensor.randn(new long[] {c.b, c.h, c.l, c.e}, g).requiresGrad_(), k = Tensor.randn(new long[] {c.b, c.hk, c.s, c.e}, g);
    Tensor v = Tensor.randn(new long[] {c.b, c.hk, c.s, c.ev}, g).requiresGrad_();
    Tensor mask = mask(c, g, DType.FLOAT32);
    String initial = Cpu.getCpuCapability();
    double[] want = oracle(c, q, k, v, mask, 1 / Math.sqrt(c.e));
    try {
      for (String cap : Cpu.supportedCpuCapabilities()) {
        Cpu.setCpuCapability(cap);
        Tensor out = Functional.scaledDotProductAttention(q, k, v, mask, 0, c.causal, null, true, g);
        assertArrayEquals(want, out.toDoubleArray(), 2e-5, cap);
        out.sum().backward();
        double[] gq = q.grad().toDoubleArray(), gv = v.grad().toDoubleArray();
        q.setGrad(null);
        v.setGrad(null);
        Cpu.setCpuCapability("baseline");
        Functional.scaledDotProductAttention(q, k, v, mask, 0, c.causal, null, true, g).sum().backward();
        assertArrayEquals(q.grad().toDoubleArray(), gq, 1e-5, cap + " query gradient");
        assertArrayEquals(v.grad().toDoubleArray(), gv, 1e-5, cap + " value gradient");
        q.setGrad(null);
        v.setGrad(null);
      }
    } finally {
      Cpu.setCpuCapability(initial);
    }
  }

  @Test
  @Tag("emulation-slow")  // scripts/arm64.sh leaves it out: 0.3 s natively, 37 s under QEMU, and no aarch64 code changes it
  void peakMemoryGrowsWithTheSequenceNotItsSquare() {
    long t = 8192, square = t * t * 4;  // the float32 scores PyTorch's composition would hold
    Generator g = new Generator(19);
    Tensor q = Tensor.randn(new long[] {1, 1, t, 16}, g).requiresGrad_(), k = Tensor.randn(new long[] {1, 1, t, 16}, g).requiresGrad_();
    Tensor v = Tensor.randn(new long[] {1, 1, t, 16}, g).requiresGrad_();
    long before = Memory.memoryAllocated(Device.CPU);
    Memory.resetPeakMemoryStats(Device.CPU);
    Functional.scaledDotProductAttention(q, k, v, null, 0, true).sum().backward();
    long extra = Memory.maxMemoryAllocated(Device.CPU) - before;
    assertTrue(extra < square / 20, "peak extra bytes " + extra + " against a T x T float32 matrix of " + square);
    assertEquals(t * 16, q.grad().numel());
  }

  @Test
  void aMaskThatNeedsAGradientGetsOne() {
    Generator g = new Generator(17);
    Tensor q = Tensor.randn(new long[] {1, 2, 4, 3}, g).to(DType.FLOAT64), k = Tensor.randn(new long[] {1, 2, 5, 3}, g).to(DType.FLOAT64);
    Tensor v = Tensor.randn(new long[] {1, 2, 5, 3}, g).to(DType.FLOAT64);
    Tensor bias = Tensor.randn(new long[] {4, 5}, g).to(DType.FLOAT64).requiresGrad_();
    GradCheck.check(in -> Functional.scaledDotProductAttention(q, k, v, in.get(0), 0, false), List.of(bias));
  }

  @Test
  void badArgumentsAreRefusedWithPyTorchsWords() {
    Tensor q = Tensor.randn(2, 6, 3, 4), k = Tensor.randn(2, 4, 5, 4), v = Tensor.randn(2, 4, 5, 4);
    String m = assertThrows(IllegalArgumentException.class,
        () -> Functional.scaledDotProductAttention(q, k, v, null, 0, false, null, true, new Generator(1))).getMessage();
    assertTrue(m.contains("Number of heads in key and value must divide the number of heads in query"), m);
    m = assertThrows(IllegalArgumentException.class, () -> Functional.scaledDotProductAttention(q, Tensor.randn(2, 3, 5, 4),
        Tensor.randn(2, 3, 5, 4), null, 0, false)).getMessage();
    assertTrue(m.startsWith("scaledDotProductAttention(): The size of tensor a (6) must match the size of tensor b (3)"), m);
    m = assertThrows(IllegalArgumentException.class, () -> Functional.scaledDotProductAttention(q, q, q.to(DType.FLOAT64), null, 0,
        false)).getMessage();
    assertTrue(m.contains("Expected query, key, and value to have the same dtype"), m);
    m = assertThrows(IllegalArgumentException.class, () -> Functional.scaledDotProductAttention(q, Tensor.randn(2, 6, 5, 3),
        Tensor.randn(2, 6, 5, 4), null, 0, false)).getMessage();
    assertTrue(m.contains("same embedding dim"), m);
    m = assertThrows(IllegalArgumentException.class, () -> Functional.scaledDotProductAttention(q, q, Tensor.randn(2, 6, 4, 4), null, 0,
        false)).getMessage();
    assertTrue(m.contains("same sequence length"), m);
    m = assertThrows(IllegalArgumentException.class, () -> Functional.scaledDotProductAttention(q, q, q, Tensor.ones(new long[] {4, 3},
        DType.BOOL), 0, false)).getMessage();
    assertTrue(m.contains("The size of tensor a (4) must match the size of tensor b (3)"), m);
    m = assertThrows(IllegalArgumentException.class, () -> Functional.scaledDotProductAttention(q, q, q, Tensor.ones(new long[] {3, 3},
        DType.INT32), 0, false)).getMessage();
    assertTrue(m.contains("Expected attn_mask dtype to be bool or float or to match query dtype"), m);
    Tensor ints = Tensor.ones(new long[] {2, 3, 4}, DType.INT64);
    m = assertThrows(IllegalArgumentException.class, () -> Functional.scaledDotProductAttention(ints, ints, ints, null, 0, false))
        .getMessage();
    assertTrue(m.contains("floating point"), m);
    m = assertThrows(IllegalArgumentException.class, () -> Functional.scaledDotProductAttention(q, q, q, null, 1.5, false)).getMessage();
    assertTrue(m.contains("dropout probability has to be between 0 and 1, but got 1.5"), m);
    assertThrows(IllegalArgumentException.class, () -> Functional.scaledDotProductAttention(Tensor.randn(4), q, q, null, 0, false));
  }

  // ---- the oracle: plain loops in double over the inputs' values ----

  private static Tensor mask(Case c, Generator g, DType dtype) {
    switch (c.mask) {
      case "bool": return Tensor.rand(new long[] {c.l, c.s}, g).gt(0.3);
      case "additive": return Tensor.randn(new long[] {c.b, 1, c.l, c.s}, g).to(dtype);
      case "bool-rows": {
        Tensor m = Tensor.rand(new long[] {c.l, c.s}, g).gt(0.5);
        m.select(0, 3).fill_(0);  // rows 3 and 40 see no key
        m.select(0, 40).fill_(0);
        return m;
      }
      default: return null;
    }
  }

  private static double[] oracle(Case c, Tensor q, Tensor k, Tensor v, Tensor mask, double scale) {
    double[] qa = q.toDoubleArray(), ka = k.toDoubleArray(), va = v.toDoubleArray();
    double[] ma = mask == null ? null : mask.expand(c.b, c.h, c.l, c.s).contiguous().toDoubleArray();
    boolean additive = mask != null && mask.dtype() != DType.BOOL;
    double[] out = new double[(int) (c.b * c.h * c.l * c.ev)];
    long group = c.h / c.hk;
    double[] w = new double[(int) c.s];
    for (int b = 0; b < c.b; b++) {
      for (int h = 0; h < c.h; h++) {
        long kv = (b * c.hk + h / group) * c.s;
        for (int i = 0; i < c.l; i++) {
          double max = Double.NEGATIVE_INFINITY;
          for (int j = 0; j < c.s; j++) {
            double dot = 0;
            for (int d = 0; d < c.e; d++) dot += qa[(int) (((b * c.h + h) * c.l + i) * c.e + d)] * ka[(int) ((kv + j) * c.e + d)];
            double sc = dot * scale;
            int at = (int) (((b * c.h + h) * c.l + i) * c.s + j);
            if (ma != null) sc = additive ? sc + ma[at] : (ma[at] != 0 ? sc : Double.NEGATIVE_INFINITY);
            if (c.causal && j > i) sc = Double.NEGATIVE_INFINITY;
            w[j] = sc;
            max = Math.max(max, sc);
          }
          double sum = 0;
          for (int j = 0; j < c.s; j++) sum += w[j] = max == Double.NEGATIVE_INFINITY ? 0 : Math.exp(w[j] - max);
          for (int d = 0; d < c.ev; d++) {
            double acc = 0;
            for (int j = 0; j < c.s; j++) acc += w[j] * va[(int) ((kv + j) * c.ev + d)];
            out[(int) (((b * c.h + h) * c.l + i) * c.ev + d)] = sum == 0 ? 0 : acc / sum;
          }
        }
      }
    }
    return out;
  }
}
