package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jtensor.DType;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.junit.jupiter.api.Test;

/**
 * Hostile inputs to pooling, interpolation, the normalizations, embedding and the losses, each
 * against PyTorch 2.13's value or refusal (worked out by hand from ATen's kernels, noted per test).
 */
class PoolNormLossHostileTest extends ScopedTest {

  private static void assertMessage(RuntimeException e, String... parts) {
    for (String p : parts) assertTrue(e.getMessage() != null && e.getMessage().contains(p), "message '" + e.getMessage() + "' lacks '" + p + "'");
  }

  // ---- RMSNorm ------------------------------------------------------------------------------

  /**
   * torch.nn.RMSNorm(2)(x.half()): the module's weight is float32, so ATen's rms_norm_composite
   * runs: it upcasts to float, squares, averages, adds float's epsilon (eps None) and casts back
   * with type_as(input): [300, 400] gives [0.8485, 1.1314] in float16, [0.01, 0.01] gives 0.9994.
   */
  @Test
  void rmsNormOnFloat16ComputesInFloatAndKeepsTheInputDtype() {
    try (RMSNorm norm = new RMSNorm(2)) {
      Tensor big = Tensor.fromArray(new float[] {300, 400}, 1, 2).to(DType.FLOAT16);
      Tensor y = norm.forward(big);
      assertEquals(DType.FLOAT16, y.dtype());
      double r = Math.sqrt((300.0 * 300 + 400.0 * 400) / 2);
      assertArrayEquals(new double[] {300 / r, 400 / r}, y.toDoubleArray(), 2e-3);
      Tensor small = Tensor.fromArray(new float[] {0.01f, 0.01f}, 1, 2).to(DType.BFLOAT16);
      Tensor z = norm.forward(small);
      assertEquals(DType.BFLOAT16, z.dtype());
      assertArrayEquals(new double[] {1, 1}, z.toDoubleArray(), 8e-3);
    }
  }

  // ---- interpolate -----------------------------------------------------------------------

  /**
   * upsample_linear1d computes h0lambda·x0 + h1lambda·x1 in the op's math type: halfway between
   * -3e38 and 3e38 is 0 in float32, not x0 + (x1 − x0)·λ = inf.
   */
  @Test
  void linearInterpolationOfLargeOppositeValuesStaysFinite() {
    Tensor x = Tensor.fromArray(new float[] {-3e38f, 3e38f}, 1, 1, 2);
    Tensor y = Functional.interpolate(x, new long[] {3}, "linear", true);
    assertArrayEquals(new double[] {-3e38, 0, 3e38}, y.toDoubleArray(), 1e32);
    Tensor h = Tensor.fromArray(new float[] {-40000, 40000}, 1, 1, 2).to(DType.FLOAT16);
    assertArrayEquals(new double[] {-40000, 0, 40000}, Functional.interpolate(h, new long[] {3}, "linear", true).toDoubleArray(), 1e-3);
  }

  /** PyTorch has no linear interpolation of int64 ("upsample_linear1d" not implemented for 'Long'): never weights truncated to 0. */
  @Test
  void linearInterpolationOfIntegersIsRefused() {
    Tensor x = Tensor.fromArray(new long[] {0, 10}, 1, 1, 2);
    RuntimeException e = assertThrows(UnsupportedOperationException.class, () -> Functional.interpolate(x, new long[] {3}, "linear", true));
    assertMessage(e, "interpolate", "not implemented for 'Long'");
  }

  /** An output too large for a Java array: refused naming interpolate (PyTorch: out of memory), never NegativeArraySize. */
  @Test
  void interpolateToAHugeSizeIsRefusedByName() {
    Tensor x = Tensor.ones(1, 1, 2);
    for (long[] size : new long[][] {{(1L << 32) + 3}, {1L << 31}, {Long.MAX_VALUE}}) {
      for (String mode : new String[] {"nearest", "linear"}) {
        RuntimeException e = assertThrows(RuntimeException.class, () -> Functional.interpolate(x, size, mode, false));
        assertTrue(e instanceof IllegalArgumentException || e instanceof org.jtensor.memory.TensorOutOfMemoryException, e.toString());
        assertMessage(e, "interpolate");
      }
    }
    for (double f : new double[] {Double.POSITIVE_INFINITY, Double.NaN, -2, 0, 1e300}) {
      RuntimeException e = assertThrows(RuntimeException.class, () -> Functional.interpolate(x, new double[] {f}, "nearest", false));
      assertTrue(e instanceof IllegalArgumentException || e instanceof org.jtensor.memory.TensorOutOfMemoryException, e.toString());
      assertMessage(e, "interpolate");
    }
  }

