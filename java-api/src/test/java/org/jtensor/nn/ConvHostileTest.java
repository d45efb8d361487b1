package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.jtensor.Close;
import org.jtensor.CloseRace;
import org.jtensor.DType;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.autograd.Autograd;
import org.jtensor.autograd.GradCheck;
import org.jtensor.memory.TensorOutOfMemoryException;
import org.junit.jupiter.api.Test;

/**
 * A hostile review of the convolution family (conv*d, convTranspose*d, unfold/fold, pad): random
 * geometries on every path (direct, im2col, pointwise) against float64 loops here, with their
 * gradients, on strided, offset and expanded operands; and arguments whose size arithmetic
 * overflows, or that PyTorch refuses.
 */
class ConvHostileTest extends ScopedTest {
  private static final DType F64 = DType.FLOAT64;

  // ---- random geometries against the loops ----

  @Test
  void randomConvolutionsAndTheirGradientsMatchTheLoop() {
    Random r = new Random(11);
    int run = 0;
    for (int t = 0; t < 400 && run < 150; t++) {
      int nsp = 1 + r.nextInt(3);
      long n = r.nextInt(3), groups = 1 + r.nextInt(3), cg = 1 + r.nextInt(2), og = 1 + r.nextInt(2);
      long[] in = new long[nsp], k = new long[nsp], stride = new long[nsp], pad = new long[nsp], dil = new long[nsp];
      boolean ok = true;
      for (int d = 0; d < nsp; d++) {
        in[d] = 1 + r.nextInt(nsp == 3 ? 4 : 7);
        k[d] = 1 + r.nextInt(3);
        stride[d] = 1 + r.nextInt(3);
        pad[d] = r.nextInt(4);
        dil[d] = 1 + r.nextInt(3);
        ok &= in[d] + 2 * pad[d] >= dil[d] * (k[d] - 1) + 1;
      }
      if (!ok) continue;
      run++;
      long[] xs = cat(new long[] {n, groups * cg}, in), ws = cat(new long[] {groups * og, cg}, k);
      try (TensorScope s = TensorScope.open()) {
        Tensor x = odd(det(F64, t, xs), r.nextInt(4)).requiresGrad_(false);
        Tensor w = odd(det(F64, t + 1000, ws), r.nextInt(4));
        Tensor b = r.nextBoolean() ? null : odd(det(F64, t + 2000, groups * og), r.nextInt(4));
        String what = "conv" + nsp + "d x" + Arrays.toString(xs) + " w" + Arrays.toString(ws) + " stride " + Arrays.toString(stride) + " pad "
            + Arrays.toString(pad) + " dil " + Arrays.toString(dil) + " groups " + groups + (b == null ? "" : " bias");
        Tensor xg = x.detach().requiresGrad_(), wg = w.detach().requiresGrad_(), bg = b == null ? null : b.detach().requiresGrad_();
        Tensor y = conv(nsp, xg, wg, bg, stride, pad, dil, groups);
        double[][] ref = refConv(x, w, b, stride, pad, dil, groups, null);
        assertArrayEquals(cat(new long[] {n, groups * og}, outSizes(in, k, stride, pad, dil)), y.shape(), what + ": shape");
        close(what + ": output", ref[0], y.toDoubleArray());
        Tensor up = odd(det(F64, t + 3000, y.shape()), r.nextInt(4));
        List<Tensor> ins = new ArrayList<>(List.of(xg, wg));
        if (bg != null) ins.add(bg);
        List<Tensor> g = Autograd.grad(List.of(y), List.of(up), ins, false, false, false);
        double[][] want = refConv(x, w, b, stride, pad, dil, groups, up);
        for (int i = 0; i < ins.size(); i++) close(what + ": gradient " + i, want[1 + i], g.get(i).toDoubleArray());
      }
    }
    assertTrue(run >= 100, "ran " + run);
  }

  @Test
  void randomTransposedConvolutionsAndTheirGradientsMatchTheLoop() {
    Random r = new Random(12);
    int run = 0;
    for (int t = 0; t < 400 && run < 150; t++) {
      int nsp = 1 + r.nextInt(3);
      long n = r.nextInt(3), groups = 1 + r.nextInt(3), cg = 1 + r.nextInt(2), og = 1 + r.nextInt(2);
      long[] in = new long[nsp], k = new long[nsp], stride = new long[nsp], pad = new long[nsp], dil = new long[nsp], op = new long[nsp];
      long[] out = new long[nsp];
      boolean ok = true;
      for (int d = 0; d < nsp; d++) {
        in[d] = 1 + r.nextInt(nsp == 3 ? 3 : 6);
        k[d] = 1 + r.nextInt(3);
        stride[d] = 1 + r.nextInt(3);
        pad[d] = r.nextInt(3);
        dil[d] = 1 + r.nextInt(3);
        op[d] = r.nextInt((int) Math.max(stride[d], dil[d]));
        out[d] = (in[d] - 1) * stride[d] - 2 * pad[d] + dil[d] * (k[d] - 1) + op[d] + 1;
        ok &= out[d] >= 1;
      }
      if (!ok) continue;
      run++;
      long[] xs = cat(new long[] {n, groups * cg}, in), ws = cat(new long[] {groups * cg, og}, k);
      try (TensorScope s = TensorScope.open()) {
        Tensor x = odd(det(F64, t, xs), r.nextInt(4));
        Tensor w = odd(det(F64, t + 1000, ws), r.nextInt(4));
        Tensor b = r.nextBoolean() ? null : odd(det(F64, t + 2000, groups * og), r.nextInt(4));
        String what = "conv_transpose" + nsp + "d x" + Arrays.toString(xs) + " w" + Arrays.toString(ws) + " stride " + Arrays.toString(stride)
            + " pad " + Arrays.toString(pad) + " output_padding " + Arrays.toString(op) + " dil " + Arrays.toString(dil) + " groups " + groups
            + (b == null ? "" : " bias");
        Tensor xg = x.detach().requiresGrad_(), wg = w.detach().requiresGrad_(), bg = b == null ? null : b.detach().requiresGrad_();
        Tensor y = convT(nsp, xg, wg, bg, stride, pad, op, groups, dil);
        assertArrayEquals(cat(new long[] {n, groups * og}, out), y.shape(), what + ": shape");
        double[][] ref = refConvT(x, w, b, stride, pad, op, dil, groups, null);
        close(what + ": output", ref[0], y.toDoubleArray());
        Tensor up = odd(det(F64, t + 3000, y.shape()), r.nextInt(4));
        List<Tensor> ins = new ArrayList<>(List.of(xg, wg));
        if (bg != null) ins.add(bg);
        List<Tensor> g = Autograd.grad(List.of(y), List.of(up), ins, false, false, false);
        double[][] want = refConvT(x, w, b, stride, pad, op, dil, groups, up);
        for (int i = 0; i < ins.size(); i++) close(what + ": gradient " + i, want[1 + i], g.get(i).toDoubleArray());
      }
    }
    assertTrue(run >= 100, "ran " + run);
  }

