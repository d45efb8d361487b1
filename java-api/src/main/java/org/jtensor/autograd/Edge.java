package org.jtensor.autograd;

/**
 * Where a gradient goes: input number inputNr of function (PyTorch's Edge). A tensor's gradient
 * edge is (its gradFn, its output number), or (its AccumulateGrad, 0) for a leaf that requires grad.
 */
public record Edge(Node function, int inputNr) {
  public Edge {
    if (function == null) throw new IllegalArgumentException("Edge(): expected a Node, got null");
  }
}
