package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import java.util.function.DoubleUnaryOperator;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * A hostile review of the vectorized float functions (jt/float_math_wide.h) and of the elementwise
 * loop that runs sin and cos a block of 256 at a time, recomputing the elements from 2^20 up (and
 * inf, NaN) through the C library: block tails, rare elements anywhere in a block, in-place and
 * strided operands, thread splits mid-block, float16/bfloat16 (every bit pattern) and each CPU
 * capability. References are Java's double functions rounded to float (1 ulp, as PyTorch 2.13's
 * own results differ from them); the special values are PyTorch 2.13's (torch.sin etc., float32).
 */
class FloatMathHostileTest extends ScopedTest {
  private static final float BIG = 0x1p20f;
  private static final float[] RARE = {BIG, -BIG, Math.nextUp(BIG), 3e7f, Float.MAX_VALUE, -Float.MAX_VALUE,
                                       Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NaN};

  /** Every tail length around the block of 256, with none, all, the first, the last or every 7th element rare. */
  @Test
  void sinAndCosOverEveryBlockTailAndRarePattern() {
    Random rnd = new Random(65);
    for (int n : new int[] {1, 255, 256, 257, 511, 513}) {
      for (String pattern : new String[] {"none", "all", "first", "last", "every 7th"}) {
        float[] x = new float[n];
        for (int i = 0; i < n; i++) {
          boolean rare = pattern.equals("all") || (pattern.equals("first") && i == 0)
              || (pattern.equals("last") && i == n - 1) || (pattern.equals("every 7th") && i % 7 == 3);
          x[i] = rare ? RARE[rnd.nextInt(RARE.length)] : (rnd.nextFloat() - 0.5f) * 2e6f;
        }
        String where = "n=" + n + ", " + pattern + " rare";
        checkAgainst("sin " + where, x, Tensor.fromArray(x).sin(), Math::sin);
        checkAgainst("cos " + where, x, Tensor.fromArray(x).cos(), Math::cos);
        checkAgainst("tan (not split) " + where, x, Tensor.fromArray(x).tan(), Math::tan);
        checkAgainst("exp (not split) " + where, x, Tensor.fromArray(x).exp(), Math::exp);
        Tensor inPlace = Tensor.fromArray(x);
        assertTrue(inPlace == inPlace.sin_());
        assertArrayEquals(bits(Tensor.fromArray(x).sin()), bits(inPlace), "sin_ " + where);
        inPlace = Tensor.fromArray(x);
        inPlace.cos_();
        assertArrayEquals(bits(Tensor.fromArray(x).cos()), bits(inPlace), "cos_ " + where);
      }
    }
  }

