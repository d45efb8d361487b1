package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jtensor.CudaAccounting;
import org.jtensor.DType;
import org.jtensor.DeviceParity;
import org.jtensor.Generator;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.jtensor.memory.Memory;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * scaledDotProductAttention on cuda:0 against the CPU (tag cuda): CUDA's fused kernels
 * (cuda-kernels/src/attention.cu) for the output and the query's, key's and value's gradients,
 * against the CPU's fused kernels, over every head size the kernels are built for (32, 64, 128 in
 * float32, 32 and 64 in float64) and one above (the reference composition), tiles cut short at
 * both ends, causal with more and fewer keys than queries, bool and additive masks broadcast,
 * rows with every key masked, grouped key/value heads, dropout (the same Philox draw on both
 * devices), half-precision inputs, some gradients wanted and not others, and a decode step of one
 * query. The memory case shows the scores are never stored on the GPU.
 */
@Tag("cuda")
@ExtendWith(CudaAccounting.class)
class CudaAttentionTest extends ScopedTest {
  private static final DeviceParity GPU = CudaAccounting.parity();
  private final List<String> failures = new ArrayList<>();
  private int agreed;

  /** Normal values of shape in dtype from seed (the same on both devices: made on the CPU). */
  private static Tensor normal(long seed, DType dt, long... shape) {
    return Tensor.randn(shape, DType.FLOAT64, new Generator(seed)).to(dt);
  }

  /** The output of f over leaves (detached copies requiring gradients where wants says) and their gradients, flat, for upstream up. */
  private static Tensor withGradients(Function<Tensor[], Tensor> f, Tensor[] in, boolean[] wants, Tensor up) {
    Tensor[] leaves = new Tensor[in.length];
    for (int i = 0; i < in.length; i++) {
      leaves[i] = in[i] == null ? null : in[i].detach();
      if (leaves[i] != null && wants[i]) leaves[i].requiresGrad_();
    }
    Tensor y = f.apply(leaves);
    y.mul(up).sum().backward();
    List<Tensor> parts = new ArrayList<>();
    parts.add(y.detach().reshape(-1).to(DType.FLOAT64));
    for (int i = 0; i < in.length; i++) if (leaves[i] != null && wants[i]) parts.add(leaves[i].grad().reshape(-1).to(DType.FLOAT64));
    return Tensor.cat(parts, 0);
  }

  /** Runs the case on the CPU and on the GPU (its inputs copied there) and compares within the dtype's tolerance. */
  private void check(String what, DType dt, Function<Tensor[], Tensor> f, boolean[] wants, Tensor up, Tensor... in) {
    double tol = dt == DType.FLOAT64 ? 1e-10 : dt == DType.FLOAT32 ? 1e-4 : 2e-2;
    Tensor[] there = new Tensor[in.length];
    for (int i = 0; i < in.length; i++) there[i] = in[i] == null ? null : GPU.twin(in[i]);
    try (Tensor upThere = GPU.twin(up); Tensor want = withGradients(f, in, wants, up);
         Tensor gotThere = withGradients(f, there, wants, upThere); Tensor got = gotThere.cpu()) {
      assertEquals(GPU.device(), gotThere.device(), what + ": device");
      try (Tensor close = want.isclose(got, tol, tol, true); Tensor all = close.all()) {
        if (all.item() != 0) {
          agreed++;
        } else {
          try (Tensor diff = want.sub(got).abs(); Tensor worst = diff.max()) {
            failures.add(what + ": largest difference " + worst.item() + " of " + want.numel() + " values");
          }
        }
      }
    } finally {
      for (Tensor t : there) if (t != null) t.close();
    }
  }

  private static final boolean[] ALL = {true, true, true};