  /** upsample's check: "Input and output sizes should be greater than 0", named by interpolate (not indexSelect's index -1). */
  @Test
  void interpolateOfAnEmptySpatialDimIsRefusedByName() {
    Tensor x = Tensor.ones(1, 1, 0);
    for (String mode : new String[] {"nearest", "linear"}) {
      RuntimeException e = assertThrows(IllegalArgumentException.class, () -> Functional.interpolate(x, new long[] {4}, mode, false));
      assertMessage(e, "interpolate", "greater than 0");
    }
  }

  /**
   * upsample_linear1d copies an output as long as its input (compute_source_index_and_lambda), even
   * from a factor that is not 1: [0, 10, 20, 30] by 1.1 is 4 long, so it is itself.
   */
  @Test
  void linearInterpolationToTheSameLengthCopies() {
    Tensor x = Tensor.fromArray(new float[] {0, 10, 20, 30}, 1, 1, 4);
    assertArrayEquals(new double[] {0, 10, 20, 30}, Functional.interpolate(x, new double[] {1.1}, "linear", false).toDoubleArray());
  }

  /**
   * ATen's nearest index for float32 is floorf(i · (2f / 82)) in float: output 41 of [a, b] to 82
   * is a (41 · 0.024390243f = 0.99999994), where double arithmetic gives 1.0, b; by factor 1.3, 31
   * to 40, output 39 reads 30 (float) not 29 (double).
   */
  @Test
  void nearestInterpolationOfFloat32UsesFloatIndexMath() {
    Tensor x = Tensor.fromArray(new float[] {1, 2}, 1, 1, 2);
    double[] y = Functional.interpolate(x, new long[] {82}, "nearest", false).toDoubleArray();
    for (int i = 0; i < 82; i++) assertEquals(Math.min((int) Math.floor((float) i * (2f / 82f)), 1) + 1, y[i], "output " + i);
    assertEquals(1.0, y[41]);
    Tensor z = Tensor.arange(31).to(DType.FLOAT32).reshape(1, 1, 31);
    double[] v = Functional.interpolate(z, new double[] {1.3}, "nearest", false).toDoubleArray();
    assertEquals(40, v.length);
    assertEquals(30.0, v[39]);
  }

  // ---- losses --------------------------------------------------------------------------

  /**
   * F.binary_cross_entropy and binary_cross_entropy_with_logits raise ValueError when target's size
   * differs from input's ("Using a target size ... that is different to the input size ..."); a
   * [3, 1] input and a [3] target never broadcast to a [3, 3] loss.
   */
  @Test
  void binaryCrossEntropyRefusesTargetsOfAnotherShape() {
    Tensor p = Tensor.fromArray(new float[] {0.2f, 0.5f, 0.7f}, 3, 1), t = Tensor.fromArray(new float[] {0, 1, 1});
    RuntimeException e = assertThrows(IllegalArgumentException.class, () -> Functional.binaryCrossEntropy(p, t, Reduction.MEAN));
    assertMessage(e, "binaryCrossEntropy", "[3]", "[3, 1]");
    e = assertThrows(IllegalArgumentException.class, () -> Functional.binaryCrossEntropyWithLogits(p, t, Reduction.MEAN));
    assertMessage(e, "binaryCrossEntropyWithLogits", "[3]", "[3, 1]");
  }

  /** binary_cross_entropy's kernel: "all elements of input should be between 0 and 1" (RuntimeError), not a NaN loss. */
  @Test
  void binaryCrossEntropyRefusesProbabilitiesOutsideZeroOne() {
    for (float bad : new float[] {-0.1f, 1.5f, Float.NaN}) {
      Tensor p = Tensor.fromArray(new float[] {0.2f, bad}), t = Tensor.fromArray(new float[] {0, 1});
      RuntimeException e = assertThrows(IllegalArgumentException.class, () -> Functional.binaryCrossEntropy(p, t, Reduction.SUM));
      assertMessage(e, "binaryCrossEntropy", "between 0 and 1");
    }
  }

  /**
   * binary_cross_entropy at p = 0 and 1 (a saturated sigmoid): the clamped loss, 100 or 0, and ATen's
   * gradient (p − t) / max(p(1 − p), 1e-12): -1e12, 1e12, 0 where the target agrees, never NaN.
   */
  @Test
  void binaryCrossEntropyGradientAtZeroAndOneIsPyTorchs() {
    Tensor p = Tensor.fromArray(new float[] {0, 1, 0.5f, 0, 1}).requiresGrad_(true);
    Tensor t = Tensor.fromArray(new float[] {1, 0, 0.25f, 0, 1});
    Tensor loss = Functional.binaryCrossEntropy(p, t, Reduction.NONE);
    assertArrayEquals(new double[] {100, 100, Math.log(2), 0, 0}, loss.toDoubleArray(), 1e-6);
    loss.sum().backward();
    double[] g = p.grad().toDoubleArray();
    assertArrayEquals(new double[] {-1e12, 1e12, 1, 0, 0}, g, 1e6);
    Tensor q = Tensor.fromArray(new double[] {0.2, 0.9}).requiresGrad_(true), u = Tensor.fromArray(new double[] {0.5, 1}).requiresGrad_(true);
    Functional.binaryCrossEntropy(q, u, Reduction.MEAN).backward();
    assertArrayEquals(new double[] {(0.2 - 0.5) / (0.8 * 0.2) / 2, (0.9 - 1) / (0.1 * 0.9) / 2}, q.grad().toDoubleArray(), 1e-12);
    assertArrayEquals(new double[] {(Math.log(0.8) - Math.log(0.2)) / 2, (Math.log(0.1) - Math.log(0.9)) / 2}, u.grad().toDoubleArray(), 1e-12);
  }