  /** Float32 and float64 with enough channels for the channels-in-lanes and Winograd kernels, against the loop. */
  @Test
  void manyChannelsReachTheVectorKernelsAndMatchTheLoop() {
    Random r = new Random(13);
    long[] counts = {3, 4, 8, 9, 16, 17, 32};
    int run = 0;
    for (int t = 0; t < 200 && run < 40; t++) {
      DType dt = r.nextBoolean() ? DType.FLOAT32 : F64;
      int nsp = r.nextInt(4) == 0 ? 1 : 2;
      long n = r.nextInt(3), groups = r.nextInt(3) == 0 ? 2 : 1;
      long c = counts[r.nextInt(counts.length)] * groups, o = counts[r.nextInt(counts.length)] * groups;
      boolean wino = r.nextBoolean();
      long[] in = new long[nsp], k = new long[nsp], stride = new long[nsp], pad = new long[nsp], dil = new long[nsp];
      boolean ok = true;
      for (int d = 0; d < nsp; d++) {
        in[d] = 1 + r.nextInt(12);
        k[d] = wino ? 3 : 1 + r.nextInt(4);
        stride[d] = wino ? 1 : 1 + r.nextInt(2);
        pad[d] = r.nextInt(wino ? 3 : 4);
        dil[d] = wino ? 1 : 1 + r.nextInt(2);
        ok &= in[d] + 2 * pad[d] >= dil[d] * (k[d] - 1) + 1;
      }
      if (!ok) continue;
      run++;
      long[] xs = cat(new long[] {n, c}, in), ws = cat(new long[] {o, c / groups}, k);
      try (TensorScope s = TensorScope.open()) {
        Tensor x = odd(det(dt, t, xs), r.nextInt(4)), w = odd(det(dt, t + 1000, ws), r.nextInt(4));
        Tensor b = r.nextBoolean() ? null : det(dt, t + 2000, o);
        String what = dt + " conv" + nsp + "d x" + Arrays.toString(xs) + " w" + Arrays.toString(ws) + " stride " + Arrays.toString(stride)
            + " pad " + Arrays.toString(pad) + " dil " + Arrays.toString(dil) + " groups " + groups;
        Tensor xg = x.detach().requiresGrad_(), wg = w.detach().requiresGrad_();
        Tensor y = conv(nsp, xg, wg, b, stride, pad, dil, groups);
        Tensor up = det(dt, t + 3000, y.shape());
        double[][] want = refConv(x, w, b, stride, pad, dil, groups, up);
        double tol = dt == F64 ? 1e-10 : 2e-5;
        closeTol(what + ": output", want[0], y.toDoubleArray(), tol);
        List<Tensor> g = Autograd.grad(List.of(y), List.of(up), List.of(xg, wg), false, false, false);
        closeTol(what + ": input gradient", want[1], g.get(0).toDoubleArray(), tol);
        closeTol(what + ": weight gradient", want[2], g.get(1).toDoubleArray(), tol);
      }
    }
    assertTrue(run >= 30, "ran " + run);
  }

  /** float16 and bfloat16 compute in float and round once, as PyTorch's CPU kernels: within a few ulps of the float64 result. */
  @Test
  void halfAndBfloatConvolutionsMatchTheLoop() {
    for (DType dt : new DType[] {DType.FLOAT16, DType.BFLOAT16}) {
      double tol = dt == DType.FLOAT16 ? 4e-3 : 3e-2;
      for (int nsp = 1; nsp <= 3; nsp++) {
        long[] one = {1}, two = {2};
        Tensor x = det(dt, nsp, cat(new long[] {2, 4}, nsp == 3 ? new long[] {4, 3, 5} : nsp == 2 ? new long[] {6, 5} : new long[] {9}));
        Tensor w = det(dt, nsp + 10, cat(new long[] {6, 2}, nsp == 3 ? new long[] {2, 2, 2} : nsp == 2 ? new long[] {3, 2} : new long[] {3}));
        Tensor b = det(dt, nsp + 20, 6);
        Tensor y = conv(nsp, x, w, b, two, one, one, 2);
        assertEquals(dt, y.dtype());
        closeTol(dt + " conv" + nsp + "d", refConv(x, w, b, two, one, one, 2, null)[0], y.toDoubleArray(), tol);
        Tensor wt = det(dt, nsp + 30, cat(new long[] {4, 3}, nsp == 3 ? new long[] {2, 2, 2} : nsp == 2 ? new long[] {3, 2} : new long[] {3}));
        Tensor yt = convT(nsp, x, wt, null, two, one, one, 2, one);
        assertEquals(dt, yt.dtype());
        closeTol(dt + " conv_transpose" + nsp + "d", refConvT(x, wt, null, two, one, one, one, 2, null)[0], yt.toDoubleArray(), tol);
      }
    }
  }

  /** unfold and fold (each the other's adjoint) against a loop, on odd layouts, batched and not, with their gradients. */
  @Test
  void randomUnfoldAndFoldMatchTheLoop() {
    Random r = new Random(14);
    int run = 0;
    for (int t = 0; t < 300 && run < 100; t++) {
      long n = r.nextInt(3), c = 1 + r.nextInt(2);
      long[] in = new long[2], k = new long[2], stride = new long[2], pad = new long[2], dil = new long[2], blocks = new long[2];
      boolean ok = true;
      for (int d = 0; d < 2; d++) {
        in[d] = 1 + r.nextInt(7);
        k[d] = 1 + r.nextInt(3);
        stride[d] = 1 + r.nextInt(3);
        pad[d] = r.nextInt(3);
        dil[d] = 1 + r.nextInt(3);
        blocks[d] = Math.floorDiv(in[d] + 2 * pad[d] - dil[d] * (k[d] - 1) - 1, stride[d]) + 1;
        ok &= blocks[d] >= 1;
      }
      if (!ok) continue;
      run++;
      boolean batched = n > 0 || r.nextBoolean();
      long kk = k[0] * k[1], l = blocks[0] * blocks[1];
      String what = "in " + Arrays.toString(in) + " n " + n + " c " + c + " k " + Arrays.toString(k) + " stride " + Arrays.toString(stride)
          + " pad " + Arrays.toString(pad) + " dil " + Arrays.toString(dil) + (batched ? "" : " unbatched");
      try (TensorScope s = TensorScope.open()) {
        long[] xs = batched ? new long[] {n, c, in[0], in[1]} : new long[] {c, in[0], in[1]};
        long[] cs = batched ? new long[] {n, c * kk, l} : new long[] {c * kk, l};
        Tensor x = odd(det(F64, t, xs), r.nextInt(4)).requiresGrad_();
        Tensor cols = Functional.unfold(x, k, dil, pad, stride);
        assertArrayEquals(cs, cols.shape(), what + ": unfold's shape");
        double[] want = unfoldRef(x.toDoubleArray(), batched ? n : 1, c, in, k, stride, pad, dil, blocks);
        close(what + ": unfold", want, cols.toDoubleArray());
        Tensor up = odd(det(F64, t + 7, cs), r.nextInt(4)).requiresGrad_();
        Tensor gx = Autograd.grad(List.of(cols), List.of(up), List.of(x), false, false, false).get(0);
        Tensor img = Functional.fold(up, in, k, dil, pad, stride);
        assertArrayEquals(xs, img.shape(), what + ": fold's shape");
        double[] back = foldRef(up.toDoubleArray(), batched ? n : 1, c, in, k, stride, pad, dil, blocks);
        close(what + ": unfold's gradient", back, gx.toDoubleArray());
        close(what + ": fold", back, img.toDoubleArray());
        Tensor up2 = odd(det(F64, t + 9, xs), r.nextInt(4));
        Tensor gc = Autograd.grad(List.of(img), List.of(up2), List.of(up), false, false, false).get(0);
        close(what + ": fold's gradient", unfoldRef(up2.toDoubleArray(), batched ? n : 1, c, in, k, stride, pad, dil, blocks), gc.toDoubleArray());
      }
    }
    assertTrue(run >= 60, "ran " + run);
  }