  private void sdpa(String what, DType dt, long[] qs, long[] ks, long[] vs, Tensor mask, boolean causal, boolean gqa, boolean[] wants,
                    long seed) {
    Tensor q = normal(seed, dt, qs), k = normal(seed + 1, dt, ks), v = normal(seed + 2, dt, vs);
    long[] os = qs.clone();
    os[os.length - 1] = vs[vs.length - 1];
    Tensor up = normal(seed + 3, dt, os);
    Tensor[] in = mask == null ? new Tensor[] {q, k, v} : new Tensor[] {q, k, v, mask};
    check(what + " " + dt, dt, t -> Functional.scaledDotProductAttention(t[0], t[1], t[2], t.length > 3 ? t[3] : null, 0, causal, null, gqa,
        Generator.defaultGenerator()), wants.length == in.length ? wants : new boolean[] {wants[0], wants[1], wants[2], false}, up, in);
  }

  private void assertAllAgreed() {
    System.out.println(getClass().getSimpleName() + ": " + agreed + " cases agreed, " + failures.size() + " failed");
    if (!failures.isEmpty()) fail(failures.size() + " cases disagree with the CPU:\n  " + String.join("\n  ", failures));
    assertTrue(agreed > 0);
  }

  @Test
  void everyHeadSizeAndTileEdgeAgrees() {
    for (long e : new long[] {16, 32, 64, 80, 128, 160}) {  // 160: above the kernels, the reference composition
      sdpa("e " + e + ", 70 queries x 90 keys", DType.FLOAT32, new long[] {2, 3, 70, e}, new long[] {2, 3, 90, e}, new long[] {2, 3, 90, e},
          null, false, false, ALL, 10 + e);
    }
    for (long e : new long[] {8, 48, 64, 100}) {  // 100 in float64: above its kernels
      sdpa("e " + e + ", 65 queries x 129 keys", DType.FLOAT64, new long[] {2, 2, 65, e}, new long[] {2, 2, 129, e},
          new long[] {2, 2, 129, e}, null, true, false, ALL, 20 + e);
    }
    sdpa("e 32, ev 96", DType.FLOAT32, new long[] {1, 2, 40, 32}, new long[] {1, 2, 50, 32}, new long[] {1, 2, 50, 96}, null, false, false,
        ALL, 31);
    sdpa("e 120, ev 8", DType.FLOAT32, new long[] {1, 2, 40, 120}, new long[] {1, 2, 50, 120}, new long[] {1, 2, 50, 8}, null, true, false,
        ALL, 32);
    sdpa("300 x 300, causal", DType.FLOAT32, new long[] {2, 2, 300, 64}, new long[] {2, 2, 300, 64}, new long[] {2, 2, 300, 64}, null,
        true, false, ALL, 33);
    sdpa("causal, 100 queries x 130 keys", DType.FLOAT32, new long[] {1, 2, 100, 64}, new long[] {1, 2, 130, 64},
        new long[] {1, 2, 130, 64}, null, true, false, ALL, 34);
    sdpa("causal, 130 queries x 100 keys", DType.FLOAT32, new long[] {1, 2, 130, 64}, new long[] {1, 2, 100, 64},
        new long[] {1, 2, 100, 64}, null, true, false, ALL, 35);
    sdpa("one query (a decode step) x 300 keys", DType.FLOAT32, new long[] {3, 4, 1, 64}, new long[] {3, 4, 300, 64},
        new long[] {3, 4, 300, 64}, null, false, false, ALL, 36);
    sdpa("3-d inputs, one head", DType.FLOAT32, new long[] {3, 70, 64}, new long[] {3, 70, 64}, new long[] {3, 70, 64}, null, true, false,
        ALL, 37);
    assertAllAgreed();
  }