  /** kl_div: target·(log target − input) through xlogy: a NaN target gives NaN, a negative one NaN (log of it), never 0. */
  @Test
  void klDivPropagatesNaNAndNegativeTargets() {
    Tensor input = Tensor.fromArray(new float[] {-1, -1, -1});
    Tensor target = Tensor.fromArray(new float[] {Float.NaN, -0.5f, 0});
    double[] v = Functional.klDiv(input, target, Reduction.NONE, false, false).toDoubleArray();
    assertTrue(Double.isNaN(v[0]), "NaN target: " + v[0]);
    assertTrue(Double.isNaN(v[1]), "negative target: " + v[1]);
    assertEquals(0.0, v[2]);
  }

  /** nll_loss's kernel: "Target 5 is out of bounds." (and a negative one too), named by the loss the user called. */
  @Test
  void nllAndCrossEntropyNameAnOutOfRangeTarget() {
    Tensor logits = Tensor.zeros(2, 5);
    for (long bad : new long[] {5, -1, -101}) {
      Tensor target = Tensor.fromArray(new long[] {0, bad});
      RuntimeException e = assertThrows(IndexOutOfBoundsException.class, () -> Functional.nllLoss(logits, target));
      assertMessage(e, "nllLoss", "Target " + bad + " is out of bounds");
      e = assertThrows(IndexOutOfBoundsException.class, () -> Functional.crossEntropy(logits, target));
      assertMessage(e, "crossEntropy", "Target " + bad + " is out of bounds");
      e = assertThrows(IndexOutOfBoundsException.class,
          () -> Functional.crossEntropy(logits, target, Tensor.ones(5), -100, 0.1, Reduction.MEAN));
      assertMessage(e, "crossEntropy", "Target " + bad + " is out of bounds");
    }
  }

  // ---- embedding ----------------------------------------------------------------------

  /** F.embedding: weight must be 2-D ("'weight' must be 2-D"), indices int64 or int32, each in range ("index out of range in self"). */
  @Test
  void embeddingRefusesBadWeightsAndIndicesByName() {
    Tensor idx = Tensor.fromArray(new long[] {0, 1});
    RuntimeException e = assertThrows(IllegalArgumentException.class, () -> Functional.embedding(idx, Tensor.ones(4)));
    assertMessage(e, "embedding", "2-D");
    for (long bad : new long[] {4, -1}) {
      e = assertThrows(IndexOutOfBoundsException.class, () -> Functional.embedding(Tensor.fromArray(new long[] {0, bad}), Tensor.ones(4, 3)));
      assertMessage(e, "embedding", "out of range");
    }
    e = assertThrows(IllegalArgumentException.class, () -> Functional.embedding(Tensor.fromArray(new float[] {0, 1}), Tensor.ones(4, 3)));
    assertMessage(e, "embedding", "indices");
  }

  /** F.embedding(padding_idx=-1) is the last row (padding_idx += weight.size(0)), which then gets no gradient. */
  @Test
  void embeddingTakesANegativePaddingIndexFromTheEnd() {
    Tensor w = Tensor.ones(4, 2).requiresGrad_(true);
    Tensor y = Functional.embedding(Tensor.fromArray(new long[] {3, 1, 3}), w, -1);
    y.sum().backward();
    assertArrayEquals(new double[] {0, 0, 1, 1, 0, 0, 0, 0}, w.grad().toDoubleArray());
  }

  // ---- pooling ------------------------------------------------------------------------

  /**
   * dilation·(kernel − 1) wraps int64 at kernel 3, dilation Long.MAX_VALUE: pooling_output_shape
   * then gives 7 windows over a length-5 input, each reading far outside it. Refused by name.
   */
  @Test
  void maxPoolWithOverflowingDilationIsRefusedByName() {
    Tensor x = Tensor.ones(1, 1, 5);
    for (boolean ceil : new boolean[] {false, true}) {
      RuntimeException e = assertThrows(IllegalArgumentException.class,
          () -> Functional.maxPool1d(x, new long[] {3}, new long[] {1}, new long[] {0}, new long[] {Long.MAX_VALUE}, ceil));
      assertMessage(e, "max_pool1d", "overflow");
      e = assertThrows(IllegalArgumentException.class, () -> Functional.maxPool2d(Tensor.ones(1, 1, 5, 5), new long[] {3}, new long[] {1},
          new long[] {0}, new long[] {1, Long.MAX_VALUE}, ceil));
      assertMessage(e, "max_pool2d", "overflow");
    }
    RuntimeException e = assertThrows(IllegalArgumentException.class,
        () -> Functional.maxPool1d(x, new long[] {Long.MAX_VALUE}, new long[] {Long.MAX_VALUE}, new long[] {Long.MAX_VALUE / 2}, new long[] {1}, true));
    assertMessage(e, "max_pool1d");
  }

