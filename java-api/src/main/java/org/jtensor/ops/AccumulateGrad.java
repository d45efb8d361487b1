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
  private volatile Target target;  // the leaf's sizes, strides, dtype and device: setData changes them, the hooks stay on this node

  private record Target(long[] shape, long[] strides, DType dtype, Device device) {}

  AccumulateGrad(AutogradMeta leaf, long[] shape, long[] strides, DType dtype, Device device) {
    super(new Edge[0]);
    this.leaf = leaf;
    this.target = new Target(shape, strides, dtype, device);
  }

  /** After setData: gradients fit the leaf's new sizes, strides, dtype and device. */
  void retarget(long[] shape, long[] strides, DType dtype, Device device) {
    target = new Target(shape.clone(), strides.clone(), dtype, device);
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
    leaf.accumulate(OpNode.fit(gradOutputs[0], t.shape(), t.dtype(), t.device()), GradMode.isEnabled(), true, t.strides());
    return new Tensor[0];
  }
}