  private static double[] unfoldRef(double[] x, long n, long c, long[] in, long[] k, long[] st, long[] p, long[] dl, long[] b) {
    long kk = k[0] * k[1], l = b[0] * b[1];
    double[] cols = new double[(int) (n * c * kk * l)];
    for (int i = 0; i < cols.length; i++) {
      long q = i % l, row = i / l % (c * kk), nn = i / l / (c * kk), ch = row / kk, kt = row % kk;
      long h = q / b[1] * st[0] - p[0] + kt / k[1] * dl[0], w = q % b[1] * st[1] - p[1] + kt % k[1] * dl[1];
      if (h >= 0 && h < in[0] && w >= 0 && w < in[1]) cols[i] = x[(int) (((nn * c + ch) * in[0] + h) * in[1] + w)];
    }
    return cols;
  }

  private static double[] foldRef(double[] cols, long n, long c, long[] in, long[] k, long[] st, long[] p, long[] dl, long[] b) {
    long kk = k[0] * k[1], l = b[0] * b[1];
    double[] img = new double[(int) (n * c * in[0] * in[1])];
    for (int i = 0; i < cols.length; i++) {
      long q = i % l, row = i / l % (c * kk), nn = i / l / (c * kk), ch = row / kk, kt = row % kk;
      long h = q / b[1] * st[0] - p[0] + kt / k[1] * dl[0], w = q % b[1] * st[1] - p[1] + kt % k[1] * dl[1];
      if (h >= 0 && h < in[0] && w >= 0 && w < in[1]) img[(int) (((nn * c + ch) * in[0] + h) * in[1] + w)] += cols[i];
    }
    return img;
  }

  /** The im2col/col2im paths (strided conv, conv_transpose, fold, reflect pad) while another thread closes an operand. */
  @Test
  void closingOperandsFromAnotherThreadGivesOnlyIllegalStateOrTheRightResult() throws Exception {
    long[] two = {2}, one = {1}, zero = {0};
    java.util.List<java.util.function.Function<Tensor[], Tensor>> ops = List.of(
        a -> Functional.conv2d(a[0], a[1], a[2], two, one, one, 1),
        a -> Functional.convTranspose2d(a[0], a[3], a[2], two, one, one, 1, one),
        a -> Functional.fold(Functional.unfold(a[0], new long[] {3}, one, one, two), new long[] {24, 24}, new long[] {3}, one, one, two),
        a -> Functional.pad(a[0], new long[] {3, 2, 1, 4}, "reflect", 0));
    for (int op = 0; op < ops.size(); op++) {
      for (int victim = 0; victim < 4; victim++) {
        for (int rep = 0; rep < 4; rep++) {
          Tensor x = det(DType.FLOAT32, 1, 2, 8, 24, 24).requiresGrad_(), w = det(DType.FLOAT32, 2, 8, 8, 3, 3).requiresGrad_();
          Tensor b = det(DType.FLOAT32, 3, 8).requiresGrad_(), wt = det(DType.FLOAT32, 4, 8, 8, 3, 3).requiresGrad_();
          Tensor[] all = {x, w, b, wt};
          var f = ops.get(op);
          double[][] want = forwardAndGrads(f, all);
          CloseRace.closeDuring(() -> {
            double[][] got = forwardAndGrads(f, all);
            for (int j = 0; j < got.length; j++) if (!Arrays.equals(want[j], got[j])) throw new AssertionError("result " + j + " differs");
          }, all[victim], 2 + rep, 0, 10_000, 2, "op " + op + " victim " + victim + " rep " + rep);
        }
      }
    }
  }

  private static double[][] forwardAndGrads(java.util.function.Function<Tensor[], Tensor> f, Tensor[] all) {
    try (TensorScope s = TensorScope.open()) {
      Tensor y = f.apply(all);
      List<Tensor> ins = List.of(all[0], all[1], all[2], all[3]);
      List<Tensor> g = Autograd.grad(List.of(y), List.of(det(y.dtype(), 5, y.shape())), ins, false, false, true);
      double[][] r = new double[5][];
      r[0] = y.toDoubleArray();
      for (int i = 0; i < 4; i++) r[i + 1] = g.get(i) == null ? new double[0] : g.get(i).toDoubleArray();
      return r;
    }
  }

  /** Unbatched inputs and an expanded (stride-0) upstream gradient on each path: direct, lanes (stride 2), im2col (padding past the reach), pointwise, transposed. */
  @Test
  void unbatchedInputsAndExpandedUpstreamGradientsOnEveryPath() {
    long[] one = {1}, two = {2}, zero = {0}, three = {3};
    for (DType dt : new DType[] {F64, DType.FLOAT32}) {
      double tol = dt == F64 ? 1e-10 : 1e-5;
      for (int path = 0; path < 5; path++) {
        Tensor x = det(dt, path, 3, 7, 6), w = det(dt, path + 5, path == 3 ? new long[] {4, 3, 1, 1} : new long[] {4, 3, 3, 2});
        Tensor wt = det(dt, path + 9, 3, 2, 3, 2), b = det(dt, path + 7, 4);
        Tensor xg = x.detach().requiresGrad_(), wg = (path == 4 ? wt : w).detach().requiresGrad_();
        long[] stride = path == 1 || path == 4 ? two : one, pad = path == 2 ? three : path == 3 ? zero : one;
        Tensor y = path == 4 ? Functional.convTranspose2d(xg, wg, null, stride, pad, one, 1, one) : Functional.conv2d(xg, wg, b, stride, pad, one, 1);
        Tensor up = Tensor.ones(new long[] {1}, dt).expand(y.shape());
        List<Tensor> g = Autograd.grad(List.of(y), List.of(up), List.of(xg, wg), false, false, false);
        Tensor xb = x.unsqueeze(0), upb = up.unsqueeze(0);
        double[][] want = path == 4 ? refConvT(xb, wt, null, stride, pad, one, one, 1, upb) : refConv(xb, w, b, stride, pad, one, 1, upb);
        String what = dt + " path " + path;
        assertEquals(3, y.dim(), what);
        closeTol(what + ": output", want[0], y.toDoubleArray(), tol);
        closeTol(what + ": input gradient", want[1], g.get(0).toDoubleArray(), tol);
        closeTol(what + ": weight gradient", want[2], g.get(1).toDoubleArray(), tol);
      }
    }
  }

