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

  /**
   * kaiming_uniform_ with leaky_relu gain for slope a: bound = √(6 / ((1 + a²)·fanIn)). A tensor
   * with no elements is left as it is, as PyTorch's ("Initializing zero-element tensors is a no-op").
   */
  public static Tensor kaimingUniform_(Tensor t, double a, Generator g) {
    if (t.numel() == 0) return t;
    return uniform_(t, Math.sqrt(6.0 / ((1 + a * a) * fanIn("kaimingUniform_", t))), g);
  }

  /** xavier_uniform_: bound = gain·√(6 / (fanIn + fanOut)), fanOut dim 0 times the receptive field. */
  public static Tensor xavierUniform_(Tensor t, double gain, Generator g) {
    return uniform_(t, gain * Math.sqrt(6.0 / fanSum("xavierUniform_", t)), g);
  }

  /** N(mean, std²) (torch.nn.init.normal_). */
  public static Tensor normal_(Tensor t, double mean, double std, Generator g) {
    try (GradMode.Scope off = GradMode.noGrad()) {
      return t.normal_(mean, std, g);
    }
  }

  public static Tensor normal_(Tensor t, double mean, double std) {
    return normal_(t, mean, std, Generator.defaultGenerator());
  }

  public static Tensor uniform_(Tensor t, double bound) {
    return uniform_(t, bound, Generator.defaultGenerator());
  }

  /** U(a, b), PyTorch's torch.nn.init.uniform_(tensor, a, b, generator). */
  public static Tensor uniform_(Tensor t, double a, double b, Generator g) {
    try (GradMode.Scope off = GradMode.noGrad()) {
      return t.uniform_(a, b, g);
    }
  }

  public static Tensor uniform_(Tensor t, double a, double b) {
    return uniform_(t, a, b, Generator.defaultGenerator());
  }

  /**
   * torch.nn.init.trunc_normal_: N(mean, std²) restricted to [a, b], as PyTorch draws it: uniform
   * between the normal's CDF at a and at b, mapped back through erfinv, then clamped to [a, b]
   * against rounding at the ends. The CDFs are computed in double through the erf kernel.
   */
  public static Tensor truncNormal_(Tensor t, double mean, double std, double a, double b, Generator g) {
    double lo = normalCdf((a - mean) / std), hi = normalCdf((b - mean) / std);
    try (GradMode.Scope off = GradMode.noGrad()) {
      t.uniform_(2 * lo - 1, 2 * hi - 1, g).erfinv_().mul_(std * Math.sqrt(2.0)).add_(mean);
      return t.clamp_(a, b);
    }
  }

  public static Tensor truncNormal_(Tensor t, double mean, double std, double a, double b) {
    return truncNormal_(t, mean, std, a, b, Generator.defaultGenerator());
  }

  /** trunc_normal_ with PyTorch's defaults: mean 0, std 1, cut at -2 and 2. */
  public static Tensor truncNormal_(Tensor t) {
    return truncNormal_(t, 0, 1, -2, 2);
  }

  private static double normalCdf(double x) {
    try (Tensor v = Tensor.scalar(x / Math.sqrt(2.0), org.jtensor.DType.FLOAT64); Tensor e = v.erf()) {
      return (1 + e.item()) / 2;
    }
  }

  /** torch.nn.init.eye_: the identity in a 2-D tensor (ones on the main diagonal of a non-square one too). */
  public static Tensor eye_(Tensor t) {
    if (t.dim() != 2) throw new IllegalArgumentException("eye_(): Only tensors with 2 dimensions are supported");
    try (GradMode.Scope off = GradMode.noGrad(); Tensor diagonal = t.zero_().diagonal()) {
      diagonal.fill_(1.0);
      return t;
    }
  }

  public static Tensor constant_(Tensor t, double value) {
    try (GradMode.Scope off = GradMode.noGrad()) {
      return t.fill_(value);
    }
  }

  public static Tensor zeros_(Tensor t) {
    return constant_(t, 0.0);
  }

  public static Tensor ones_(Tensor t) {
    return constant_(t, 1.0);
  }

  /**
   * torch.nn.init.calculate_gain: 1 for linear, conv and sigmoid, 5/3 for tanh, √2 for relu,
   * √(2 / (1 + param²)) for leaky_relu (param the negative slope, 0.01 when NaN), 3/4 for selu.
   */
  public static double calculateGain(String nonlinearity, double param) {
    switch (nonlinearity) {
      case "linear": case "conv1d": case "conv2d": case "conv3d": case "conv_transpose1d": case "conv_transpose2d":
      case "conv_transpose3d": case "sigmoid": return 1.0;
      case "tanh": return 5.0 / 3;
      case "relu": return Math.sqrt(2.0);
      case "leaky_relu": {
        double slope = Double.isNaN(param) ? 0.01 : param;
        return Math.sqrt(2.0 / (1 + slope * slope));
      }
      case "selu": return 3.0 / 4;
      default: throw new IllegalArgumentException("calculateGain(): Unsupported nonlinearity " + nonlinearity);
    }
  }

  /**
   * kaiming_normal_(tensor, a, mode, nonlinearity): N(0, std²) with std = gain / √fan, fan the
   * fan in or out as mode ("fan_in" or "fan_out") says, gain calculateGain(nonlinearity, a).
   */
  public static Tensor kaimingNormal_(Tensor t, double a, String mode, String nonlinearity, Generator g) {
    if (t.numel() == 0) return t;  // PyTorch: "Initializing zero-element tensors is a no-op"
    return normal_(t, 0.0, calculateGain(nonlinearity, a) / Math.sqrt(fan("kaimingNormal_", t, mode)), g);
  }

  /** kaiming_normal_ with PyTorch's defaults (a 0, fan_in, leaky_relu) from the default generator. */
  public static Tensor kaimingNormal_(Tensor t) {
    return kaimingNormal_(t, 0.0, "fan_in", "leaky_relu", Generator.defaultGenerator());
  }

  /** kaiming_uniform_(tensor, a, mode, nonlinearity): U(±gain·√(3 / fan)). */
  public static Tensor kaimingUniform_(Tensor t, double a, String mode, String nonlinearity, Generator g) {
    if (t.numel() == 0) return t;  // PyTorch: "Initializing zero-element tensors is a no-op"
    return uniform_(t, calculateGain(nonlinearity, a) * Math.sqrt(3.0 / fan("kaimingUniform_", t, mode)), g);
  }

  /** xavier_normal_: N(0, std²) with std = gain·√(2 / (fanIn + fanOut)). */
  public static Tensor xavierNormal_(Tensor t, double gain, Generator g) {
    return normal_(t, 0.0, gain * Math.sqrt(2.0 / fanSum("xavierNormal_", t)), g);
  }

  public static Tensor xavierNormal_(Tensor t) {
    return xavierNormal_(t, 1.0, Generator.defaultGenerator());
  }

  public static Tensor xavierUniform_(Tensor t) {
    return xavierUniform_(t, 1.0, Generator.defaultGenerator());
  }

  private static long fan(String op, Tensor t, String mode) {
    switch (mode) {
      case "fan_in": return fanIn(op, t);
      case "fan_out": return receptiveField(op, t) * t.shape()[0];
      default: throw new IllegalArgumentException(op + "(): Mode " + mode + " not supported, please use one of fan_in, fan_out");
    }
  }

  /** fan_in + fan_out, refused at 0 as PyTorch's xavier (ZeroDivisionError) rather than an infinite bound. */
  private static long fanSum(String op, Tensor t) {
    long sum = fanIn(op, t) + receptiveField(op, t) * t.shape()[0];
    if (sum == 0) throw new ArithmeticException(op + "(): fan_in + fan_out is 0 for shape " + java.util.Arrays.toString(t.shape()) + ": float division by zero");
    return sum;
  }

  /** Dim 0 times the receptive field, as _calculate_fan_in_and_fan_out. */
  public static long fanOut(Tensor t) {
    return receptiveField("fanOut", t) * t.shape()[0];  // not fanIn / dim 1, which divides by zero when dim 1 is 0
  }

  /** Dim 1 times the receptive field (every dim past 1), as _calculate_fan_in_and_fan_out. */
  public static long fanIn(Tensor t) {
    return fanIn("fanIn", t);
  }

  private static long fanIn(String op, Tensor t) {
    long receptive = receptiveField(op, t);  // first: it refuses fewer than 2 dims
    return t.shape()[1] * receptive;
  }

  /** op: the method the user called, named in the refusal (kaimingNormal_ of a 1-D tensor said "fanIn()"). */
  private static long receptiveField(String op, Tensor t) {
    long[] s = t.shape();
    if (s.length < 2) {
      throw new IllegalArgumentException(op + "(): Fan in and fan out can not be computed for tensor with fewer than 2 dimensions");
    }
    long receptive = 1;
    for (int d = 2; d < s.length; d++) receptive *= s[d];
    return receptive;
  }
}
