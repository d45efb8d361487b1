package org.jtensor.autograd;

import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;

/**
 * Runs the graph backward from root edges (PyTorch's Engine::execute, on the calling thread):
 * counts each node's pending gradients, runs a node once all of them have arrived, later-created
 * nodes first among the ready ones, and sums gradients that meet at one input. With capture
 * edges (autograd.grad) it runs only the nodes on a path to them and returns what arrives there.
 *
 * <p>Every tensor it makes lives in a scope of its own: gradients are closed as soon as they are
 * used, each node's temporaries when the node returns, and the rest when the run ends, even when
 * a node throws. Captured gradients move to the caller's scope.
 */
final class Engine {
  private Engine() {}

  static Tensor[] run(Edge[] roots, Tensor[] rootGrads, boolean keepGraph, boolean createGraph, Edge[] captures) {
    Map<Node, Integer> pending = dependencies(roots);
    Set<Node> needed = captures == null ? null : needed(roots, captures);
    Map<Node, Tensor[]> buffers = new IdentityHashMap<>();
    Tensor[] captured = captures == null ? null : new Tensor[captures.length];
    Set<Tensor> keep = Collections.newSetFromMap(new IdentityHashMap<>());
    PriorityQueue<Node> ready = new PriorityQueue<>(Comparator.comparingLong(Node::sequenceNr).reversed());
    try (TensorScope run = TensorScope.open(); GradMode.Scope mode = GradMode.enabled(createGraph)) {
      for (int i = 0; i < roots.length; i++) {
        accumulate(buffers, roots[i], rootGrads[i].view(rootGrads[i].shape()));  // an alias: the caller's handle stays open
      }
      for (Edge r : roots) {
        if (pending.getOrDefault(r.function(), 0) == 0 && !ready.contains(r.function())) ready.add(r.function());
      }
      while (!ready.isEmpty()) {
        Node node = ready.poll();
        Tensor[] in = buffers.remove(node);
        if (in == null) in = new Tensor[node.numOutputs()];
        runHooks(node, in);
        if (captures != null) {
          for (int k = 0; k < captures.length; k++) {
            if (captures[k].function() == node && in[captures[k].inputNr()] != null) {
              captured[k] = in[captures[k].inputNr()];
              keep.add(captured[k]);
            }
          }
        }
        boolean execute = (needed == null || needed.contains(node)) && anyPresent(in);
        Tensor[] out = execute ? apply(node, in) : new Tensor[0];
        for (Tensor t : in) if (t != null && !keep.contains(t)) t.close();
        if (execute && !keepGraph) node.freeVariables();
        Edge[] edges = node.edges();
        for (int i = 0; i < edges.length; i++) {
          Tensor g = i < out.length ? out[i] : null;
          Edge e = edges[i];
          if (e == null) {
            if (g != null) g.close();
            continue;
          }
          Node to = e.function();
          boolean wanted = needed == null || needed.contains(to) || isCapture(captures, to);
          if (g != null && wanted) accumulate(buffers, e, g);
          else if (g != null) g.close();
          // Counted whether or not a gradient flowed: a node runs once every edge into it is settled.
          if (pending.merge(to, -1, Integer::sum) == 0 && wanted) ready.add(to);
        }
      }
      if (captured != null) {
        Set<Tensor> given = Collections.newSetFromMap(new IdentityHashMap<>());
        for (int k = 0; k < captured.length; k++) {
          if (captured[k] == null) continue;
          // one input listed twice (grad(y, [x, x])): each entry a handle of its own, as the caller closes each
          if (!given.add(captured[k])) captured[k] = captured[k].view(captured[k].shape());
          run.keep(captured[k]);
        }
      }
      return captured;
    }
  }

  /** The node's input gradients, made inside a scope of their own so its temporaries die with it. */
  private static Tensor[] apply(Node node, Tensor[] in) {
    try (TensorScope s = TensorScope.open()) {
      Tensor[] out = node.run(in);
      if (out == null) return new Tensor[0];
      for (int i = 0; i < out.length; i++) {
        if (out[i] == null) continue;
        for (int j = 0; j < i; j++) {
          if (out[j] == out[i]) throw new IllegalStateException(node.name() + " returned one tensor handle twice");
        }
        s.keep(out[i]);
      }
      return out;
    }
  }

