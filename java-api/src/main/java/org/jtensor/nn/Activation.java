package org.jtensor.nn;

import org.jtensor.Tensor;

/** The transformer layers' activation argument ("relu" or "gelu", as PyTorch accepts them by name) and their feed-forward block. */
final class Activation {
  private Activation() {}

  static boolean isGelu(String layer, String activation) {
    if ("gelu".equals(activation)) return true;
    if ("relu".equals(activation)) return false;
    throw new IllegalArgumentException(layer + "(): activation should be relu/gelu, not " + activation);
  }

  static Tensor apply(Tensor x, boolean gelu) {
    return gelu ? x.gelu() : x.relu();
  }

  /** linear2(dropout(activation(linear1(x)))): the layers' own modules, so their state-dict names stay PyTorch's. */
  static Tensor feedForward(Tensor x, Linear linear1, boolean gelu, Dropout dropout, Linear linear2) {
    return linear2.forward(dropout.forward(apply(linear1.forward(x), gelu)));
  }
}
