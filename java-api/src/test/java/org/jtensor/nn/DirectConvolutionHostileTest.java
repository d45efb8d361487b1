package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jtensor.Close;
import org.jtensor.CloseRace;
import org.jtensor.DType;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.Threads;
import org.jtensor.autograd.Autograd;
import org.jtensor.autograd.GradCheck;
import org.junit.jupiter.api.Test;

/**
 * Hostile inputs for the direct stride-1 convolution (ConvOps, vectorized/convolution.cpp), against
 * float64 loops here that visit only the products inside the image: stride-0, permuted, offset and
 * misaligned operands, a bias that is a stepped view of a bigger storage, batch 0, hundreds of channels
 * on 1×1 planes, a 100000-long signal, kernels wider than the image, the reach exactly the padded size,
 * depthwise and one-output-per-group groups, one operand's gradient at a time, retained graphs, one
 * tensor as input, weight and bias, double backward, operands closed before, after and during the op
 * (from another thread), in-place changes, non-finite values (PyTorch 2.10's numbers), and the same
 * bits on 1-3 threads and from concurrent callers.
 */
class DirectConvolutionHostileTest extends ScopedTest {
  private static final long[] ONE = {1};
  private static final DType F64 = DType.FLOAT64, F32 = DType.FLOAT32;