  private static void runHooks(Node node, Tensor[] in) {
    for (int slot = 0; slot < in.length; slot++) {
      if (in[slot] == null) continue;
      for (UnaryOperator<Tensor> hook : node.hooks(slot)) {
        long[] shape = in[slot].shape();  // read first: the hook may close the tensor it gets
        org.jtensor.DType dtype = in[slot].dtype();
        org.jtensor.Device device = in[slot].device();
        Tensor r = hook.apply(in[slot]);
        if (r != null && r != in[slot]) {
          checkHookResult(node, slot, shape, dtype, device, r);
          in[slot].close();
          in[slot] = r.view(r.shape());  // our own handle: the hook's result stays the hook's
        }
      }
    }
  }

  /** As PyTorch's check_variable_result: a hook may change a gradient's values, never its size, dtype or device. */
  private static void checkHookResult(Node node, int slot, long[] shape, org.jtensor.DType dtype, org.jtensor.Device device,
                                      Tensor r) {
    String what = null;
    if (!java.util.Arrays.equals(r.shape(), shape)) {
      what = "size of value (was " + java.util.Arrays.toString(shape) + ", got " + java.util.Arrays.toString(r.shape()) + ")";
    } else if (r.dtype() != dtype) {
      what = "type of value (was " + dtype + ", got " + r.dtype() + ")";
    } else if (!r.device().equals(device)) {
      what = "device of value (was " + device + ", got " + r.device() + ")";
    }
    if (what != null) {
      throw new IllegalStateException("backward(): a hook on the gradient of " + node.name() + "'s output " + slot
          + " has changed the " + what);
    }
  }

  private static void accumulate(Map<Node, Tensor[]> buffers, Edge e, Tensor g) {
    Tensor[] slots = buffers.computeIfAbsent(e.function(), n -> new Tensor[n.numOutputs()]);
    Tensor old = slots[e.inputNr()];
    if (old == null) {
      slots[e.inputNr()] = g;
    } else {
      slots[e.inputNr()] = old.add(g);
      old.close();
      g.close();
    }
  }

  /** A node that received no gradient at all gives none: its inputs' gradients are zero. */
  private static boolean anyPresent(Tensor[] in) {
    for (Tensor t : in) if (t != null) return true;
    return false;
  }

  private static boolean isCapture(Edge[] captures, Node n) {
    if (captures == null) return false;
    for (Edge c : captures) if (c.function() == n) return true;
    return false;
  }

  /** How many gradients each reachable node waits for: the number of edges into it. */
  private static Map<Node, Integer> dependencies(Edge[] roots) {
    Map<Node, Integer> deps = new IdentityHashMap<>();
    Set<Node> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    ArrayDeque<Node> work = new ArrayDeque<>();
    for (Edge r : roots) if (seen.add(r.function())) work.push(r.function());
    while (!work.isEmpty()) {
      for (Edge e : work.pop().edges()) {
        if (e == null) continue;
        deps.merge(e.function(), 1, Integer::sum);
        if (seen.add(e.function())) work.push(e.function());
      }
    }
    return deps;
  }

  /** The nodes that lead to a capture edge's node: only these run under autograd.grad. */
  private static Set<Node> needed(Edge[] roots, Edge[] captures) {
    Set<Node> targets = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Edge c : captures) targets.add(c.function());
    Map<Node, Boolean> memo = new IdentityHashMap<>();
    ArrayDeque<Node> stack = new ArrayDeque<>();
    for (Edge r : roots) stack.push(r.function());
    // Iterative post-order: a node is needed when an edge of it reaches a target or a needed node.
    while (!stack.isEmpty()) {
      Node n = stack.peek();
      if (memo.containsKey(n)) {
        stack.pop();
        continue;
      }
      boolean childrenDone = true;
      for (Edge e : n.edges()) {
        if (e != null && !memo.containsKey(e.function())) {
          stack.push(e.function());
          childrenDone = false;
        }
      }
      if (!childrenDone) continue;
      stack.pop();
      boolean need = false;
      for (Edge e : n.edges()) {
        if (e != null && (targets.contains(e.function()) || memo.get(e.function()))) need = true;
      }
      memo.put(n, need);
    }
    Set<Node> out = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Map.Entry<Node, Boolean> m : memo.entrySet()) if (m.getValue()) out.add(m.getKey());
    return out;
  }
}
