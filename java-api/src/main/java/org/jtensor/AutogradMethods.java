package org.jtensor;

import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;
import org.jtensor.autograd.Autograd;
import org.jtensor.autograd.Edge;
import org.jtensor.autograd.Node;
import org.jtensor.autograd.RemovableHandle;
import org.jtensor.core.InferenceMode;
import org.jtensor.core.TensorImpl;
import org.jtensor.ops.AutogradMeta;
import org.jtensor.ops.GraphNode;
import org.jtensor.ops.Recorder;

/**
 * Tensor's autograd surface, PyTorch's names in Java case: requiresGrad_, grad, backward, gradFn,
 * isLeaf, retainGrad, registerHook, detach_. The graph itself is recorded by the ops (see
 * {@link Recorder}) and run by {@link Autograd}. grad() returns a new handle the caller owns.
 */
public sealed interface AutogradMethods permits Tensor {
  private TensorImpl impl(String op) {
    return ((Tensor) this).impl(op);
  }

  private Tensor self() {
    return (Tensor) this;
  }

  /** No gradient, once the handle is checked again (Note [Absent after a close]). */
  private Tensor absent(String op) {
    impl(op);
    return null;
  }

  // Note [Absent after a close] A close() on another thread, between a read's check of the handle
  // and its read of the autograd metadata, frees that metadata (or releases it in place: gradFn and
  // grad set to null), which then reads as absent: no grad, no node, a leaf, "does not require
  // grad". Where a read found it absent it checks the handle again, so a tensor closed meanwhile
  // answers with its closed-tensor exception, as it would a moment later, and never with a wrong
  // "no" (Autograd.grad took that for a tensor that does not require grad: RequiresGradCloseRaceTest).
  default boolean requiresGrad() {
    boolean requires = impl("requiresGrad").requiresGrad();
    if (!requires) impl("requiresGrad");  // Note [Absent after a close]
    return requires;
  }

  default Tensor requiresGrad_() {
    return requiresGrad_(true);
  }

  /** Makes a leaf start (or stop) recording its gradient; returns this tensor. */
  default Tensor requiresGrad_(boolean requiresGrad) {
    TensorImpl t = impl("requiresGrad_");
    AutogradMeta m = AutogradMeta.peek(t);
    if (m != null && !m.isLeaf()) {
      if (requiresGrad) return self();
      throw new IllegalStateException("requiresGrad_(): you can only change requires_grad flags of leaf variables. If you "
          + "want to use a computed variable in a subgraph that doesn't require differentiation use detach().");
    }
    if (requiresGrad && !t.dtype().isFloatingPoint()) {
      throw new IllegalArgumentException("requiresGrad_(): only Tensors of floating point and complex dtype can require "
          + "gradients, got " + t.dtype());
    }
    if (requiresGrad && t.storage().isInference() && !InferenceMode.isEnabled()) {
      throw new IllegalStateException("requiresGrad_(): Setting requires_grad=True on inference tensor outside InferenceMode "
          + "is not allowed.");
    }
    if (m == null && !requiresGrad) return self();
    AutogradMeta.of(t).requiresGrad = requiresGrad;
    return self();
  }

  /** Whether this tensor is a leaf: it requires no grad, or it requires grad and no op made it. */
  default boolean isLeaf() {
    AutogradMeta m = AutogradMeta.current(impl("isLeaf"), "isLeaf");
    boolean leaf = m == null || m.isLeaf();  // a close releases the metadata in place: its gradFn then reads null
    if (leaf) impl("isLeaf");  // Note [Absent after a close]
    return leaf;
  }

  /** The node of the op that made this tensor; null for a leaf. */
  default Node gradFn() {
    AutogradMeta m = AutogradMeta.current(impl("gradFn"), "gradFn");
    Node f = m == null ? null : m.gradFn;
    if (f == null) impl("gradFn");  // Note [Absent after a close]
    return f;
  }

  /** Where this tensor's gradient goes (torch.autograd.graph.get_gradient_edge). */
  default Edge gradientEdge() {
    Edge e = GraphNode.gradientEdge(impl("gradientEdge"));
    // Note [Absent after a close] on every answer: a non-leaf's metadata released meanwhile has no
    // gradFn, and gave an accumulator's edge (ConvFewPositionsHostileTest)
    impl("gradientEdge");
    if (e == null) throw new IllegalStateException("gradientEdge(): the tensor does not require grad");
    return e;
  }

  /** The accumulated gradient, as a new handle the caller owns; null when none was accumulated. */
  default Tensor grad() {
    AutogradMeta m = AutogradMeta.peek(impl("grad"));
    if (m == null) return absent("grad");
    synchronized (m) {
      if (m.grad == null) return absent("grad");
      m.grad.retain();
      return Tensor.wrap(m.grad);
    }
  }

