package org.jtensor.nn;

import java.util.Arrays;
import org.jtensor.DType;
import org.jtensor.NormGroups;
import org.jtensor.NormOps;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.autograd.GradMode;

/** The normalizations behind Functional's public ones (layerNorm, batchNorm, groupNorm), with PyTorch's checks. */
final class Normalization {
  private Normalization() {}

  static Tensor layerNorm(Tensor x, int normalizedDims, Tensor weight, Tensor bias, double eps) {
    if (normalizedDims < 1 || normalizedDims > x.dim()) {
      throw new IllegalArgumentException("layerNorm(): normalized dims must be in [1, " + x.dim() + "], got " + normalizedDims);
    }
    long[] normalized = Arrays.copyOfRange(x.shape(), x.dim() - normalizedDims, x.dim());
    for (Tensor t : new Tensor[] {weight, bias}) {
      if (t != null && !Arrays.equals(t.shape(), normalized)) {
        String what = t == weight ? "weight" : "bias";
        throw new IllegalArgumentException("layerNorm(): Expected " + what + " to be of same shape as normalized_shape, but got " + what
            + " of shape " + Arrays.toString(t.shape()) + " and normalized_shape = " + Arrays.toString(normalized));
      }
    }
    return outputOf(NormOps.normalize("layerNorm", x, NormGroups.layer(x.shape(), normalizedDims), weight, bias, eps));
  }

  static Tensor batchNorm(Tensor x, Tensor runningMean, Tensor runningVar, Tensor weight, Tensor bias,
                                 boolean training, double momentum, double eps) {
    String op = "batchNorm";
    if (x.dim() < 2) throw new IllegalArgumentException(op + "(): expected 2-D or higher input, got " + x.dim() + "-D");
    long c = x.shape()[1];
    if ((runningMean == null) != (runningVar == null)) {
      throw new IllegalArgumentException(op + "(): running_mean and running_var must be both given or both null");
    }
    String[] names = {"weight", "bias", "running_mean", "running_var"};
    Tensor[] perChannel = {weight, bias, runningMean, runningVar};
    for (int k = 0; k < 4; k++) {
      if (perChannel[k] != null && perChannel[k].numel() != c) {
        throw new IllegalArgumentException(op + "(): " + names[k] + " should contain " + c + " elements not " + perChannel[k].numel());
      }
    }
    NormGroups groups = NormGroups.byChannel(x.shape());
    if (!training && runningMean != null) {
      try (TensorScope s = TensorScope.open()) {
        Tensor rstd;
        try (GradMode.Scope off = GradMode.noGrad()) {  // running statistics are constants to autograd
          rstd = runningVar.to(NormOps.STATS_DTYPE).add(eps).rsqrt();
        }
        return s.keep(NormOps.normalizeWith(op, x, groups, runningMean, rstd, weight, bias));
      }
    }
    long count = groups.unitElements();
    if (training && count <= 1) {
      throw new IllegalArgumentException(op + "(): Expected more than 1 value per channel when training, got input size " + Arrays.toString(x.shape()));
    }
    if (!training || runningMean == null) return outputOf(NormOps.normalize(op, x, groups, weight, bias, eps));
    checkWritable("running_mean", runningMean);  // before any update: not one running statistic updated and the other refused
    checkWritable("running_var", runningVar);
    NormOps.Result r = NormOps.normalize(op, x, groups, weight, bias, eps);
    try (TensorScope s = TensorScope.open(); GradMode.Scope off = GradMode.noGrad()) {
      // the unbiased variance from the saved 1/sqrt(var + eps), in double: eps is not lost against a small variance
      Tensor unbiased = r.rstd().to(DType.FLOAT64).pow(-2.0).sub(eps).mul((double) count / (count - 1));
      runningMean.mul_(1 - momentum).add_(r.mean(), momentum);
      runningVar.mul_(1 - momentum).add_(unbiased, momentum);
    } catch (RuntimeException e) {
      r.output().close();
      throw e;
    } finally {
      r.mean().close();
      r.rstd().close();
    }
    return r.output();
  }

  /** The output of a normalization whose statistics the caller does not keep. */
  private static Tensor outputOf(NormOps.Result r) {
    r.mean().close();
    r.rstd().close();
    return r.output();
  }

  /** Refuses a running statistic that training would update in place when its bytes are read-only (a mapped file). */
  private static void checkWritable(String name, Tensor stat) {
    try (org.jtensor.Storage s = stat.untypedStorage()) {
      if (s.isReadOnly()) {
        throw new IllegalStateException("batchNorm(): " + name + " is read-only (over a read-only buffer or a memory-mapped "
            + "file) and training updates it; call eval() or clone() it first");
      }
    }
  }

  static Tensor groupNorm(Tensor input, long numGroups, Tensor weight, Tensor bias, double eps) {
    String op = "groupNorm";
    if (input.dim() < 2) {
      throw new IllegalArgumentException(op + "(): Expected at least 2 dimensions for input tensor but received " + input.dim());
    }
    long c = input.shape()[1];
    if (numGroups <= 0 || c % numGroups != 0) {
      throw new IllegalArgumentException(op + "(): Expected number of channels in input to be divisible by num_groups, but got input of shape "
          + Arrays.toString(input.shape()) + " and num_groups=" + numGroups);
    }
    for (Tensor t : new Tensor[] {weight, bias}) {
      if (t != null && (t.dim() != 1 || t.shape()[0] != c)) {
        throw new IllegalArgumentException(op + "(): Expected " + (t == weight ? "weight" : "bias") + " to be a vector of size equal to the "
            + "number of channels in input, but got " + (t == weight ? "weight" : "bias") + " of shape " + Arrays.toString(t.shape())
            + " and input of shape " + Arrays.toString(input.shape()));
      }
    }
    return outputOf(NormOps.normalize(op, input, NormGroups.grouped(input.shape(), numGroups), weight, bias, eps));
  }
}