  /**
   * Kernel 2, dilation 2 and padding 1 over a width of 1: each max_pool2d window reads only padding.
   * PyTorch's kernel leaves such a maximum at its starting -inf (jtensor wrote 0 and index -1,
   * whose backward was then refused as out of range); the gradient of -inf reaches no input.
   */
  @Test
  void maxPoolWindowWhollyInThePaddingIsMinusInfinity() {
    Tensor x = Tensor.fromArray(new float[] {1, 2, 3}, 1, 1, 3, 1).requiresGrad_(true);
    var r = Functional.maxPool2dWithIndices(x, new long[] {1, 2}, new long[] {1, 2}, new long[] {0, 1}, new long[] {1, 2}, false);
    assertArrayEquals(new long[] {1, 1, 3, 1}, r.values().shape());
    for (double v : r.values().toDoubleArray()) assertEquals(Double.NEGATIVE_INFINITY, v);
    assertArrayEquals(new double[] {-1, -1, -1}, r.indices().toDoubleArray());
    r.values().sum().backward();
    assertArrayEquals(new double[] {0, 0, 0}, x.grad().toDoubleArray());
    Tensor i = Tensor.fromArray(new long[] {1, 2, 3}, 1, 3, 1);
    double[] iv = Functional.maxPool2d(i, new long[] {1, 2}, new long[] {1, 2}, new long[] {0, 1}, new long[] {1, 2}, false).toDoubleArray();
    for (double v : iv) assertEquals((double) Long.MIN_VALUE, v);
  }

  /** avg_pool1d of an expanded [1, 1, 3e9] input (4 bytes of storage): refused by name, not a NegativeArraySizeException from an int that wrapped. */
  @Test
  void avgPoolOfAHugeExpandedPlaneIsRefusedByName() {
    Tensor x = Tensor.zeros(1, 1, 1).expand(1, 1, 3_000_000_000L);
    RuntimeException e = assertThrows(RuntimeException.class, () -> Functional.avgPool1d(x, new long[] {1}, null, new long[] {0}, false, true));
    assertTrue(e instanceof IllegalArgumentException || e instanceof org.jtensor.memory.TensorOutOfMemoryException, e.toString());
    assertMessage(e, "avg_pool1d");
  }

  /** max_pool2d against a plain loop: NaN wins its window (the last NaN's index), -inf, padding, dilation, ceil mode, a transposed input. */
  @Test
  void maxPoolMatchesAPlainLoopOnHostileValuesAndLayouts() {
    java.util.Random rnd = new java.util.Random(7);
    for (int round = 0; round < 40; round++) {
      int h = 1 + rnd.nextInt(7), w = 1 + rnd.nextInt(7), kh = 1 + rnd.nextInt(3), kw = 1 + rnd.nextInt(3);
      int sh = 1 + rnd.nextInt(3), sw = 1 + rnd.nextInt(3), dh = 1 + rnd.nextInt(2), dw = 1 + rnd.nextInt(2);
      int ph = rnd.nextInt(kh / 2 + 1), pw = rnd.nextInt(kw / 2 + 1);
      boolean ceil = rnd.nextBoolean();
      long oh = Pooling.outputSize(h, kh, ph, sh, dh, ceil), ow = Pooling.outputSize(w, kw, pw, sw, dw, ceil);
      if (oh < 1 || ow < 1) continue;
      double[] v = new double[2 * h * w];
      for (int i = 0; i < v.length; i++) {
        int r = rnd.nextInt(10);
        v[i] = r == 0 ? Double.NaN : r == 1 ? Double.NEGATIVE_INFINITY : rnd.nextInt(5);
      }
      // stored as [2, w, h] and transposed: a non-contiguous [1, 2, h, w] view
      double[] stored = new double[v.length];
      for (int c = 0; c < 2; c++) for (int i = 0; i < h; i++) for (int j = 0; j < w; j++) stored[(c * w + j) * h + i] = v[(c * h + i) * w + j];
      for (DType dt : new DType[] {DType.FLOAT32, DType.FLOAT64, DType.FLOAT16, DType.BFLOAT16}) {
        Tensor x = Tensor.fromArray(stored, 1, 2, w, h).to(dt).transpose(2, 3);
        var r = Functional.maxPool2dWithIndices(x, new long[] {kh, kw}, new long[] {sh, sw}, new long[] {ph, pw}, new long[] {dh, dw}, ceil);
        double[] got = r.values().toDoubleArray(), gotIdx = r.indices().toDoubleArray();
        int at = 0;
        for (int c = 0; c < 2; c++) {
          for (int oi = 0; oi < oh; oi++) {
            for (int oj = 0; oj < ow; oj++, at++) {
              double best = Double.NEGATIVE_INFINITY;
              int where = -1;
              for (int a = 0; a < kh; a++) {
                for (int b = 0; b < kw; b++) {
                  int i = oi * sh - ph + a * dh, j = oj * sw - pw + b * dw;
                  if (i < 0 || i >= h || j < 0 || j >= w) continue;
                  double e = v[(c * h + i) * w + j];
                  if (where < 0 || e > best || Double.isNaN(e)) {
                    best = e;
                    where = i * w + j;
                  }
                }
              }
              String what = dt + " round " + round + " at " + at + ": " + h + "x" + w + " kernel " + kh + "x" + kw + " stride " + sh + "x" + sw
                  + " padding " + ph + "x" + pw + " dilation " + dh + "x" + dw + " ceil " + ceil + " input " + java.util.Arrays.toString(v);
              assertEquals(best, got[at], what);
              assertEquals(where, (long) gotIdx[at], what);
            }
          }
        }
      }
    }
  }

