package org.jtensor.nn;

import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.autograd.GradMode;

/** torch.nn.init: fills a tensor in place, recording nothing. */
public final class Init {
  private Init() {}

  /** U(-bound, bound). */
  public static Tensor uniform_(Tensor t, double bound, Generator g) {
    try (GradMode.Scope off = GradMode.noGrad()) {
      return t.uniform_(-bound, bound, g);
    }
  }

  /** kaiming_uniform_ with leaky_relu gain for slope a: bound = √(6 / ((1 + a²)·fanIn)). */
  public static Tensor kaimingUniform_(Tensor t, double a, Generator g) {
    return uniform_(t, Math.sqrt(6.0 / ((1 + a * a) * fanIn(t))), g);
  }

  /** xavier_uniform_: bound = gain·√(6 / (fanIn + fanOut)), fanOut dim 0 times the receptive field. */
  public static Tensor xavierUniform_(Tensor t, double gain, Generator g) {
    long fanOut = fanIn(t) / t.shape()[1] * t.shape()[0];
    return uniform_(t, gain * Math.sqrt(6.0 / (fanIn(t) + fanOut)), g);
  }

  /** Dim 1 times the receptive field (every dim past 1), as _calculate_fan_in_and_fan_out. */
  public static long fanIn(Tensor t) {
    long[] s = t.shape();
    if (s.length < 2) throw new IllegalArgumentException("fanIn(): fan in can not be computed for a tensor with fewer than 2 dimensions");
    long receptive = 1;
    for (int d = 2; d < s.length; d++) receptive *= s[d];
    return s[1] * receptive;
  }
}
