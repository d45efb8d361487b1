package org.jtensor.autograd;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jtensor.Tensor;

/**
 * Reverse-mode differentiation of recorded graphs (torch.autograd): {@link #backward} accumulates
 * into the leaves' {@code grad()}, {@link #grad} returns the gradients without touching any
 * {@code grad()}. Unless retainGraph, the saved tensors of every node that ran are freed.
 */
public final class Autograd {
  private Autograd() {}

  /** Tensor.backward(): d(roots)/d(leaves) accumulated into each leaf's grad(); grads may be null for scalar roots. */
  public static void backward(List<Tensor> roots, List<Tensor> grads, boolean retainGraph, boolean createGraph) {
    Edge[] edges;
    try {
      edges = heldRootEdges("backward", roots);
    } catch (IllegalStateException e) {
      throw namedForRoots("backward", roots, e);
    }
    List<Tensor> made = new ArrayList<>();
    try {
      Tensor[] rootGrads;
      try {
        rootGrads = rootGrads("backward", roots, grads, createGraph, made);
      } catch (IllegalStateException e) {
        throw namedForRoots("backward", roots, e);
      }
      try {
        Engine.run(edges, rootGrads, retainGraph || createGraph, createGraph, null);
      } finally {
        closeAll(made);
      }
    } finally {
      release(edges, edges.length);
    }
  }

  /** torch.autograd.grad(output, inputs): d(output)/d(inputs), the graph freed after. */
  public static List<Tensor> grad(Tensor output, List<Tensor> inputs) {
    return grad(output, inputs, false);
  }

  /** d(output)/d(inputs); createGraph records the backward itself, for higher-order gradients. */
  public static List<Tensor> grad(Tensor output, List<Tensor> inputs, boolean createGraph) {
    return grad(List.of(output), null, inputs, createGraph, createGraph, false);
  }

  /**
   * torch.autograd.grad: the gradients of outputs (weighted by gradOutputs; null entries or list
   * for scalar outputs) with respect to inputs, each a new handle the caller owns. An input the
   * outputs do not depend on is an error unless allowUnused, which gives null for it.
   */
  public static List<Tensor> grad(List<Tensor> outputs, List<Tensor> gradOutputs, List<Tensor> inputs,
                                  boolean retainGraph, boolean createGraph, boolean allowUnused) {
    Edge[] edges;
    try {
      edges = heldRootEdges("grad", outputs);
    } catch (IllegalStateException e) {
      throw namedForRoots("grad", outputs, e);
    }
    try {
      return grad(edges, outputs, gradOutputs, inputs, retainGraph, createGraph, allowUnused);
    } finally {
      release(edges, edges.length);
    }
  }

  private static List<Tensor> grad(Edge[] edges, List<Tensor> outputs, List<Tensor> gradOutputs, List<Tensor> inputs,
                                   boolean retainGraph, boolean createGraph, boolean allowUnused) {
    if (inputs == null || inputs.isEmpty()) throw new IllegalArgumentException("grad(): `inputs` argument to `grad()` cannot be empty.");
    Edge[] captures = new Edge[inputs.size()];
    for (int i = 0; i < captures.length; i++) {
      Tensor in = inputs.get(i);
      if (in == null) throw new IllegalArgumentException("grad(): inputs[" + i + "] is null");
      if (in.isClosed()) throw new IllegalStateException("grad(): inputs[" + i + "] is closed");  // not requiresGrad()'s words
      if (!in.requiresGrad()) {
        throw new IllegalArgumentException("grad(): One of the differentiated Tensors does not require grad");
      }
      captures[i] = in.gradientEdge();
    }
    Tensor[] rootGrads;
    List<Tensor> made = new ArrayList<>();
    try {
      rootGrads = rootGrads("grad", outputs, gradOutputs, createGraph, made);
    } catch (IllegalStateException e) {
      throw namedForRoots("grad", outputs, e);
    }
    Tensor[] got;
    try {
      got = Engine.run(edges, rootGrads, retainGraph || createGraph, createGraph, captures);
    } finally {
      closeAll(made);
    }
    for (int i = 0; i < got.length; i++) {
      if (got[i] == null && !allowUnused) {
        for (Tensor t : got) if (t != null) t.close();
        throw new IllegalArgumentException("grad(): The differentiated Tensor at index " + i + " appears to not have been "
            + "used in the graph. Set allowUnused=true if this is the desired behavior.");
      }
    }
    return Arrays.asList(got);
  }

