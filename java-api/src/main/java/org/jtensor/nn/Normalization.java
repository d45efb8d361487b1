package org.jtensor.nn;

import java.util.Arrays;
import java.util.function.UnaryOperator;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.autograd.GradMode;
import org.jtensor.dispatch.plan.NormGroups;
import org.jtensor.ops.NormOps;

/** The normalizations behind Functional's public ones (layerNorm, batchNorm, groupNorm, instanceNorm), with PyTorch's checks. */
final class Normalization {
  private Normalization() {}

  static Tensor layerNorm(Tensor x, int normalizedDims, Tensor weight, Tensor bias, double eps) {
    if (normalizedDims < 1 || normalizedDims > x.dim()) {
      throw new IllegalArgumentException("layerNorm(): normalized dims must be in [1, " + x.dim() + "], got " + normalizedDims);
    }
    checkNormalizedShape("layerNorm", Arrays.copyOfRange(x.shape(), x.dim() - normalizedDims, x.dim()), weight, bias);
    return normalizedOutput("layerNorm", x, NormGroups.layer(x.shape(), normalizedDims), weight, bias, eps);
  }

  /** F.layer_norm(x, normalized_shape, ...): x's last dims must be normalizedShape, checked in PyTorch's order and words. */
  static Tensor layerNorm(Tensor x, long[] normalizedShape, Tensor weight, Tensor bias, double eps) {
    checkNormalizedShape("layerNorm", normalizedShape, weight, bias);
    checkInputShape("layerNorm", x.shape(), normalizedShape);
    return layerNorm(x, normalizedShape.length, weight, bias, eps);
  }

  /** PyTorch's layer_norm check that the input's last dims are normalizedShape, in its words. */
  static void checkInputShape(String op, long[] input, long[] normalizedShape) {
    if (!endsWith(input, normalizedShape)) {
      throw new IllegalArgumentException(op + "(): Given normalized_shape=" + Arrays.toString(normalizedShape) + ", expected input with shape "
          + Arrays.toString(normalizedShape).replace("[", "[*, ") + ", but got input of size" + Arrays.toString(input));
    }
  }

  /** PyTorch's normalized_shape checks of layer and RMS norm: at least one dim, weight and bias (either may be null) of its shape. */
  static void checkNormalizedShape(String op, long[] normalizedShape, Tensor weight, Tensor bias) {
    if (normalizedShape == null) throw new IllegalArgumentException(op + "(): expected a normalized_shape, got null");
    if (normalizedShape.length == 0) {
      throw new IllegalArgumentException(op + "(): Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one "
          + "element, but got normalized_shape = []");
    }
    for (Tensor t : new Tensor[] {weight, bias}) {
      if (t != null && !Arrays.equals(t.shape(), normalizedShape)) {
        String what = t == weight ? "weight" : "bias";
        throw new IllegalArgumentException(op + "(): Expected " + what + " to be of same shape as normalized_shape, but got " + what
            + " of shape " + Arrays.toString(t.shape()) + " and normalized_shape = " + Arrays.toString(normalizedShape));
      }
    }
  }

  /** Whether shape's last dims are tail. */
  static boolean endsWith(long[] shape, long[] tail) {
    return shape.length >= tail.length && Arrays.equals(Arrays.copyOfRange(shape, shape.length - tail.length, shape.length), tail);
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
    checkPerChannel(op, c, weight, bias, runningMean, runningVar);
    NormGroups groups = NormGroups.byChannel(x.shape());
    if (!training) return withRunningStats(op, x, runningMean, runningVar, weight, bias, eps);
    long count = groups.unitElements();
    if (count == 1) {
      throw new IllegalArgumentException(op + "(): Expected more than 1 value per channel when training, got input size " + Arrays.toString(x.shape()));
    }
    if (runningMean == null || count == 0) return normalizedOutput(op, x, groups, weight, bias, eps);  // an empty batch leaves them as they are
    return normalizeAndMove(op, x, groups, weight, bias, eps, runningMean, runningVar, momentum, count, t -> t);
  }