  /** Second order through strided, dilated, grouped and transposed convolutions (the createGraph path: im2col and GEMMs). */
  @Test
  void secondOrderGradientsOfStridedGroupedAndTransposedConvolutions() {
    Tensor x = det(F64, 1, 1, 4, 5, 4).requiresGrad_(), w = det(F64, 2, 4, 2, 2, 3).requiresGrad_(), b = det(F64, 3, 4).requiresGrad_();
    GradCheck.checkSecondOrder(a -> Functional.conv2d(a.get(0), a.get(1), a.get(2), new long[] {2, 1}, new long[] {1, 2}, new long[] {1, 2}, 2),
        List.of(x, w, b), 5);
    GradCheck.checkSecondOrder(a -> Functional.conv2d(a.get(0), a.get(1), a.get(2), new long[] {1}, new long[] {1}, new long[] {1}, 2),
        List.of(x, w, b), 6);
    Tensor wt = det(F64, 4, 4, 1, 2, 3).requiresGrad_(), bt = det(F64, 5, 2).requiresGrad_();
    GradCheck.checkSecondOrder(a -> Functional.convTranspose2d(a.get(0), a.get(1), a.get(2), new long[] {2, 3}, new long[] {1, 0},
        new long[] {1, 2}, 2, new long[] {1, 1}), List.of(x, wt, bt), 7);
    Tensor cols = det(F64, 6, 1, 8, 6).requiresGrad_();
    GradCheck.checkSecondOrder(a -> Functional.fold(a.get(0), new long[] {3, 4}, new long[] {2}, new long[] {1}, new long[] {0}, new long[] {1}),
        List.of(cols), 8);
  }

