package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.bytedeco.pytorch.LongArrayRef;
import org.bytedeco.pytorch.TensorOptional;
import org.bytedeco.pytorch.global.torch;
import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.junit.jupiter.api.Test;

/**
 * batchNorm (training with running statistics, eval), layerNorm and groupNorm, each one fused
 * kernel (NormOps), against libtorch in the same JVM over random shapes, batch 1 and more, with and
 * without weight and bias, contiguous, channels-last and transposed inputs, inputs whose mean is
 * large against their spread: the output, every gradient for one random upstream gradient and the
 * running statistics, float32 on both sides; then float16 and bfloat16 against float32.
 */
class NormalizationLibtorchTest {
  private static void same(String what, double[] want, double[] got, double tol) {
    assertEquals(want.length, got.length, what + ": length");
    double scale = 1;
    for (double v : want) scale = Math.max(scale, Math.abs(v));
    for (int i = 0; i < want.length; i++) {
      double d = Math.abs(want[i] - got[i]);
      assertTrue(d <= tol * scale, what + "[" + i + "]: want " + want[i] + ", got " + got[i]);  // false for NaN
    }
  }

  /**
   * got (jtensor, float32) against truth (libtorch in float64 on the same values): its largest error
   * within tol of the largest value, or at most twice libtorch's own float32 error (peer), where the
   * problem is ill-conditioned (rows of two elements, a mean large against the spread).
   */
  private static void accurate(String what, org.bytedeco.pytorch.Tensor truth, org.bytedeco.pytorch.Tensor peer, double[] got, double tol) {
    double[] t = LibtorchPeer.values(truth), p = LibtorchPeer.values(peer);
    assertEquals(t.length, got.length, what + ": length");
    double scale = 1, ours = 0, theirs = 0;
    int worst = 0;
    for (int i = 0; i < t.length; i++) {
      scale = Math.max(scale, Math.abs(t[i]));
      double e = Math.abs(got[i] - t[i]);
      if (!(e <= ours)) {  // NaN sticks
        ours = e;
        worst = i;
      }
      theirs = Math.max(theirs, Math.abs(p[i] - t[i]));
    }
    assertTrue(ours <= Math.max(tol * scale, 2 * theirs), what + "[" + worst + "]: float64 " + t[worst] + ", libtorch float32 "
        + p[worst] + ", jtensor " + got[worst] + " (largest errors: jtensor " + ours + ", libtorch " + theirs + ")");
  }

  /** A float64 leaf holding t's values, for libtorch's reference run. */
  private static org.bytedeco.pytorch.Tensor leaf64(Tensor t) {
    return t == null ? null : LibtorchPeer.leaf64(t);
  }

  private static org.bytedeco.pytorch.Tensor leaf32(Tensor t) {
    return t == null ? null : LibtorchPeer.leaf(t);
  }

  /** x laid out as asked (0 contiguous, 1 channels-last, 2 the last two dims stored transposed), same values. */
  private static Tensor layout(Tensor x, int kind) {
    if (kind == 0 || x.dim() < 3) return x;
    if (kind == 1) {
      int[] toLast = new int[x.dim()], back = new int[x.dim()];
      toLast[0] = 0;
      for (int d = 2; d < x.dim(); d++) toLast[d - 1] = d;
      toLast[x.dim() - 1] = 1;
      for (int d = 0; d < x.dim(); d++) back[toLast[d]] = d;
      return x.permute(toLast).contiguous().permute(back);
    }
    return x.transpose(x.dim() - 2, x.dim() - 1).contiguous().transpose(x.dim() - 2, x.dim() - 1);
  }

  private static long[] randomShape(Random rnd, int minDims) {
    int dims = minDims + rnd.nextInt(3);
    long[] shape = new long[dims];
    shape[0] = rnd.nextInt(4) == 0 ? 1 : 2 + rnd.nextInt(4);
    for (int d = 1; d < dims; d++) shape[d] = 1 + rnd.nextInt(d == 1 ? 6 : 5);
    return shape;
  }