  /** avg_pool2d against a plain loop: padding, ceil mode (a last window past the padding), count_include_pad both ways, a transposed input. */
  @Test
  void avgPoolMatchesAPlainLoop() {
    java.util.Random rnd = new java.util.Random(11);
    for (int round = 0; round < 40; round++) {
      int h = 1 + rnd.nextInt(7), w = 1 + rnd.nextInt(7), kh = 1 + rnd.nextInt(3), kw = 1 + rnd.nextInt(3);
      int sh = 1 + rnd.nextInt(3), sw = 1 + rnd.nextInt(3), ph = rnd.nextInt(kh / 2 + 1), pw = rnd.nextInt(kw / 2 + 1);
      boolean ceil = rnd.nextBoolean(), include = rnd.nextBoolean();
      long oh = Pooling.outputSize(h, kh, ph, sh, 1, ceil), ow = Pooling.outputSize(w, kw, pw, sw, 1, ceil);
      if (oh < 1 || ow < 1) continue;
      double[] v = new double[h * w], stored = new double[h * w];
      for (int i = 0; i < v.length; i++) v[i] = rnd.nextGaussian();
      for (int i = 0; i < h; i++) for (int j = 0; j < w; j++) stored[j * h + i] = v[i * w + j];
      Tensor x = Tensor.fromArray(stored, 1, w, h).transpose(1, 2);
      double[] got = Functional.avgPool2d(x, new long[] {kh, kw}, new long[] {sh, sw}, new long[] {ph, pw}, ceil, include).toDoubleArray();
      assertEquals(oh * ow, got.length);
      for (int oi = 0, at = 0; oi < oh; oi++) {
        for (int oj = 0; oj < ow; oj++, at++) {
          int hs = oi * sh - ph, ws = oj * sw - pw, he = Math.min(hs + kh, h + ph), we = Math.min(ws + kw, w + pw);
          int pool = (he - hs) * (we - ws);
          hs = Math.max(hs, 0);
          ws = Math.max(ws, 0);
          he = Math.min(he, h);
          we = Math.min(we, w);
          double sum = 0;
          for (int i = hs; i < he; i++) for (int j = ws; j < we; j++) sum += v[i * w + j];
          assertEquals(sum / (include ? pool : (he - hs) * (we - ws)), got[at], 1e-12, "round " + round + " at " + at);
        }
      }
    }
  }

  // ---- adaptive pooling ----------------------------------------------------------------

  /** adaptive_avg_pool1d of [1, 1, 0]: "Expected input to have non-zero size for non-batch dimensions", not zeros. */
  @Test
  void adaptiveAvgPoolRefusesAnEmptyPlane() {
    RuntimeException e = assertThrows(IllegalArgumentException.class, () -> Functional.adaptiveAvgPool1d(Tensor.ones(1, 1, 0), new long[] {3}));
    assertMessage(e, "adaptive_avg_pool1d", "non-zero size");
    e = assertThrows(IllegalArgumentException.class, () -> Functional.adaptiveAvgPool2d(Tensor.ones(1, 1, 0, 2), new long[] {3}));
    assertMessage(e, "adaptive_avg_pool2d", "non-zero size");
  }

  // ---- checked against loops --------------------------------------------------------

  private static double[] stats(double[] v, int n, int c, int l, int ch) {
    double s = 0, q = 0;
    int cnt = n * l;
    for (int i = 0; i < n; i++) for (int j = 0; j < l; j++) s += v[(i * c + ch) * l + j];
    double m = s / cnt;
    for (int i = 0; i < n; i++) for (int j = 0; j < l; j++) q += Math.pow(v[(i * c + ch) * l + j] - m, 2);
    return new double[] {m, q / cnt, q / (cnt - 1)};
  }