  /** Channels-last inputs and weights (the memory format PyTorch's models often hold). */
  @Test
  void channelsLastOperandsMatchTheLoop() {
    long[] one = {1}, two = {2};
    for (DType dt : new DType[] {F64, DType.FLOAT32}) {
      double tol = dt == F64 ? 1e-10 : 2e-5;
      for (long[] st : new long[][] {one, two}) {
        Tensor x = det(dt, 1, 2, 16, 6, 5), w = det(dt, 2, 16, 16, 3, 3);
        Tensor xcl = x.permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2), wcl = w.permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2);
        Tensor xg = xcl.detach().requiresGrad_(), wg = wcl.detach().requiresGrad_();
        Tensor y = Functional.conv2d(xg, wg, null, st, one, one, 1);
        Tensor up = det(dt, 3, y.shape()).permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2);
        double[][] want = refConv(x, w, null, st, one, one, 1, up);
        List<Tensor> g = Autograd.grad(List.of(y), List.of(up), List.of(xg, wg), false, false, false);
        closeTol(dt + " stride " + st[0] + ": output", want[0], y.toDoubleArray(), tol);
        closeTol(dt + " stride " + st[0] + ": input gradient", want[1], g.get(0).toDoubleArray(), tol);
        closeTol(dt + " stride " + st[0] + ": weight gradient", want[2], g.get(1).toDoubleArray(), tol);
      }
    }
  }

  /** float16 and bfloat16 gradients (the im2col path, GEMMs computed in float) within a few ulps of the float64 loop's. */
  @Test
  void halfAndBfloatGradientsMatchTheLoop() {
    long[] one = {1}, two = {2};
    for (DType dt : new DType[] {DType.FLOAT16, DType.BFLOAT16}) {
      double tol = dt == DType.FLOAT16 ? 4e-3 : 3e-2;
      Tensor x = det(dt, 1, 2, 4, 6, 5), w = det(dt, 2, 6, 2, 3, 2), b = det(dt, 3, 6), wt = det(dt, 4, 4, 3, 2, 3);
      for (int transposed = 0; transposed < 2; transposed++) {
        Tensor xg = x.detach().requiresGrad_(), wg = (transposed == 1 ? wt : w).detach().requiresGrad_(), bg = b.detach().requiresGrad_();
        Tensor y = transposed == 1 ? Functional.convTranspose2d(xg, wg, bg, two, one, one, 2, one) : Functional.conv2d(xg, wg, bg, two, one, one, 2);
        Tensor up = det(dt, 5, y.shape());
        double[][] want = transposed == 1 ? refConvT(x, wt, b, two, one, one, one, 2, up) : refConv(x, w, b, two, one, one, 2, up);
        List<Tensor> g = Autograd.grad(List.of(y), List.of(up), List.of(xg, wg, bg), false, false, false);
        for (int i = 0; i < 3; i++) {
          assertEquals(dt, g.get(i).dtype());
          closeTol(dt + (transposed == 1 ? " conv_transpose2d" : " conv2d") + " gradient " + i, want[i + 1], g.get(i).toDoubleArray(), tol);
        }
      }
    }
  }

  /** padding="same" with even kernels (the odd zero after) on each path: against the loop over the input zero-padded by pad(). */
  @Test
  void samePaddingWithEvenKernelsMatchesTheLoopOverAPaddedInput() {
    Random r = new Random(15);
    for (int t = 0; t < 40; t++) {
      DType dt = r.nextBoolean() ? DType.FLOAT32 : F64;
      int nsp = 1 + r.nextInt(3);
      long c = new long[] {1, 3, 8, 17}[r.nextInt(4)], o = new long[] {1, 2, 8, 16}[r.nextInt(4)];
      long[] in = new long[nsp], k = new long[nsp], dil = new long[nsp], padArg = new long[2 * nsp];
      for (int d = 0; d < nsp; d++) {
        in[d] = 1 + r.nextInt(nsp == 3 ? 4 : 8);
        k[d] = 1 + r.nextInt(4);
        dil[d] = 1 + r.nextInt(2);
        long total = dil[d] * (k[d] - 1);
        padArg[2 * (nsp - 1 - d)] = total / 2;
        padArg[2 * (nsp - 1 - d) + 1] = total - total / 2;
      }
      try (TensorScope s = TensorScope.open()) {
        Tensor x = det(dt, t, cat(new long[] {2, c}, in)), w = det(dt, t + 50, cat(new long[] {o, c}, k)), b = det(dt, t + 90, o);
        long[] one = {1};
        Tensor xg = x.detach().requiresGrad_();
        Tensor y = switch (nsp) {
          case 1 -> Functional.conv1d(xg, w, b, one, "same", dil, 1);
          case 2 -> Functional.conv2d(xg, w, b, one, "same", dil, 1);
          default -> Functional.conv3d(xg, w, b, one, "same", dil, 1);
        };
        assertArrayEquals(cat(new long[] {2, o}, in), y.shape());
        Tensor padded = Functional.pad(x, padArg, "constant", 0);
        Tensor up = det(dt, t + 7, y.shape());
        double[][] want = refConv(padded, w, b, one, new long[] {0}, dil, 1, up);
        double tol = dt == F64 ? 1e-10 : 2e-5;
        String what = dt + " same x" + Arrays.toString(x.shape()) + " w" + Arrays.toString(w.shape()) + " dil " + Arrays.toString(dil);
        closeTol(what, want[0], y.toDoubleArray(), tol);
        Tensor gp = Functional.pad(Tensor.fromArray(want[1], padded.shape()), Arrays.stream(padArg).map(v -> -v).toArray(), "constant", 0);
        closeTol(what + ": input gradient", gp.toDoubleArray(), Autograd.grad(List.of(y), List.of(up), List.of(xg), false, false, false).get(0)
            .toDoubleArray(), tol);
      }
    }
  }

  // ---- arguments whose size arithmetic overflows ----

  /** dilation·(kernel − 1) wraps to 0 at 2^62·4: the reach is 2^64 + 1, far past the input. PyTorch's rule: the kernel can't be larger. */
  @Test
  void aDilationWhoseReachOverflowsIsRefused() {
    Tensor x = Tensor.ones(1, 1, 8), w = Tensor.ones(1, 1, 5);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Functional.conv1d(x, w, null, new long[] {1}, new long[] {0}, new long[] {1L << 62}, 1));
    assertTrue(e.getMessage().startsWith("conv1d(): "), e.getMessage());
    Tensor x2 = Tensor.ones(1, 1, 8, 8), w2 = Tensor.ones(1, 1, 5, 1);
    e = assertThrows(IllegalArgumentException.class,
        () -> Functional.conv2d(x2, w2, null, new long[] {2}, new long[] {0}, new long[] {1L << 62, 1}, 1));
    assertTrue(e.getMessage().startsWith("conv2d(): "), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> Functional.unfold(x2, new long[] {5, 1}, new long[] {1L << 62, 1}, new long[] {0}, new long[] {1}));
    assertTrue(e.getMessage().startsWith("unfold(): "), e.getMessage());
  }

  /** A padding past 2^62 makes in + 2·padding wrap; at 2^61 the columns (kernel × output) would not fit in 64 bits. */
  @Test
  void aPaddingWhoseSizeOverflowsIsRefused() {
    Tensor x = Tensor.ones(1, 1, 8), w = Tensor.ones(1, 1, 3);
    for (long p : new long[] {1L << 61, 1L << 62, Long.MAX_VALUE / 2, Long.MAX_VALUE}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> Functional.conv1d(x, w, null, new long[] {1}, new long[] {p}, new long[] {1}, 1));
      assertTrue(e.getMessage().startsWith("conv1d(): "), e.getMessage());
      e = assertThrows(IllegalArgumentException.class,
          () -> Functional.unfold(Tensor.ones(1, 1, 2, 2), new long[] {1}, new long[] {1}, new long[] {p}, new long[] {1}));
      assertTrue(e.getMessage().startsWith("unfold(): "), e.getMessage());
    }
  }

  /** (in − 1)·stride wraps: 4·2^62 + 1 is 1 in 64 bits, a one-element output where the true one has 2^64 + 1. */
  @Test
  void aTransposedStrideWhoseOutputSizeOverflowsIsRefused() {
    Tensor x = Tensor.ones(1, 1, 5), w = Tensor.ones(1, 1, 1);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Functional.convTranspose1d(x, w, null, new long[] {1L << 62}, new long[] {0}, new long[] {0}, 1, new long[] {1}));
    assertTrue(e.getMessage().startsWith("conv_transpose1d(): "), e.getMessage());
    Tensor x2 = Tensor.ones(1, 1, 3), w2 = Tensor.ones(1, 1, 5);  // dilation·(kernel − 1) = 2^64
    e = assertThrows(IllegalArgumentException.class,
        () -> Functional.convTranspose1d(x2, w2, null, new long[] {1}, new long[] {0}, new long[] {0}, 1, new long[] {1L << 62}));
    assertTrue(e.getMessage().startsWith("conv_transpose1d(): "), e.getMessage());
  }

  /** 274177 · 67280421310721 = 2^64 + 1: a kernel whose element count wraps to 1; the padding makes one window. */
  @Test
  void unfoldAndFoldWhoseWindowSizeOverflowsAreRefused() {
    long[] kernel = {274177, 67280421310721L}, padding = {137088, 33640210655360L};
    Tensor x = Tensor.ones(1, 1, 1, 1);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Functional.unfold(x, kernel, new long[] {1}, padding, new long[] {1}));
    assertTrue(e.getMessage().startsWith("unfold(): "), e.getMessage());
    Tensor cols = Tensor.ones(1, 1, 1);
    e = assertThrows(IllegalArgumentException.class, () -> Functional.fold(cols, new long[] {1, 1}, kernel, new long[] {1}, padding, new long[] {1}));
    assertEquals("fold(): Given kernel_width = 67280421310721 and kernel_height = 274177 the product of kernel_width and kernel_height "
        + "overflowed.", e.getMessage());
    // 2^32 × 2^32 blocks: their product wraps to 0, which an empty input's size 0 would match
    Tensor empty = Tensor.ones(1, 1, 0);
    e = assertThrows(IllegalArgumentException.class,
        () -> Functional.fold(empty, new long[] {1L << 32, 1L << 32}, new long[] {1}, new long[] {1}, new long[] {0}, new long[] {1}));
    assertTrue(e.getMessage().startsWith("fold(): "), e.getMessage());
  }

  // ---- PyTorch's refusals ----

  /** PyTorch: "Given groups=2, expected weight to be at least 2 at dimension 0"; and a zero-sized kernel is refused naming the op. */
  @Test
  void weightsPyTorchRefusesAreRefusedNamingTheOp() {
    Tensor x = Tensor.ones(1, 0, 4, 4), w = Tensor.ones(0, 0, 1, 1);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Functional.conv2d(x, w, null, new long[] {1}, new long[] {0}, new long[] {1}, 2));
    assertEquals("conv2d(): Given groups=2, expected weight to be at least 2 at dimension 0, but got weight of size [0, 0, 1, 1] instead",
        e.getMessage());
    Tensor x1 = Tensor.ones(1, 1, 4), w0 = Tensor.ones(1, 1, 0);
    e = assertThrows(IllegalArgumentException.class, () -> Functional.conv1d(x1, w0, null, new long[] {1}, new long[] {0}, new long[] {1}, 1));
    assertTrue(e.getMessage().startsWith("conv1d(): "), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> Functional.convTranspose1d(x1, w0, null, new long[] {1}, new long[] {0}, new long[] {0}, 1, new long[] {1}));
    assertTrue(e.getMessage().startsWith("conv_transpose1d(): "), e.getMessage());
  }

  /**
   * jtensor refused an integer 3×3 kernel but computed a 1×1 one (its GEMM shortcut), and bool too
   * (PyTorch 2.13 refuses bool; it computes integer conv2d, and int64 conv_transpose2d, which jtensor
   * does not implement): now one refusal whatever the kernel.
   */
  @Test
  void integerAndBoolConvolutionsAreRefusedWhateverTheKernel() {
    long[] one = {1}, zero = {0};
    for (DType dt : new DType[] {DType.INT64, DType.INT32, DType.BOOL}) {
      for (long k : new long[] {1, 3}) {
        Tensor x = Tensor.ones(new long[] {1, 1, 4, 4}, dt), w = Tensor.ones(new long[] {1, 1, k, k}, dt);
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
            () -> Functional.conv2d(x, w, null, one, zero, one, 1));
        assertEquals("conv2d(): not implemented for " + dt + " (jtensor convolves floating types only)", e.getMessage());
        e = assertThrows(UnsupportedOperationException.class, () -> Functional.convTranspose2d(x, w, null, one, zero, zero, 1, one));
        assertEquals("conv_transpose2d(): not implemented for " + dt + " (jtensor convolves floating types only)", e.getMessage());
      }
    }
  }

  /** PyTorch's im2col/col2im shape checks: only the batch may be empty (jtensor returned [1, 0, 4] and a padded empty image's zeros). */
  @Test
  void unfoldAndFoldRefuseEmptyDimsOtherThanTheBatch() {
    long[] one = {1}, zero = {0};
    for (Tensor x : new Tensor[] {Tensor.ones(1, 0, 3, 3), Tensor.ones(1, 1, 0, 3), Tensor.ones(0, 3, 3), Tensor.ones(2, 0, 3)}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Functional.unfold(x, new long[] {1}, one, one, one));
      assertEquals("unfold(): Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, "
          + "but got: "
          + Arrays.toString(x.shape()), e.getMessage());
    }
    assertArrayEquals(new long[] {0, 4, 4}, Functional.unfold(Tensor.ones(0, 1, 3, 3), new long[] {2}, one, zero, one).shape());
    for (Tensor c : new Tensor[] {Tensor.ones(1, 0, 4), Tensor.ones(0, 4), Tensor.ones(4, 0)}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> Functional.fold(c, new long[] {3, 3}, new long[] {2}, one, zero, one));
      assertEquals("fold(): Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero dimensions for input, "
          + "but got: "
          + Arrays.toString(c.shape()), e.getMessage());
    }
    assertArrayEquals(new long[] {0, 1, 3, 3}, Functional.fold(Tensor.ones(0, 4, 4), new long[] {3, 3}, new long[] {2}, one, zero, one).shape());
  }

  /** The modules refuse as torch's _ConvNd does, naming themselves (a weight past 64 bits of bytes said "empty(): ..."). */
  @Test
  void moduleArgumentsAreRefusedNamingTheModule() {
    org.jtensor.Generator g = new org.jtensor.Generator(1);
    for (long[] k : new long[][] {{1L << 32, 1L << 32}, {1L << 31, 1L << 31}}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Conv2d(1, 1, k, LayerOptions.of(), g));
      assertTrue(e.getMessage().startsWith("Conv2d(): "), e.getMessage());
      e = assertThrows(IllegalArgumentException.class, () -> new ConvTranspose2d(1, 1, k, LayerOptions.of(), new long[] {0}, g));
      assertTrue(e.getMessage().startsWith("ConvTranspose2d(): "), e.getMessage());
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new ConvTranspose2d(2, 2, new long[] {3}, LayerOptions.of().groups(0), new long[] {0}, g));
    assertEquals("ConvTranspose2d(): groups must be a positive integer", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> new ConvTranspose2d(3, 2, new long[] {3}, LayerOptions.of().groups(2), new long[] {0}, g));
    assertEquals("ConvTranspose2d(): in_channels must be divisible by groups", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> new ConvTranspose2d(2, 3, new long[] {3}, LayerOptions.of().groups(2), new long[] {0}, g));
    assertEquals("ConvTranspose2d(): out_channels must be divisible by groups", e.getMessage());
  }

  // ---- pad ----

  /**
   * A pad past 2^31 in reflect, replicate or circular mode: the index vector's int length wrapped
   * (2^40 + 4 is 4), so a huge pad gave a 4-element output; PyTorch tries the real size and runs out
   * of memory. Past 2^63 the output size itself overflows: refused naming pad.
   */
  @Test
  void aHugePadIsNeverAWrongSizedResult() {
    Tensor x = Tensor.fromArray(new double[] {1, 2, 3}, 1, 1, 3);
    for (String mode : new String[] {"replicate", "constant"}) {
      RuntimeException e = assertThrows(RuntimeException.class, () -> Functional.pad(x, new long[] {(1L << 40) + 1, 0}, mode, 0));
      assertTrue(e instanceof TensorOutOfMemoryException, mode + ": " + e);
      IllegalArgumentException o = assertThrows(IllegalArgumentException.class,
          () -> Functional.pad(x, new long[] {Long.MAX_VALUE, 1}, mode, 0));
      assertTrue(o.getMessage().startsWith("pad(): "), o.getMessage());
    }
  }

  /** PyTorch crops the ends in circular mode (CircularPad*d: "If negative padding is applied then the ends of the tensor get removed"). */
  @Test
  void circularPaddingTakesNegativePadsAsPyTorch() {
    Tensor x = Tensor.arange(5).to(F64).reshape(1, 1, 5).requiresGrad_();
    Tensor y = Functional.pad(x, new long[] {-1, 2}, "circular", 0);
    assertArrayEquals(new double[] {1, 2, 3, 4, 1, 2}, y.toDoubleArray());
    y.mul(Tensor.arange(6).to(F64)).sum().backward();
    assertArrayEquals(new double[] {0, 0 + 4, 1 + 5, 2, 3}, x.grad().toDoubleArray());
    Tensor z = Functional.pad(x.detach(), new long[] {2, -2}, "circular", 0);  // crop [0, 1, 2], then wrap its end
    assertArrayEquals(new double[] {1, 2, 0, 1, 2}, z.toDoubleArray());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Functional.pad(x, new long[] {-3, -3}, "circular", 0));
    assertTrue(e.getMessage().startsWith("pad(): Negative padding value is resulting in an empty dimension"), e.getMessage());
  }

  /** PyTorch's _pad_enum: no fill value outside constant mode, and the non-constant modes pad the last 1-3 dims of a (batched) input. */
  @Test
  void nonConstantModesRefuseWhatPyTorchRefuses() {
    Tensor x = Tensor.ones(1, 2, 3);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Functional.pad(x, new long[] {1, 1}, "reflect", 2));
    assertEquals("pad(): Padding mode \"reflect\" doesn't take in value argument", e.getMessage());
    for (Tensor t : new Tensor[] {Tensor.ones(3), Tensor.ones(1, 1, 1, 3)}) {
      UnsupportedOperationException u = assertThrows(UnsupportedOperationException.class,
          () -> Functional.pad(t, new long[] {1, 1}, "replicate", 0));
      assertEquals("pad(): Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now", u.getMessage());
    }
    assertArrayEquals(new long[] {1, 4, 5}, Functional.pad(x, new long[] {1, 1, 1, 1}, "circular", 0).shape());  // unbatched 2-d
  }

  /** Each non-constant mode's values and gradient against an index loop, on strided inputs, every pad size it takes. */
  @Test
  void reflectReplicateAndCircularMatchTheIndexLoop() {
    for (String mode : new String[] {"reflect", "replicate", "circular"}) {
      for (long before = -2; before <= 4; before++) {
        for (long after = -2; after <= 4; after++) {
          long n = 4, b = before, a = after;
          boolean ok = switch (mode) {
            case "reflect" -> b >= 0 && a >= 0 && b < n && a < n;
            case "replicate" -> b >= 0 && a >= 0;
            default -> b <= n && a <= n && Math.max(0, b) <= n - Math.max(0, -b) - Math.max(0, -a) && Math.max(0, a) <= n - Math.max(0, -b) - Math.max(0, -a);
          };
          if (!ok) continue;
          try (TensorScope s = TensorScope.open()) {
            Tensor x = odd(det(F64, (int) (b * 10 + a), 2, 3, n), 2).requiresGrad_();
            Tensor y = Functional.pad(x, new long[] {b, a}, mode, 0);
            long m = n + b + a;
            assertArrayEquals(new long[] {2, 3, m}, y.shape(), mode + " " + b + ", " + a);
            double[] xv = x.toDoubleArray(), want = new double[(int) (6 * m)], up = det(F64, 3, 2, 3, m).toDoubleArray(), gx = new double[xv.length];
            long from = Math.max(0, -b), kept = n - from - Math.max(0, -a);
            for (int row = 0; row < 6; row++) {
              for (long i = 0; i < m; i++) {
                long j = i - b, src = switch (mode) {
                  case "reflect" -> j < 0 ? -j : j >= n ? 2 * (n - 1) - j : j;
                  case "replicate" -> Math.max(0, Math.min(n - 1, j));
                  default -> from + Math.floorMod(i - Math.max(0, b), kept);
                };
                want[(int) (row * m + i)] = xv[(int) (row * n + src)];
                gx[(int) (row * n + src)] += up[(int) (row * m + i)];
              }
            }
            assertArrayEquals(want, y.toDoubleArray(), 0, mode + " " + b + ", " + a);
            Tensor g = Autograd.grad(List.of(y), List.of(det(F64, 3, 2, 3, m)), List.of(x), false, false, false).get(0);
            assertArrayEquals(gx, g.toDoubleArray(), 1e-12, mode + " " + b + ", " + a + ": gradient");
          }
        }
      }
    }
  }

  /** A fill value the dtype cannot hold is refused naming pad (it said "full(): ..."); PyTorch's fill_ converts 1.5 to 1 for int64. */
  @Test
  void aConstantPadValueTheDtypeCannotHoldIsRefusedNamingPad() {
    Tensor x = Tensor.ones(new long[] {1, 3}, DType.INT8);
    for (double v : new double[] {300, Double.NaN, Double.POSITIVE_INFINITY}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Functional.pad(x, new long[] {1, 0}, "constant", v));
      assertTrue(e.getMessage().startsWith("pad(): value "), e.getMessage());
    }
    assertArrayEquals(new double[] {1, 1}, Functional.pad(x, new long[] {0, -1, 0, 0}, "constant", 300).toDoubleArray(), 0);  // nothing filled
    assertArrayEquals(new double[] {1, 0, 1, 2, 1}, Functional.pad(Tensor.arange(3), new long[] {1, 1}, "constant", 1.5).toDoubleArray(), 0);
  }

  // ---- helpers ----

  static Tensor conv(int nsp, Tensor x, Tensor w, Tensor b, long[] stride, long[] pad, long[] dil, long groups) {
    return switch (nsp) {
      case 1 -> Functional.conv1d(x, w, b, stride, pad, dil, groups);
      case 2 -> Functional.conv2d(x, w, b, stride, pad, dil, groups);
      default -> Functional.conv3d(x, w, b, stride, pad, dil, groups);
    };
  }

  static Tensor convT(int nsp, Tensor x, Tensor w, Tensor b, long[] stride, long[] pad, long[] op, long groups, long[] dil) {
    return switch (nsp) {
      case 1 -> Functional.convTranspose1d(x, w, b, stride, pad, op, groups, dil);
      case 2 -> Functional.convTranspose2d(x, w, b, stride, pad, op, groups, dil);
      default -> Functional.convTranspose3d(x, w, b, stride, pad, op, groups, dil);
    };
  }

  private static long[] outSizes(long[] in, long[] k, long[] stride, long[] pad, long[] dil) {
    long[] o = new long[in.length];
    for (int d = 0; d < in.length; d++) o[d] = (in[d] + 2 * pad[d] - dil[d] * (k[d] - 1) - 1) / stride[d] + 1;
    return o;
  }

  /** The same values in an odd layout: 0 contiguous, 1 at a storage offset, 2 every other element, 3 dims 0 and 1 swapped in memory. */
  static Tensor odd(Tensor t, int how) {
    try (TensorScope s = TensorScope.open()) {
      Tensor r = switch (how) {
        case 1 -> {
          Tensor big = Tensor.zeros(new long[] {t.numel() + 7}, t.dtype());
          Tensor v = big.narrow(0, 7, t.numel());
          v.copy_(t.reshape(t.numel()));
          yield v.view(t.shape());
        }
        case 2 -> Tensor.stack(List.of(t, Tensor.zeros(t.shape(), t.dtype())), t.dim()).select(t.dim(), 0);
        case 3 -> t.dim() < 2 ? t.clone() : t.transpose(0, 1).contiguous().transpose(0, 1);
        default -> t.clone();
      };
      return s.keep(r);
    }
  }

  /**
   * {y, gx, gw, gb}: the convolution in float64 loops (spatial dims as three) and, for the upstream
   * gradient up (null: none), the gradients of sum(y · up).
   */
  static double[][] refConv(Tensor x, Tensor w, Tensor b, long[] stride, long[] pad, long[] dil, long groups, Tensor up) {
    long[] xs = x.shape(), ws = w.shape();
    int nsp = xs.length - 2;
    long[] in = three(xs, 1), k = three(ws, 1), st = pad3(stride, nsp, 1), p = pad3(pad, nsp, 0), dl = pad3(dil, nsp, 1);
    long[] out = new long[3];
    for (int d = 0; d < 3; d++) out[d] = (in[d] + 2 * p[d] - dl[d] * (k[d] - 1) - 1) / st[d] + 1;
    double[] xv = x.toDoubleArray(), wv = w.toDoubleArray(), bv = b == null ? null : b.toDoubleArray();
    long nb = xs[0], c = xs[1], o = ws[0], cg = c / groups, og = o / groups, plane = out[0] * out[1] * out[2], taps = k[0] * k[1] * k[2];
    double[] y = new double[(int) (nb * o * plane)], u = up == null ? null : up.toDoubleArray();
    double[] gx = new double[xv.length], gw = new double[wv.length], gb = new double[(int) o];
    for (int i = 0; i < y.length; i++) {
      if (bv != null) y[i] = bv[(int) (i / plane % o)];
      if (u != null) gb[(int) (i / plane % o)] += u[i];
    }
    for (long n = 0; n < nb; n++)
      for (long oc = 0; oc < o; oc++)
        for (long q = 0; q < plane; q++)
          for (long v = 0; v < cg; v++)
            for (long t = 0; t < taps; t++) {
              long o0 = q / (out[1] * out[2]), o1 = q / out[2] % out[1], o2 = q % out[2];
              long k0 = t / (k[1] * k[2]), k1 = t / k[2] % k[1], k2 = t % k[2];
              long i0 = o0 * st[0] - p[0] + k0 * dl[0], i1 = o1 * st[1] - p[1] + k1 * dl[1], i2 = o2 * st[2] - p[2] + k2 * dl[2];
              if (i0 < 0 || i0 >= in[0] || i1 < 0 || i1 >= in[1] || i2 < 0 || i2 >= in[2]) continue;
              int xi = (int) ((((n * c + oc / og * cg + v) * in[0] + i0) * in[1] + i1) * in[2] + i2);
              int wi = (int) ((oc * cg + v) * taps + t), yi = (int) ((n * o + oc) * plane + q);
              y[yi] += xv[xi] * wv[wi];
              if (u != null) {
                gx[xi] += u[yi] * wv[wi];
                gw[wi] += u[yi] * xv[xi];
              }
            }
    return new double[][] {y, gx, gw, gb};
  }

  /** {y, gx, gw, gb} for conv_transpose: each input element spreads its kernel-scaled value into the output. */
  static double[][] refConvT(Tensor x, Tensor w, Tensor b, long[] stride, long[] pad, long[] outPad, long[] dil, long groups, Tensor up) {
    long[] xs = x.shape(), ws = w.shape();
    int nsp = xs.length - 2;
    long[] in = three(xs, 1), k = three(ws, 1), st = pad3(stride, nsp, 1), p = pad3(pad, nsp, 0), dl = pad3(dil, nsp, 1);
    long[] opd = pad3(outPad, nsp, 0), out = new long[3];
    for (int d = 0; d < 3; d++) out[d] = (in[d] - 1) * st[d] - 2 * p[d] + dl[d] * (k[d] - 1) + opd[d] + 1;
    double[] xv = x.toDoubleArray(), wv = w.toDoubleArray(), bv = b == null ? null : b.toDoubleArray();
    long nb = xs[0], ci = xs[1], cg = ci / groups, og = ws[1], o = og * groups, plane = out[0] * out[1] * out[2], taps = k[0] * k[1] * k[2];
    long inPlane = in[0] * in[1] * in[2];
    double[] y = new double[(int) (nb * o * plane)], u = up == null ? null : up.toDoubleArray();
    double[] gx = new double[xv.length], gw = new double[wv.length], gb = new double[(int) o];
    for (int i = 0; i < y.length; i++) {
      if (bv != null) y[i] = bv[(int) (i / plane % o)];
      if (u != null) gb[(int) (i / plane % o)] += u[i];
    }
    for (long n = 0; n < nb; n++)
      for (long c = 0; c < ci; c++)
        for (long q = 0; q < inPlane; q++)
          for (long oc = 0; oc < og; oc++)
            for (long t = 0; t < taps; t++) {
              long i0 = q / (in[1] * in[2]), i1 = q / in[2] % in[1], i2 = q % in[2];
              long k0 = t / (k[1] * k[2]), k1 = t / k[2] % k[1], k2 = t % k[2];
              long o0 = i0 * st[0] - p[0] + k0 * dl[0], o1 = i1 * st[1] - p[1] + k1 * dl[1], o2 = i2 * st[2] - p[2] + k2 * dl[2];
              if (o0 < 0 || o0 >= out[0] || o1 < 0 || o1 >= out[1] || o2 < 0 || o2 >= out[2]) continue;
              long yc = c / cg * og + oc;
              int xi = (int) ((n * ci + c) * inPlane + q), wi = (int) ((c * og + oc) * taps + t);
              int yi = (int) ((n * o + yc) * plane + (o0 * out[1] + o1) * out[2] + o2);
              y[yi] += xv[xi] * wv[wi];
              if (u != null) {
                gx[xi] += u[yi] * wv[wi];
                gw[wi] += u[yi] * xv[xi];
              }
            }
    return new double[][] {y, gx, gw, gb};
  }

  /** A batched shape's spatial sizes as three, leading ones first. */
  private static long[] three(long[] shape, long fill) {
    long[] r = {fill, fill, fill};
    int nsp = shape.length - 2;
    for (int d = 0; d < nsp; d++) r[3 - nsp + d] = shape[2 + d];
    return r;
  }

  private static long[] pad3(long[] v, int nsp, long fill) {
    long[] r = {fill, fill, fill};
    for (int d = 0; d < nsp; d++) r[3 - nsp + d] = v[v.length == 1 ? 0 : d];
    return r;
  }

  static long[] cat(long[] a, long... b) {
    long[] r = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    return r;
  }

  /** sin(0.618 i + 1.3 seed) * 1.5 over the flat index, computed in float64, as dtype. */
  static Tensor det(DType dtype, int seed, long... shape) {
    long n = 1;
    for (long d : shape) n *= d;
    double[] v = new double[(int) n];
    for (int i = 0; i < n; i++) v[i] = Math.sin(i * 0.618 + seed * 1.3) * 1.5;
    try (TensorScope s = TensorScope.open()) {
      Tensor t = Tensor.fromArray(v, shape);
      return s.keep(dtype == F64 ? t : t.to(dtype));
    }
  }

  private static void closeTol(String what, double[] want, double[] got, double tol) {
    assertEquals(want.length, got.length, what + ": element count");
    Close.assertElements(what, want, got, Close.ofLargest(tol, want));
  }

  private static void close(String what, double[] want, double[] got) {
    assertEquals(want.length, got.length, what + ": element count");
    Close.assertElements(what, want, got, Close.ofLargest(1e-10, want));
  }
}