  @Test
  void stridedExpandedPermutedOffsetAndMisalignedOperandsMatchTheLoop() {
    for (DType dt : new DType[] {F64, F32}) {
      double tol = dt == F64 ? 1e-12 : 3e-5;
      Tensor xBig = leaf(dt, 3, 4, 5, 9, 8), wPerm = det(dt, 4, 6, 3, 3, 4).permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2).requiresGrad_();
      check("expanded weight, stepped bias, sliced input " + dt, xBig.narrow(0, 1, 2).narrow(1, 1, 3).narrow(2, 2, 6).slice(3, 1, 8, 2),
          leaf(dt, 1, 1, 3, 3, 2).expand(5, 3, 3, 2), leaf(dt, 2, 40).slice(0, 7, 17, 2), a(1, 1), ONE, 1, tol);
      check("channels-last weight, batch-expanded input, scalar bias " + dt, leaf(dt, 5, 1, 6, 7, 5).expand(3, 6, 7, 5), wPerm,
          leaf(dt, 6, 1).expand(6), a(2, 1), a(1, 2), 2, tol);
      check("transposed 1-d " + dt, leaf(dt, 7, 2, 11, 4).transpose(1, 2), leaf(dt, 8, 4, 5, 4).transpose(1, 2), null, a(4), ONE, 1, tol);
      Tensor flat = leaf(dt, 9, 1000);  // contiguous views at odd offsets: no operand aligned to a vector
      check("misaligned " + dt, flat.narrow(0, 3, 210).view(2, 3, 5, 7), flat.narrow(0, 301, 108).view(4, 3, 3, 3), flat.narrow(0, 999, 1).expand(4),
          ONE, ONE, 1, tol);
      check("kernel [3, 1] " + dt, xBig.narrow(1, 0, 2), leaf(dt, 10, 5, 2, 3, 1), null, a(1, 0), a(2, 1), 1, tol);
      Tensor y = Functional.conv2d(xBig.select(0, 3).narrow(0, 2, 3), wPerm, null, ONE, ONE, ONE, 1);  // unbatched [3, 9, 8]
      close("unbatched " + dt, reference(xBig.narrow(0, 3, 1).narrow(1, 2, 3), wPerm, null, ONE, ONE, 1)[0], y.toDoubleArray(), tol);
    }
  }

  @Test
  void batchZeroGivesEmptyOutputsAndZeroGradients() {
    for (int nsp = 1; nsp <= 3; nsp++) {
      long[] in = new long[nsp], k = new long[nsp];
      Arrays.fill(in, 4);
      Arrays.fill(k, 3);
      Tensor x = Tensor.zeros(ConvolutionLibtorchTest.concat(a(0, 3), in)).requiresGrad_(), b = leaf(F32, 2, 5);
      Tensor w = leaf(F32, 1, ConvolutionLibtorchTest.concat(a(5, 3), k));
      Tensor y = ConvolutionLibtorchTest.conv(nsp, x, w, b, ONE, ONE, ONE, 1);
      assertArrayEquals(ConvolutionLibtorchTest.concat(a(0, 5), in), y.shape());
      y.sum().backward();
      assertArrayEquals(x.shape(), x.grad().shape());
      for (Tensor g : List.of(w.grad(), b.grad())) for (double v : g.toDoubleArray()) assertEquals(0.0, v, 0.0, "nsp " + nsp);
    }
  }

  @Test
  void tinyPlanesLongSignalsWideKernelsFullReachAndGroupsMatchTheLoop() {
    check("1-d, 100000", leaf(F32, 1, 2, 3, 100_000), leaf(F32, 2, 5, 3, 7), leaf(F32, 3, 5), a(9), a(3), 1, 2e-5);
    check("37 groups of 1 -> 1", leaf(F64, 1, 2, 37, 6, 5), leaf(F64, 2, 37, 1, 3, 2), leaf(F64, 3, 37), a(1, 1), ONE, 37, 1e-12);
    check("4 groups of 3 -> 1", leaf(F64, 4, 3, 12, 7, 4), leaf(F64, 5, 4, 3, 2, 3), null, a(1, 0), a(2, 1), 4, 1e-12);
    check("5 groups of 1 -> 9", leaf(F32, 6, 2, 5, 33), leaf(F32, 7, 45, 1, 5), leaf(F32, 8, 45), a(4), ONE, 5, 3e-5);
    for (DType dt : new DType[] {F64, F32}) {
      double tol = dt == F64 ? 1e-12 : 3e-5;
      Tensor x = leaf(dt, 1, 2, 300, 1, 1);
      check("300 -> 70, 1x1 " + dt, x, leaf(dt, 2, 70, 300, 3, 3), leaf(dt, 3, 70), ONE, ONE, 1, tol);
      check("depthwise 300, 1x1 " + dt, x, leaf(dt, 4, 300, 1, 3, 3), null, ONE, ONE, 300, tol);
      check("depthwise x2, 1x1 " + dt, x, leaf(dt, 5, 600, 1, 3, 3), null, ONE, ONE, 300, tol);
      check("3-d 1x1x1, 3x3x3 " + dt, leaf(dt, 6, 1, 130, 1, 1, 1), leaf(dt, 7, 9, 130, 3, 3, 3), null, ONE, ONE, 1, tol);
      check("kernel wider than image " + dt, leaf(dt, 1, 2, 3, 2, 3), leaf(dt, 2, 4, 3, 5, 7), leaf(dt, 3, 4), a(2, 3), ONE, 1, tol);
      check("reach = padded, 2-d " + dt, leaf(dt, 4, 1, 2, 5, 4), leaf(dt, 5, 3, 2, 3, 3), null, a(2, 2), a(4, 3), 1, tol);
      check("reach = padded, 1-d " + dt, leaf(dt, 6, 3, 2, 3), leaf(dt, 7, 2, 2, 4), null, a(2), a(2), 1, tol);
      check("padding = reach, 3-d " + dt, leaf(dt, 8, 1, 2, 2, 3, 4), leaf(dt, 9, 3, 2, 2, 3, 2), null, a(2, 2, 1), a(2, 1, 1), 1, tol);
    }
  }

  @Test
  void onlyOneOperandRequiresGrad() {
    for (int which = 0; which < 3; which++) {
      try (TensorScope s = TensorScope.open()) {
        Tensor[] ops = {det(F64, 1, 2, 5, 6, 7), det(F64, 2, 6, 5, 3, 3), det(F64, 3, 6)};
        ops[which].requiresGrad_();
        Tensor y = Functional.conv2d(ops[0], ops[1], ops[2], ONE, ONE, ONE, 1);
        y.backward(det(F64, 99, y.shape()));
        double[][] ref = reference(ops[0], ops[1], ops[2], ONE, ONE, 1);
        for (int i = 0; i < 3; i++) {
          if (i == which) close("operand " + i, ref[i + 1], ops[i].grad().toDoubleArray(), 1e-12);
          else assertNull(ops[i].grad(), "operand " + i + " when only " + which + " requires grad");
        }
      }
    }
  }

  @Test
  void retainedGraphAccumulatesAndOddUpstreamGradientsAreRead() {
    Tensor x = leaf(F32, 1, 2, 5, 9, 7), w = leaf(F32, 2, 6, 5, 3, 3), b = leaf(F32, 3, 6);
    Tensor y = Functional.conv2d(x, w, b, ONE, ONE, ONE, 1), up = det(F32, 99, y.shape());
    y.backward(up, true, false);
    double[][] once = {x.grad().toDoubleArray(), w.grad().toDoubleArray(), b.grad().toDoubleArray()};
    y.backward(up, true, false);
    double[][] twice = {x.grad().toDoubleArray(), w.grad().toDoubleArray(), b.grad().toDoubleArray()};
    for (int i = 0; i < 3; i++) for (int j = 0; j < once[i].length; j++) assertEquals(2 * once[i][j], twice[i][j], 0.0, "operand " + i);
    // an upstream gradient with stride 0, and one in float64 for the float32 op: the same as a dense float32 one
    List<Tensor> dense = Autograd.grad(List.of(y), List.of(Tensor.ones(y.shape())), List.of(x, w, b), true, false, false);
    for (Tensor odd : List.of(Tensor.ones(1).expand(y.shape()), Tensor.ones(y.shape(), F64))) {
      List<Tensor> got = Autograd.grad(List.of(y), List.of(odd), List.of(x, w, b), true, false, false);
      for (int i = 0; i < 3; i++) assertArrayEquals(dense.get(i).toDoubleArray(), got.get(i).toDoubleArray(), "operand " + i);
    }
  }

  @Test
  void oneTensorAsInputWeightAndBias() {
    Tensor x = leaf(F64, 1, 2, 2, 3, 3), b = x.view(-1).narrow(0, 5, 2);
    Tensor y = Functional.conv2d(x, x, b, ONE, ONE, ONE, 1);
    y.backward(det(F64, 99, y.shape()));
    double[][] ref = reference(x, x, b, ONE, ONE, 1);
    close("output", ref[0], y.toDoubleArray(), 1e-12);
    for (int i = 0; i < ref[1].length; i++) ref[1][i] += ref[2][i] + (i == 5 || i == 6 ? ref[3][i - 5] : 0);
    close("x.grad = input's + weight's + bias's", ref[1], x.grad().toDoubleArray(), 1e-12);
  }

  /** Second order (gradgradcheck) through the direct op: its createGraph gradients are im2col and GEMMs, themselves differentiated. */
  @Test
  void doubleBackwardThroughTheDirectOp() {
    assertEquals("ConvolutionBackward0", Functional.conv1d(leaf(F64, 4, 1, 4, 5), leaf(F64, 5, 2, 2, 3), null, ONE, a(2), a(2), 2).gradFn().name());
    GradCheck.checkSecondOrder(in -> Functional.conv1d(in.get(0), in.get(1), in.get(2), ONE, a(2), a(2), 2),
        List.of(leaf(F64, 4, 1, 4, 5), leaf(F64, 5, 2, 2, 3), leaf(F64, 3, 2)), 7);
    GradCheck.checkSecondOrder(in -> Functional.conv2d(in.get(0), in.get(1), null, ONE, a(1, 1), a(1, 2), 1),
        List.of(leaf(F64, 1, 1, 2, 4, 5), leaf(F64, 2, 2, 2, 3, 2)), 8);
  }

  @Test
  void closedOperandsAreRefusedSavedOnesOutliveTheirHandlesAndInPlaceChangesAreCaught() {
    for (int which = 0; which < 3; which++) {
      Tensor[] ops = {det(F32, 1, 1, 2, 5, 5), det(F32, 2, 3, 2, 3, 3), det(F32, 3, 3)};
      ops[which].close();
      assertThrows(IllegalStateException.class, () -> Functional.conv2d(ops[0], ops[1], ops[2], ONE, ONE, ONE, 1));
    }
    Tensor x = leaf(F64, 1, 2, 3, 6, 6), w = leaf(F64, 2, 4, 3, 3, 3), xv = x.mul(1.0), wv = w.mul(1.0);  // closed: only the graph holds them
    Tensor y = Functional.conv2d(xv, wv, null, ONE, ONE, ONE, 1);
    xv.close();
    wv.close();
    y.backward(det(F64, 99, y.shape()));
    double[][] ref = reference(x, w, null, ONE, ONE, 1);
    close("x.grad after closing", ref[1], x.grad().toDoubleArray(), 1e-12);
    close("w.grad after closing", ref[2], w.grad().toDoubleArray(), 1e-12);
    Tensor xm = x.mul(1.0), y2 = Functional.conv2d(xm, w, null, ONE, ONE, ONE, 1);
    xm.add_(1.0);
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> y2.sum().backward());
    assertTrue(e.getMessage().contains("modified by an inplace operation"), e.getMessage());
  }

  /** Closes x, w, b or the upstream gradient at 0/8 to 7/8 of a forward and backward that another thread runs. */
  @Test
  void closingOperandsFromAnotherThreadGivesOnlyIllegalStateOrTheRightResult() throws Exception {
    for (int victim = 0; victim < 4; victim++) {
      for (int rep = 0; rep < 8; rep++) {
        Tensor x = leaf(F32, 1, 2, 24, 40, 40), w = leaf(F32, 2, 24, 24, 3, 3), b = leaf(F32, 3, 24), up = det(F32, 99, 2, 24, 40, 40);
        Tensor[] all = {x, w, b, up};
        long t0 = System.nanoTime();
        double[][] want = convAndGrads(x, w, b, up);
        long round = System.nanoTime() - t0;
        CloseRace.closeDuring(() -> {  // closed at 0/8 to 7/8 of the second round
          double[][] got = convAndGrads(x, w, b, up);
          for (int j = 0; j < 4; j++) if (!Arrays.equals(want[j], got[j])) throw new AssertionError("result " + j + " differs");
        }, all[victim], 2, round * rep / 8, Integer.MAX_VALUE, 2, "victim " + victim + " rep " + rep);
      }
    }
  }

  @Test
  void theSameBitsOnOneTwoAndThreeThreadsAndFromConcurrentCallers() throws Exception {
    int threads = Threads.getNumThreads();
    ExecutorService ex = Executors.newFixedThreadPool(3);
    try {
      Tensor[][] cases = {{leaf(F32, 1, 3, 7, 13, 11), leaf(F32, 2, 9, 7, 3, 3), leaf(F32, 3, 9)},
          {leaf(F64, 4, 2, 6, 9, 10), leaf(F64, 5, 15, 2, 2, 5), null},  // 3 groups
          {leaf(F32, 6, 2, 5, 3000), leaf(F32, 7, 11, 5, 9), leaf(F32, 8, 11)},
          {leaf(F32, 9, 1, 24, 5, 6, 7), leaf(F32, 10, 24, 1, 3, 2, 3), null}};  // depthwise 3-d
      for (Tensor[] c : cases) {
        long[] ys = c[0].shape().clone();
        for (int d = 1; d < ys.length; d++) ys[d] = d == 1 ? c[1].shape()[0] : ys[d] + 3 - c[1].shape()[d];  // padding 1
        Tensor up = det(c[0].dtype(), 99, ys);
        double[][] ref = null;
        for (int n = 1; n <= 3; n++) {
          Threads.setNumThreads(n);
          double[][] got = convAndGrads(c[0], c[1], c[2], up);
          if (ref == null) ref = got;
          for (int i = 0; i < got.length; i++) assertArrayEquals(ref[i], got[i], Arrays.toString(c[0].shape()) + " threads " + n + " result " + i);
        }
        Threads.setNumThreads(2);
        List<Future<double[][]>> fs = new ArrayList<>();
        for (int t = 0; t < 3; t++) fs.add(ex.submit(() -> convAndGrads(c[0], c[1], c[2], up)));
        for (Future<double[][]> f : fs) for (int i = 0; i < ref.length; i++) assertArrayEquals(ref[i], f.get()[i], "concurrent, result " + i);
      }
    } finally {
      ex.shutdown();
      Threads.setNumThreads(threads);
    }
  }

  /**
   * A 3×3 convolution, padding 1, of ones [1, 1, 5, 5] with x[0, 0, 2, 0] = inf (NaN), w ones, loss
   * y.sum(): PyTorch 2.10's w.grad is [inf, inf, 16, inf, inf, 20, inf, inf, 16] (NaN for inf), and so
   * is jtensor's under createGraph (im2col). The direct kernel would multiply the output gradient's
   * zeros at the dropped flat positions past a row's end by the next row's first inputs (NaN in the
   * right column), so it declines a non-finite input and the gradient is composed (Note [Positions
   * past a row's end]). The smallest case: [1, 1, 2, 4] ones with x[0, 0, 1, 0] = inf, w [1, 1, 1, 2].
   */
  @Test
  void aNonFiniteInputReachesOnlyTheWeightTapsThatReadIt() {
    for (double bad : new double[] {Double.POSITIVE_INFINITY, Double.NaN}) {
      for (DType dt : new DType[] {F64, F32}) {
        Tensor x = Tensor.ones(a(1, 1, 5, 5), dt), w = Tensor.ones(a(1, 1, 3, 3), dt).requiresGrad_();
        x.select(2, 2).select(2, 0).fill_(bad);
        Tensor y = Functional.conv2d(x, w, null, ONE, ONE, ONE, 1);
        double[] torch = {bad, bad, 16, bad, bad, 20, bad, bad, 16};
        assertArrayEquals(torch, Autograd.grad(List.of(y.sum()), null, List.of(w), true, true, false).get(0).toDoubleArray(), 0.0, "im2col");
        assertArrayEquals(torch, Autograd.grad(List.of(y.sum()), null, List.of(w), false, false, false).get(0).toDoubleArray(), 0.0,
            dt + " " + bad + ": the direct kernel");
      }
    }
  }

  /** x = [1, 2, 3], w = [inf, 1], y.sum(): PyTorch 2.10's x.grad [inf, inf, 1] (the kernel would give NaN: it declines). */
  @Test
  void anInfiniteWeightGivesPyTorchsInputGradient() {
    double inf = Double.POSITIVE_INFINITY;
    Tensor x = Tensor.fromArray(new double[] {1, 2, 3}, 1, 1, 3).requiresGrad_(), w = Tensor.fromArray(new double[] {inf, 1}, 1, 1, 2);
    Functional.conv1d(x, w, null, ONE, a(0), ONE, 1).sum().backward();
    assertArrayEquals(new double[] {inf, inf, 1}, x.grad().toDoubleArray(), 0.0);
  }

  /** PyTorch 2.10 refuses it too: "Only zero batch or zero channel inputs are supported, but got input shape: [1, 2, 0]". */
  @Test
  void aZeroSizedSpatialDimIsRefusedByName() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Functional.conv1d(Tensor.zeros(1, 2, 0), Tensor.zeros(3, 2, 2), null, ONE, ONE, ONE, 1));
    assertTrue(e.getMessage().startsWith("conv1d()"), e.getMessage());
  }

  // ---- helpers ----

  private static long[] a(long... v) {
    return v;
  }

  /** Output and the gradients of x, w, b (b's only when given) for upstream up; padding 1, groups from the shapes. */
  private static double[][] convAndGrads(Tensor x, Tensor w, Tensor b, Tensor up) {
    try (TensorScope s = TensorScope.open()) {
      Tensor y = ConvolutionLibtorchTest.conv(x.dim() - 2, x, w, b, ONE, ONE, ONE, x.shape()[1] / w.shape()[1]);
      List<Tensor> g = Autograd.grad(List.of(y), List.of(up), b == null ? List.of(x, w) : List.of(x, w, b), false, false, false);
      double[] gb = b == null ? new double[0] : g.get(2).toDoubleArray();
      return new double[][] {y.toDoubleArray(), g.get(0).toDoubleArray(), g.get(1).toDoubleArray(), gb};
    }
  }

  /** Runs the convolution (which must take the direct kernels); checks the output and every operand's gradient against the loop. */
  private static void check(String what, Tensor x, Tensor w, Tensor b, long[] pad, long[] dil, long groups, double tol) {
    try (TensorScope s = TensorScope.open()) {
      Tensor y = ConvolutionLibtorchTest.conv(x.dim() - 2, x, w, b, ONE, pad, dil, groups);
      assertEquals("ConvolutionBackward0", y.gradFn().name(), what + ": the direct kernels");
      double[][] ref = reference(x, w, b, pad, dil, groups);
      close(what + ": output", ref[0], y.toDoubleArray(), tol);
      List<Tensor> ins = new ArrayList<>(List.of(x, w));
      if (b != null) ins.add(b);
      List<Tensor> g = Autograd.grad(List.of(y), List.of(det(y.dtype(), 99, y.shape())), ins, false, false, false);
      for (int i = 0; i < ins.size(); i++) {
        assertArrayEquals(ins.get(i).shape(), g.get(i).shape(), what + ": gradient shape " + i);
        close(what + ": gradient " + i, ref[i + 1], g.get(i).toDoubleArray(), tol);
      }
    }
  }

  /** {y, gx, gw, gb} in float64 loops, for the upstream gradient det(99). */
  private static double[][] reference(Tensor x, Tensor w, Tensor b, long[] pad, long[] dil, long groups) {
    double[] xs = x.toDoubleArray(), ws = w.toDoubleArray(), bs = b == null ? null : b.toDoubleArray();
    int o = (int) w.shape()[0], plane = (int) each(x.shape(), w.shape(), pad, dil, groups, null);
    double[] y = new double[(int) x.shape()[0] * o * plane], up = det(F64, 99, y.length).toDoubleArray();
    double[] gx = new double[xs.length], gw = new double[ws.length], gb = new double[o];
    for (int i = 0; i < y.length; i++) {
      y[i] = bs == null ? 0 : bs[i / plane % o];
      gb[i / plane % o] += up[i];
    }
    each(x.shape(), w.shape(), pad, dil, groups, (xi, wi, yi) -> {
      y[yi] += xs[xi] * ws[wi];
      gx[xi] += up[yi] * ws[wi];
      gw[wi] += up[yi] * xs[xi];
    });
    return new double[][] {y, gx, gw, gb};
  }

  /** p(xIndex, wIndex, yIndex) for each product of the stride-1 convolution inside the image (spatial dims as three); the output's plane. */
  private static long each(long[] xs, long[] ws, long[] padding, long[] dilation, long groups, Product p) {
    long[] in = {1, 1, 1}, out = {1, 1, 1}, k = {1, 1, 1}, pad = {0, 0, 0}, dil = {1, 1, 1};
    for (int d = 0, nsp = xs.length - 2, e = 3 - nsp; d < nsp; d++, e++) {
      in[e] = xs[2 + d];
      k[e] = ws[2 + d];
      pad[e] = padding[padding.length == 1 ? 0 : d];
      dil[e] = dilation[dilation.length == 1 ? 0 : d];
      out[e] = in[e] + 2 * pad[e] - dil[e] * (k[e] - 1);
    }
    long n = xs[0], c = xs[1], o = ws[0], cg = c / groups, og = o / groups, taps = k[0] * k[1] * k[2], plane = out[0] * out[1] * out[2];
    for (long b = 0; p != null && b < n; b++)
      for (long u = 0; u < o; u++)
        for (long q = 0; q < plane; q++)
          for (long v = 0; v < cg; v++)
            for (long t = 0; t < taps; t++) {
              long i0 = q / (out[1] * out[2]) - pad[0] + t / (k[1] * k[2]) * dil[0], i1 = q / out[2] % out[1] - pad[1] + t / k[2] % k[1] * dil[1];
              long i2 = q % out[2] - pad[2] + t % k[2] * dil[2];
              if (i0 < 0 || i0 >= in[0] || i1 < 0 || i1 >= in[1] || i2 < 0 || i2 >= in[2]) continue;
              long xi = (((b * c + u / og * cg + v) * in[0] + i0) * in[1] + i1) * in[2] + i2;
              p.at((int) xi, (int) ((u * cg + v) * taps + t), (int) ((b * o + u) * plane + q));
            }
    return plane;
  }

  @FunctionalInterface
  private interface Product {
    void at(int xi, int wi, int yi);
  }

  /** sin(0.618 i + 1.3 seed) * 1.5 over the flat index, computed in float64, as dtype. */
  private static Tensor det(DType dtype, int seed, long... shape) {
    long n = 1;
    for (long d : shape) n *= d;
    double[] v = new double[(int) n];
    for (int i = 0; i < n; i++) v[i] = Math.sin(i * 0.618 + seed * 1.3) * 1.5;
    try (TensorScope s = TensorScope.open()) {
      Tensor t = Tensor.fromArray(v, shape);
      return s.keep(dtype == F64 ? t : t.to(dtype));
    }
  }

  private static Tensor leaf(DType dtype, int seed, long... shape) {
    return det(dtype, seed, shape).requiresGrad_();
  }

  private static void close(String what, double[] want, double[] got, double tol) {
    Close.assertElements(what, want, got, Close.ofLargest(tol, want));
  }
}