  /** Replaces the gradient (null clears it, as {@code x.grad = None}); a given one must match shape, dtype and device. */
  default void setGrad(Tensor grad) {
    TensorImpl t = impl("setGrad");
    if (grad == null) {
      AutogradMeta m = AutogradMeta.peek(t);
      if (m != null) m.setGrad(null);
      return;
    }
    TensorImpl g = Tensor.implOf(grad, "setGrad");
    if (!Arrays.equals(g.sizes(), t.sizes()) || g.dtype() != t.dtype() || !g.device().equals(t.device())) {
      throw new IllegalArgumentException("setGrad(): assigned grad has data of a different size, type or device: expected "
          + t.dtype() + Arrays.toString(t.sizes()) + " on " + t.device() + ", got " + g.dtype() + Arrays.toString(g.sizes())
          + " on " + g.device());
    }
    // Held while the grad goes in: a close() on another thread then frees t (and this grad with it)
    // only after, never before, which would leave the grad on a freed tensor, owned by no one.
    if (!t.hold()) throw new IllegalStateException("setGrad(): tensor is closed");
    try {
      AutogradMeta m = AutogradMeta.of(t);
      g.retain();
      m.setGrad(g);
    } finally {
      t.unhold();
    }
  }

  /** For a scalar: d(this)/d(leaves), accumulated into each leaf's grad(); the graph is freed. */
  default void backward() {
    impl("backward");
    Autograd.backward(List.of(self()), null, false, false);
  }

  /** d(this)/d(leaves) weighted by gradient (this tensor's shape). */
  default void backward(Tensor gradient) {
    backward(gradient, false, false);
  }

  /** y.backward(gradient, retain_graph=True): the graph stays for another backward. */
  default void backward(Tensor gradient, boolean retainGraph) {
    backward(gradient, retainGraph, false);
  }

  default void backward(Tensor gradient, boolean retainGraph, boolean createGraph) {
    impl("backward");
    Autograd.backward(List.of(self()), Arrays.asList(gradient), retainGraph, createGraph);
  }

  /** A non-leaf keeps its gradient in grad() after backward, as a leaf does. */
  default void retainGrad() {
    TensorImpl t = impl("retainGrad");
    AutogradMeta m = AutogradMeta.peek(t);
    if (m == null || !m.requiresGrad) {
      throw new IllegalStateException("retainGrad(): can't retain_grad on Tensor that has requires_grad=False");
    }
    synchronized (m) {  // two threads at once register one hook, not two (which would count each gradient twice)
      if (m.isLeaf() || m.retainsGrad) return;
      m.retainsGrad = true;
      m.retainHook = g -> {
        // Out of place, as PyTorch's retains_grad hook (grad = grad + new_grad): a handle from an
        // earlier grad() keeps its values. With grad mode off (no createGraph) nothing is recorded.
        m.accumulate(g, true, false, null);
        return null;
      };
      m.retainHandle = m.gradFn.retainGradHook(m.outputNr, m.retainHook);
    }
  }

  default boolean retainsGrad() {
    AutogradMeta m = AutogradMeta.peek(impl("retainsGrad"));
    return m != null && m.retainsGrad;
  }

  /**
   * Runs hook on this tensor's gradient each time one is computed; a non-null result replaces
   * it. The hook must not close the tensor it gets.
   */
  default RemovableHandle registerHook(UnaryOperator<Tensor> hook) {
    if (hook == null) throw new IllegalArgumentException("registerHook(): expected a hook, got null");
    TensorImpl t = impl("registerHook");
    Edge e = GraphNode.gradientEdge(t, "registerHook");
    if (e == null) {
      throw new IllegalStateException("registerHook(): cannot register a hook on a tensor that doesn't require gradient");
    }
    return ((GraphNode) e.function()).preHook(e.inputNr(), hook);
  }

  /** Takes this tensor out of the graph in place: no gradFn, no requiresGrad. */
  default Tensor detach_() {
    TensorImpl t = impl("detach_");
    if (t.base() != null) {  // PyTorch refuses every view, one that requires no grad too
      throw new IllegalStateException("detach_(): Can't detach views in-place. Use detach() instead.");
    }
    AutogradMeta m = AutogradMeta.peek(t);
    if (m != null) {
      GraphNode old;
      synchronized (m) {
        old = m.gradFn;
        m.gradFn = null;
        m.requiresGrad = false;
      }
      if (old != null) old.releaseOwnership();
    }
    return self();
  }
}