  @Test
  void batchNormTrainingAndEvalMatchLibtorch() {
    Random rnd = new Random(31);
    Generator g = new Generator(31);
    for (int trial = 0; trial < 40; trial++) {
      long[] shape = randomShape(rnd, 2);
      if (shape[0] * Arrays.stream(shape).skip(2).reduce(1, (a, b) -> a * b) < 2) shape[0] = 2;  // training needs 2 values a channel
      long c = shape[1];
      boolean affine = trial % 4 != 3, training = trial % 3 != 2;
      double offset = trial % 5 == 0 ? 1000 : 0;  // a large mean: the statistics must not cancel
      try (TensorScope s = TensorScope.open()) {
        Tensor x = layout(Tensor.randn(shape, g).add(offset), trial % 3).requiresGrad_();
        Tensor w = affine ? Tensor.randn(new long[] {c}, g).requiresGrad_() : null;
        Tensor b = affine ? Tensor.randn(new long[] {c}, g).requiresGrad_() : null;
        Tensor rm = Tensor.randn(new long[] {c}, g), rv = Tensor.rand(new long[] {c}, g).add(0.5);
        org.bytedeco.pytorch.Tensor trm = LibtorchPeer.of(rm), trv = LibtorchPeer.of(rv);
        Tensor y = Functional.batchNorm(x, rm, rv, w, b, training, 0.1, 1e-5);
        Tensor up = Tensor.randn(shape, g);
        org.bytedeco.pytorch.Tensor[] p32 = {leaf32(x), leaf32(w), leaf32(b)}, p64 = {leaf64(x), leaf64(w), leaf64(b)};
        org.bytedeco.pytorch.Tensor rm32 = trm.clone(), rv32 = trv.clone(), rm64 = trm.to(torch.ScalarType.Double), rv64 = trv.to(torch.ScalarType.Double);
        org.bytedeco.pytorch.Tensor y32 = torch.batch_norm(p32[0], opt(p32[1]), opt(p32[2]), new TensorOptional(rm32), new TensorOptional(rv32), training, 0.1, 1e-5, false);
        org.bytedeco.pytorch.Tensor y64 = torch.batch_norm(p64[0], opt(p64[1]), opt(p64[2]), new TensorOptional(rm64), new TensorOptional(rv64), training, 0.1, 1e-5, false);
        String what = "batchNorm " + Arrays.toString(shape) + (training ? " training" : " eval") + " layout " + trial % 3 + " offset " + offset;
        compare(what, y, up, new Tensor[] {x, w, b}, y32, y64, p32, p64);
        accurate(what + ": running_mean", rm64, rm32, rm.toDoubleArray(), 1e-5);
        accurate(what + ": running_var", rv64, rv32, rv.toDoubleArray(), 1e-5);
      }
    }
  }

  @Test
  void layerNormMatchesLibtorch() {
    Random rnd = new Random(32);
    Generator g = new Generator(32);
    for (int trial = 0; trial < 40; trial++) {
      long[] shape = randomShape(rnd, 1);
      if (trial % 7 == 0) shape[shape.length - 1] = 300 + rnd.nextInt(500);  // long rows, as transformers have
      if (trial == 1) shape = new long[] {96, 700};  // enough rows that the backward splits them between threads
      int dims = 1 + rnd.nextInt(Math.min(2, shape.length));
      long[] normalized = Arrays.copyOfRange(shape, shape.length - dims, shape.length);
      boolean affine = trial % 4 != 3;
      double offset = trial % 5 == 0 ? 300 : 0;
      try (TensorScope s = TensorScope.open()) {
        Tensor x = layout(Tensor.randn(shape, g).add(offset), trial % 3).requiresGrad_();
        Tensor w = affine ? Tensor.randn(normalized, g).requiresGrad_() : null;
        Tensor b = affine ? Tensor.randn(normalized, g).requiresGrad_() : null;
        Tensor y = Functional.layerNorm(x, dims, w, b, 1e-5);
        Tensor up = Tensor.randn(shape, g);
        org.bytedeco.pytorch.Tensor[] p32 = {leaf32(x), leaf32(w), leaf32(b)}, p64 = {leaf64(x), leaf64(w), leaf64(b)};
        org.bytedeco.pytorch.Tensor y32, y64;
        try (org.bytedeco.javacpp.LongPointer p = new org.bytedeco.javacpp.LongPointer(normalized)) {
          y32 = torch.layer_norm(p32[0], new LongArrayRef(p, dims), opt(p32[1]), opt(p32[2]), 1e-5, false);
          y64 = torch.layer_norm(p64[0], new LongArrayRef(p, dims), opt(p64[1]), opt(p64[2]), 1e-5, false);
        }
        compare("layerNorm " + Arrays.toString(shape) + " over " + dims + " layout " + trial % 3 + " offset " + offset, y, up,
            new Tensor[] {x, w, b}, y32, y64, p32, p64);
      }
    }
  }

