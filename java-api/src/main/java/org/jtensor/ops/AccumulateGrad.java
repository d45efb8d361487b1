package org.jtensor.ops;

import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Tensor;
import org.jtensor.autograd.Edge;
import org.jtensor.autograd.GradMode;

/**
 * A leaf's sink (PyTorch's AccumulateGrad): the first gradient becomes grad (taken over when no
 * one else can see it, copied otherwise, so grad always has a storage of its own); later ones are
 * added in place, or out of place under createGraph so that grad keeps its graph.
 */
final class AccumulateGrad extends GraphNode {
  private final AutogradMeta leaf;
  private final DType dtype;
  private volatile Target target;  // the leaf's sizes, strides and device: setData changes them, the hooks stay on this node

  private record Target(long[] shape, long[] strides, Device device) {}

  AccumulateGrad(AutogradMeta leaf, long[] shape, long[] strides, DType dtype, Device device) {
    super(new Edge[0]);
    this.leaf = leaf;
    this.dtype = dtype;
    this.target = new Target(shape, strides, device);
  }

  /** After setData: gradients fit the leaf's new sizes, strides and device (the dtype cannot change). */
  void retarget(long[] shape, long[] strides, Device device) {
    target = new Target(shape.clone(), strides.clone(), device);
  }

  @Override
  public String name() {
    return "AccumulateGrad";
  }

  @Override
  protected int numOutputs() {
    return 1;
  }

  @Override
  protected Tensor[] apply(Tensor[] gradOutputs) {
    Target t = target;
    leaf.accumulate(OpNode.fit(gradOutputs[0], t.shape(), dtype, t.device()), GradMode.isEnabled(), true, t.strides());
    return new Tensor[0];
  }
}
