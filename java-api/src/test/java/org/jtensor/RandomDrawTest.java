package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jtensor.bindings.JtNative;
import org.junit.jupiter.api.Test;

/**
 * The native random kernels give the numbers jtensor's Java Philox gave for the same seed, into
 * any layout and on any number of threads; a bad probability is refused before a byte is written.
 */
class RandomDrawTest extends ScopedTest {
  private static final int N = 100_003;  // odd, and large enough to run on several threads

  @Test
  void philoxBlocksMatchTheReference() {
    int[] java = new int[4], nat = new int[4];
    for (long c : new long[] {0, 1, 0xffffffffL, 1L << 40}) {
      PhiloxReference.block(0x1234_5678_9abcL, c, java);
      JtNative.jt_philox_block(0x1234_5678_9abcL, c, nat);
      assertArrayEquals(java, nat, "block " + c);
    }
  }

  @Test
  void seededDrawsGiveTodaysNumbers() {
    Generator g = new Generator(2026);
    PhiloxReference ref = new PhiloxReference(2026);
    assertArrayEquals(ref.uniform24(N), Tensor.rand(new long[] {N}, g).toFloatArray());
    assertArrayEquals(ref.uniform53(N), Tensor.rand(new long[] {N}, DType.FLOAT64, g).toDoubleArray());
    float[] wantF = toFloats(ref.normal(N));
    assertArrayEquals(wantF, Tensor.randn(new long[] {N}, g).toFloatArray());
    double[] want = ref.normal(N), got = Tensor.randn(new long[] {N}, DType.FLOAT64, g).toDoubleArray();
    for (int i = 0; i < N; i++) assertEquals(want[i], got[i], Math.ulp(want[i]) * 2, "randn float64 at " + i);  // libm vs Java's Math
    assertArrayEquals(ref.integers(N, -5, 1L << 40), Tensor.randint(-5, 1L << 40, new long[] {N}, g).toLongArray());
  }

  @Test
  void aDrawIntoATransposedTensorFollowsRowMajorOrderAndAnyThreadCount() {
    Tensor t = Tensor.empty(new long[] {300, 200}, DType.FLOAT64).transpose(0, 1);  // 200 x 300, strides (1, 200)
    t.uniform_(-2, 3, new Generator(9));
    double[] u = new PhiloxReference(9).uniform53(60_000);
    double[] got = t.contiguous().toDoubleArray();
    for (int i = 0; i < u.length; i++) assertEquals(-2 + 5 * u[i], got[i], 0.0);
    int threads = Threads.getNumThreads();
    try {
      Threads.setNumThreads(1);
      float[] one = Tensor.randn(new long[] {N}, new Generator(5)).toFloatArray();
      Threads.setNumThreads(Math.max(2, threads));
      assertArrayEquals(one, Tensor.randn(new long[] {N}, new Generator(5)).toFloatArray());
    } finally {
      Threads.setNumThreads(threads);
    }
  }

  @Test
  void bernoulliDrawsAndRefusesABadProbabilityBeforeWriting() {
    Tensor p = Tensor.full(new long[] {1000}, 0.25, DType.FLOAT32);
    double[] u = new PhiloxReference(3).uniform53(1000);
    float[] got = p.bernoulli(new Generator(3)).toFloatArray();
    for (int i = 0; i < u.length; i++) assertEquals(u[i] < 0.25 ? 1f : 0f, got[i]);
    p.set(new Index[] {Index.at(700)}, 1.5);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> p.bernoulli(new Generator(3)));
    assertEquals("bernoulli(): Expected p_in >= 0 && p_in <= 1 to be true, but got 1.5", e.getMessage());
  }

  /**
   * Scalar-p draws (dropout's) into 32- and 16-bit floats, contiguous (Note [Random blocks in
   * batches]: blocks drawn in batches) and transposed (element by element): element i in row-major
   * order is 1 where the reference's i-th uniform53 is below p, on one thread and on several.
   */
  @Test
  void scalarBernoulliFollowsTheReferenceInAnyLayout() {
    double[] u = new PhiloxReference(11).uniform53(N);
    int threads = Threads.getNumThreads();
    try {
      for (int n : new int[] {1, Math.max(2, threads)}) {
        Threads.setNumThreads(n);
        for (DType dt : new DType[] {DType.FLOAT32, DType.BFLOAT16, DType.FLOAT64}) {
          float[] got = Tensor.empty(new long[] {N}, dt).bernoulli(0.3, new Generator(11)).to(DType.FLOAT32).toFloatArray();
          for (int i = 0; i < N; i++) assertEquals(u[i] < 0.3 ? 1f : 0f, got[i], dt + " at " + i + " on " + n + " threads");
        }
        Tensor t = Tensor.empty(new long[] {301, 200}, DType.FLOAT32).transpose(0, 1);
        float[] strided = t.bernoulli(0.3, new Generator(11)).contiguous().toFloatArray();
        for (int i = 0; i < strided.length; i++) assertEquals(u[i] < 0.3 ? 1f : 0f, strided[i], "transposed at " + i);
      }
    } finally {
      Threads.setNumThreads(threads);
    }
  }

  private static float[] toFloats(double[] d) {
    float[] f = new float[d.length];
    for (int i = 0; i < d.length; i++) f[i] = (float) d[i];
    return f;
  }

  /** seed() as torch.Generator.seed(): a fresh seed each time, returned, equal to initialSeed(), and replayable with setSeed. */
  @Test
  void seedDrawsAFreshSeedThatReplays() {
    Generator g = new Generator(1);
    long a = g.seed();
    assertEquals(a, g.initialSeed());
    double[] first = Tensor.rand(new long[] {8}, g).toDoubleArray();
    long b = g.seed();
    assertTrue(a != b, "two seeds from the system's entropy: " + a + ", " + b);
    assertArrayEquals(first, Tensor.rand(new long[] {8}, g.setSeed(a)).toDoubleArray(), "setSeed(seed()) replays its draws");
  }
}
