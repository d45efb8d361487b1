package org.jtensor.nn;

import java.util.Arrays;
import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;

/**
 * y = x1ᵀ·W·x2 + b (torch.nn.Bilinear(in1_features, in2_features, out_features, bias)): "weight"
 * [out, in1, in2] and "bias" [out], both U(±1/√in1) as PyTorch's reset_parameters draws them.
 */
public final class Bilinear extends Module {
  private final Tensor weight, bias;

  public Bilinear(long in1Features, long in2Features, long outFeatures) {
    this(in1Features, in2Features, outFeatures, true, Generator.defaultGenerator());
  }

  public Bilinear(long in1Features, long in2Features, long outFeatures, boolean withBias, Generator g) {
    if (in1Features <= 0) throw new IllegalArgumentException("Bilinear(): in1_features must be > 0, but got (in1_features=" + in1Features + ")");
    if (in2Features < 0 || outFeatures < 0) {
      throw new IllegalArgumentException("Bilinear(): Trying to create tensor with negative dimension " + Math.min(in2Features, outFeatures)
          + ": [" + outFeatures + ", " + in1Features + ", " + in2Features + "]");
    }
    double bound = 1 / Math.sqrt(in1Features);
    try {
      weight = registerParameter("weight", Init.uniform_(Tensor.empty(new long[] {outFeatures, in1Features, in2Features}, DType.FLOAT32), bound, g));
      bias = withBias ? registerParameter("bias", Init.uniform_(Tensor.empty(new long[] {outFeatures}, DType.FLOAT32), bound, g)) : null;
    } catch (RuntimeException | Error e) {
      abandon(e);
      throw e;
    }
  }

  public Tensor weight() {
    return weight;
  }

  public Tensor bias() {
    return bias;
  }

  @Override
  public Tensor forward(Tensor input) {
    throw new UnsupportedOperationException("Bilinear takes two inputs: call forward(input1, input2)");
  }

  public Tensor forward(Tensor input1, Tensor input2) {
    return Functional.bilinear(input1, input2, weight, bias);
  }

  /** F.bilinear as one matmul: x1 [B, I] · W permuted to [I, O·J], then times x2 and summed over J. */
  static Tensor bilinear(Tensor input1, Tensor input2, Tensor weight, Tensor bias) {
    String op = "bilinear";
    if (weight.dim() != 3) throw new IllegalArgumentException(op + "(): weight must be 3-D [out, in1, in2], got shape " + Arrays.toString(weight.shape()));
    int d = input1.dim();
    if (d != input2.dim()) throw new IllegalArgumentException(op + "(): input dimensions do not match: got " + d + " and " + input2.dim());
    if (d == 0) throw new IllegalArgumentException(op + "(): expected inputs with at least 1 dimension, got 0-dim tensors");
    long[] s1 = input1.shape(), s2 = input2.shape(), w = weight.shape();
    for (int i = 0; i < d - 1; i++) {
      if (s1[i] != s2[i]) throw new IllegalArgumentException(op + "(): input batch dimensions do not match: got " + s1[i] + " and " + s2[i]);
    }
    if (s1[d - 1] != w[1]) throw new IllegalArgumentException(op + "(): input1 size does not match weight size: got " + s1[d - 1] + " but expected " + w[1]);
    if (s2[d - 1] != w[2]) throw new IllegalArgumentException(op + "(): input2 size does not match weight size: got " + s2[d - 1] + " but expected " + w[2]);
    if (bias != null && (bias.dim() != 1 || bias.shape()[0] != w[0])) {
      throw new IllegalArgumentException(op + "(): bias size does not match weight size: got " + (bias.dim() == 0 ? "a 0-dim bias" : bias.shape()[0])
          + " but expected " + w[0]);
    }
    long[] outShape = Arrays.copyOf(s1, d);
    outShape[d - 1] = w[0];
    try (TensorScope s = TensorScope.open()) {
      Tensor a = input1.reshape(-1, w[1]);
      long b = a.shape()[0];
      Tensor t = a.matmul(weight.permute(1, 0, 2).reshape(w[1], w[0] * w[2])).view(b, w[0], w[2]);
      Tensor y = t.mul(input2.reshape(b, 1, w[2])).sum(2);
      if (bias != null) y = y.add(bias);
      return s.keep(y.reshape(outShape));
    }
  }

  @Override
  protected String extraRepr() {
    long[] s = weight.shape();
    return "in1_features=" + s[1] + ", in2_features=" + s[2] + ", out_features=" + s[0] + ", bias=" + ModuleRepr.b(bias != null);
  }
}
