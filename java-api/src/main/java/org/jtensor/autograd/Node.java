package org.jtensor.autograd;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import org.jtensor.Tensor;

/**
 * One step of the recorded graph (PyTorch's torch::autograd::Node): it takes the gradients of the
 * outputs of the op that made it and gives the gradients of that op's inputs, which flow along
 * its edges ({@link #nextFunctions()}) to the nodes that made those inputs.
 *
 * <p>Note [Who owns a node] A node holds tensors its backward needs (saved inputs and outputs).
 * They must be freed deterministically, so a node counts its owners: each tensor whose gradFn it
 * is, and each node with an edge to it. When the last owner lets go, the node frees what it saved
 * and lets go of the nodes it points to (iteratively: a chain of 100k nodes does not recurse).
 * backward() without retainGraph frees each node's saved tensors as soon as it has run.
 */
public abstract class Node {
  private static final AtomicLong SEQUENCE = new AtomicLong();

  private final long sequenceNr = SEQUENCE.getAndIncrement();
  private final Edge[] next;
  private final AtomicInteger owners = new AtomicInteger(1);
  private List<List<UnaryOperator<Tensor>>> preHooks;  // per output; null until a hook is registered
  private List<List<UnaryOperator<Tensor>>> retainHooks;  // retainGrad's, per output: they run after preHooks

  /** next: one edge per input of the op (null where no gradient flows); each edge's node gains an owner. */
  protected Node(Edge[] next) {
    this.next = next.clone();
    for (Edge e : this.next) if (e != null) e.function().retainOwner();
  }

  /** As PyTorch names it: "MulBackward0", "AccumulateGrad". */
  public abstract String name();

  /** The edges to the nodes of the op's inputs, in input order; null where no gradient flows. */
  public final List<Edge> nextFunctions() {
    return Collections.unmodifiableList(Arrays.asList(next));
  }

  /** Whether a gradient flows to input k (its edge exists). */
  protected final boolean hasEdge(int k) {
    return k < next.length && next[k] != null;
  }

  /** Creation order: the engine runs later nodes first when several are ready, as PyTorch does. */
  public final long sequenceNr() {
    return sequenceNr;
  }

  @Override
  public String toString() {
    return "<" + name() + ">";
  }

  /** How many gradients flow in: one per output of the op that made the node. */
  protected abstract int numOutputs();

  /**
   * The gradients of the inputs (one per edge; null where none flows) from those of the outputs
   * (null where an output got none: read it as zeros). Runs with grad mode on only under
   * createGraph. Every tensor returned must be a new handle; the engine closes them.
   */
  protected abstract Tensor[] apply(Tensor[] gradOutputs);

  /** Frees what backward needed (saved tensors); afterwards a backward that needs them fails. */
  protected void releaseVariables() {}

  /** One more owner (a tensor naming this node as its gradFn). */
  protected final void retainOwner() {
    for (;;) {
      int n = owners.get();
      if (n <= 0) throw new IllegalStateException(name() + ": the graph node was already released");
      if (owners.compareAndSet(n, n + 1)) return;
    }
  }

  /** One owner fewer; the last one frees the node's saved tensors and its hold on the next nodes. */
  protected final void releaseOwner() {
    ArrayDeque<Node> work = null;
    Node n = this;
    while (n != null) {
      int left = n.owners.decrementAndGet();
      if (left < 0) throw new IllegalStateException(n.name() + ": released more often than owned");
      if (left == 0) {
        n.releaseVariables();
        for (Edge e : n.next) {
          if (e == null) continue;
          if (work == null) work = new ArrayDeque<>();
          work.push(e.function());
        }
      }
      n = work == null ? null : work.poll();
    }
  }

  /** Runs on the gradient of output number output before this node uses it; a non-null result replaces it. */
  protected final synchronized RemovableHandle addPreHook(int output, UnaryOperator<Tensor> hook) {
    if (preHooks == null) preHooks = perOutput();
    return add(preHooks.get(output), hook);
  }

  /** retainGrad's hook (PyTorch's retains_grad hook): it runs after every other hook on that output, so it sees their result. */
  protected final synchronized RemovableHandle addRetainGradHook(int output, UnaryOperator<Tensor> hook) {
    if (retainHooks == null) retainHooks = perOutput();
    return add(retainHooks.get(output), hook);
  }

  private List<List<UnaryOperator<Tensor>>> perOutput() {
    List<List<UnaryOperator<Tensor>>> lists = new ArrayList<>();
    for (int i = 0; i < numOutputs(); i++) lists.add(new ArrayList<>());
    return lists;
  }

  private RemovableHandle add(List<UnaryOperator<Tensor>> list, UnaryOperator<Tensor> hook) {
    // An entry of its own per registration: one hook registered twice has two entries, and a handle
    // removed twice removes its own entry once (removing the hook by equality took the other's too).
    UnaryOperator<Tensor> entry = new UnaryOperator<>() {
      @Override
      public Tensor apply(Tensor g) {
        return hook.apply(g);
      }
    };
    list.add(entry);
    return () -> {
      synchronized (Node.this) {
        list.removeIf(e -> e == entry);
      }
    };
  }

  final Edge[] edges() {
    return next;
  }

  final synchronized List<UnaryOperator<Tensor>> hooks(int output) {
    List<UnaryOperator<Tensor>> all = new ArrayList<>();
    if (preHooks != null) all.addAll(preHooks.get(output));
    if (retainHooks != null) all.addAll(retainHooks.get(output));
    return all;
  }

  final Tensor[] run(Tensor[] gradOutputs) {
    return apply(gradOutputs);
  }

  final void freeVariables() {
    releaseVariables();
  }
}