  @Test
  void groupNormMatchesLibtorch() {
    Random rnd = new Random(33);
    Generator g = new Generator(33);
    for (int trial = 0; trial < 40; trial++) {
      long[] shape = randomShape(rnd, 2);
      long groups = 1 + rnd.nextInt(3);
      shape[1] = groups * (1 + rnd.nextInt(3));
      long c = shape[1];
      boolean affine = trial % 4 != 3;
      try (TensorScope s = TensorScope.open()) {
        Tensor x = layout(Tensor.randn(shape, g).mul(2.0).add(trial % 5 == 0 ? 100 : 0), trial % 3).requiresGrad_();
        Tensor w = affine ? Tensor.randn(new long[] {c}, g).requiresGrad_() : null;
        Tensor b = affine ? Tensor.randn(new long[] {c}, g).requiresGrad_() : null;
        Tensor y = Functional.groupNorm(x, groups, w, b, 1e-5);
        Tensor up = Tensor.randn(shape, g);
        org.bytedeco.pytorch.Tensor[] p32 = {leaf32(x), leaf32(w), leaf32(b)}, p64 = {leaf64(x), leaf64(w), leaf64(b)};
        org.bytedeco.pytorch.Tensor y32 = torch.group_norm(p32[0], groups, opt(p32[1]), opt(p32[2]), 1e-5, false);
        org.bytedeco.pytorch.Tensor y64 = torch.group_norm(p64[0], groups, opt(p64[1]), opt(p64[2]), 1e-5, false);
        compare("groupNorm " + Arrays.toString(shape) + " groups " + groups + " layout " + trial % 3, y, up, new Tensor[] {x, w, b},
            y32, y64, p32, p64);
      }
    }
  }

  /** float16 and bfloat16 inputs and parameters: statistics in float, the result within a few ulps of the float32 one. */
  @Test
  void halfPrecisionFollowsFloat32() {
    Generator g = new Generator(34);
    for (DType half : new DType[] {DType.FLOAT16, DType.BFLOAT16}) {
      try (TensorScope s = TensorScope.open()) {
        Tensor x = Tensor.randn(new long[] {4, 6, 5, 5}, g).to(half), w = Tensor.randn(new long[] {6}, g).to(half),
            b = Tensor.randn(new long[] {6}, g).to(half);
        Tensor up = Tensor.randn(x.shape(), g).to(half);
        double tol = half == DType.FLOAT16 ? 4e-3 : 3e-2;
        for (int which = 0; which < 3; which++) {
          Tensor xh = x.detach().requiresGrad_(), wh = w.detach().requiresGrad_(), bh = b.detach().requiresGrad_();
          Tensor xf = x.to(DType.FLOAT32).requiresGrad_(), wf = w.to(DType.FLOAT32).requiresGrad_(), bf = b.to(DType.FLOAT32).requiresGrad_();
          Tensor yh = norm(which, xh, wh, bh), yf = norm(which, xf, wf, bf);
          assertEquals(half, yh.dtype());
          yh.mul(up).sum().backward();
          yf.mul(up.to(DType.FLOAT32)).sum().backward();
          String what = half + " norm " + which;
          same(what + ": output", yf.toDoubleArray(), yh.toDoubleArray(), tol);
          same(what + ": x.grad", xf.grad().toDoubleArray(), xh.grad().toDoubleArray(), tol);
          same(what + ": weight.grad", wf.grad().toDoubleArray(), wh.grad().toDoubleArray(), tol * 4);
        }
      }
    }
  }

