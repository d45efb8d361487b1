package org.jtensor.ops;

import org.jtensor.Tensor;
import org.jtensor.core.TensorImpl;

/**
 * A tensor a node's backward needs (PyTorch's SavedVariable): one reference held until the
 * graph is released, and the version it had when saved. An op's own output is saved as an alias
 * without autograd metadata, so the node and the output do not own each other; under createGraph
 * the alias unpacks with the node as its gradFn again.
 */
final class SavedTensor {
  private TensorImpl data;
  private final int version;
  private final boolean isOutput;
  private final int outputNr;

  private SavedTensor(TensorImpl data, boolean isOutput, int outputNr) {
    this.data = data;
    this.version = data.version();
    this.isOutput = isOutput;
    this.outputNr = outputNr;
  }

  /** Saves an input of op (as the user called it): retains it, metadata and all (its gradFn is an earlier node). */
  static SavedTensor input(String op, TensorImpl t) {
    if (t.storage().isInference()) {  // only outside inference mode: nothing records inside (Note [Inference tensors])
      throw new IllegalStateException(op + "(): Inference tensors cannot be saved for backward. Please do not use Tensors created in "
          + "inference mode in computation tracked by autograd. To work around this, you can make a clone to get a normal "
          + "tensor and use it in autograd, or use GradMode.noGrad() instead of GradMode.inferenceMode().");
    }
    t.retain();
    return new SavedTensor(t, false, 0);
  }

  /** Saves output number outputNr of the node being made. */
  static SavedTensor output(TensorImpl t, int outputNr) {
    return new SavedTensor(t.detached(), true, outputNr);
  }

  /** A new handle on the saved tensor, checked against in-place changes since it was saved. */
  synchronized Tensor unpack(GraphNode node, boolean createGraph) {
    if (data == null) {
      throw new IllegalStateException(node.name() + ": Trying to backward through the graph a second time (or directly "
          + "access saved tensors after they have already been freed). Saved intermediate values of the graph are freed "
          + "when you call backward() or autograd.grad(). Specify retainGraph=true if you need to backward through the "
          + "graph a second time or if you need to access saved tensors after calling backward.");
    }
    if (data.version() != version) {
      throw new IllegalStateException("one of the variables needed for gradient computation has been modified by an "
          + "inplace operation: [" + data.dtype() + " " + java.util.Arrays.toString(data.sizes()) + "]"
          + (isOutput ? ", which is output " + outputNr + " of " + node.name() + "," : "")
          + " is at version " + data.version() + "; expected version " + version + " instead.");
    }
    if (isOutput && createGraph) {
      TensorImpl alias = data.detached();
      AutogradMeta m = AutogradMeta.of(alias);
      node.takeOwnership();
      m.gradFn = node;
      m.outputNr = outputNr;
      m.requiresGrad = true;
      return Handles.wrap(alias);
    }
    data.retain();
    return Handles.wrap(data);
  }

  synchronized void release() {
    if (data != null) data.release();
    data = null;
  }
}