  @Test
  void masksGroupsAndPartialGradientsAgree() {
    long lq = 70, lk = 90;
    double[] keep = new double[(int) (lq * lk)];
    java.util.Random rnd = new java.util.Random(40);
    for (int i = 0; i < keep.length; i++) {
      long row = i / lk;
      keep[i] = row == 5 || row == 69 ? 0 : rnd.nextDouble() > 0.3 ? 1 : 0;  // rows 5 and 69: every key masked, an output of 0
    }
    try (Tensor flat = Tensor.fromArray(keep); Tensor bool = flat.view(lq, lk).gt(0.5);
         Tensor additive = normal(41, DType.FLOAT32, 1, 3, lq, lk)) {
      for (DType dt : new DType[] {DType.FLOAT32, DType.FLOAT64}) {
        sdpa("bool mask [lq, lk]", dt, new long[] {2, 3, lq, 64}, new long[] {2, 3, lk, 64}, new long[] {2, 3, lk, 64}, bool, false, false,
            ALL, 42);
        sdpa("bool mask and causal", dt, new long[] {2, 3, lq, 64}, new long[] {2, 3, lk, 64}, new long[] {2, 3, lk, 64}, bool, true, false,
            ALL, 43);
      }
      sdpa("additive mask [1, heads, lq, lk]", DType.FLOAT32, new long[] {2, 3, lq, 64}, new long[] {2, 3, lk, 64},
          new long[] {2, 3, lk, 64}, additive, false, false, ALL, 44);
    }
    sdpa("4 query heads, 2 key/value heads", DType.FLOAT32, new long[] {2, 4, 70, 64}, new long[] {2, 2, 90, 64},
        new long[] {2, 2, 90, 64}, null, true, true, ALL, 45);
    sdpa("8 query heads, 1 key/value head", DType.FLOAT32, new long[] {1, 8, 33, 32}, new long[] {1, 1, 77, 32},
        new long[] {1, 1, 77, 32}, null, false, true, ALL, 46);
    sdpa("the query's gradient alone", DType.FLOAT32, new long[] {2, 2, 70, 64}, new long[] {2, 2, 90, 64}, new long[] {2, 2, 90, 64},
        null, false, false, new boolean[] {true, false, false}, 47);
    sdpa("the key's and value's gradients alone", DType.FLOAT32, new long[] {2, 2, 70, 64}, new long[] {2, 2, 90, 64},
        new long[] {2, 2, 90, 64}, null, true, false, new boolean[] {false, true, true}, 48);
    for (DType half : new DType[] {DType.FLOAT16, DType.BFLOAT16}) {
      sdpa("half-precision inputs", half, new long[] {2, 2, 70, 64}, new long[] {2, 2, 90, 64}, new long[] {2, 2, 90, 64}, null, true,
          false, ALL, 49);
    }
    assertAllAgreed();
  }