  /** BatchNorm1d's running statistics over three steps for momentum null (cumulative), 0, 1 and 0.3, the output in training and eval, against loops. */
  @Test
  void batchNormRunningStatsMatchLoops() {
    java.util.Random r = new java.util.Random(3);
    for (Double mom : new Double[] {null, 0.0, 1.0, 0.3}) {
      try (BatchNorm1d bn = new BatchNorm1d(2, 1e-5, mom, true, true)) {
        double[] rm = {0, 0}, rv = {1, 1};
        for (int step = 1; step <= 3; step++) {
          double[] v = new double[3 * 2 * 4];
          for (int i = 0; i < v.length; i++) v[i] = r.nextGaussian() * 3 + 1;
          Tensor x = Tensor.fromArray(v, 3, 2, 4).to(DType.FLOAT32);
          double[] y = bn.forward(x).toDoubleArray();
          double f = mom == null ? 1.0 / step : mom;
          for (int ch = 0; ch < 2; ch++) {
            double[] s = stats(x.toDoubleArray(), 3, 2, 4, ch);
            rm[ch] = (1 - f) * rm[ch] + f * s[0];
            rv[ch] = (1 - f) * rv[ch] + f * s[2];
            for (int i = 0; i < 3; i++) for (int j = 0; j < 4; j++) {
              int k = (i * 2 + ch) * 4 + j;
              assertEquals((x.toDoubleArray()[k] - s[0]) / Math.sqrt(s[1] + 1e-5), y[k], 1e-4, "mom " + mom);
            }
          }
          Tensor runMean = bn.namedBuffers().get("running_mean"), runVar = bn.namedBuffers().get("running_var");
          assertArrayEquals(rm, runMean.toDoubleArray(), 1e-5, "mom " + mom + " step " + step);
          assertArrayEquals(rv, runVar.toDoubleArray(), 1e-4, "mom " + mom + " step " + step);
        }
        bn.eval();
        Tensor x = Tensor.fromArray(new float[] {1, 2, 3, 4}, 2, 2);
        double[] y = bn.forward(x).toDoubleArray();
        double[] xv = x.toDoubleArray();
        for (int i = 0; i < 4; i++) assertEquals((xv[i] - rm[i % 2]) / Math.sqrt(rv[i % 2] + 1e-5), y[i], 1e-4, "eval mom " + mom);
      }
    }
  }

  /** cross_entropy with label smoothing, ignore_index and class weights, every reduction, against PyTorch's formula in a loop. */
  @Test
  void crossEntropySmoothingIgnoreWeightsMatchLoops() {
    java.util.Random r = new java.util.Random(5);
    int n = 5, c = 4;
    double[] lg = new double[n * c];
    for (int i = 0; i < lg.length; i++) lg[i] = r.nextGaussian() * 2;
    long[] t = {0, 3, -100, 2, 3};
    double[] w = {0.5, 2, 1, 3};
    double ls = 0.2;
    Tensor logits = Tensor.fromArray(lg, n, c);
    for (Reduction red : Reduction.values()) {
      for (boolean weighted : new boolean[] {false, true}) {
        double[] per = new double[n];
        double num = 0, den = 0;
        for (int i = 0; i < n; i++) {
          double mx = Double.NEGATIVE_INFINITY, se = 0;
          for (int k = 0; k < c; k++) mx = Math.max(mx, lg[i * c + k]);
          for (int k = 0; k < c; k++) se += Math.exp(lg[i * c + k] - mx);
          double lse = mx + Math.log(se);
          if (t[i] == -100) continue;
          double nll = -(lg[i * c + (int) t[i]] - lse) * (weighted ? w[(int) t[i]] : 1);
          double sm = 0;
          for (int k = 0; k < c; k++) sm += -(lg[i * c + k] - lse) * (weighted ? w[k] : 1);
          per[i] = (1 - ls) * nll + ls / c * sm;
          num += per[i];
          den += weighted ? w[(int) t[i]] : 1;
        }
        Tensor got = weighted ? Functional.crossEntropy(logits, Tensor.fromArray(t), Tensor.fromArray(w), -100, ls, red)
            : Functional.crossEntropy(logits, Tensor.fromArray(t), -100, ls, red);
        String what = red + " weighted " + weighted;
        if (red == Reduction.NONE) assertArrayEquals(per, got.toDoubleArray(), 1e-9, what);
        else assertEquals(red == Reduction.SUM ? num : num / den, got.item(), 1e-9, what);
      }
    }
  }