  /**
   * F.instance_norm: each (sample, channel) of [N, C, *] normalized over its own elements (group norm
   * with a group per channel), or, without useInputStats, by the running statistics. Training with
   * running statistics moves them by momentum towards the batch's per-channel mean of the instances'
   * means and unbiased variances, as PyTorch's (an empty batch makes them NaN, as there).
   */
  static Tensor instanceNorm(Tensor x, Tensor runningMean, Tensor runningVar, Tensor weight, Tensor bias, boolean useInputStats,
                             double momentum, double eps) {
    String op = "instanceNorm";
    if ((runningMean == null) != (runningVar == null)) {
      throw new IllegalArgumentException(op + "(): running_mean and running_var must either both be None or neither be None");
    }
    long spatial = 1;
    for (int d = 2; d < x.dim(); d++) spatial *= x.shape()[d];
    if (useInputStats && spatial == 1) {
      throw new IllegalArgumentException(op + "(): Expected more than 1 spatial element when training, got input size " + Arrays.toString(x.shape()));
    }
    if (!useInputStats && runningMean == null) {
      throw new IllegalArgumentException(op + "(): Expected running_mean and running_var to be defined when use_input_stats is false");
    }
    for (Tensor t : new Tensor[] {weight, bias}) {
      if (t != null && t.dim() != 1) {
        throw new IllegalArgumentException(op + "(): " + (t == weight ? "weight" : "bias") + " must be 1-D, got shape " + Arrays.toString(t.shape()));
      }
    }
    if (x.dim() < 2) throw new IllegalArgumentException(op + "(): expected 2-D or higher input, got " + x.dim() + "-D");
    long n = x.shape()[0], c = x.shape()[1];
    checkPerChannel(op, c, weight, bias, runningMean, runningVar);
    if (!useInputStats) return withRunningStats(op, x, runningMean, runningVar, weight, bias, eps);
    NormGroups groups = NormGroups.grouped(x.shape(), Math.max(c, 1));  // no channels: no groups to count, one will do
    if (runningMean == null || spatial == 0) return normalizedOutput(op, x, groups, weight, bias, eps);  // no elements: statistics kept
    return normalizeAndMove(op, x, groups, weight, bias, eps, runningMean, runningVar, momentum, spatial, t -> t.view(n, c).mean(0));
  }

  /** Weight, bias and running statistics (each may be null) of c entries; the statistics 1-D floating point. */
  private static void checkPerChannel(String op, long c, Tensor weight, Tensor bias, Tensor runningMean, Tensor runningVar) {
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
  }

  /** x normalized per channel (dim 1) by the running statistics, constants to autograd (batch norm in eval). */
  private static Tensor withRunningStats(String op, Tensor x, Tensor runningMean, Tensor runningVar, Tensor weight, Tensor bias, double eps) {
    try (TensorScope s = TensorScope.open()) {
      Tensor rstd;
      try (GradMode.Scope off = GradMode.noGrad()) {  // running statistics are constants to autograd
        rstd = runningVar.to(NormOps.STATS_DTYPE).add(eps).rsqrt();
      }
      boolean mixed = mixedPrecision(op, x, weight, bias);
      Tensor y = NormOps.normalizeWith(op, mixed ? x.to(DType.FLOAT32) : x, NormGroups.byChannel(x.shape()), runningMean, rstd, weight, bias);
      return s.keep(mixed ? y.to(x.dtype()) : y);
    }
  }

  /**
   * The output of a training step that moves the running statistics: running ← (1 − momentum)·running
   * + momentum·batch, where batch is each statistics group's mean and unbiased variance (count
   * elements a group) folded to one per channel by perChannel; both computed before either is written.
   */
  private static Tensor normalizeAndMove(String op, Tensor x, NormGroups groups, Tensor weight, Tensor bias, double eps, Tensor runningMean,
                                         Tensor runningVar, double momentum, long count, UnaryOperator<Tensor> perChannel) {
    checkWritable(op, "running_mean", runningMean);
    checkWritable(op, "running_var", runningVar);
    try (TensorScope s = TensorScope.open()) {
      NormOps.Result r = normalized(op, x, groups, weight, bias, eps);
      try (GradMode.Scope off = GradMode.noGrad()) {
        // The biased variance from the saved 1/sqrt(var + eps), in double; what lies below float64's
        // resolution of var + eps is 0 (a constant channel: exactly 0, as PyTorch's, not -1e-19).
        Tensor biased = r.rstd().pow(-2.0).sub(eps);
        biased = Tensor.where(biased.le(biased.add(eps).mul(1e-15)), Tensor.zerosLike(biased), biased);
        Tensor unbiased = perChannel.apply(biased.mul((double) count / (count - 1)));
        Tensor mean = runningMean.mul(1 - momentum).add(perChannel.apply(r.mean()).mul(momentum).to(runningMean.dtype()));
        Tensor var = runningVar.mul(1 - momentum).add(unbiased.mul(momentum).to(runningVar.dtype()));
        runningMean.copy_(mean);
        runningVar.copy_(var);
      }
      return s.keep(r.output());
    }
  }

  /** Refuses a running statistic that training would update in place when its bytes are read-only (a mapped file) or an inference tensor. */
  private static void checkWritable(String op, String name, Tensor stat) {
    try (org.jtensor.Storage s = stat.untypedStorage()) {
      if (s.isReadOnly()) {
        throw new IllegalStateException(op + "(): " + name + " is read-only (over a read-only buffer or a memory-mapped "
            + "file) and training updates it; call eval() or clone() it first");
      }
      if (stat.isInference() && !GradMode.isInferenceModeEnabled()) {
        throw new IllegalStateException(op + "(): " + name + " is an inference tensor (made in GradMode.inferenceMode()) and "
            + "training updates it: " + org.jtensor.core.StorageImpl.INFERENCE_WRITE + "; call eval() or clone() it first");
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
