package org.jtensor.ops;

import org.jtensor.Tensor;
import org.jtensor.core.AutogradSlot;
import org.jtensor.core.Shapes;
import org.jtensor.core.TensorImpl;

/**
 * A tensor's autograd metadata (PyTorch's AutogradMeta), made only for tensors that take part:
 * a leaf that requires grad has no gradFn and accumulates into grad; a result of a recorded op
 * has its gradFn and output number. It owns one reference to grad and one to gradFn, given back
 * when the tensor's last reference goes.
 */
public final class AutogradMeta implements AutogradSlot {
  public volatile boolean requiresGrad;
  public TensorImpl grad;            // owned; own storage
  public GraphNode gradFn;           // owned; null for a leaf
  public int outputNr;
  public AccumulateGrad accumulator; // a leaf's, made on first use; holds no tensor, so it needs no owner count
  public boolean retainsGrad;        // set under this object's lock, with retainHook
  public java.util.function.UnaryOperator<Tensor> retainHook;  // retainGrad's hook, on gradFn; moves with it
  public org.jtensor.autograd.RemovableHandle retainHandle;
  volatile boolean released;
  int rebases;     // a base's: how many in-place ops on it or its views have rewritten its history
  int baseRebases; // a view's: its base's rebases when its gradFn was made

  @Override
  public boolean requiresGrad() {
    return requiresGrad;
  }

  @Override
  public boolean rewroteViewsSince(AutogradSlot view) {
    return rebases != (view == null ? 0 : ((AutogradMeta) view).baseRebases);
  }

  @Override
  public synchronized void release() {
    if (released) return;
    released = true;
    if (grad != null) grad.release();
    grad = null;
    if (gradFn != null) gradFn.releaseOwnership();
    gradFn = null;
  }

  /** t's metadata, made if it has none. */
  public static AutogradMeta of(TensorImpl t) {
    synchronized (t) {
      AutogradMeta m = (AutogradMeta) t.autograd();
      if (m == null) {
        m = new AutogradMeta();
        t.setAutograd(m);
      }
      return m;
    }
  }

  public static AutogradMeta peek(TensorImpl t) {
    return (AutogradMeta) t.autograd();
  }

  /**
   * t's metadata as PyTorch sees it: a view whose base an in-place op on another view has given
   * a new history since the view took its own gets its gradFn regenerated first (a strided view of
   * the base's history), made for a view that had none.
   */
  public static AutogradMeta current(TensorImpl t) {
    return current(t, null);
  }

  /**
   * The same for op (as the user called it), which refuses a view PyTorch will not regenerate (one
   * made under no_grad, or cut by split: ViewCreation); with op null such a view stays as it is.
   */
  public static AutogradMeta current(TensorImpl t, String op) {
    AutogradMeta m = peek(t);
    TensorImpl base = t.base();
    AutogradMeta bm = base == null ? null : peek(base);
    if (bm == null || !bm.rewroteViewsSince(m)) return m;
    if (t.viewCreation() != null) {
      if (op == null) return m;
      ViewCreation.checkStale(op, t);
    }
    m = of(t);
    Recorder.regenerate(t, m, bm);
    return m;
  }

  /** Makes node this tensor's gradFn (the caller's ownership moves in); returns the previous one, for the caller to release. */
  synchronized GraphNode install(GraphNode node, int outputNr) {
    GraphNode old = gradFn;
    gradFn = node;
    this.outputNr = outputNr;
    requiresGrad = true;
    if (retainHandle != null) {  // an in-place op (or a view's refresh) gave a new history: retainGrad follows it, as PyTorch's
      retainHandle.remove();
      retainHandle = node.retainGradHook(outputNr, retainHook);
    }
    return old;
  }

  /** After setData re-pointed t: its accumulator (and the hooks on it) takes t's new sizes, strides, dtype and device. */
  public static void retargetAccumulator(TensorImpl t) {
    AutogradMeta m = peek(t);
    if (m == null) return;
    synchronized (m) {
      TensorImpl.Meta now = t.meta();  // one snapshot: a setData racing this one gives a whole target
      if (m.accumulator != null) m.accumulator.retarget(now.sizes, now.strides, now.dtype, now.storage.device());
    }
  }

  public boolean isLeaf() {
    return gradFn == null;
  }

  /** Replaces grad (taking ownership of g, which may be null) and gives back the old one. */
  public synchronized void setGrad(TensorImpl g) {
    TensorImpl old = grad;
    grad = released ? null : g;
    if (released && g != null) g.release();
    if (old != null) old.release();
  }

  /**
   * Adds g to grad (AccumulateGrad's rule): the first gradient becomes grad, taken over when
   * mayTakeOver and no one else can see it, copied otherwise, so grad always has a storage of its
   * own; later ones are added in place, or out of place under createGraph so grad keeps its graph.
   * The first one keeps PyTorch's gradient layout contract: a leaf's grad has the leaf's strides
   * where the leaf is dense (leafStrides), and is contiguous otherwise or with leafStrides null
   * (retainGrad's, as PyTorch's clone(contiguous)).
   */
  public synchronized void accumulate(Tensor g, boolean createGraph, boolean mayTakeOver, long[] leafStrides) {
    if (released) return;
    TensorImpl gi = Handles.impl(g, "backward");
    if (grad == null) {
      long[] layout = leafStrides != null && Shapes.isNonOverlappingAndDense(gi.sizes(), leafStrides)
          ? leafStrides : Shapes.contiguousStrides(gi.sizes());
      if (mayTakeOver && !createGraph && ownedByNoOneElse(gi) && obeysLayout(gi, layout)) {
        gi.retain();
        setGrad(gi);
      } else {
        try (Tensor src = createGraph ? null : g.detach();
             Tensor copy = Tensor.emptyStrided(gi.sizes(), layout, gi.dtype(), gi.device())) {
          copy.copy_(createGraph ? g : src);  // recorded under createGraph, so grad keeps its graph
          TensorImpl ci = Handles.impl(copy, "backward");
          ci.retain();
          setGrad(ci);
        }
      }
      return;
    }
    grad.retain();
    try (Tensor old = Handles.wrap(grad)) {
      // In place whenever grad mode is off, as PyTorch's (variable_grad += new_grad), a grad that
      // requires grad too (x.grad = t keeps t, and a createGraph grad stays the handle it was).
      // A read-only grad (one setGrad gave, over a mapped file) cannot take the sum in place: it gets a new tensor.
      if (!createGraph && grad.storage().isWritable()) {
        old.add_(g);
        return;
      }
      try (Tensor sum = old.add(g)) {
        TensorImpl si = Handles.impl(sum, "backward");
        si.retain();
        setGrad(si);
      }
    }
  }

  /** Only the caller's handle sees g, its storage is its alone, and it has no graph: it can become grad as it is. */
  private static boolean ownedByNoOneElse(TensorImpl g) {
    return g.refCount() == 1 && g.storage().refCount() == 1 && g.base() == null && g.storageOffset() == 0
        && !g.requiresGrad();
  }

  /** PyTorch's obeys_layout_contract: g's strides are the layout's wherever a dim has more than one element. */
  private static boolean obeysLayout(TensorImpl g, long[] layout) {
    long[] sizes = g.sizes(), strides = g.strides();
    for (int d = 0; d < sizes.length; d++) {
      if (sizes[d] != 1 ? strides[d] != layout[d] : strides[d] == 0) return false;
    }
    return true;
  }
}