  /** cross_entropy with class probabilities, label smoothing and weights: the mean over rows. */
  @Test
  void crossEntropyProbabilitiesMatchTheFormula() {
    double[] lg = {1, 2, 3, -1, 0, 5};
    double[] p = {0.2, 0.3, 0.5, 1, 0, 0};
    double[] w = {1, 2, 0.5};
    double ls = 0.1;
    double tot = 0;
    double[] per = new double[2];
    for (int i = 0; i < 2; i++) {
      double mx = Double.NEGATIVE_INFINITY, se = 0;
      for (int k = 0; k < 3; k++) mx = Math.max(mx, lg[i * 3 + k]);
      for (int k = 0; k < 3; k++) se += Math.exp(lg[i * 3 + k] - mx);
      double lse = mx + Math.log(se);
      for (int k = 0; k < 3; k++) per[i] += -(lg[i * 3 + k] - lse) * (p[i * 3 + k] * (1 - ls) + ls / 3) * w[k];
      tot += per[i];
    }
    Tensor got = Functional.crossEntropy(Tensor.fromArray(lg, 2, 3), Tensor.fromArray(p, 2, 3), Tensor.fromArray(w), -100, ls, Reduction.MEAN);
    assertEquals(tot / 2, got.item(), 1e-12);
  }

  /** Repeated indices sum their gradients, through a transposed (non-contiguous) weight; padding_idx's row gets none, in float16. */
  @Test
  void embeddingRepeatedIndicesAccumulateOnNonContiguousWeight() {
    Tensor base = Tensor.arange(12).to(DType.FLOAT32).reshape(3, 4).requiresGrad_(true);
    Tensor w = base.t();  // [4, 3], non-contiguous
    Tensor idx = Tensor.fromArray(new long[] {1, 1, 3, 1}, 2, 2);
    Tensor y = Functional.embedding(idx, w);
    assertArrayEquals(new long[] {2, 2, 3}, y.shape());
    assertArrayEquals(new double[] {1, 5, 9, 1, 5, 9, 3, 7, 11, 1, 5, 9}, y.toDoubleArray());
    y.mul(Tensor.arange(12).to(DType.FLOAT32).reshape(2, 2, 3)).sum().backward();
    // row 1 gets rows 0, 1, 3 of the upstream grad: [0+3+9, 1+4+10, 2+5+11]; row 3 gets [6, 7, 8]
    double[] g = base.grad().toDoubleArray();  // base [3, 4]: column j is w's row j
    assertArrayEquals(new double[] {0, 12, 0, 6, 0, 15, 0, 7, 0, 18, 0, 8}, g);
    Tensor idx2 = Tensor.fromArray(new long[] {1, 2, 1});
    Tensor w2 = Tensor.ones(4, 2).to(DType.FLOAT16).requiresGrad_(true);
    Functional.embedding(idx2, w2, 2).sum().backward();
    assertArrayEquals(new double[] {0, 0, 2, 2, 0, 0, 0, 0}, w2.grad().toDoubleArray());
  }

  /** adaptive_max_pool2d to an output larger than the input, a NaN winning every window it is in (PyTorch's index of it). */
  @Test
  void adaptiveMaxPoolToALargerOutputPropagatesNaN() {
    Tensor x = Tensor.fromArray(new float[] {1, Float.NaN, 3, 2, 5, 4}, 1, 2, 3);
    var r = Functional.adaptiveMaxPool2dWithIndices(x, new long[] {3, 4});
    assertArrayEquals(new long[] {1, 3, 4}, r.values().shape());
    // rows: [0,1),[0,2),[1,2) ; cols for 4 from 3: [0,1),[0,2),[1,3),[2,3)
    double n = Double.NaN;
    assertArrayEquals(new double[] {1, n, n, 3, 2, n, n, 4, 2, 5, 5, 4}, r.values().toDoubleArray());
    assertArrayEquals(new double[] {0, 1, 1, 2, 3, 1, 1, 5, 3, 4, 4, 5}, r.indices().toDoubleArray());
    var z = Functional.adaptiveAvgPool2d(x, new long[] {3, 4});
    assertEquals(12, z.numel());
  }

  /**
   * avg_pool1d and adaptive_avg_pool1d of float16/bfloat16: ATen sums and divides in float and
   * rounds once (jtensor summed in the half type, rounded, and divided by 257, which bfloat16
   * holds as 256): each mean is the once-rounded one.
   */
  @Test
  void avgPoolHalfAndBFloat16RoundOnce() {
    java.util.Random r = new java.util.Random(9);
    double[] v = new double[300];
    for (int i = 0; i < v.length; i++) v[i] = 1 + r.nextInt(8) / 8.0;
    for (DType dt : new DType[] {DType.FLOAT16, DType.BFLOAT16}) {
      Tensor x = Tensor.fromArray(v, 1, 1, 300).to(dt);
      double[] got = Functional.avgPool1d(x, new long[] {257}, new long[] {1}, new long[] {0}, false, true).toDoubleArray();
      double[] xs = x.toDoubleArray();
      for (int o = 0; o < got.length; o++) {
        double s = 0;
        for (int k = 0; k < 257; k++) s += xs[o + k];
        double want = Tensor.fromArray(new double[] {s / 257}).to(dt).item();
        assertEquals(want, got[o], 0, dt + " at " + o);
      }
      double s = 0;
      for (double e : x.toDoubleArray()) s += e;
      double want = Tensor.fromArray(new double[] {s / 300}).to(dt).item();
      assertEquals(want, Functional.adaptiveAvgPool1d(x, new long[] {1}).item(), 0, dt + " adaptive");
    }
  }