  /** PyTorch's mixed precision: float16/bfloat16 input, float32 weight and bias: computed in float32, rounded once. */
  @Test
  void mixedPrecisionRoundsOnceAndKeepsFloat32ParameterGradients() {
    Generator g = new Generator(35);
    for (DType half : new DType[] {DType.FLOAT16, DType.BFLOAT16}) {
      for (int which = 0; which < 3; which++) {
        try (TensorScope s = TensorScope.open()) {
          Tensor x = Tensor.randn(new long[] {4, 6, 3, 3}, g).mul(3.0).add(5.0).to(half), up = Tensor.randn(x.shape(), g).to(half);
          Tensor w = Tensor.randn(new long[] {6}, g).requiresGrad_(), b = Tensor.randn(new long[] {6}, g).requiresGrad_();
          Tensor w2 = w.detach().requiresGrad_(), b2 = b.detach().requiresGrad_();
          Tensor xh = x.detach().requiresGrad_(), xf = x.detach().requiresGrad_();
          Tensor y = norm(which, xh, w, b), ref = norm(which, xf.to(DType.FLOAT32), w2, b2).to(half);
          assertEquals(half, y.dtype());
          String what = half + " mixed norm " + which;
          same(what + ": output", ref.toDoubleArray(), y.toDoubleArray(), 0);
          y.mul(up).sum().backward();
          ref.mul(up).sum().backward();
          assertEquals(DType.FLOAT32, w.grad().dtype());
          same(what + ": weight.grad", w2.grad().toDoubleArray(), w.grad().toDoubleArray(), 0);
          same(what + ": bias.grad", b2.grad().toDoubleArray(), b.grad().toDoubleArray(), 0);
          same(what + ": x.grad", xf.grad().toDoubleArray(), xh.grad().toDoubleArray(), 0);
        }
      }
    }
    try (TensorScope s = TensorScope.open()) {  // any other mix is refused, as PyTorch's
      Tensor x = Tensor.randn(new long[] {2, 3}, g);
      assertThrows(IllegalArgumentException.class, () -> Functional.layerNorm(x, 1, Tensor.ones(new long[] {3}, DType.FLOAT64), null, 1e-5));
      assertThrows(IllegalArgumentException.class, () -> Functional.batchNorm(x.to(DType.BFLOAT16), null, null, Tensor.ones(3),
          Tensor.zeros(new long[] {3}, DType.BFLOAT16), true, 0.1, 1e-5));
    }
  }

