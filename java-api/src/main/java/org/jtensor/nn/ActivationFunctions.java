package org.jtensor.nn;

import org.jtensor.Tensor;

/**
 * torch.nn.functional's everyday activations and softmax, called as {@code Functional.softmax(x, -1)}:
 * each the Tensor method of the same name ({@code x.softmax(-1)}), so its dtype rule, gradient and
 * refusals are the op's. The root of {@link Functional}'s superclasses; it has no instances.
 */
public abstract sealed class ActivationFunctions permits ConvolutionFunctions {
  ActivationFunctions() {}

  public static Tensor relu(Tensor x) { return x.relu(); }
  public static Tensor gelu(Tensor x) { return x.gelu(); }
  /** F.gelu(x, approximate="tanh"), or "none". */
  public static Tensor gelu(Tensor x, String approximate) { return x.gelu(approximate); }
  public static Tensor silu(Tensor x) { return x.silu(); }
  public static Tensor sigmoid(Tensor x) { return x.sigmoid(); }
  public static Tensor tanh(Tensor x) { return x.tanh(); }
  /** F.leaky_relu(x, negative_slope). */
  public static Tensor leakyRelu(Tensor x, double negativeSlope) { return x.leakyRelu(negativeSlope); }
  /** F.softmax(x, dim). */
  public static Tensor softmax(Tensor x, int dim) { return x.softmax(dim); }
  /** F.log_softmax(x, dim). */
  public static Tensor logSoftmax(Tensor x, int dim) { return x.logSoftmax(dim); }
}