  /** embedding takes int32 indices too (Long or Int, as PyTorch). */
  @Test
  void embeddingTakesInt32Indices() {
    Tensor w = Tensor.arange(8).to(DType.FLOAT32).reshape(4, 2);
    assertArrayEquals(new double[] {6, 7, 2, 3}, Functional.embedding(Tensor.fromArray(new int[] {3, 1}), w).toDoubleArray());
  }

  /** group_norm, layer_norm, batch_norm (training) and cross_entropy over an empty batch: forward and backward run, the parameters' gradients zero, the mean loss NaN. */
  @Test
  void emptyBatchesRunForwardAndBackward() {
    Tensor x = Tensor.zeros(0, 4, 3).requiresGrad_(true);
    Tensor w = Tensor.ones(4).requiresGrad_(true), b = Tensor.zeros(4).requiresGrad_(true);
    Functional.groupNorm(x, 2, w, b, 1e-5).sum().backward();
    assertArrayEquals(new double[] {0, 0, 0, 0}, w.grad().toDoubleArray());
    Tensor y = Tensor.zeros(0, 3).requiresGrad_(true), lw = Tensor.ones(3).requiresGrad_(true);
    Functional.layerNorm(y, 1, lw, null, 1e-5).sum().backward();
    assertArrayEquals(new double[] {0, 0, 0}, lw.grad().toDoubleArray());
    Tensor z = Tensor.zeros(0, 3).requiresGrad_(true);
    Tensor ce = Functional.crossEntropy(z, Tensor.zeros(new long[] {0}, DType.INT64), -100, 0.1, Reduction.MEAN);
    assertTrue(Double.isNaN(ce.item()));
    Tensor bn = Tensor.zeros(0, 3).requiresGrad_(true);
    Functional.batchNorm(bn, Tensor.zeros(3), Tensor.ones(3), null, null, true, 0.1, 1e-5).sum().backward();
    assertArrayEquals(new long[] {0, 3}, bn.grad().shape());
  }

  /** nll_loss over [N, C, d] with an ignored entry: the mean over the counted ones. */
  @Test
  void nllLossOverASpatialDimSkipsTheIgnoredEntry() {
    double[] lp = new double[2 * 3 * 2];
    for (int i = 0; i < lp.length; i++) lp[i] = -i * 0.1;
    Tensor x = Tensor.fromArray(lp, 2, 3, 2);  // [N, C, d]
    long[] t = {2, -100, 0, 1};  // [N, d] = [[2, -100], [0, 1]]
    double want = -(lp[(0 * 3 + 2) * 2 + 0] + lp[(1 * 3 + 0) * 2 + 0] + lp[(1 * 3 + 1) * 2 + 1]) / 3;
    assertEquals(want, Functional.nllLoss(x, Tensor.fromArray(t, 2, 2), -100, Reduction.MEAN).item(), 1e-12);
  }

  /** bilinear with align_corners on float32 against the formula, the last dim mixed first. */
  @Test
  void bilinearWithAlignCornersMatchesTheFormula() {
    float[] v = {1, 2, 3, 4, 5, 6};
    Tensor x = Tensor.fromArray(v, 1, 1, 2, 3);
    double[] y = Functional.interpolate(x, new long[] {3, 5}, "bilinear", true).toDoubleArray();
    for (int i = 0; i < 3; i++) for (int j = 0; j < 5; j++) {
      double si = i * 0.5, sj = j * 0.5;
      int i0 = (int) si, j0 = (int) sj, i1 = Math.min(i0 + 1, 1), j1 = Math.min(j0 + 1, 2);
      double a = si - i0, b = sj - j0;
      double want = (1 - a) * ((1 - b) * v[i0 * 3 + j0] + b * v[i0 * 3 + j1]) + a * ((1 - b) * v[i1 * 3 + j0] + b * v[i1 * 3 + j1]);
      assertEquals(want, y[i * 5 + j], 1e-6);
    }
  }

  /** adaptive_max_pool2d's gradient goes to the NaN that won the window. */
  @Test
  void adaptiveMaxPoolGradientGoesToTheWinningNaN() {
    Tensor x = Tensor.fromArray(new float[] {1, Float.NaN, 3, 2}, 1, 2, 2).requiresGrad_(true);
    Functional.adaptiveMaxPool2d(x, new long[] {1, 1}).sum().backward();
    assertArrayEquals(new double[] {0, 1, 0, 0}, x.grad().toDoubleArray());
  }
}
