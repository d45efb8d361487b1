package org.jtensor.ops;

import org.jtensor.Tensor;
import org.jtensor.autograd.Edge;
import org.jtensor.autograd.Node;
import org.jtensor.core.TensorImpl;

/** The library's nodes: Node with its ownership calls opened to this package. */
public abstract class GraphNode extends Node {
  GraphNode(Edge[] next) {
    super(next);
  }

  final void takeOwnership() {
    retainOwner();
  }

  public final void releaseOwnership() {
    releaseOwner();
  }

  public final org.jtensor.autograd.RemovableHandle retainGradHook(int output, java.util.function.UnaryOperator<Tensor> hook) {
    return addRetainGradHook(output, hook);
  }

  public final org.jtensor.autograd.RemovableHandle preHook(int output, java.util.function.UnaryOperator<Tensor> hook) {
    return addPreHook(output, hook);
  }

  /** Where t's gradient goes: its gradFn's slot, a leaf's accumulator, or null when it needs none. */
  public static Edge gradientEdge(TensorImpl t) {
    return gradientEdge(t, "gradientEdge");
  }

  /** The same for op, the call that asked (named in a refusal of a view PyTorch will not refresh). */
  public static Edge gradientEdge(TensorImpl t, String op) {
    AutogradMeta m = AutogradMeta.current(t, op);  // a view whose base an in-place op has rewritten since: refreshed
    if (m == null || !m.requiresGrad) return null;
    synchronized (m) {
      if (m.gradFn != null) return new Edge(m.gradFn, m.outputNr);
      if (m.accumulator == null) m.accumulator = new AccumulateGrad(m, t.sizes().clone(), t.strides().clone(), t.dtype(), t.device());
      return new Edge(m.accumulator, 0);
    }
  }
}
