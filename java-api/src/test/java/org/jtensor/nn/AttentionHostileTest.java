package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jtensor.Close;
import org.jtensor.CloseRace;
import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.autograd.Autograd;
import org.jtensor.autograd.GradCheck;
import org.junit.jupiter.api.Test;

/**
 * Hostile inputs for Functional.scaledDotProductAttention, checked against an oracle in plain
 * double loops (PyTorch's semantics: NaN propagates, a row whose every key is masked gives 0) and
 * against numbers pasted from PyTorch 2.13 (CPU) for the same inputs: {@link #det} is
 * sin(0.618 i + 1.3 seed) * 1.5 over the flat index, in float64 (the runs used the same formula in
 * torch). The first group were bugs a hostile pass found (NaN rows read as masked, E = 0, zero heads,
 * empty masks, a 2-D input's 3-D mask); each states what PyTorch does.
 */
class AttentionHostileTest extends ScopedTest {
  private static final String OP = "scaledDotProductAttention";
  private static final double NAN = Double.NaN;

  // =====================================================================================
  // Found failing by the hostile pass, fixed since: PyTorch's behaviour
  // =====================================================================================

  /**
   * One NaN in a query row makes every score of the row NaN; PyTorch's output row is NaN
   * (softmax of NaN). The fused kernel takes a row whose maximum is not above -inf (NaN compares
   * false) as a row with every key masked and writes 0: a NaN is silently turned into zeros.
   * PyTorch 2.13: [0.1662094406889394, 0.5970145092094609, nan, nan, 0.45344308710867665, 0.09384448012327498].
   */
  @Test
  void naNInOneQueryElementMustGiveANaNRowNotZeros() {
    double[] torch = {0.1662094406889394, 0.5970145092094609, NAN, NAN, 0.45344308710867665, 0.09384448012327498};
    for (DType dtype : new DType[] {DType.FLOAT64, DType.FLOAT32, DType.FLOAT16}) {
      Tensor q = det(DType.FLOAT64, 1, 1, 1, 3, 4);
      q.reshape(-1).narrow(0, 5, 1).fill_(NAN);
      Tensor out = Functional.scaledDotProductAttention(q.to(dtype), det(dtype, 2, 1, 1, 5, 4), det(dtype, 3, 1, 1, 5, 2), null, 0, false);
      assertClose(torch, out.toDoubleArray(), dtype == DType.FLOAT16 ? 2e-3 : 1e-6, "query NaN " + dtype);
    }
  }

  /** scale = NaN: PyTorch gives NaN everywhere; jtensor gives 0 everywhere (same cause as above). */
  @Test
  void naNScaleMustGiveNaNNotZeros() {
    Tensor out = Functional.scaledDotProductAttention(det(DType.FLOAT64, 1, 1, 1, 3, 4), det(DType.FLOAT64, 2, 1, 1, 5, 4),
        det(DType.FLOAT64, 3, 1, 1, 5, 2), null, 0, false, Double.NaN);
    for (double x : out.toDoubleArray()) assertTrue(Double.isNaN(x), "PyTorch gives NaN for scale=NaN, got " + x);
  }

  /**
   * An additive mask whose row is all NaN: PyTorch's row is NaN, jtensor's 0. A single NaN in the
   * mask row does give NaN (the row's other scores are finite); a whole row of NaN does not.
   */
  @Test
  void additiveMaskRowOfNaNMustGiveNaN() {
    Tensor m = Tensor.zeros(new long[] {3, 5}, DType.FLOAT64);
    m.select(0, 1).fill_(NAN);
    Tensor out = Functional.scaledDotProductAttention(det(DType.FLOAT64, 1, 1, 1, 3, 4), det(DType.FLOAT64, 2, 1, 1, 5, 4),
        det(DType.FLOAT64, 3, 1, 1, 5, 2), m, 0, false);
    assertClose(new double[] {0.1662094406889394, 0.5970145092094609, NAN, NAN, 0.45344308710867665, 0.09384448012327498},
        out.toDoubleArray(), 1e-12, "mask row of NaN (PyTorch 2.13)");
  }

  /**
   * S = 100 (two key blocks), row 0's first 64 scores NaN (additive NaN mask), the other 36 finite:
   * PyTorch's row 0 is NaN; jtensor skips the NaN block as if masked and returns a finite row from
   * the second block alone (NaN silently dropped). PyTorch 2.13 (float32): [nan, nan,
   * -0.06797001510858536, -0.022452637553215027].
   */
  @Test
  void naNScoresInAWholeKeyBlockMustNotBeDropped() {
    Tensor m = Tensor.zeros(new long[] {2, 100}, DType.FLOAT32);
    m.select(0, 0).narrow(0, 0, 64).fill_(NAN);
    Tensor out = Functional.scaledDotProductAttention(det(DType.FLOAT32, 1, 1, 1, 2, 4), det(DType.FLOAT32, 2, 1, 1, 100, 4),
        det(DType.FLOAT32, 3, 1, 1, 100, 2), m, 0, false);
    assertClose(new double[] {NAN, NAN, -0.06797001510858536, -0.022452637553215027}, out.toDoubleArray(), 1e-5, "NaN key block");
  }

  /**
   * q has +inf at one element of row 1: the row's output is NaN in both, but PyTorch's value and
   * key gradients are then NaN everywhere (the NaN probabilities reach every key), while jtensor's
   * backward saves the row's log-sum-exp as -inf and treats the row as masked: finite gradients.
   * PyTorch 2.13 (float64, upstream det(99)): grad_v all NaN, grad_k all NaN, grad_q row 1 NaN.
   */
  @Test
  void gradientsThroughANaNRowMustBeNaN() {
    Tensor q0 = det(DType.FLOAT64, 1, 1, 1, 3, 4);
    q0.reshape(-1).narrow(0, 5, 1).fill_(Double.POSITIVE_INFINITY);
    Tensor q = q0.requiresGrad_(), k = det(DType.FLOAT64, 2, 1, 1, 5, 4).requiresGrad_(), v = det(DType.FLOAT64, 3, 1, 1, 5, 2).requiresGrad_();
    Tensor out = Functional.scaledDotProductAttention(q, k, v, null, 0, false);
    assertClose(new double[] {0.1662094406889394, 0.5970145092094609, NAN, NAN, 0.45344308710867665, 0.09384448012327498},
        out.toDoubleArray(), 1e-12, "output");
    out.backward(det(DType.FLOAT64, 99, 1, 1, 3, 2));
    assertClose(new double[] {-0.12306951468351206, -0.11410596141134917, -0.06293207950763265, 0.011521775892894064, NAN, NAN, NAN, NAN,
        -0.09361999932390766, -0.14967670688864584, -0.1503646772891388, -0.09542941499917217}, q.grad().toDoubleArray(), 1e-12, "grad q");
    for (double x : k.grad().toDoubleArray()) assertTrue(Double.isNaN(x), "PyTorch's key gradient is all NaN, got " + x);
    for (double x : v.grad().toDoubleArray()) assertTrue(Double.isNaN(x), "PyTorch's value gradient is all NaN, got " + x);
  }

  /**
   * E = 0 with the default scale: PyTorch scales q and k by sqrt(1/sqrt(0)) = inf before the
   * (empty) product, so every score is 0 and the output is the mean of the values over the keys
   * (grad_v the upstream's sum over the rows / S). jtensor multiplies the 0 dot product by
   * scale = inf (NaN): the fused kernel then writes 0 (NaN rows taken as masked), and the
   * reference path (a mask that needs a gradient) NaN. PyTorch 2.13, v = det(3) [1, 2, 5, 3]:
   * [-0.3627037547520775, -0.34837988063768444, -0.20518255356384363] (x3 rows, head 0),
   * [0.34432964740723826, 0.3651708472095988, 0.2509272427061335] (x3 rows, head 1).
   */
  @Test
  void zeroEmbeddingDimAveragesTheValues() {
    double[] h0 = {-0.3627037547520775, -0.34837988063768444, -0.20518255356384363};
    double[] h1 = {0.34432964740723826, 0.3651708472095988, 0.2509272427061335};
    double[] torch = new double[18];
    for (int i = 0; i < 3; i++) {
      System.arraycopy(h0, 0, torch, 3 * i, 3);
      System.arraycopy(h1, 0, torch, 9 + 3 * i, 3);
    }
    Tensor q = det(DType.FLOAT64, 1, 1, 2, 3, 0), k = det(DType.FLOAT64, 2, 1, 2, 5, 0), v = det(DType.FLOAT64, 3, 1, 2, 5, 3);
    assertClose(torch, Functional.scaledDotProductAttention(q, k, v, null, 0, false).toDoubleArray(), 1e-12, "fused path, E = 0");
    // the same with an explicit scale works: only the default scale 1/sqrt(0) breaks it
    assertClose(torch, Functional.scaledDotProductAttention(q, k, v, null, 0, false, 1.0).toDoubleArray(), 1e-12, "E = 0, scale 1");
    Tensor bias = Tensor.zeros(new long[] {3, 5}, DType.FLOAT64).requiresGrad_();
    assertClose(torch, Functional.scaledDotProductAttention(q, k, v, bias, 0, false).toDoubleArray(), 1e-12, "reference path, E = 0");
  }

