package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.bytedeco.pytorch.TensorOptional;
import org.bytedeco.pytorch.global.torch;
import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.junit.jupiter.api.Test;

/**
 * conv1d/conv2d/conv3d against libtorch in the same JVM over random strides, paddings, dilations,
 * groups, batch 1 and more, unbatched inputs and non-contiguous (channels-last, transposed)
 * layouts: the output and the input's, weight's and bias's gradients for one random upstream
 * gradient, float32 on both sides.
 */
class ConvolutionLibtorchTest {
  private static void same(String what, double[] want, double[] got, double tol) {
    assertEquals(want.length, got.length, what + ": length");
    double scale = 1;
    for (double v : want) scale = Math.max(scale, Math.abs(v));
    for (int i = 0; i < want.length; i++) {
      assertEquals(want[i], got[i], tol * scale, what + "[" + i + "]");
    }
  }

  @Test
  void randomConvolutionsMatchLibtorchForwardAndBackward() {
    Random rnd = new Random(19);
    Generator g = new Generator(19);
    int checked = 0;
    for (int trial = 0; trial < 90; trial++) {
      int nsp = 1 + trial % 3;
      long groups = 1 + rnd.nextInt(trial % 4 == 3 ? 3 : 1);
      long cPer = 1 + rnd.nextInt(3), oPer = 1 + rnd.nextInt(3), batch = 1 + rnd.nextInt(3);
      boolean unbatched = rnd.nextInt(6) == 0;
      long[] kernel = new long[nsp], stride = new long[nsp], padding = new long[nsp], dilation = new long[nsp], in = new long[nsp];
      for (int d = 0; d < nsp; d++) {
        kernel[d] = 1 + rnd.nextInt(3);
        stride[d] = 1 + rnd.nextInt(nsp == 3 ? 2 : 3);
        dilation[d] = 1 + rnd.nextInt(2);
        padding[d] = rnd.nextInt(3);
        long reach = dilation[d] * (kernel[d] - 1) + 1;
        in[d] = Math.max(1, reach - 2 * padding[d]) + rnd.nextInt(nsp == 3 ? 4 : 7);
      }
      long c = cPer * groups, o = oPer * groups;
      long[] xShape = concat(unbatched ? new long[] {c} : new long[] {batch, c}, in);
      long[] wShape = concat(new long[] {o, cPer}, kernel);
      try (TensorScope s = TensorScope.open()) {
        Tensor x = layout(Tensor.randn(xShape, g), trial % 3, unbatched ? 0 : 1).requiresGrad_();
        Tensor w = Tensor.randn(wShape, g).requiresGrad_();
        Tensor b = trial % 5 == 4 ? null : Tensor.randn(new long[] {o}, g).requiresGrad_();
        Tensor y = conv(nsp, x, w, b, stride, padding, dilation, groups);
        Tensor up = Tensor.randn(y.shape(), g);
        y.mul(up).sum().backward();

        org.bytedeco.pytorch.Tensor tx = LibtorchPeer.leaf(x), tw = LibtorchPeer.leaf(w), tb = b == null ? null : LibtorchPeer.leaf(b);
        TensorOptional ob = tb == null ? new TensorOptional() : new TensorOptional(tb);
        org.bytedeco.pytorch.Tensor ty = nsp == 1 ? torch.conv1d(tx, tw, ob, stride, padding, dilation, groups)
            : nsp == 2 ? torch.conv2d(tx, tw, ob, stride, padding, dilation, groups) : torch.conv3d(tx, tw, ob, stride, padding, dilation, groups);
        ty.mul(LibtorchPeer.of(up)).sum().backward();
        String what = "conv" + nsp + "d x" + Arrays.toString(xShape) + " w" + Arrays.toString(wShape) + " stride " + Arrays.toString(stride)
            + " padding " + Arrays.toString(padding) + " dilation " + Arrays.toString(dilation) + " groups " + groups;
        assertEquals(Arrays.toString(ty.sizes().vec().get()), Arrays.toString(y.shape()), what + ": shape");
        same(what + ": output", LibtorchPeer.values(ty), y.toDoubleArray(), 1e-5);
        same(what + ": x.grad", LibtorchPeer.values(tx.grad()), x.grad().toDoubleArray(), 1e-5);
        same(what + ": w.grad", LibtorchPeer.values(tw.grad()), w.grad().toDoubleArray(), 1e-5);
        if (b != null) same(what + ": b.grad", LibtorchPeer.values(tb.grad()), b.grad().toDoubleArray(), 1e-5);
        checked++;
      }
    }
    assertTrue(checked == 90, "cases checked: " + checked);
  }