  /** Transposed, stepped, offset and expanded inputs, and sin_ of a transposed view: the contiguous bits. */
  @Test
  void stridedOperandsGiveTheContiguousBits() {
    Random rnd = new Random(66);
    float[] v = new float[37 * 29];
    for (int i = 0; i < v.length; i++) v[i] = i % 11 == 5 ? RARE[rnd.nextInt(RARE.length)] : (rnd.nextFloat() - 0.5f) * 1e3f;
    Tensor base = Tensor.fromArray(v, 37, 29);
    List<Tensor> views = List.of(base.t(), base.slice(1, 1, 29, 2), base.narrow(0, 3, 30), base.narrow(0, 5, 1).expand(6, 29));
    for (Tensor view : views) {
      for (String op : new String[] {"sin", "cos"}) {
        UnaryOperator<Tensor> f = op.equals("sin") ? Tensor::sin : Tensor::cos;
        assertArrayEquals(bits(f.apply(view.contiguous())), bits(f.apply(view)), op + " of a view " + java.util.Arrays.toString(view.shape()));
      }
    }
    Tensor want = base.t().contiguous().sin();
    Tensor t = base.clone().t();
    t.sin_();
    assertArrayEquals(bits(want), bits(t.contiguous()), "sin_ of a transposed view");
    // written through an expanded view: refused, as PyTorch's "more than one element of the written-to tensor"
    Tensor expanded = base.narrow(0, 5, 1).expand(6, 29);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, expanded::sin_);
    assertTrue(e.getMessage().startsWith("sin_(): unsupported operation: more than one element"), e.getMessage());
  }

  /** Sizes that the pool splits between threads mid-block give the same bits at 1, 2 and 3 threads. */
  @Test
  void threadSplitsMidBlockGiveTheSameBits() {
    int n = 3 * 32768 + 131;
    float[] x = new float[n];
    Random rnd = new Random(67);
    for (int i = 0; i < n; i++) x[i] = i % 97 == 0 || i == n - 1 ? RARE[rnd.nextInt(RARE.length)] : (rnd.nextFloat() - 0.5f) * 1e4f;
    int initial = Threads.getNumThreads();
    try {
      int[][] sin = new int[3][], cos = new int[3][];
      for (int t = 1; t <= 3; t++) {
        Threads.setNumThreads(t);
        sin[t - 1] = bits(Tensor.fromArray(x).sin());
        Tensor c = Tensor.fromArray(x);
        c.cos_();
        cos[t - 1] = bits(c);
      }
      checkAgainst("sin at 1 thread", x, Tensor.fromArray(sin[0]).view(DType.FLOAT32), Math::sin);
      for (int t = 2; t <= 3; t++) {
        assertArrayEquals(sin[0], sin[t - 1], "sin at " + t + " threads");
        assertArrayEquals(cos[0], cos[t - 1], "cos_ at " + t + " threads");
      }
    } finally {
      Threads.setNumThreads(initial);
    }
  }

  /**
   * Every float16 and bfloat16 bit pattern, computed through float as PyTorch's: within one unit of
   * the double result rounded to float and then to the 16-bit type (PyTorch 2.13's own differ from
   * it by one unit at two float16 sines), NaN exactly where it is NaN; sin_ as sin.
   */
  @Test
  void everySixteenBitPattern() {
    short[] patterns = new short[65536];
    for (int i = 0; i < patterns.length; i++) patterns[i] = (short) i;
    for (DType dt : new DType[] {DType.FLOAT16, DType.BFLOAT16}) {
      Tensor x = Tensor.fromArray(patterns).view(dt);
      float[] xf = x.to(DType.FLOAT32).toFloatArray();
      check16(dt + " sin", xf, x.sin(), Math::sin, dt);
      check16(dt + " cos", xf, x.cos(), Math::cos, dt);
      check16(dt + " log2", xf, x.log2(), a -> Math.log(a) / Math.log(2), dt);
      check16(dt + " log10", xf, x.log10(), Math::log10, dt);
      check16(dt + " atan", xf, x.atan(), Math::atan, dt);
      check16(dt + " expm1", xf, x.expm1(), Math::expm1, dt);
      Tensor inPlace = x.clone();
      inPlace.sin_();
      assertArrayEquals(bits16(x.sin()), bits16(inPlace), dt + " sin_");
    }
  }

  private static final float NAN = Float.NaN, INF = Float.POSITIVE_INFINITY;
  // ±0, ±inf, NaN, ±the least subnormal, ±FLT_MAX, 2^20 and the float below it, ±(1 - 2^-24), ±1,
  // ±10.05 (erfc's last subnormal), 88.72 (expm1's overflow), -30.5 (expm1's clamp)
  private static final float[] EDGES = {0f, -0f, INF, -INF, NAN, 1.4e-45f, -1.4e-45f, Float.MAX_VALUE, -Float.MAX_VALUE,
      1048576f, 1048575.9375f, -1048575.9375f, 0.99999994f, -0.99999994f, 1f, -1f, 10.05f, -10.05f, 88.72f, -30.5f};

  /** The special values as PyTorch 2.13 gives them (torch.sin(torch.tensor(EDGES)) etc.): NaN, inf and the sign of zero exactly. */
  @Test
  void specialValuesAsPyTorch() {
    Tensor x = Tensor.fromArray(EDGES);
    edge("sin", x.sin(), 0f, -0f, NAN, NAN, NAN, 1.4e-45f, -1.4e-45f, -0.5218765139579773f, 0.5218765139579773f,
        0.33049315214157104f, 0.2708982229232788f, -0.2708982229232788f, 0.8414709568023682f, -0.8414709568023682f,
        0.8414709568023682f, -0.8414709568023682f, -0.5852774977684021f, 0.5852774977684021f, 0.6855849623680115f,
        0.7931272387504578f);
    edge("cos", x.cos(), 1f, 1f, NAN, NAN, NAN, 1f, 1f, 0.8530210256576538f, 0.8530210256576538f, 0.943808376789093f,
        0.9626079797744751f, 0.9626079797744751f, 0.5403023362159729f, 0.5403023362159729f, 0.5403023362159729f,
        0.5403023362159729f, -0.8108330965042114f, -0.8108330965042114f, 0.727992594242096f, 0.6090559959411621f);
    edge("log2", x.log2(), -INF, -INF, INF, NAN, NAN, -149f, NAN, 128f, NAN, 20f, 20f, NAN, -8.599133138886828e-08f, NAN,
        0f, NAN, 3.3291237354278564f, NAN, 6.471187591552734f, NAN);
    edge("log10", x.log10(), -INF, -INF, INF, NAN, NAN, -44.85346984863281f, NAN, 38.53184127807617f, NAN,
        6.020599842071533f, 6.020599842071533f, NAN, -2.5885968923944347e-08f, NAN, 0f, NAN, 1.0021660327911377f, NAN,
        1.9480215311050415f, NAN);
    edge("atan", x.atan(), 0f, -0f, 1.5707963705062866f, -1.5707963705062866f, NAN, 1.4e-45f, -1.4e-45f,
        1.5707963705062866f, -1.5707963705062866f, 1.5707954168319702f, 1.5707954168319702f, -1.5707954168319702f,
        0.7853981256484985f, -0.7853981256484985f, 0.7853981852531433f, -0.7853981852531433f, 1.4716203212738037f,
        -1.4716203212738037f, 1.5595253705978394f, -1.538021206855774f);
    edge("erfc", x.erfc(), 1f, 1f, 0f, 2f, NAN, 1f, 1f, 0f, 2f, 0f, 0f, 2f, 0.1572992354631424f, 1.842700719833374f,
        0.15729920566082f, 1.8427008390426636f, 0f, 2f, 0f, 2f);
    edge("expm1", x.expm1(), 0f, -0f, INF, -1f, NAN, 1.4e-45f, -1.4e-45f, INF, -1f, INF, INF, -1f, 1.718281626701355f,
        -0.6321205496788025f, 1.718281865119934f, -0.6321205496788025f, 23154.791015625f, -0.9999567866325378f,
        3.3931806003874245e+38f, -1f);
    edge("erfinv", x.erfinv(), 0f, -0f, NAN, NAN, NAN, 1.4e-45f, -1.4e-45f, NAN, NAN, NAN, NAN, NAN,
        3.8325068950653076f, -3.8325068950653076f, INF, -INF, NAN, NAN, NAN, NAN);
  }

  /** Integer inputs are promoted to float32 first, as PyTorch's (torch.sin(torch.tensor([..], dtype=torch.int32))). */
  @Test
  void integerInputsAsPyTorch() {
    Tensor x = Tensor.fromArray(new int[] {0, 1, -3, 1048576, Integer.MAX_VALUE});
    assertEquals(DType.FLOAT32, x.sin().dtype());
    float[] sin = {0f, 0.8414709568023682f, -0.14112000167369843f, 0.33049315214157104f, -0.9713101983070374f};
    // cos(1): PyTorch 0.54030234, jtensor 0.5403023, the nearer to 0.54030230587
    float[] cos = {1f, 0.5403023362159729f, -0.9899924993515015f, 0.943808376789093f, 0.2378161996603012f};
    float[] gs = x.sin().toFloatArray(), gc = x.cos().toFloatArray();
    for (int i = 0; i < sin.length; i++) {
      assertTrue(Math.abs(gs[i] - sin[i]) <= Math.ulp(sin[i]), "sin at " + i + ": " + gs[i] + ", PyTorch " + sin[i]);
      assertTrue(Math.abs(gc[i] - cos[i]) <= Math.ulp(cos[i]), "cos at " + i + ": " + gc[i] + ", PyTorch " + cos[i]);
    }
  }

  /** Each CPU capability computes the same bits for every function over a sweep of float bit patterns. */
  @Test
  void everyCapabilityGivesTheSameBits() {
    int[] patterns = new int[1 << 18];
    for (int i = 0; i < patterns.length; i++) patterns[i] = i * 16411;  // wraps: every sign and exponent
    Tensor x = Tensor.fromArray(patterns).view(DType.FLOAT32);
    List<UnaryOperator<Tensor>> ops = List.of(Tensor::sin, Tensor::cos, Tensor::log2, Tensor::log10, Tensor::atan,
        Tensor::erfc, Tensor::expm1, Tensor::erfinv);
    List<DoubleUnaryOperator> refs = List.of(Math::sin, Math::cos, a -> Math.log(a) / Math.log(2), Math::log10, Math::atan);
    String initial = Cpu.getCpuCapability();
    List<String> caps = Cpu.supportedCpuCapabilities();
    try {
      for (int k = 0; k < ops.size(); k++) {
        Cpu.setCpuCapability("baseline");
        int[] want = bits(ops.get(k).apply(x));
        if (k < refs.size()) checkAgainst("function " + k + " at baseline", x.toFloatArray(),
            Tensor.fromArray(want).view(DType.FLOAT32), refs.get(k));
        for (String cap : caps) {
          Cpu.setCpuCapability(cap);
          assertArrayEquals(want, bits(ops.get(k).apply(x)), "function " + k + ": " + cap + " differs from baseline");
        }
      }
    } finally {
      Cpu.setCpuCapability(initial);
    }
  }

  private static void edge(String op, Tensor got, float... want) {
    float[] g = got.toFloatArray();
    assertEquals(want.length, g.length);
    for (int i = 0; i < g.length; i++) {
      String at = op + "(" + EDGES[i] + ") = " + g[i] + ", PyTorch " + want[i];
      assertEquals(Float.isNaN(want[i]), Float.isNaN(g[i]), at);
      if (Float.isInfinite(want[i]) || (want[i] == 0 && g[i] == 0)) {
        assertEquals(Float.floatToIntBits(want[i]), Float.floatToIntBits(g[i]), at);
      } else if (!Float.isNaN(want[i])) {  // erfc(10.05): PyTorch 0, exactly 7.6e-46, jtensor 1.4e-45 (nearer)
        assertTrue(Math.abs(Math.ulp(want[i])) >= Math.abs(g[i] - want[i]), at);
      }
    }
  }

  // got within 1 ulp of f(x) rounded to float; NaN exactly where it is NaN; a zero's sign kept
  private static void checkAgainst(String what, float[] x, Tensor got, DoubleUnaryOperator f) {
    float[] g = got.toFloatArray();
    for (int i = 0; i < x.length; i++) {
      float want = (float) f.applyAsDouble(x[i]);
      boolean ok = Float.isNaN(want) ? Float.isNaN(g[i])
          : !Float.isNaN(g[i]) && Math.abs(ordered(Float.floatToRawIntBits(g[i])) - ordered(Float.floatToRawIntBits(want))) <= 1
            && (want != 0 || Float.floatToRawIntBits(want) == Float.floatToRawIntBits(g[i]));
      if (!ok) throw new AssertionError(what + " at " + i + ": f(" + x[i] + ") = " + g[i] + ", want " + want);
    }
  }

  private static void check16(String what, float[] x, Tensor got, DoubleUnaryOperator f, DType dt) {
    float[] ref = new float[x.length];
    for (int i = 0; i < x.length; i++) ref[i] = (float) f.applyAsDouble(x[i]);
    int[] want = bits16(Tensor.fromArray(ref).to(dt)), g = bits16(got);
    for (int i = 0; i < x.length; i++) {
      boolean wantNan = Float.isNaN(ref[i]);
      boolean ok = wantNan ? isNan16(g[i], dt) : !isNan16(g[i], dt) && Math.abs(ordered16(g[i]) - ordered16(want[i])) <= 1;
      if (!ok) throw new AssertionError(what + "(" + x[i] + "): bits " + Integer.toHexString(g[i]) + ", want " + Integer.toHexString(want[i]));
    }
  }

  private static int[] bits(Tensor t) {
    return t.contiguous().view(DType.INT32).toIntArray();
  }

  private static int[] bits16(Tensor t) {
    int[] b = t.contiguous().view(DType.INT16).toIntArray();
    for (int i = 0; i < b.length; i++) b[i] &= 0xffff;
    return b;
  }

  private static boolean isNan16(int b, DType dt) {
    int exp = dt == DType.FLOAT16 ? 0x7c00 : 0x7f80;
    return (b & exp) == exp && (b & ~exp & 0x7fff) != 0;
  }

  // the bits as a number that grows with the value (-0 and +0 both 0)
  private static long ordered(int b) {
    return b < 0 ? -(long) (b & 0x7fffffff) : b;
  }

  private static int ordered16(int b) {
    return (b & 0x8000) != 0 ? -(b & 0x7fff) : b;
  }
}
