package org.jtensor.nn;

import java.util.Arrays;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;

/** The normalizations behind Functional's public ones (layerNorm, batchNorm, groupNorm), with PyTorch's checks. */
final class Normalization {
  private Normalization() {}

  static Tensor layerNorm(Tensor x, int normalizedDims, Tensor weight, Tensor bias, double eps) {
    if (normalizedDims < 1 || normalizedDims > x.dim()) {
      throw new IllegalArgumentException("layerNorm(): normalized dims must be in [1, " + x.dim() + "], got " + normalizedDims);
    }
    int[] dims = new int[normalizedDims];
    for (int i = 0; i < normalizedDims; i++) dims[i] = x.dim() - normalizedDims + i;
    try (TensorScope s = TensorScope.open()) {
      Tensor y = normalize(x, x.mean(dims, true), x.var(dims, 0, true), eps);
      if (weight != null) y = y.mul(weight);
      if (bias != null) y = y.add(bias);
      return s.keep(y);
    }
  }

  static Tensor batchNorm(Tensor x, Tensor runningMean, Tensor runningVar, Tensor weight, Tensor bias,
                                 boolean training, double momentum, double eps) {
    if (x.dim() < 2) throw new IllegalArgumentException("batchNorm(): expected 2-D or higher input, got " + x.dim() + "-D");
    int[] dims = new int[x.dim() - 1];
    for (int d = 0, j = 0; d < x.dim(); d++) if (d != 1) dims[j++] = d;
    long[] channelShape = new long[x.dim()];
    java.util.Arrays.fill(channelShape, 1);
    channelShape[1] = x.shape()[1];
    try (TensorScope s = TensorScope.open()) {
      Tensor y;
      if (training) {
        long count = x.numel() / x.shape()[1];
        if (count <= 1) throw new IllegalArgumentException("batchNorm(): Expected more than 1 value per channel when training, got input size " + Arrays.toString(x.shape()));
        if (runningMean != null) {  // before any update: not one running statistic updated and the other refused
          checkWritable("running_mean", runningMean);
          checkWritable("running_var", runningVar);
        }
        Tensor mean = x.mean(dims, true), var = x.var(dims, 0, true);
        y = normalize(x, mean, var, eps);
        if (runningMean != null) {
          try (org.jtensor.autograd.GradMode.Scope off = org.jtensor.autograd.GradMode.noGrad()) {
            runningMean.mul_(1 - momentum).add_(mean.reshape(channelShape[1]), momentum);
            runningVar.mul_(1 - momentum).add_(var.reshape(channelShape[1]).mul((double) count / (count - 1)), momentum);
          }
        }
      } else {
        y = normalize(x, runningMean.reshape(channelShape), runningVar.reshape(channelShape), eps);
      }
      if (weight != null) y = y.mul(weight.reshape(channelShape));
      if (bias != null) y = y.add(bias.reshape(channelShape));
      return s.keep(y);
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
    long n = input.shape()[0], c = input.shape()[1];
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
    long[] channelShape = new long[input.dim() - 1];
    Arrays.fill(channelShape, 1);
    channelShape[0] = c;
    try (TensorScope s = TensorScope.open()) {
      Tensor grouped = input.reshape(n, numGroups, -1);
      int[] last = {2};
      Tensor y = normalize(grouped, grouped.mean(last, true), grouped.var(last, 0, true), eps).reshape(input.shape());
      if (weight != null) y = y.mul(weight.reshape(channelShape));
      if (bias != null) y = y.add(bias.reshape(channelShape));
      return s.keep(y);
    }
  }

  private static Tensor normalize(Tensor x, Tensor mean, Tensor var, double eps) {
    return x.sub(mean).mul(var.add(eps).rsqrt());
  }
}