  /** The running statistics: updated whole or not at all, an empty batch leaves them, a constant channel's variance is exactly 0. */
  @Test
  void runningStatisticsAreUpdatedWholeOrNotAtAll() {
    try (TensorScope s = TensorScope.open()) {
      Tensor x = Tensor.randn(new long[] {4, 3, 2}, new Generator(36));
      Tensor rm = Tensor.zeros(3), badVar = Tensor.ones(new long[] {3}, DType.INT64), wideVar = Tensor.ones(1, 3);
      assertThrows(IllegalArgumentException.class, () -> Functional.batchNorm(x, rm, badVar, null, null, true, 0.1, 1e-5));
      assertThrows(IllegalArgumentException.class, () -> Functional.batchNorm(x, rm, wideVar, null, null, true, 0.1, 1e-5));
      same("running_mean untouched", new double[3], rm.toDoubleArray(), 0);
      Tensor rv = Tensor.ones(3);
      Tensor empty = Functional.batchNorm(Tensor.zeros(0, 3), rm, rv, null, null, true, 0.1, 1e-5);
      assertEquals(0, empty.numel());
      same("an empty batch: running_var untouched", new double[] {1, 1, 1}, rv.toDoubleArray(), 0);
      Functional.batchNorm(Tensor.full(new long[] {8, 3}, 2.5), rm, rv, null, null, true, 1.0, 1e-3);
      same("a constant channel: running_var", new double[3], rv.toDoubleArray(), 0);
      same("a constant channel: running_mean", new double[] {2.5, 2.5, 2.5}, rm.toDoubleArray(), 0);
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> Functional.batchNorm(x, null, null, null, null, false, 0.1, 1e-5));
      assertTrue(e.getMessage().contains("running_mean must be defined in evaluation mode"), e.getMessage());
      assertThrows(IllegalArgumentException.class, () -> new org.jtensor.dispatch.plan.NormGroups(1L << 62, 4, 1, 1, true));
    }
  }

  private static Tensor norm(int which, Tensor x, Tensor w, Tensor b) {
    return which == 0 ? Functional.batchNorm(x, null, null, w, b, true, 0.1, 1e-5)
        : which == 1 ? Functional.groupNorm(x, 3, w, b, 1e-5)
        : Functional.layerNorm(x.permute(0, 2, 3, 1), 1, w, b, 1e-5).permute(0, 3, 1, 2);
  }

  @Test
  void badArgumentsAreRefusedWithTheirRule() {
    try (TensorScope s = TensorScope.open()) {
      Tensor x = Tensor.zeros(2, 3, 4);
      assertThrows(IllegalArgumentException.class, () -> Functional.layerNorm(x, 1, Tensor.ones(3), null, 1e-5));
      assertThrows(IllegalArgumentException.class, () -> Functional.batchNorm(x, null, null, Tensor.ones(4), null, true, 0.1, 1e-5));
      assertThrows(IllegalArgumentException.class, () -> Functional.batchNorm(x, Tensor.zeros(3), null, null, null, true, 0.1, 1e-5));
      assertThrows(IllegalArgumentException.class, () -> Functional.groupNorm(x, 2, null, null, 1e-5));
      assertThrows(IllegalArgumentException.class, () -> Functional.batchNorm(Tensor.zeros(1, 3), null, null, null, null, true, 0.1, 1e-5));
      // F.batch_norm's eps rules; layer and group norm take a negative eps, as PyTorch's: 1/√(var + eps)
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> Functional.batchNorm(x, null, null, null, null, true, 0.1, 0));
      assertEquals("batchNorm(): batch_norm eps must be positive during training, but got 0.0", e.getMessage());
      e = assertThrows(IllegalArgumentException.class, () -> Functional.batchNorm(x, Tensor.zeros(3), Tensor.ones(3), null, null, false, 0.1, -0.5));
      assertEquals("batchNorm(): batch_norm eps must be non-negative, but got -0.5", e.getMessage());
      Tensor row = Tensor.fromArray(new float[] {0, 3, 6}, 1, 3);  // biased variance 6
      assertArrayEquals(new float[] {-3 / (float) Math.sqrt(2), 0, 3 / (float) Math.sqrt(2)},
          Functional.layerNorm(row, 1, null, null, -4).toFloatArray(), 1e-6f);
      assertTrue(Float.isNaN(Functional.layerNorm(row, 1, null, null, -10).toFloatArray()[0]));
      assertTrue(Float.isNaN(Functional.groupNorm(row.view(1, 3, 1), 1, null, null, -10).toFloatArray()[0]));
      assertThrows(UnsupportedOperationException.class, () -> Functional.layerNorm(Tensor.zeros(new long[] {2, 3}, DType.INT64), 1, null, null, 1e-5));
    }
  }

  /** jtensor's output and gradients (from upstream gradient up) against libtorch's float64 run, beside its float32 run's errors. */
  private static void compare(String what, Tensor y, Tensor up, Tensor[] in, org.bytedeco.pytorch.Tensor y32, org.bytedeco.pytorch.Tensor y64,
                              org.bytedeco.pytorch.Tensor[] p32, org.bytedeco.pytorch.Tensor[] p64) {
    y.mul(up).sum().backward();
    y32.mul(LibtorchPeer.of(up)).sum().backward();
    y64.mul(LibtorchPeer.leaf64(up).detach()).sum().backward();
    accurate(what + ": output", y64, y32, y.toDoubleArray(), 1e-5);
    String[] names = {"x.grad", "weight.grad", "bias.grad"};
    for (int k = 0; k < 3; k++) {
      if (in[k] != null) accurate(what + ": " + names[k], p64[k].grad(), p32[k].grad(), in[k].grad().toDoubleArray(), 1e-5);
    }
  }

  private static TensorOptional opt(org.bytedeco.pytorch.Tensor t) {
    return t == null ? new TensorOptional() : new TensorOptional(t);
  }
}