  /**
   * float16 and bfloat16 on CUDA run the tensor-core kernels (attention_tc.cu) on the 16-bit tensors
   * themselves; the CPU casts to float32 for its fused kernel and back. Every head size built (and
   * 160, above them: the reference composition on both), head sizes that are not whole 16-byte rows
   * (20, 36) and a query at an odd storage offset (the element-wise tile loads), causal with more and
   * fewer keys than queries, bool masks with rows of every key masked, a float32 additive mask,
   * grouped heads, partial gradients, dropout and a decode step.
   */
  @Test
  void sixteenBitInputsRunOnTensorCoresAndAgree() {
    long lq = 70, lk = 90;
    double[] keep = new double[(int) (lq * lk)];
    java.util.Random rnd = new java.util.Random(80);
    for (int i = 0; i < keep.length; i++) keep[i] = i / lk == 7 ? 0 : rnd.nextDouble() > 0.3 ? 1 : 0;  // row 7: every key masked
    try (Tensor flat = Tensor.fromArray(keep); Tensor bool = flat.view(lq, lk).gt(0.5);
         Tensor additive = normal(81, DType.FLOAT32, 1, 2, lq, lk)) {
      for (DType dt : new DType[] {DType.FLOAT16, DType.BFLOAT16}) {
        if (!GPU.onCpu() && !GPU.device().isCpu()) {
          assertTrue(org.jtensor.dispatch.Dispatcher.backend(GPU.device()).fusesAttention(dt, 64, 64), dt + " must run the fused kernels on CUDA");
        }
        for (long e : new long[] {16, 20, 32, 36, 64, 80, 128, 160}) {
          sdpa("e " + e + ", 70 queries x 90 keys", dt, new long[] {2, 2, lq, e}, new long[] {2, 2, lk, e}, new long[] {2, 2, lk, e}, null,
              e % 32 == 0, false, ALL, 90 + e);
        }
        sdpa("causal, 130 queries x 100 keys", dt, new long[] {1, 2, 130, 64}, new long[] {1, 2, 100, 64}, new long[] {1, 2, 100, 64}, null,
            true, false, ALL, 82);
        sdpa("bool mask and causal", dt, new long[] {2, 2, lq, 64}, new long[] {2, 2, lk, 64}, new long[] {2, 2, lk, 64}, bool, true, false,
            ALL, 83);
        sdpa("float32 additive mask", dt, new long[] {2, 2, lq, 64}, new long[] {2, 2, lk, 64}, new long[] {2, 2, lk, 64}, additive, false,
            false, ALL, 84);
        sdpa("4 query heads, 2 key/value heads", dt, new long[] {2, 4, lq, 64}, new long[] {2, 2, lk, 64}, new long[] {2, 2, lk, 64}, null,
            true, true, ALL, 85);
        sdpa("the key's and value's gradients alone", dt, new long[] {2, 2, lq, 64}, new long[] {2, 2, lk, 64}, new long[] {2, 2, lk, 64},
            null, false, false, new boolean[] {false, true, true}, 86);
        sdpa("one query (a decode step) x 300 keys", dt, new long[] {3, 4, 1, 64}, new long[] {3, 4, 300, 64}, new long[] {3, 4, 300, 64},
            null, false, false, ALL, 87);
        try (Tensor big = normal(88, dt, 2 * 2 * lq * 64 + 1)) {
          Tensor q = big.narrow(0, 1, 2 * 2 * lq * 64).view(2, 2, lq, 64);  // storage offset 1: rows off 16 bytes
          Tensor k = normal(89, dt, 2, 2, lk, 64), v = normal(90, dt, 2, 2, lk, 64), up = normal(91, dt, 2, 2, lq, 64);
          check("query at an odd storage offset " + dt, dt, t -> Functional.scaledDotProductAttention(t[0], t[1], t[2], null, 0, false, null,
              false, Generator.defaultGenerator()), ALL, up, q, k, v);
          check("dropout 0.3 " + dt, dt, t -> Functional.scaledDotProductAttention(t[0], t[1], t[2], null, 0.3, true, null, false,
              new Generator(7)), ALL, up, q, k, v);
        }
      }
    }
    assertAllAgreed();
  }

  @Test
  void dropoutDrawsTheCpusFactors() {
    for (DType dt : new DType[] {DType.FLOAT32, DType.FLOAT64}) {
      Tensor q = normal(50, dt, 2, 2, 70, 64), k = normal(51, dt, 2, 2, 90, 64), v = normal(52, dt, 2, 2, 90, 64);
      Tensor up = normal(53, dt, 2, 2, 70, 64);
      check("dropout 0.3 " + dt, dt, t -> Functional.scaledDotProductAttention(t[0], t[1], t[2], null, 0.3, true, null, false,
          new Generator(7)), ALL, up, q, k, v);
    }
    assertAllAgreed();
  }

  @Test
  void theScoresAreNeverStored() {
    if (GPU.onCpu() || GPU.device().isCpu()) return;  // the CPU's own memory case is AttentionTest's
    for (DType dt : new DType[] {DType.FLOAT32, DType.FLOAT16}) neverStored(dt);
  }

  private static void neverStored(DType dt) {
    long t = 8192, e = 64, size = dt.itemSize();
    try (Tensor q = normal(60, dt, 1, 1, t, e).to(GPU.device()); Tensor k = normal(61, dt, 1, 1, t, e).to(GPU.device());
         Tensor v = normal(62, dt, 1, 1, t, e).to(GPU.device())) {
      q.requiresGrad_();
      k.requiresGrad_();
      v.requiresGrad_();
      long before = Memory.memoryAllocated(GPU.device());
      Memory.resetPeakMemoryStats(GPU.device());
      try (Tensor out = Functional.scaledDotProductAttention(q, k, v, null, 0, true); Tensor s = out.sum()) {
        s.backward();
      }
      long extra = Memory.maxMemoryAllocated(GPU.device()) - before - 4 * t * e * size;  // less the output and the three gradients
      long scores = t * t * 4;
      assertTrue(extra < scores / 20, dt + ": peak extra bytes " + extra + " against the float32 scores' " + scores);
    }
  }
}
