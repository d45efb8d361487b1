package org.jtensor.nn;

import java.util.Arrays;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.autograd.GradMode;
import org.jtensor.dispatch.plan.NormGroups;
import org.jtensor.ops.NormOps;

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
    return normalizedOutput("layerNorm", x, NormGroups.layer(x.shape(), normalizedDims), weight, bias, eps);
  }

  static Tensor batchNorm(Tensor x, Tensor runningMean, Tensor runningVar, Tensor weight, Tensor bias,
                                 boolean training, double momentum, double eps) {
    String op = "batchNorm";
    // F.batch_norm's own checks (layer, group and RMS norm take any eps, as PyTorch's: 1/√(var + eps) may be NaN)
    if (training && eps <= 0) throw new IllegalArgumentException(op + "(): batch_norm eps must be positive during training, but got " + eps);
    if (eps < 0) throw new IllegalArgumentException(op + "(): batch_norm eps must be non-negative, but got " + eps);
    if (x.dim() < 2) throw new IllegalArgumentException(op + "(): expected 2-D or higher input, got " + x.dim() + "-D");
    long c = x.shape()[1];
    if ((runningMean == null) != (runningVar == null)) {
      throw new IllegalArgumentException(op + "(): running_mean and running_var must be both given or both null");
    }
    if (!training && runningMean == null) throw new IllegalArgumentException(op + "(): running_mean must be defined in evaluation mode");
    String[] names = {"weight", "bias", "running_mean", "running_var"};
    Tensor[] perChannel = {weight, bias, runningMean, runningVar};
    for (int k = 0; k < 4; k++) {
      Tensor t = perChannel[k];
      if (t == null) continue;
      if (t.numel() != c) throw new IllegalArgumentException(op + "(): " + names[k] + " should contain " + c + " elements not " + t.numel());
      if (k >= 2 && (t.dim() != 1 || !t.dtype().isFloatingPoint())) {  // updated in place: refused before anything is written
        throw new IllegalArgumentException(op + "(): " + names[k] + " must be a 1-D floating point tensor, got " + t.dtype() + " of shape "
            + Arrays.toString(t.shape()));
      }
    }
    NormGroups groups = NormGroups.byChannel(x.shape());
    if (!training) {
      try (TensorScope s = TensorScope.open()) {
        Tensor rstd;
        try (GradMode.Scope off = GradMode.noGrad()) {  // running statistics are constants to autograd
          rstd = runningVar.to(NormOps.STATS_DTYPE).add(eps).rsqrt();
        }
        boolean mixed = mixedPrecision(op, x, weight, bias);
        Tensor y = NormOps.normalizeWith(op, mixed ? x.to(DType.FLOAT32) : x, groups, runningMean, rstd, weight, bias);
        return s.keep(mixed ? y.to(x.dtype()) : y);
      }
    }
    long count = groups.unitElements();
    if (count == 1) {
      throw new IllegalArgumentException(op + "(): Expected more than 1 value per channel when training, got input size " + Arrays.toString(x.shape()));
    }
    if (runningMean == null || count == 0) return normalizedOutput(op, x, groups, weight, bias, eps);  // an empty batch leaves them as they are
    checkWritable("running_mean", runningMean);
    checkWritable("running_var", runningVar);
    try (TensorScope s = TensorScope.open()) {
      NormOps.Result r = normalized(op, x, groups, weight, bias, eps);
      try (GradMode.Scope off = GradMode.noGrad()) {
        // The unbiased variance from the saved 1/sqrt(var + eps), in double; what lies below float64's
        // resolution of var + eps is 0 (a constant channel: exactly 0, as PyTorch's, not -1e-19).
        Tensor biased = r.rstd().pow(-2.0).sub(eps);
        biased = Tensor.where(biased.le(biased.add(eps).mul(1e-15)), Tensor.zerosLike(biased), biased);
        Tensor mean = runningMean.mul(1 - momentum).add(r.mean().mul(momentum).to(runningMean.dtype()));
        Tensor var = runningVar.mul(1 - momentum).add(biased.mul((double) count / (count - 1) * momentum).to(runningVar.dtype()));
        runningMean.copy_(mean);  // both computed before either is written: no half-updated statistics
        runningVar.copy_(var);
      }
      return s.keep(r.output());
    }
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
    return normalizedOutput(op, input, NormGroups.grouped(input.shape(), numGroups), weight, bias, eps);
  }

  /**
   * PyTorch's mixed precision: a float16 or bfloat16 input with float32 weight and bias is
   * normalized in float32 and rounded once at the end, the parameters' gradients staying float32.
   * Any other parameter dtype must be the input's. True for the mixed case.
   */
  private static boolean mixedPrecision(String op, Tensor x, Tensor weight, Tensor bias) {
    boolean half = x.dtype() == DType.FLOAT16 || x.dtype() == DType.BFLOAT16, mixed = false;
    for (Tensor p : new Tensor[] {weight, bias}) {
      if (p == null || p.dtype() == x.dtype() && !mixed) continue;
      if (half && p.dtype() == DType.FLOAT32 && (p == weight || weight == null || weight.dtype() == DType.FLOAT32)) {
        mixed = true;
        continue;
      }
      throw new IllegalArgumentException(op + "(): expected " + (p == weight ? "weight" : "bias") + " of the input's dtype " + x.dtype()
          + " (or float32 for a float16 or bfloat16 input, weight and bias alike), got " + p.dtype());
    }
    return mixed;
  }

  /** The output and the statistics, in float32 for mixed precision (the output then back in the input's dtype). */
  private static NormOps.Result normalized(String op, Tensor x, NormGroups g, Tensor weight, Tensor bias, double eps) {
    if (!mixedPrecision(op, x, weight, bias)) return NormOps.normalize(op, x, g, weight, bias, eps);
    try (TensorScope s = TensorScope.open()) {
      NormOps.Result r = NormOps.normalize(op, x.to(DType.FLOAT32), g, weight, bias, eps);
      return new NormOps.Result(s.keep(r.output().to(x.dtype())), s.keep(r.mean()), s.keep(r.rstd()));
    }
  }

  /** The output of a normalization whose statistics the caller does not keep. */
  private static Tensor normalizedOutput(String op, Tensor x, NormGroups g, Tensor weight, Tensor bias, double eps) {
    NormOps.Result r = normalized(op, x, g, weight, bias, eps);
    r.mean().close();
    r.rstd().close();
    return r.output();
  }
}