  /**
   * Zero heads (4-D [2, 0, 3, 4]) or a zero leading dim of 3-D inputs ([0, 3, 4]): PyTorch returns
   * the empty output [2, 0, 3, Ev] / [0, 3, Ev]; jtensor throws IllegalArgumentException "attention
   * geometry out of range: AttentionShape[...]" from AttentionShape (heads must be > 0), a message
   * that names neither the op nor the argument. With enableGqa and 0 heads jtensor says "Number
   * of heads in key and value must divide the number of heads in query, got 0 and 0"; PyTorch
   * returns [2, 0, 3, 3].
   */
  @Test
  void zeroHeadsGiveAnEmptyOutput() {
    Tensor out = Functional.scaledDotProductAttention(Tensor.randn(2, 0, 3, 4), Tensor.randn(2, 0, 5, 4), Tensor.randn(2, 0, 5, 3), null, 0,
        false);
    assertArrayEquals(new long[] {2, 0, 3, 3}, out.shape());
    out = Functional.scaledDotProductAttention(Tensor.randn(0, 3, 4), Tensor.randn(0, 5, 4), Tensor.randn(0, 5, 2), null, 0, true);
    assertArrayEquals(new long[] {0, 3, 2}, out.shape());
    out = Functional.scaledDotProductAttention(Tensor.randn(2, 0, 3, 4), Tensor.randn(2, 0, 5, 4), Tensor.randn(2, 0, 5, 3), null, 0, false,
        null, true, new Generator(1));
    assertArrayEquals(new long[] {2, 0, 3, 3}, out.shape());
  }

  /**
   * A mask with no elements where the scores have none (S = 0: mask [3, 0]; L = 0: [0, 5]; batch 0:
   * [0, 1, 3, 5]): PyTorch returns zeros [1, 2, 3, 3] (S = 0) or the empty output. jtensor throws
   * IllegalStateException "scaledDotProductAttention failed in native code (status 2)": an empty
   * storage's address is 0 and the kernel refuses a mask at address 0. (A mask that broadcasts to
   * the empty scores from a non-empty storage works.)
   */
  @Test
  void anEmptyMaskIsAcceptedWhenTheScoresAreEmpty() {
    Tensor out = Functional.scaledDotProductAttention(Tensor.randn(1, 2, 3, 4), Tensor.randn(1, 2, 0, 4), Tensor.randn(1, 2, 0, 3),
        Tensor.zeros(new long[] {3, 0}, DType.BOOL), 0, false);
    assertArrayEquals(new double[18], out.toDoubleArray(), 0, "S = 0: zeros");
    out = Functional.scaledDotProductAttention(Tensor.randn(1, 2, 3, 4), Tensor.randn(1, 2, 0, 4), Tensor.randn(1, 2, 0, 3),
        Tensor.zeros(3, 0), 0, false);
    assertArrayEquals(new double[18], out.toDoubleArray(), 0, "S = 0, additive: zeros");
    out = Functional.scaledDotProductAttention(Tensor.randn(1, 2, 0, 4), Tensor.randn(1, 2, 5, 4), Tensor.randn(1, 2, 5, 3),
        Tensor.zeros(new long[] {0, 5}, DType.BOOL), 0, false);
    assertArrayEquals(new long[] {1, 2, 0, 3}, out.shape());
    out = Functional.scaledDotProductAttention(Tensor.randn(0, 2, 3, 4), Tensor.randn(0, 2, 5, 4), Tensor.randn(0, 2, 5, 3),
        Tensor.zeros(0, 1, 3, 5), 0, false);
    assertArrayEquals(new long[] {0, 2, 3, 3}, out.shape());
  }