  /**
   * A root closed while its edges or starting gradient were read (by another thread, say) fails in
   * whichever internal call met it first (requiresGrad(), numel(), onesLike()); the user called op.
   */
  private static IllegalStateException namedForRoots(String op, List<Tensor> roots, IllegalStateException e) {
    for (int i = 0; roots != null && i < roots.size(); i++) {
      Tensor t = roots.get(i);
      if (t != null && t.isClosed()) return new IllegalStateException(op + "(): output " + i + " is closed", e);
    }
    return e;
  }

  /**
   * The roots' edges, each node held for the run, as PyTorch's GraphTask holds its roots: outputs
   * and intermediates closed on another thread meanwhile free the graph only when the run ends.
   */
  private static Edge[] heldRootEdges(String op, List<Tensor> roots) {
    Edge[] edges = rootEdges(op, roots);
    int held = 0;
    try {
      for (; held < edges.length; held++) edges[held].function().retainOwner();  // fails if a close released it meanwhile
    } catch (RuntimeException e) {
      release(edges, held);
      throw e;
    }
    return edges;
  }

  private static void release(Edge[] edges, int n) {
    for (int i = 0; i < n; i++) edges[i].function().releaseOwner();
  }

  private static Edge[] rootEdges(String op, List<Tensor> roots) {
    if (roots == null || roots.isEmpty()) throw new IllegalArgumentException(op + "(): expected at least one output tensor");
    Edge[] edges = new Edge[roots.size()];
    for (int i = 0; i < edges.length; i++) {
      Tensor t = roots.get(i);
      if (t == null) throw new IllegalArgumentException(op + "(): outputs[" + i + "] is null");
      if (!t.requiresGrad()) {
        throw new IllegalStateException(op + "(): element " + i + " of tensors does not require grad and does not have a grad_fn");
      }
      edges[i] = t.gradientEdge();
    }
    return edges;
  }

  /**
   * The gradient each root starts with: the given one in the root's dtype, or ones for a scalar
   * root. What it makes goes into made, for the caller to close (closed here if it throws).
   */
  private static Tensor[] rootGrads(String op, List<Tensor> roots, List<Tensor> grads, boolean createGraph,
                                    List<Tensor> made) {
    if (grads != null && grads.size() != roots.size()) {
      throw new IllegalArgumentException(op + "(): got " + grads.size() + " gradients for " + roots.size() + " outputs");
    }
    Tensor[] out = new Tensor[roots.size()];
    try {
      for (int i = 0; i < out.length; i++) {
        Tensor root = roots.get(i);
        Tensor g = grads == null ? null : grads.get(i);
        if (g != null && g.isClosed()) throw new IllegalStateException(op + "(): the gradient for output " + i + " is closed");
        if (g == null) {
          if (root.numel() != 1) throw new IllegalStateException(op + "(): grad can be implicitly created only for scalar outputs");
          try (GradMode.Scope off = GradMode.noGrad()) {
            g = Tensor.onesLike(root);
          }
          made.add(g);
        } else if (!Arrays.equals(g.shape(), root.shape())) {
          throw new IllegalArgumentException(op + "(): Mismatch in shape: grad_output[" + i + "] has a shape of "
              + g.shapeString() + " and output[" + i + "] has a shape of " + root.shapeString() + ".");
        } else if (g.dtype() != root.dtype()) {
          // As PyTorch's validate_outputs: the gradient takes the output's dtype before any node
          // sees it (a float32 or integer weight on a float64 output is not computed in float32).
          try (GradMode.Scope mode = GradMode.enabled(createGraph)) {
            g = g.to(root.dtype());
          }
          made.add(g);
        }
        out[i] = g;
      }
      return out;
    } catch (RuntimeException e) {
      closeAll(made);
      made.clear();
      throw e;
    }
  }

  /** Closes the root gradients this class made (not the caller's). */
  private static void closeAll(List<Tensor> made) {
    for (Tensor t : made) t.close();
  }
}