  @Test
  void randomTransposedConvolutionsMatchLibtorchForwardAndBackward() {
    Random rnd = new Random(23);
    Generator g = new Generator(23);
    for (int trial = 0; trial < 60; trial++) {
      int nsp = 1 + trial % 3;
      long groups = 1 + rnd.nextInt(trial % 4 == 3 ? 3 : 1);
      long cPer = 1 + rnd.nextInt(3), oPer = 1 + rnd.nextInt(3), batch = 1 + rnd.nextInt(2);
      boolean unbatched = rnd.nextInt(6) == 0;
      long[] kernel = new long[nsp], stride = new long[nsp], padding = new long[nsp], dilation = new long[nsp], outPad = new long[nsp];
      long[] in = new long[nsp];
      for (int d = 0; d < nsp; d++) {
        kernel[d] = 1 + rnd.nextInt(3);
        stride[d] = 1 + rnd.nextInt(3);
        dilation[d] = 1 + rnd.nextInt(2);
        outPad[d] = rnd.nextInt((int) Math.max(stride[d], dilation[d]));
        in[d] = 1 + rnd.nextInt(nsp == 3 ? 3 : 5);
        long full = (in[d] - 1) * stride[d] + dilation[d] * (kernel[d] - 1) + outPad[d] + 1;
        padding[d] = rnd.nextInt((int) Math.max(1, Math.min(3, (full - 1) / 2 + 1)));
      }
      long c = cPer * groups, o = oPer * groups;
      long[] xShape = concat(unbatched ? new long[] {c} : new long[] {batch, c}, in);
      long[] wShape = concat(new long[] {c, oPer}, kernel);
      try (TensorScope s = TensorScope.open()) {
        Tensor x = layout(Tensor.randn(xShape, g), trial % 3, unbatched ? 0 : 1).requiresGrad_();
        Tensor w = Tensor.randn(wShape, g).requiresGrad_();
        Tensor b = trial % 5 == 4 ? null : Tensor.randn(new long[] {o}, g).requiresGrad_();
        Tensor y = nsp == 1 ? Functional.convTranspose1d(x, w, b, stride, padding, outPad, groups, dilation)
            : nsp == 2 ? Functional.convTranspose2d(x, w, b, stride, padding, outPad, groups, dilation)
            : Functional.convTranspose3d(x, w, b, stride, padding, outPad, groups, dilation);
        Tensor up = Tensor.randn(y.shape(), g);
        y.mul(up).sum().backward();
        org.bytedeco.pytorch.Tensor tx = LibtorchPeer.leaf(x), tw = LibtorchPeer.leaf(w), tb = b == null ? null : LibtorchPeer.leaf(b);
        TensorOptional ob = tb == null ? new TensorOptional() : new TensorOptional(tb);
        org.bytedeco.pytorch.Tensor ty = nsp == 1 ? torch.conv_transpose1d(tx, tw, ob, stride, padding, outPad, groups, dilation)
            : nsp == 2 ? torch.conv_transpose2d(tx, tw, ob, stride, padding, outPad, groups, dilation)
            : torch.conv_transpose3d(tx, tw, ob, stride, padding, outPad, groups, dilation);
        ty.mul(LibtorchPeer.of(up)).sum().backward();
        String what = "conv_transpose" + nsp + "d x" + Arrays.toString(xShape) + " w" + Arrays.toString(wShape) + " stride "
            + Arrays.toString(stride) + " padding " + Arrays.toString(padding) + " output_padding " + Arrays.toString(outPad) + " dilation "
            + Arrays.toString(dilation) + " groups " + groups;
        assertEquals(Arrays.toString(ty.sizes().vec().get()), Arrays.toString(y.shape()), what + ": shape");
        same(what + ": output", LibtorchPeer.values(ty), y.toDoubleArray(), 1e-5);
        same(what + ": x.grad", LibtorchPeer.values(tx.grad()), x.grad().toDoubleArray(), 1e-5);
        same(what + ": w.grad", LibtorchPeer.values(tw.grad()), w.grad().toDoubleArray(), 1e-5);
        if (b != null) same(what + ": b.grad", LibtorchPeer.values(tb.grad()), b.grad().toDoubleArray(), 1e-5);
      }
    }
  }

  static Tensor conv(int nsp, Tensor x, Tensor w, Tensor b, long[] stride, long[] padding, long[] dilation, long groups) {
    return nsp == 1 ? Functional.conv1d(x, w, b, stride, padding, dilation, groups)
        : nsp == 2 ? Functional.conv2d(x, w, b, stride, padding, dilation, groups) : Functional.conv3d(x, w, b, stride, padding, dilation, groups);
  }

