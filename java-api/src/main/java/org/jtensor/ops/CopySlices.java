package org.jtensor.ops;

import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Tensor;
import org.jtensor.autograd.Edge;

/**
 * The base's node after an in-place op on one of its views (PyTorch's CopySlices): the base's
 * gradient passes through unchanged outside the view, and inside it goes through the in-place op's
 * own derivative (fn) as the view's gradient before the op. Edges: the base's previous history, then
 * fn's other inputs.
 */
final class CopySlices extends GraphNode {
  private final OpNode fn;
  private final long[] baseSizes, baseStrides, viewSizes, viewStrides;
  private final long viewOffset;  // relative to the base's storage offset
  private final DType dtype;
  private final Device device;
  private boolean fnReleased;

  CopySlices(Edge baseEdge, OpNode fn, long[] baseSizes, long[] baseStrides, long baseOffset, long[] viewSizes,
             long[] viewStrides, long viewOffset, DType dtype, Device device) {
    super(edges(baseEdge, fn));
    this.fn = fn;
    this.baseSizes = baseSizes.clone();
    this.baseStrides = baseStrides.clone();
    this.viewSizes = viewSizes.clone();
    this.viewStrides = viewStrides.clone();
    this.viewOffset = viewOffset - baseOffset;
    this.dtype = dtype;
    this.device = device;
  }

  private static Edge[] edges(Edge baseEdge, OpNode fn) {
    java.util.List<Edge> fnEdges = fn.nextFunctions();
    Edge[] e = new Edge[fnEdges.size()];
    e[0] = baseEdge;
    for (int i = 1; i < e.length; i++) e[i] = fnEdges.get(i);
    return e;
  }

  @Override
  public String name() {
    return "CopySlices";
  }

  @Override
  protected int numOutputs() {
    return 1;
  }

  @Override
  protected Tensor[] apply(Tensor[] gradOutputs) {
    Tensor g = gradOutputs[0];
    // the gradient laid out as the base is (same strides), so the view's geometry addresses it
    Tensor result = Tensor.emptyStrided(baseSizes, baseStrides, dtype, device).copy_(g);
    Tensor slice = result.asStrided(viewSizes, viewStrides, viewOffset);
    Tensor[] res = fn.applyAsFunction(new Tensor[] {slice.clone()});
    if (res.length > 0 && res[0] != null) slice.copy_(res[0]);
    else slice.zero_();
    Tensor[] out = new Tensor[res.length == 0 ? 1 : res.length];
    out[0] = result;
    for (int i = 1; i < res.length; i++) out[i] = res[i];
    return out;
  }

  /** Once: after backward (unless the graph is retained), or when the last owner goes. */
  @Override
  protected synchronized void releaseVariables() {
    if (fnReleased) return;
    fnReleased = true;
    fn.releaseOwnership();
  }
}