  /**
   * 2-D inputs ([L, E]) and a 3-D mask [1, L, S]: PyTorch refuses ("output with shape [3, 5]
   * doesn't match the broadcast shape [1, 3, 5]"): the mask would add a dim to the scores. jtensor
   * reads 2-D inputs as one head ([1, L, S] scores) and accepts the mask, returning [L, Ev].
   */
  @Test
  void twoDimInputsMustRefuseAThreeDimMask() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Functional.scaledDotProductAttention(
        Tensor.randn(3, 4), Tensor.randn(5, 4), Tensor.randn(5, 2), Tensor.ones(new long[] {1, 3, 5}, DType.BOOL), 0, false));
    assertTrue(e.getMessage().contains(OP), e.getMessage());
  }

  // =====================================================================================
  // Hostile inputs that are handled correctly at the time of writing
  // =====================================================================================

  @Test
  void transposedSlicedExpandedAndOffsetInputsMatchTheOracle() {
    // transposed storage (the view is made contiguous-looking by a transpose back)
    Tensor qb = det(DType.FLOAT64, 1, 1, 2, 4, 7).requiresGrad_(), kb = det(DType.FLOAT64, 2, 1, 5, 2, 4).requiresGrad_();
    Tensor vb = det(DType.FLOAT64, 3, 1, 2, 3, 5).requiresGrad_();
    check("transposed", qb.transpose(2, 3), kb.transpose(1, 2), vb.transpose(2, 3), null, false, null, false, 1e-10, true);
    // slices with storage offsets and steps
    Tensor qs = det(DType.FLOAT64, 4, 2, 3, 9, 6).requiresGrad_(), ks = det(DType.FLOAT64, 5, 2, 3, 11, 9).requiresGrad_();
    Tensor vs = det(DType.FLOAT64, 6, 2, 4, 9, 8).requiresGrad_();
    check("sliced", qs.narrow(2, 2, 5).slice(3, 1, 6, 2), ks.slice(2, 1, 11, 2).narrow(3, 4, 3), vs.narrow(1, 1, 3).narrow(2, 2, 5).narrow(3, 2, 5), null,
        true, null, false, 1e-10, true);
    // stride 0: expanded batch, heads and even sequence
    Tensor qe = det(DType.FLOAT64, 7, 1, 1, 7, 4).requiresGrad_(), ke = det(DType.FLOAT64, 8, 2, 1, 1, 4).requiresGrad_();
    Tensor ve = det(DType.FLOAT64, 9, 1, 3, 6, 3).requiresGrad_();
    check("expanded", qe.expand(2, 3, 7, 4), ke.expand(2, 3, 6, 4), ve.expand(2, 3, 6, 3), null, false, null, false, 1e-10, true);
    // permuted (seq-first layout), GQA, float32
    Tensor qp = det(DType.FLOAT32, 10, 2, 33, 4, 8).requiresGrad_(), kp = det(DType.FLOAT32, 11, 2, 65, 2, 8).requiresGrad_();
    Tensor vp = det(DType.FLOAT32, 12, 2, 65, 2, 5).requiresGrad_();
    check("permuted gqa", qp.permute(0, 2, 1, 3), kp.permute(0, 2, 1, 3), vp.permute(0, 2, 1, 3), null, true, null, true, 2e-5, true);
  }

  @Test
  void everyBroadcastableMaskShapeMatchesTheOracle() {
    long b = 2, h = 3, l = 7, s = 5;
    Tensor q = det(DType.FLOAT64, 1, b, h, l, 4), k = det(DType.FLOAT64, 2, b, h, s, 4), v = det(DType.FLOAT64, 3, b, h, s, 3);
    long[] full = {b, h, l, s};
    for (int bits = 0; bits < 16; bits++) {
      long[] shape = new long[4];
      for (int d = 0; d < 4; d++) shape[d] = (bits >> d & 1) == 1 ? full[d] : 1;
      for (int drop = 0; drop <= 2; drop++) {  // leading dims dropped where they are 1
        long[] ms = shape;
        boolean ok = true;
        for (int d = 0; d < drop; d++) ok &= shape[d] == 1;
        if (!ok) continue;
        ms = Arrays.copyOfRange(shape, drop, 4);
        check("bool mask " + Arrays.toString(ms), q, k, v, det(DType.FLOAT64, 4 + bits, ms).gt(-0.6), bits % 3 == 0, null, false, 1e-10, false);
        check("additive mask " + Arrays.toString(ms), q, k, v, det(DType.FLOAT64, 20 + bits, ms), bits % 3 == 1, null, false, 1e-10, false);
      }
    }
    // a 1-D mask [s] and [1]
    check("mask [s]", q, k, v, det(DType.FLOAT64, 40, s).gt(-0.6), false, null, false, 1e-10, false);
    check("mask [1]", q, k, v, Tensor.ones(new long[] {1}, DType.BOOL), false, null, false, 1e-10, false);
    // odd strides and storage offsets: transposed, stepped slices of a larger storage, expanded with stride 0
    Tensor big = det(DType.FLOAT64, 41, 3, 2, 15, 14);
    check("strided additive mask", q, k, v, big.permute(1, 0, 3, 2).slice(2, 1, 15, 2).slice(3, 0, 14, 3), false, null, false, 1e-10,
        true);
    Tensor bigBool = det(DType.FLOAT64, 42, 2, 3, 14, 15).gt(-0.9);
    check("strided bool mask", q, k, v, bigBool.slice(2, 0, 14, 2).slice(3, 1, 15, 3), true, null, false, 1e-10, true);
    check("transposed bool mask", q, k, v, det(DType.FLOAT64, 43, s, l).gt(-0.6).t(), false, null, false, 1e-10, true);
    check("expanded column mask", q, k, v, det(DType.FLOAT64, 44, l, 1).gt(-0.6).expand(b, h, l, s), false, null, false, 1e-10, true);
    check("expanded row mask", q, k, v, det(DType.FLOAT64, 45, 1, 1, s).expand(b, 1, l, s), false, null, false, 1e-10, true);
    // a mask of more dims than the scores is refused, naming the op
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Functional.scaledDotProductAttention(q, k, v, Tensor.ones(new long[] {1, 1, 1, l, s}, DType.BOOL), 0, false));
    assertTrue(e.getMessage().startsWith(OP), e.getMessage());
  }

  @Test
  void maskDtypeRulesFollowPyTorch() {
    Tensor q = det(DType.FLOAT32, 1, 1, 2, 7, 4), k = det(DType.FLOAT32, 2, 1, 2, 5, 4), v = det(DType.FLOAT32, 3, 1, 2, 5, 3);
    // float32 mask on float64 query: allowed (PyTorch: bool, float or the query's dtype)
    check("float32 mask on float64", q.to(DType.FLOAT64), k.to(DType.FLOAT64), v.to(DType.FLOAT64), det(DType.FLOAT32, 4, 7, 5), false, null,
        false, 1e-10, false);
    // float64 mask on float32 query: refused, as PyTorch
    String m = assertThrows(IllegalArgumentException.class,
        () -> Functional.scaledDotProductAttention(q, k, v, det(DType.FLOAT64, 4, 7, 5), 0, false)).getMessage();
    assertTrue(m.startsWith(OP) && m.contains("Expected attn_mask dtype to be bool or float or to match query dtype"), m);
    // float16 inputs with a float16 additive mask holding -inf rows, and a float32 mask on float16
    Tensor mh = det(DType.FLOAT16, 4, 7, 5);
    mh.select(0, 2).fill_(Double.NEGATIVE_INFINITY);
    mh.select(0, 4).narrow(0, 1, 3).fill_(Double.NEGATIVE_INFINITY);
    Tensor qh = q.to(DType.FLOAT16), kh = k.to(DType.FLOAT16), vh = v.to(DType.FLOAT16);
    check("float16 + float16 mask", qh, kh, vh, mh, false, null, false, 2e-3, false);
    check("float16 + float32 mask", qh, kh, vh, mh.to(DType.FLOAT32), true, null, false, 2e-3, false);
    check("bfloat16 + float32 mask", q.to(DType.BFLOAT16), k.to(DType.BFLOAT16), v.to(DType.BFLOAT16), mh.to(DType.FLOAT32), false, null,
        false, 1e-2, false);
    for (DType bad : new DType[] {DType.BFLOAT16, DType.INT32, DType.INT8, DType.UINT8}) {
      m = assertThrows(IllegalArgumentException.class,
          () -> Functional.scaledDotProductAttention(qh, kh, vh, Tensor.zeros(new long[] {7, 5}, bad), 0, false)).getMessage();
      assertTrue(m.startsWith(OP) && m.contains("attn_mask dtype"), bad + ": " + m);
    }
  }

  @Test
  void sizesAroundTheBlockBoundariesMatchTheOracle() {
    long[] ls = {1, 31, 32, 33, 63, 64, 65, 97, 128, 130};
    long[] ss = {1, 32, 63, 64, 65, 127, 129};
    int i = 0;
    for (long l : ls) {
      for (long s : ss) {
        i++;
        boolean causal = i % 2 == 1;
        DType dtype = i % 4 == 0 ? DType.FLOAT32 : DType.FLOAT64;
        Tensor mask = i % 3 == 0 ? det(DType.FLOAT64, i, l, s).gt(-1.2) : i % 3 == 1 ? null : det(dtype, i, 1, 1, l, s);
        Tensor q = det(dtype, 1, 1, 2, l, 8).requiresGrad_(), k = det(dtype, 2, 1, 2, s, 8).requiresGrad_();
        Tensor v = det(dtype, 3, 1, 2, s, 5).requiresGrad_();
        check("l=" + l + " s=" + s + " causal=" + causal, q, k, v, mask, causal, null, false, dtype == DType.FLOAT64 ? 1e-10 : 3e-5, true);
      }
    }
  }

  @Test
  void embeddingSizesAcrossTheVectorWidthsMatchTheOracle() {
    for (long e : new long[] {1, 3, 7, 15, 16, 17, 33, 65, 130}) {
      for (DType dtype : new DType[] {DType.FLOAT64, DType.FLOAT32}) {
        Tensor q = det(dtype, 1, 1, 1, 5, e).requiresGrad_(), k = det(dtype, 2, 1, 1, 70, e).requiresGrad_();
        Tensor v = det(dtype, 3, 1, 1, 70, e + 1).requiresGrad_();
        check("e=" + e, q, k, v, null, e % 2 == 1, 0.3, false, dtype == DType.FLOAT64 ? 1e-10 : 3e-5, true);
      }
    }
  }

  @Test
  void gqaGroupSizesOneToEightMatchTheOracle() {
    for (long group = 1; group <= 8; group++) {
      for (long hk : new long[] {1, 2}) {
        long h = group * hk;
        Tensor q = det(DType.FLOAT64, 1, 2, h, 9, 4).requiresGrad_(), k = det(DType.FLOAT64, 2, 2, hk, 11, 4).requiresGrad_();
        Tensor v = det(DType.FLOAT64, 3, 2, hk, 11, 3).requiresGrad_();
        Tensor mask = group % 3 == 0 ? det(DType.FLOAT64, 4, h, 9, 11) : null;
        check("group " + group + " kv heads " + hk, q, k, v, mask, group % 2 == 1, null, true, 1e-10, true);
      }
    }
    // key/value batch broadcast against the query's, 3-D query, 5-D inputs
    Tensor q = det(DType.FLOAT64, 1, 2, 4, 9, 4), k = det(DType.FLOAT64, 2, 1, 2, 11, 4), v = det(DType.FLOAT64, 3, 1, 2, 11, 3);
    check("gqa batch broadcast", q, k, v, det(DType.FLOAT64, 4, 4, 9, 11), false, null, true, 1e-10, false);
    check("gqa 3-D query", det(DType.FLOAT64, 5, 4, 7, 4), det(DType.FLOAT64, 6, 2, 2, 5, 4), det(DType.FLOAT64, 7, 2, 2, 5, 3), null, true, null,
        true, 1e-10, false);
    check("gqa 5-D", det(DType.FLOAT64, 8, 2, 1, 6, 7, 4), det(DType.FLOAT64, 9, 1, 3, 3, 5, 4), det(DType.FLOAT64, 10, 2, 3, 3, 5, 3),
        det(DType.FLOAT64, 11, 3, 6, 1, 5).gt(-0.6), false, 0.5, true, 1e-10, false);
  }

  @Test
  void causalWithLAboveAndBelowSAndWithAMask() {
    for (long[] ls : new long[][] {{9, 4}, {4, 9}, {70, 33}, {33, 70}, {1, 130}, {130, 1}, {100, 100}}) {
      Tensor q = det(DType.FLOAT64, 1, 1, 2, ls[0], 4).requiresGrad_(), k = det(DType.FLOAT64, 2, 1, 2, ls[1], 4).requiresGrad_();
      Tensor v = det(DType.FLOAT64, 3, 1, 2, ls[1], 3).requiresGrad_();
      check("causal " + Arrays.toString(ls), q, k, v, null, true, null, false, 1e-10, true);
      check("causal+bool " + Arrays.toString(ls), q, k, v, det(DType.FLOAT64, 4, ls[0], ls[1]).gt(-0.4), true, null, false, 1e-10, true);
    }
  }

  @Test
  void degenerateSizesMatchTheOracle() {
    // L = 1, S = 1, L = S = E = 1, Ev = 0, batch 0, L = 0, S = 0 (no mask)
    long[][] shapes = {  // b, h, l, s, e, ev
        {1, 2, 1, 5, 4, 3}, {1, 2, 6, 1, 4, 3}, {1, 1, 1, 1, 1, 1}, {1, 2, 3, 5, 4, 0}, {0, 2, 3, 5, 4, 3}, {1, 2, 0, 5, 4, 3},
        {1, 2, 3, 0, 4, 3}};
    for (long[] c : shapes) {
      for (boolean causal : new boolean[] {false, true}) {
        Tensor q = det(DType.FLOAT64, 1, c[0], c[1], c[2], c[4]).requiresGrad_(), k = det(DType.FLOAT64, 2, c[0], c[1], c[3], c[4]).requiresGrad_();
        Tensor v = det(DType.FLOAT64, 3, c[0], c[1], c[3], c[5]).requiresGrad_();
        check(Arrays.toString(c) + " causal " + causal, q, k, v, null, causal, null, false, 1e-12, true);
      }
    }
    // 2-D, 3-D and 5-D inputs, broadcast between query, key and value
    check("2-D", det(DType.FLOAT64, 1, 7, 4).requiresGrad_(), det(DType.FLOAT64, 2, 5, 4).requiresGrad_(), det(DType.FLOAT64, 3, 5, 3)
        .requiresGrad_(), det(DType.FLOAT64, 4, 7, 5).gt(-0.6), false, null, false, 1e-10, true);
    check("3-D", det(DType.FLOAT64, 1, 3, 7, 4).requiresGrad_(), det(DType.FLOAT64, 2, 3, 5, 4).requiresGrad_(), det(DType.FLOAT64, 3, 3, 5, 3)
        .requiresGrad_(), det(DType.FLOAT64, 4, 3, 1, 5).gt(-0.6), true, null, false, 1e-10, true);
    check("5-D", det(DType.FLOAT64, 1, 2, 2, 3, 7, 4), det(DType.FLOAT64, 2, 2, 1, 3, 5, 4), det(DType.FLOAT64, 3, 1, 2, 3, 5, 3),
        det(DType.FLOAT64, 4, 2, 1, 1, 7, 5), false, null, false, 1e-10, false);
    check("2-D query, 4-D key", det(DType.FLOAT64, 1, 7, 4), det(DType.FLOAT64, 2, 2, 3, 5, 4), det(DType.FLOAT64, 3, 5, 3), null, false, null,
        false, 1e-10, false);
  }

  /** Values pasted from PyTorch 2.13 for inf in a key and for huge, negative and zero scales. */
  @Test
  void infinitiesAndExtremeScalesMatchPyTorch() {
    Tensor q = det(DType.FLOAT64, 1, 1, 1, 3, 4), k = det(DType.FLOAT64, 2, 1, 1, 5, 4), v = det(DType.FLOAT64, 3, 1, 1, 5, 2);
    Tensor kInf = k.clone();
    kInf.reshape(-1).narrow(0, 8, 1).fill_(Double.POSITIVE_INFINITY);  // key 2, dim 0
    assertClose(new double[] {NAN, NAN, 0.8502807586986287, 0.8024854473776313, 0.5409833422882506, -0.14666948913743483},
        Functional.scaledDotProductAttention(q, kInf, v, null, 0, false).toDoubleArray(), 1e-12, "+inf in a key");
    double[] hard = {0.1330469697713852, 0.9741222858428955, 1.4548481702804565, 1.3973933458328247, 0.8230117559432983, -0.05582016706466675};
    assertClose(hard, Functional.scaledDotProductAttention(q.to(DType.FLOAT32), k.to(DType.FLOAT32), v.to(DType.FLOAT32), null, 0, false,
        1e30).toDoubleArray(), 1e-6, "scale 1e30 in float32");
    assertClose(hard, Functional.scaledDotProductAttention(q, k, v, null, 0, false, 1e30).toDoubleArray(), 1e-6, "scale 1e30 in float64");
    Tensor m = Tensor.zeros(new long[] {3, 5}, DType.FLOAT64);
    m.select(0, 1).narrow(0, 2, 1).fill_(Double.POSITIVE_INFINITY);
    assertClose(new double[] {0.1662094406889394, 0.5970145092094609, NAN, NAN, 0.45344308710867665, 0.09384448012327498},
        Functional.scaledDotProductAttention(q, k, v, m, 0, false).toDoubleArray(), 1e-12, "+inf in the mask");
    Tensor vInf = v.clone();
    vInf.reshape(-1).narrow(0, 4, 1).fill_(Double.POSITIVE_INFINITY);
    assertClose(new double[] {Double.POSITIVE_INFINITY, 0.5970145092094609, Double.POSITIVE_INFINITY, 0.803234764150374,
        Double.POSITIVE_INFINITY, 0.09384448012327498}, Functional.scaledDotProductAttention(q, k, vInf, null, 0, false).toDoubleArray(), 1e-12,
        "+inf in a value");
    Tensor qg = q.clone().requiresGrad_(), kg = k.clone().requiresGrad_(), vg = v.clone().requiresGrad_();
    check("negative scale", qg, kg, vg, null, false, -2.5, false, 1e-10, true);
    check("zero scale", qg, kg, vg, null, true, 0.0, false, 1e-10, true);
    check("huge scale", qg, kg, vg, null, false, 1e6, false, 1e-10, true);
  }

  @Test
  void fullyMaskedRowsGiveZerosAndZeroGradientsEvenAcrossBlocks() {
    for (DType dtype : new DType[] {DType.FLOAT64, DType.FLOAT32, DType.FLOAT16}) {
      Tensor mask = det(DType.FLOAT64, 4, 70, 130).gt(-0.5);
      mask.select(0, 0).fill_(false);
      mask.select(0, 33).fill_(false);
      mask.select(0, 69).narrow(0, 0, 64).fill_(false);  // the first block only
      Tensor add = Tensor.zeros(new long[] {70, 130}, dtype).maskedFill(mask.logicalNot(), Double.NEGATIVE_INFINITY);
      Tensor q = det(dtype, 1, 1, 2, 70, 8).requiresGrad_(), k = det(dtype, 2, 1, 2, 130, 8).requiresGrad_();
      Tensor v = det(dtype, 3, 1, 2, 130, 4).requiresGrad_();
      double tol = dtype == DType.FLOAT64 ? 1e-10 : dtype == DType.FLOAT32 ? 3e-5 : 3e-3;
      check("bool " + dtype, q, k, v, mask, false, null, false, tol, dtype != DType.FLOAT16);
      check("additive -inf " + dtype, q, k, v, add, false, null, false, tol, dtype != DType.FLOAT16);
      Tensor out = Functional.scaledDotProductAttention(q, k, v, mask, 0, false);
      for (double x : out.select(2, 0).toDoubleArray()) assertEquals(0.0, x, 0.0);
    }
  }

  @Test
  void aMaskThatRequiresGradGetsTheOracleGradient() {
    Tensor q = det(DType.FLOAT64, 1, 2, 4, 9, 4).requiresGrad_(), k = det(DType.FLOAT64, 2, 2, 2, 4, 4).requiresGrad_();
    Tensor v = det(DType.FLOAT64, 3, 2, 2, 4, 3).requiresGrad_();
    check("gqa causal L > S, float64 mask", q, k, v, det(DType.FLOAT64, 4, 4, 9, 4).requiresGrad_(), true, null, true, 1e-10, true);
    check("float32 mask on float64", q, k, v, det(DType.FLOAT32, 5, 1, 9, 4).requiresGrad_(), false, null, true, 1e-6, true);
    check("mask only", q.detach(), k.detach(), v.detach(), det(DType.FLOAT64, 6, 9, 4).requiresGrad_(), false, 0.7, true, 1e-10, true);
    Tensor rows = det(DType.FLOAT64, 7, 9, 4);
    rows.select(0, 3).fill_(Double.NEGATIVE_INFINITY);
    check("mask with a -inf row", q, k, v, rows.requiresGrad_(), false, null, true, 1e-10, true);
    Tensor qh = det(DType.FLOAT16, 1, 1, 2, 7, 8).requiresGrad_(), kh = det(DType.FLOAT16, 2, 1, 2, 9, 8).requiresGrad_();
    Tensor vh = det(DType.FLOAT16, 3, 1, 2, 9, 4).requiresGrad_();
    Tensor out = Functional.scaledDotProductAttention(qh, kh, vh, det(DType.FLOAT16, 4, 7, 9).requiresGrad_(), 0, false);
    assertEquals(DType.FLOAT16, out.dtype());
  }

  @Test
  void gradientsOnOnlySomeInputs() {
    Tensor q = det(DType.FLOAT64, 1, 2, 3, 7, 4), k = det(DType.FLOAT64, 2, 2, 3, 5, 4), v = det(DType.FLOAT64, 3, 2, 3, 5, 3);
    Tensor mask = det(DType.FLOAT64, 4, 7, 5);
    for (int bits = 1; bits < 8; bits++) {
      Tensor qq = (bits & 1) != 0 ? q.clone().requiresGrad_() : q, kk = (bits & 2) != 0 ? k.clone().requiresGrad_() : k;
      Tensor vv = (bits & 4) != 0 ? v.clone().requiresGrad_() : v;
      check("inputs " + bits, qq, kk, vv, mask, bits % 2 == 0, null, false, 1e-10, true);
      Functional.scaledDotProductAttention(qq, kk, vv, mask, 0, false).sum().backward();
      assertEquals((bits & 1) != 0, qq.grad() != null, "query gradient");
      assertEquals((bits & 2) != 0, kk.grad() != null, "key gradient");
      assertEquals((bits & 4) != 0, vv.grad() != null, "value gradient");
    }
    // nothing requires grad: no graph
    assertTrue(Functional.scaledDotProductAttention(q, k, v, mask, 0, false).gradFn() == null);
  }

  @Test
  void secondBackwardIsRefusedAndRetainGraphAccumulates() {
    for (DType dtype : new DType[] {DType.FLOAT64, DType.FLOAT32, DType.FLOAT16}) {
      Tensor q = det(dtype, 1, 1, 2, 5, 4).requiresGrad_(), k = det(dtype, 2, 1, 2, 6, 4).requiresGrad_(), v = det(dtype, 3, 1, 2, 6, 3)
          .requiresGrad_();
      Tensor s = Functional.scaledDotProductAttention(q, k, v, null, 0, true).sum();
      s.backward();
      IllegalStateException e = assertThrows(IllegalStateException.class, s::backward);
      assertTrue(e.getMessage().contains("backward through the graph a second time"), e.getMessage());
      double[] once = q.grad().toDoubleArray();
      q.setGrad(null);
      Tensor s2 = Functional.scaledDotProductAttention(q, k, v, null, 0, true).sum();
      s2.backward(Tensor.onesLike(s2), true, false);
      s2.backward(Tensor.onesLike(s2), true, false);
      double[] twice = q.grad().toDoubleArray();
      for (int i = 0; i < once.length; i++) assertEquals(2 * once[i], twice[i], dtype == DType.FLOAT16 ? 2e-3 : 1e-6);
    }
  }

  @Test
  void selfAttentionWithOneTensorForQueryKeyAndValue() {
    Tensor x = det(DType.FLOAT64, 1, 1, 2, 70, 8).requiresGrad_();
    check("q = k = v", x, x, x, null, true, null, false, 1e-10, true);
    Tensor kv = det(DType.FLOAT64, 2, 1, 2, 70, 8).requiresGrad_();
    check("k = v", x.narrow(2, 3, 40), kv, kv, det(DType.FLOAT64, 3, 40, 70).gt(-1), false, null, false, 1e-10, true);
  }

  /**
   * In-place changes after the forward: PyTorch 2.13's CPU composition saves neither the output
   * nor the mask, so it gives the gradients of the forward's inputs (grad q[0..3] below); jtensor
   * saves them (and the query) and refuses with "modified by an inplace operation". Either is
   * accepted here; silently different gradients are not.
   */
  @Test
  void inPlaceChangesAfterTheForwardNeverGiveWrongGradients() {
    double[] torchGq = {1.4315211098929415, 0.9931784943734847, 0.18743710214886247, -0.6876414358444006};
    Tensor q = det(DType.FLOAT64, 1, 1, 2, 5, 4).requiresGrad_(), k = det(DType.FLOAT64, 2, 1, 2, 6, 4).requiresGrad_();
    Tensor v = det(DType.FLOAT64, 3, 1, 2, 6, 3).requiresGrad_();
    Tensor out = Functional.scaledDotProductAttention(q, k, v, null, 0, false);
    out.mul_(2);
    try {
      out.sum().backward();
      assertClose(torchGq, Arrays.copyOf(q.grad().toDoubleArray(), 4), 1e-10, "gradient after out.mul_(2)");
    } catch (IllegalStateException e) {
      assertTrue(e.getMessage().contains("modified by an inplace operation"), e.getMessage());
    }
    q.setGrad(null);
    Tensor mask = det(DType.FLOAT64, 4, 5, 6);
    Tensor o2 = Functional.scaledDotProductAttention(q, k, v, mask, 0, false);
    mask.add_(1);
    try {
      o2.sum().backward();
      assertClose(new double[] {0.9961445736916331, 0.2355855466792011, -0.6121218047781294, -1.2333917096494762},
          Arrays.copyOf(q.grad().toDoubleArray(), 4), 1e-10, "gradient after mask.add_(1)");
    } catch (IllegalStateException e) {
      assertTrue(e.getMessage().contains("modified by an inplace operation"), e.getMessage());
    }
  }

  @Test
  void dropoutOneZeroesTheOutputAndTheGradients() {
    for (DType dtype : new DType[] {DType.FLOAT64, DType.FLOAT32}) {
      Tensor q = det(dtype, 1, 1, 4, 33, 4).requiresGrad_(), k = det(dtype, 2, 1, 2, 65, 4).requiresGrad_(), v = det(dtype, 3, 1, 2, 65, 3)
          .requiresGrad_();
      Tensor out = Functional.scaledDotProductAttention(q, k, v, det(DType.FLOAT64, 4, 33, 65).gt(-1), 1.0, true, null, true, new Generator(3));
      for (double x : out.toDoubleArray()) assertEquals(0.0, x, 0.0);
      out.backward(det(dtype, 99, out.shape()));
      for (Tensor g : List.of(q.grad(), k.grad(), v.grad())) for (double x : g.toDoubleArray()) assertEquals(0.0, x, 0.0);
      // the reference path (a mask that needs a gradient) too
      Tensor bias = det(dtype, 5, 33, 65).requiresGrad_();
      Tensor o2 = Functional.scaledDotProductAttention(q, k, v, bias, 1.0, false, null, true, new Generator(3));
      for (double x : o2.toDoubleArray()) assertEquals(0.0, x, 0.0);
      o2.sum().backward();
      for (double x : bias.grad().toDoubleArray()) assertEquals(0.0, x, 0.0);
    }
  }

  @Test
  void dropoutFactorsAgreeBetweenForwardAndBackwardAcrossBlocks() {
    // V = identity reveals A = P * Z (the kept, scaled probabilities); the same seed then must give
    // out = A V and grad_v = A^T up with any V, and A's entries must be 0 or P / (1 - p).
    long b = 1, h = 4, hk = 2, l = 70, s = 130;
    double p = 0.3;
    Tensor q = det(DType.FLOAT64, 1, b, h, l, 8), k = det(DType.FLOAT64, 2, b, hk, s, 8);
    Tensor mask = det(DType.FLOAT64, 4, l, s).gt(-1.2);
    Tensor eye = Tensor.eye(s).to(DType.FLOAT64).reshape(1, 1, s, s).expand(b, hk, s, s);
    Generator g = new Generator(0);
    double[] a = Functional.scaledDotProductAttention(q, k, eye, mask, p, true, null, true, g.setSeed(11)).toDoubleArray();
    double[] probs = Functional.scaledDotProductAttention(q, k, eye, mask, 0, true, null, true, g).toDoubleArray();
    long dropped = 0, candidates = 0;
    for (int i = 0; i < a.length; i++) {
      if (probs[i] == 0) {
        assertEquals(0.0, a[i], 0.0);
        continue;
      }
      candidates++;
      if (a[i] == 0) dropped++;
      else assertEquals(probs[i] / (1 - p), a[i], 1e-12);
    }
    assertEquals(p, dropped / (double) candidates, 5 * Math.sqrt(p * (1 - p) / candidates), "fraction dropped");
    Tensor v = det(DType.FLOAT64, 3, b, hk, s, 5).requiresGrad_();
    Tensor out = Functional.scaledDotProductAttention(q, k, v, mask, p, true, null, true, g.setSeed(11));
    Tensor up = det(DType.FLOAT64, 99, b, h, l, 5);
    out.backward(up);
    Tensor at = Tensor.fromArray(a, b, h, l, s);
    assertClose(at.matmul(v.detach().reshape(b, hk, 1, s, 5).expand(b, hk, 2, s, 5).reshape(b, h, s, 5)).toDoubleArray(), out.toDoubleArray(),
        1e-10, "out = A V");
    Tensor gv = at.transpose(2, 3).matmul(up).reshape(b, hk, 2, s, 5).sum(2);
    assertClose(gv.toDoubleArray(), v.grad().toDoubleArray(), 1e-10, "grad_v = A^T up");
  }

  @Test
  void dropoutGradientsPassGradcheckAcrossBlocksAndOnTheReferencePath() {
    Tensor q = det(DType.FLOAT64, 1, 1, 2, 33, 3).requiresGrad_(), k = det(DType.FLOAT64, 2, 1, 1, 66, 3).requiresGrad_();
    Tensor v = det(DType.FLOAT64, 3, 1, 1, 66, 2).requiresGrad_();
    Tensor mask = det(DType.FLOAT64, 4, 33, 66).gt(-1.2);
    mask.select(0, 5).fill_(false);  // a row with every key masked
    Generator drops = new Generator(0);
    GradCheck.check(in -> Functional.scaledDotProductAttention(in.get(0), in.get(1), in.get(2), mask, 0.4, true, null, true, drops.setSeed(9)),
        List.of(q, k, v));
    Tensor qs = det(DType.FLOAT64, 1, 1, 2, 5, 3).requiresGrad_(), ks = det(DType.FLOAT64, 2, 1, 1, 7, 3).requiresGrad_();
    Tensor vs = det(DType.FLOAT64, 3, 1, 1, 7, 2).requiresGrad_(), bias = det(DType.FLOAT64, 4, 5, 7).requiresGrad_();
    GradCheck.check(in -> Functional.scaledDotProductAttention(in.get(0), in.get(1), in.get(2), in.get(3), 0.4, false, null, true,
        drops.setSeed(9)), List.of(qs, ks, vs, bias));
    GradCheck.checkSecondOrder(in -> Functional.scaledDotProductAttention(in.get(0), in.get(1), in.get(2), null, 0.4, true, null, true,
        drops.setSeed(9)), List.of(qs, ks, vs), 3);
    Tensor rows = det(DType.FLOAT64, 5, 5, 7).gt(0.3);
    rows.select(0, 2).fill_(false);
    GradCheck.checkSecondOrder(in -> Functional.scaledDotProductAttention(in.get(0), in.get(1), in.get(2), rows, 0, false, null, true,
        new Generator(1)), List.of(qs, ks, vs), 3);
  }

  @Test
  void dropoutKeepsFullyMaskedRowsZero() {
    Tensor mask = Tensor.ones(new long[] {40, 70}, DType.BOOL);
    mask.select(0, 7).fill_(false);
    Tensor q = det(DType.FLOAT32, 1, 1, 2, 40, 8).requiresGrad_(), k = det(DType.FLOAT32, 2, 1, 2, 70, 8).requiresGrad_();
    Tensor v = det(DType.FLOAT32, 3, 1, 2, 70, 4).requiresGrad_();
    Tensor out = Functional.scaledDotProductAttention(q, k, v, mask, 0.5, false, null, false, new Generator(2));
    for (double x : out.select(2, 7).toDoubleArray()) assertEquals(0.0, x, 0.0);
    out.sum().backward();
    for (double x : q.grad().select(2, 7).toDoubleArray()) assertEquals(0.0, x, 0.0);
    for (Tensor g : List.of(q.grad(), k.grad(), v.grad())) for (double x : g.toDoubleArray()) assertTrue(Double.isFinite(x));
  }

  @Test
  void closedInputsGiveIllegalStateException() {
    Tensor q = Tensor.randn(1, 2, 3, 4), k = Tensor.randn(1, 2, 5, 4), v = Tensor.randn(1, 2, 5, 3), m = Tensor.randn(3, 5);
    for (int which = 0; which < 4; which++) {
      Tensor[] in = {q.clone(), k.clone(), v.clone(), m.clone()};
      in[which].close();
      assertThrows(IllegalStateException.class, () -> Functional.scaledDotProductAttention(in[0], in[1], in[2], in[3], 0, false));
    }
    // closing the inputs between forward and backward: the saved tensors keep what the backward needs
    Tensor qq = q.clone().requiresGrad_(), kk = k.clone().requiresGrad_(), vv = v.clone().requiresGrad_(), mm = m.clone();
    Tensor out = Functional.scaledDotProductAttention(qq, kk, vv, mm, 0, false);
    double[] want;
    try (TensorScope s = TensorScope.open()) {
      Tensor q2 = q.clone().requiresGrad_();
      Functional.scaledDotProductAttention(q2, k, v, m, 0, false).sum().backward();
      want = q2.grad().toDoubleArray();
    }
    Tensor[] grads = Autograd.grad(List.of(out.sum()), null, List.of(qq), false, false, false).toArray(new Tensor[0]);
    assertClose(want, grads[0].toDoubleArray(), 1e-6, "before close");
    Tensor out2 = Functional.scaledDotProductAttention(qq, kk, vv, mm, 0, false);
    Tensor sum = out2.sum();
    mm.close();
    kk.close();
    vv.close();
    Tensor g2 = Autograd.grad(List.of(sum), null, List.of(qq), false, false, false).get(0);
    assertClose(want, g2.toDoubleArray(), 1e-6, "after closing key, value and mask");
  }

  @Test
  void closingInputsFromAnotherThreadGivesOnlyIllegalStateOrTheRightResult() throws Exception {
    for (int victim = 0; victim < 4; victim++) {
      for (int rep = 0; rep < 6; rep++) {
        Tensor q = det(DType.FLOAT32, 1, 1, 4, 200, 32), k = det(DType.FLOAT32, 2, 1, 2, 300, 32), v = det(DType.FLOAT32, 3, 1, 2, 300, 16);
        Tensor mask = det(DType.FLOAT32, 4, 200, 300);
        Tensor[] all = {q, k, v, mask};
        boolean causal = rep % 2 == 0;
        double[] want = Functional.scaledDotProductAttention(q, k, v, mask, 0, causal, null, true, new Generator(1)).toDoubleArray();
        raceClose(all, victim, rep, 300_000L * rep, 100, () -> {
          Tensor out = Functional.scaledDotProductAttention(q, k, v, mask, 0, causal, null, true, new Generator(1));
          if (!Arrays.equals(want, out.toDoubleArray())) throw new AssertionError("a different result");
        });
      }
    }
  }

  @Test
  void closingInputsFromAnotherThreadDuringBackward() throws Exception {
    for (int victim = 0; victim < 4; victim++) {
      for (int rep = 0; rep < 4; rep++) {
        Tensor q = det(DType.FLOAT32, 1, 1, 4, 150, 32).requiresGrad_(), k = det(DType.FLOAT32, 2, 1, 2, 200, 32).requiresGrad_();
        Tensor v = det(DType.FLOAT32, 3, 1, 2, 200, 16).requiresGrad_();
        Tensor mask = det(DType.FLOAT32, 4, 150, 200);
        Tensor[] all = {q, k, v, mask};
        double[][] want = new double[3][];
        try (TensorScope s = TensorScope.open()) {
          Tensor out = Functional.scaledDotProductAttention(q, k, v, mask, 0, true, null, true, new Generator(1));
          List<Tensor> g = Autograd.grad(List.of(out.sum()), null, List.of(q, k, v), false, false, false);
          for (int i = 0; i < 3; i++) want[i] = g.get(i).toDoubleArray();
        }
        raceClose(all, victim, rep, 700_000L * rep, 60, () -> {
          Tensor out = Functional.scaledDotProductAttention(q, k, v, mask, 0, true, null, true, new Generator(1));
          List<Tensor> g = Autograd.grad(List.of(out.sum()), null, List.of(q, k, v), false, false, false);
          for (int j = 0; j < 3; j++) {
            if (!Arrays.equals(want[j], g.get(j).toDoubleArray())) throw new AssertionError("a different gradient " + j);
          }
        });
      }
    }
  }

  /**
   * Runs round (in a scope of its own; an AssertionError for a wrong result) up to `rounds` times on
   * another thread, while this thread waits delayNanos and closes all[victim]: a round may only end
   * in IllegalStateException (three of those end the loop), never a wrong value or another error.
   */
  private static void raceClose(Tensor[] all, int victim, int rep, long delayNanos, int rounds, Runnable round) throws InterruptedException {
    CloseRace.closeDuring(round, all[victim], 0, delayNanos, rounds, 3, "victim " + victim + " rep " + rep);
  }

  @Test
  void concurrentCallsAgreeBitForBit() throws Exception {
    Generator g = new Generator(3);
    Tensor q = Tensor.randn(new long[] {2, 4, 100, 32}, g), k = Tensor.randn(new long[] {2, 2, 130, 32}, g);
    Tensor v = Tensor.randn(new long[] {2, 2, 130, 16}, g), m = Tensor.randn(new long[] {100, 130}, g);
    double[] want = Functional.scaledDotProductAttention(q, k, v, m, 0, true, null, true, g).toDoubleArray();
    double[] wantGq;
    try (TensorScope s = TensorScope.open()) {
      Tensor qq = q.detach().requiresGrad_();
      Functional.scaledDotProductAttention(qq, k, v, m, 0, true, null, true, g).sum().backward();
      wantGq = qq.grad().toDoubleArray();
    }
    ExecutorService ex = Executors.newFixedThreadPool(4);
    try {
      List<Future<String>> fs = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        fs.add(ex.submit(() -> {
          for (int i = 0; i < 15; i++) {
            try (TensorScope s = TensorScope.open()) {
              Tensor qq = q.detach().requiresGrad_();
              Tensor out = Functional.scaledDotProductAttention(qq, k, v, m, 0, true, null, true, new Generator(1));
              if (!Arrays.equals(out.toDoubleArray(), want)) return "forward differs";
              out.sum().backward();
              if (!Arrays.equals(qq.grad().toDoubleArray(), wantGq)) return "gradient differs";
            }
          }
          return "ok";
        }));
      }
      for (Future<String> f : fs) assertEquals("ok", f.get());
    } finally {
      ex.shutdown();
    }
  }

  @Test
  void badArgumentsNameTheOpAndTheRule() {
    Tensor q = Tensor.randn(1, 2, 3, 4), k = Tensor.randn(1, 2, 5, 4), v = Tensor.randn(1, 2, 5, 3);
    String[][] cases = {
        {"null", "query, key and value are required"}, {"gen", "expected a Generator"}, {"p<0", "dropout probability"},
        {"pNaN", "dropout probability"}, {"p>1", "dropout probability"}, {"1-D", "at least 2 dims"}, {"gqa2D", "at least 3 dims"},
        {"S", "same sequence length"}, {"E", "same embedding dim"}, {"kvheads", "same number of heads"},
        {"divide", "must divide the number of heads in query"}, {"dtype", "same dtype"}, {"int", "floating point"},
        {"mask", "must match the size of tensor b"}};
    for (String[] c : cases) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> {
        switch (c[0]) {
          case "null" -> Functional.scaledDotProductAttention(q, null, v, null, 0, false);
          case "gen" -> Functional.scaledDotProductAttention(q, k, v, null, 0.5, false, null, false, null);
          case "p<0" -> Functional.scaledDotProductAttention(q, k, v, null, -0.1, false);
          case "pNaN" -> Functional.scaledDotProductAttention(q, k, v, null, Double.NaN, false);
          case "p>1" -> Functional.scaledDotProductAttention(q, k, v, null, 1.0000001, false);
          case "1-D" -> Functional.scaledDotProductAttention(Tensor.randn(4), Tensor.randn(4), Tensor.randn(4), null, 0, false);
          case "gqa2D" -> Functional.scaledDotProductAttention(Tensor.randn(3, 4), Tensor.randn(5, 4), Tensor.randn(5, 3), null, 0, false, null,
              true, new Generator(1));
          case "S" -> Functional.scaledDotProductAttention(q, k, Tensor.randn(1, 2, 4, 3), null, 0, false);
          case "E" -> Functional.scaledDotProductAttention(q, Tensor.randn(1, 2, 5, 3), v, null, 0, false);
          case "kvheads" -> Functional.scaledDotProductAttention(Tensor.randn(1, 4, 3, 4), Tensor.randn(1, 2, 5, 4), Tensor.randn(1, 1, 5, 3), null,
              0, false, null, true, new Generator(1));
          case "divide" -> Functional.scaledDotProductAttention(Tensor.randn(1, 3, 3, 4), Tensor.randn(1, 2, 5, 4), Tensor.randn(1, 2, 5, 3), null,
              0, false, null, true, new Generator(1));
          case "dtype" -> Functional.scaledDotProductAttention(q, k.to(DType.FLOAT64), v, null, 0, false);
          case "int" -> Functional.scaledDotProductAttention(q.to(DType.INT32), k.to(DType.INT32), v.to(DType.INT32), null, 0, false);
          case "mask" -> Functional.scaledDotProductAttention(q, k, v, Tensor.randn(3, 4), 0, false);
          default -> fail(c[0]);
        }
      }, c[0]);
      assertTrue(e.getMessage().startsWith(OP + "()") && e.getMessage().contains(c[1]), c[0] + ": " + e.getMessage());
    }
  }

  // =====================================================================================
  // The oracle and helpers
  // =====================================================================================

  /** sin(0.618 i + 1.3 seed) * 1.5 over the flat index, computed in float64, as dtype. */
  private static Tensor det(DType dtype, int seed, long... shape) {
    long n = 1;
    for (long d : shape) n *= d;
    double[] a = new double[(int) n];
    for (int i = 0; i < n; i++) a[i] = Math.sin(i * 0.618 + seed * 1.3) * 1.5;
    try (TensorScope s = TensorScope.open()) {
      Tensor t = Tensor.fromArray(a, shape);
      return s.keep(dtype == DType.FLOAT64 ? t : t.to(dtype));
    }
  }

  /** Equal where both are NaN or the same infinity, else within tol · (1 + |want|). */
  private static void assertClose(double[] want, double[] got, double tol, String what) {
    Close.assertElements(what, want, got, w -> tol * (1 + Math.abs(w)));
  }

  /** The oracle's results: out [n, h, l, ev]; with an upstream gradient, those of q, k, v and the scores (= the mask's). */
  private record Ref(double[] out, double[] gq, double[] gk, double[] gv, double[] gs) {}

  /**
   * Attention in plain double loops with PyTorch's semantics: scores scale·q·k (+ the additive
   * mask, or -inf where the bool mask is false, or causal j > i); a row whose every score is -inf
   * gives 0; otherwise softmax (a NaN anywhere in the row makes the row NaN). Key/value head
   * h / (heads / kvHeads) serves query head h.
   */
  private static Ref oracle(int n, int h, int hk, int l, int s, int e, int ev, double[] q, double[] k, double[] v, double[] mask,
                            boolean boolMask, boolean causal, double scale, double[] up) {
    double[] out = new double[n * h * l * ev];
    double[] gq = new double[n * h * l * e], gk = new double[n * hk * s * e], gv = new double[n * hk * s * ev], gs = new double[n * h * l * s];
    int group = h / hk;
    double[] w = new double[s], p = new double[s], dp = new double[s];
    for (int b = 0; b < n; b++) {
      for (int hh = 0; hh < h; hh++) {
        int kv = (b * hk + hh / group) * s;
        for (int i = 0; i < l; i++) {
          int row = (b * h + hh) * l + i;
          double max = Double.NEGATIVE_INFINITY;
          boolean allMasked = true;
          for (int j = 0; j < s; j++) {
            double dot = 0;
            for (int d = 0; d < e; d++) dot += q[row * e + d] * k[(kv + j) * e + d];
            double sc = dot * scale;
            if (mask != null) sc = boolMask ? (mask[row * s + j] != 0 ? sc : Double.NEGATIVE_INFINITY) : sc + mask[row * s + j];
            if (causal && j > i) sc = Double.NEGATIVE_INFINITY;
            w[j] = sc;
            max = Math.max(max, sc);
            allMasked &= sc == Double.NEGATIVE_INFINITY;
          }
          double sum = 0;
          for (int j = 0; j < s; j++) sum += p[j] = allMasked ? 0 : Math.exp(w[j] - max);
          for (int j = 0; j < s; j++) p[j] = allMasked ? 0 : p[j] / sum;
          for (int d = 0; d < ev; d++) {
            double acc = 0;
            for (int j = 0; j < s; j++) acc += p[j] * v[(kv + j) * ev + d];
            out[row * ev + d] = acc;
          }
          if (up == null) continue;
          double dd = 0;
          for (int j = 0; j < s; j++) {
            double acc = 0;
            for (int d = 0; d < ev; d++) acc += up[row * ev + d] * v[(kv + j) * ev + d];
            dp[j] = acc;
            dd += p[j] * acc;
          }
          for (int j = 0; j < s; j++) {
            double ds = p[j] * (dp[j] - dd);
            if (allMasked) ds = 0;
            gs[row * s + j] = ds;
            for (int d = 0; d < e; d++) {
              gq[row * e + d] += scale * ds * k[(kv + j) * e + d];
              gk[(kv + j) * e + d] += scale * ds * q[row * e + d];
            }
            for (int d = 0; d < ev; d++) gv[(kv + j) * ev + d] += p[j] * up[row * ev + d];
          }
        }
      }
    }
    return new Ref(out, gq, gk, gv, gs);
  }

  /**
   * Runs the attention of q, k, v (as passed: views, broadcast) and checks the output, and with
   * grads the gradients of every argument that requires one (through Autograd.grad, with respect
   * to the arguments themselves), against the oracle on the broadcast inputs.
   */
  private static void check(String what, Tensor q, Tensor k, Tensor v, Tensor mask, boolean causal, Double scale, boolean gqa, double tol,
                            boolean grads) {
    try (TensorScope scope = TensorScope.open()) {
      Tensor out = Functional.scaledDotProductAttention(q, k, v, mask, 0, causal, scale, gqa, new Generator(1));
      assertEquals(q.dtype(), out.dtype(), what);
      long[] os = out.shape();
      int r = os.length;
      long l = os[r - 2], ev = os[r - 1], e = q.shape()[q.dim() - 1], s = k.shape()[k.dim() - 2];
      long h = gqa ? q.shape()[q.dim() - 3] : 1, hk = gqa ? k.shape()[k.dim() - 3] : 1;
      long[] outer = Arrays.copyOf(os, r - (gqa ? 3 : 2));
      long n = 1;
      for (long d : outer) n *= d;
      long[] qf = cat(outer, gqa ? new long[] {h, l, e} : new long[] {l, e}), kf = cat(outer, gqa ? new long[] {hk, s, e} : new long[] {s, e});
      long[] vf = cat(outer, gqa ? new long[] {hk, s, ev} : new long[] {s, ev}), mf = cat(outer, gqa ? new long[] {h, l, s} : new long[] {l, s});
      double sc = scale != null ? scale : 1 / Math.sqrt(e);
      double[] up = null;
      Tensor upT = null;
      if (grads) {
        upT = det(DType.FLOAT64, 99, os).to(out.dtype());
        up = upT.toDoubleArray();
      }
      Ref ref = oracle((int) n, (int) h, (int) hk, (int) l, (int) s, (int) e, (int) ev, full(q, qf), full(k, kf), full(v, vf),
          mask == null ? null : full(mask, mf), mask != null && mask.dtype() == DType.BOOL, causal, sc, up);
      assertArrayEquals(cat(outer, gqa ? new long[] {h, l, ev} : new long[] {l, ev}), os, what + ": output shape");
      assertClose(ref.out, out.toDoubleArray(), tol, what + ": output");
      if (!grads) return;
      List<Tensor> ins = new ArrayList<>();
      List<double[]> want = new ArrayList<>();
      List<long[]> shapes = new ArrayList<>();
      Tensor[] args = {q, k, v, mask};
      double[][] refs = {ref.gq, ref.gk, ref.gv, ref.gs};
      long[][] fulls = {qf, kf, vf, mf};
      for (int i = 0; i < 4; i++) {
        boolean seen = false;
        for (Tensor t : ins) seen |= t == args[i];
        if (args[i] == null || seen || !args[i].requiresGrad()) continue;
        ins.add(args[i]);
        shapes.add(args[i].shape());
        double[] g = sumTo(refs[i], fulls[i], args[i].shape());
        for (int j = i + 1; j < 3; j++) {  // the same tensor passed again (self-attention): its gradients add
          if (args[j] == args[i]) {
            double[] other = sumTo(refs[j], fulls[j], args[j].shape());
            for (int x = 0; x < g.length; x++) g[x] += other[x];
          }
        }
        want.add(g);
      }
      if (ins.isEmpty()) return;
      List<Tensor> got = Autograd.grad(List.of(out), List.of(upT), ins, false, false, false);
      for (int i = 0; i < ins.size(); i++) {
        assertArrayEquals(shapes.get(i), got.get(i).shape(), what + ": gradient shape " + i);
        assertClose(want.get(i), got.get(i).toDoubleArray(), tol, what + ": gradient of argument " + i);
      }
    }
  }

  /** t broadcast to shape, as doubles (bool as 0/1). */
  private static double[] full(Tensor t, long[] shape) {
    try (TensorScope s = TensorScope.open()) {
      return t.detach().expand(shape).contiguous().toDoubleArray();
    }
  }

  /** g of shape from summed over the dims that broadcast to it from shape to. */
  private static double[] sumTo(double[] g, long[] from, long[] to) {
    try (TensorScope s = TensorScope.open()) {
      Tensor t = Tensor.fromArray(g.clone(), from);
      while (t.dim() > to.length) t = t.sum(0, false);
      for (int d = 0; d < to.length; d++) if (to[d] == 1 && t.shape()[d] != 1) t = t.sum(d, true);
      return t.toDoubleArray();
    }
  }

  private static long[] cat(long[] a, long[] b) {
    long[] r = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    return r;
  }
}
