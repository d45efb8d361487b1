package org.jtensor;

import java.util.Random;
import org.jtensor.nn.Functional;
import org.junit.jupiter.api.Test;

/**
 * batchNorm (training, with the running statistics it updates, and eval), layerNorm and groupNorm
 * on cuda:0 against the CPU (tag cuda), each one fused kernel a device: the output and the input's,
 * weight's and bias's gradients, in every floating dtype and layout, with groups small (layer norm
 * over two elements) and large (batch norm over 8,192 elements a channel: every warp of a block),
 * and more batch-norm channels (70,000) than one launch's gridDim.y holds.
 */
class CudaNormTest extends CudaParity {
  private static final DType[] FLOATS = {DType.FLOAT32, DType.FLOAT64, DType.FLOAT16, DType.BFLOAT16};

  /** f's output and, for upstream gradient t[3], the gradients of t[0], t[1] and t[2] (null where absent) as one flat tensor. */
  private static Tensor withGradients(java.util.function.Function<Tensor[], Tensor> f, Tensor[] t) {
    Tensor[] leaves = new Tensor[3];
    for (int k = 0; k < 3; k++) leaves[k] = t[k] == null ? null : t[k].detach().requiresGrad_();
    Tensor y = f.apply(leaves);
    y.mul(t[3]).sum().backward();
    java.util.List<Tensor> parts = new java.util.ArrayList<>();
    parts.add(y.detach().reshape(-1));
    for (Tensor l : leaves) if (l != null) parts.add(l.grad().reshape(-1));
    return Tensor.cat(parts, 0);
  }

  private void normCases(String name, long[] shape, long channels, java.util.function.Function<Tensor[], Tensor> f, Random rnd, boolean affine) {
    for (DType dt : FLOATS) {
      for (int layout = 0; layout < 3; layout++) {
        Tensor x = integers(rnd, dt, shape, layout, -4, 6);
        Tensor w = affine ? integers(rnd, dt, new long[] {channels}, 0, 1, 3) : null;
        Tensor b = affine ? integers(rnd, dt, new long[] {channels}, 0, -2, 2) : null;
        Tensor up = integers(rnd, dt, shape, 0, -2, 2);
        check(name + " " + dt + " layout " + layout, t -> withGradients(f, t), x, w, b, up);
      }
    }
  }

  @Test
  void batchNormAgreesInTrainingAndEval() {
    Random rnd = new Random(41);
    normCases("batchNorm training", new long[] {4, 3, 5, 5}, 3,
        t -> Functional.batchNorm(t[0], null, null, t[1], t[2], true, 0.1, 1e-5), rnd, true);
    normCases("batchNorm training, 8192 a channel", new long[] {8, 2, 32, 32}, 2,
        t -> Functional.batchNorm(t[0], null, null, t[1], t[2], true, 0.1, 1e-5), rnd, true);
    // more channels than gridDim.y's 65,535: the kernels' blocks loop over channels (the launch was refused)
    normCases("batchNorm1d training, 70000 channels", new long[] {3, 70000}, 70000,
        t -> Functional.batchNorm(t[0], null, null, t[1], t[2], true, 0.1, 1e-5), rnd, true);
    normCases("batchNorm1d training, no affine", new long[] {6, 5}, 5,
        t -> Functional.batchNorm(t[0], null, null, null, null, true, 0.1, 1e-5), rnd, false);
    normCases("batchNorm eval", new long[] {2, 3, 4, 3}, 3, t -> {
      try (Tensor rm = Tensor.fromArray(new double[] {0.5, -1, 2}).to(t[0].device()); Tensor rv = Tensor.fromArray(new double[] {1, 4, 0.25}).to(t[0].device())) {
        return Functional.batchNorm(t[0], rm, rv, t[1], t[2], false, 0.1, 1e-5);
      }
    }, rnd, true);
    for (DType dt : FLOATS) {  // the running statistics a training step leaves
      Tensor x = integers(rnd, dt, new long[] {5, 3, 4, 4}, 1, -4, 6);
      check("batchNorm running statistics " + dt, t -> {
        Tensor rm = Tensor.zeros(new long[] {3}, t[0].dtype(), t[0].device()), rv = Tensor.ones(new long[] {3}, t[0].dtype(), t[0].device());
        Functional.batchNorm(t[0], rm, rv, null, null, true, 0.1, 1e-5).close();
        return Tensor.cat(java.util.List.of(rm, rv), 0);
      }, x);
    }
    assertMostAgreed();
  }

  @Test
  void layerAndGroupNormAgree() {
    Random rnd = new Random(43);
    normCases("layerNorm over 2 elements", new long[] {6, 2}, 2, t -> Functional.layerNorm(t[0], 1, t[1], t[2], 1e-5), rnd, true);
    normCases("layerNorm over 3000 elements", new long[] {3, 3000}, 3000, t -> Functional.layerNorm(t[0], 1, t[1], t[2], 1e-5), rnd, true);
    // rows kept in registers at 1024 threads, and rows too long for them (read again for each pass)
    normCases("layerNorm over 9000 elements", new long[] {2, 9000}, 9000, t -> Functional.layerNorm(t[0], 1, t[1], t[2], 1e-5), rnd, true);
    normCases("layerNorm over 20000 elements", new long[] {2, 20000}, 20000, t -> Functional.layerNorm(t[0], 1, t[1], t[2], 1e-5), rnd, true);
    normCases("layerNorm over 2 dims", new long[] {2, 3, 4, 5}, 20,
        t -> Functional.layerNorm(t[0], 2, t[1] == null ? null : t[1].reshape(4, 5), t[2] == null ? null : t[2].reshape(4, 5), 1e-5), rnd, true);
    normCases("layerNorm, no affine", new long[] {70, 33}, 33, t -> Functional.layerNorm(t[0], 1, null, null, 1e-5), rnd, false);
    normCases("groupNorm 3 groups", new long[] {3, 6, 4, 4}, 6, t -> Functional.groupNorm(t[0], 3, t[1], t[2], 1e-5), rnd, true);
    normCases("groupNorm 1 group, 2-d", new long[] {4, 8}, 8, t -> Functional.groupNorm(t[0], 1, t[1], t[2], 1e-5), rnd, true);
    assertMostAgreed();
  }
}
