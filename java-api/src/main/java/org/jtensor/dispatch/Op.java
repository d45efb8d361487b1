package org.jtensor.dispatch;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One op as the registry (org.jtensor.ops.Ops) states it, as an entry of PyTorch's native_functions.yaml
 * or an MLX Primitive: the name the user calls, the native kernel it runs, how many tensor inputs
 * that kernel takes, how its dtypes promote and what dtype it returns, and its derivative. Its
 * in-place and out= variants are named name + "_" and name + "Out".
 */
public final class Op {
  /**
   * Which native table holds the kernel. COMPOSITE ops (views, copies, matmul, indexing) have no
   * entry of their own in a kernel table: they are built from views or from other plans (gemm,
   * index_along, ...), whose kernels are checked through those plans; the registry holds their
   * derivative.
   */
  public enum Family { ELEMENTWISE, REDUCTION, SCAN, COMPOSITE }

  private static final List<Op> REGISTERED = new ArrayList<>();

  public final String name;
  public final String inPlaceName;
  public final String outName;
  public final String kernel;
  public final Family family;
  public final int arity;
  /** Elementwise: how the inputs promote and whether the result is bool. Null otherwise. */
  public final OpKind kind;
  /** Reductions and scans: the result's dtype for an input dtype. Null otherwise. */
  public final ReduceKind reduceKind;
  /** Its place in the registry: backends index their kernel tables by it. */
  public final int ordinal;
  private volatile Derivative derivative;

  private Op(String name, String kernel, Family family, int arity, OpKind kind, ReduceKind reduceKind) {
    this.name = name;
    this.inPlaceName = name + "_";
    this.outName = name + "Out";
    this.kernel = kernel;
    this.family = family;
    this.arity = arity;
    this.kind = kind;
    this.reduceKind = reduceKind;
    synchronized (REGISTERED) {
      this.ordinal = REGISTERED.size();
      REGISTERED.add(this);
    }
  }

  public static Op elementwise(String name, String kernel, int arity, OpKind kind) {
    return new Op(name, kernel, Family.ELEMENTWISE, arity, kind, null);
  }

  public static Op reduction(String name, String kernel, ReduceKind rule) {
    return new Op(name, kernel, Family.REDUCTION, 1, null, rule);
  }

  /** An op with no kernel table of its own; arity counts its tensor inputs (-1: any number, as cat). */
  public static Op composite(String name, int arity) {
    return new Op(name, "", Family.COMPOSITE, arity, null, null);
  }

  public static Op scan(String name, String kernel) {
    return scan(name, kernel, ReduceKind.ACCUMULATE);
  }

  public static Op scan(String name, String kernel, ReduceKind rule) {
    return new Op(name, kernel, Family.SCAN, 1, null, rule);
  }

  /** States the op's derivative (derivatives.yaml's entry), once, in the registry beside the op. */
  public Op withDerivative(Derivative d) {
    if (derivative != null) throw new IllegalStateException(name + ": derivative already stated");
    derivative = d;
    return this;
  }

  /** The derivative, or null for an op that has none (its results never require grad, or backward refuses). */
  public Derivative derivative() {
    return derivative;
  }

  /** Whether the result is bool whatever the inputs are. */
  public boolean returnsBool() {
    return family == Family.ELEMENTWISE ? kind == OpKind.PREDICATE : reduceKind == ReduceKind.BOOL;
  }

  /** Every op created so far, in registration order (the registry's whole table once Ops is loaded). */
  public static List<Op> registered() {
    synchronized (REGISTERED) {
      return Collections.unmodifiableList(new ArrayList<>(REGISTERED));
    }
  }

  @Override
  public String toString() {
    return name + (kernel.equals(name) || kernel.isEmpty() ? "" : " (kernel " + kernel + ")");
  }
}