  /** 0: contiguous; 1: channels last (dim channel innermost in memory); 2: the last two dims' storage transposed. */
  static Tensor layout(Tensor t, int kind, int channel) {
    int n = t.dim();
    if (kind == 0) return t;
    if (kind == 1) {
      int[] toLast = moved(n, channel), back = new int[n];
      for (int i = 0; i < n; i++) back[toLast[i]] = i;
      return t.permute(toLast).contiguous().permute(back);
    }
    return t.transpose(n - 2, n - 1).contiguous().transpose(n - 2, n - 1);
  }

  private static int[] moved(int n, int dim) {
    int[] p = new int[n];
    for (int i = 0, j = 0; i < n; i++) if (i != dim) p[j++] = i;
    p[n - 1] = dim;
    return p;
  }

  static long[] concat(long[] a, long[] b) {
    long[] r = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    return r;
  }

  @Test
  void samePaddingIsTheExplicitZerosWithTheOddOneAfter() {
    Generator g = new Generator(5);
    try (TensorScope s = TensorScope.open()) {
      Tensor x = Tensor.randn(new long[] {2, 3, 7, 6}, g);
      Tensor w = Tensor.randn(new long[] {4, 3, 4, 3}, g);  // totals 3 (1 before, 2 after) and 2 (1 and 1)
      Tensor same = Functional.conv2d(x, w, null, new long[] {1}, "same", new long[] {1}, 1);
      assertEquals("[2, 4, 7, 6]", Arrays.toString(same.shape()));
      Tensor padded = Tensor.cat(java.util.List.of(Tensor.zeros(2, 3, 1, 6), x, Tensor.zeros(2, 3, 2, 6)), 2);
      padded = Tensor.cat(java.util.List.of(Tensor.zeros(2, 3, 10, 1), padded, Tensor.zeros(2, 3, 10, 1)), 3);
      Tensor explicit = Functional.conv2d(padded, w, null, new long[] {1}, new long[] {0}, new long[] {1}, 1);
      same("same vs explicit", explicit.toDoubleArray(), same.toDoubleArray(), 1e-6);
      Tensor valid = Functional.conv2d(x, w, null, new long[] {1}, "valid", new long[] {1}, 1);
      assertEquals("[2, 4, 4, 4]", Arrays.toString(valid.shape()));
    }
  }

  @Test
  void float64AndHalfPrecisionsRun() {
    Generator g = new Generator(6);
    try (TensorScope s = TensorScope.open()) {
      Tensor x = Tensor.randn(new long[] {2, 4, 5, 5}, g), w = Tensor.randn(new long[] {6, 2, 3, 3}, g), b = Tensor.randn(new long[] {6}, g);
      Tensor ref = Functional.conv2d(x.to(DType.FLOAT64), w.to(DType.FLOAT64), b.to(DType.FLOAT64), new long[] {2, 1}, new long[] {1},
          new long[] {1, 2}, 2);
      for (DType dt : new DType[] {DType.FLOAT32, DType.BFLOAT16, DType.FLOAT16}) {
        Tensor y = Functional.conv2d(x.to(dt), w.to(dt), b.to(dt), new long[] {2, 1}, new long[] {1}, new long[] {1, 2}, 2);
        assertEquals(dt, y.dtype());
        same(dt + " against float64", ref.toDoubleArray(), y.to(DType.FLOAT64).toDoubleArray(), dt == DType.FLOAT32 ? 1e-6 : 3e-2);
      }
    }
  }

  /** fold (col2im) reads its input through the input's strides: any layout gives the contiguous copy's result, and unfold inverts it. */
  @Test
  void foldReadsAnyLayoutAndUndoesUnfoldsCounts() {
    Generator g = new Generator(8);
    try (TensorScope s = TensorScope.open()) {
      long[] k = {2, 3}, d = {1}, p = {1}, st = {1, 2};
      Tensor x = Tensor.randn(new long[] {2, 3, 6, 7}, g);
      Tensor cols = Functional.unfold(x, k, d, p, st);
      Tensor strided = cols.transpose(1, 2).contiguous().transpose(1, 2);  // same values, positions-major
      same("fold of a transposed layout", Functional.fold(cols, new long[] {6, 7}, k, d, p, st).toDoubleArray(),
          Functional.fold(strided, new long[] {6, 7}, k, d, p, st).toDoubleArray(), 0);
      // fold(unfold(x)) is x times how many windows read each element: unfold(ones) folded gives those counts
      Tensor counts = Functional.fold(Functional.unfold(Tensor.ones(1, 1, 6, 7), k, d, p, st), new long[] {6, 7}, k, d, p, st);
      same("fold(unfold(x)) = x * counts", x.mul(counts).toDoubleArray(), Functional.fold(cols, new long[] {6, 7}, k, d, p, st).toDoubleArray(),
          1e-6);
    }
  }
}
