package org.jtensor.core;

/**
 * What a TensorImpl knows of its autograd metadata (PyTorch's AutogradMetaInterface): the
 * metadata itself lives with the autograd code and is created only for tensors that need it;
 * core asks whether the tensor requires grad and releases the metadata with the tensor.
 */
public interface AutogradSlot {
  boolean requiresGrad();

  /**
   * A base's: whether an in-place op on it or one of its views has given it a new history since view
   * (a view's slot, or null for a view that has none) last took its own from it. PyTorch then
   * regenerates the view's grad_fn, so a sibling view made before starts requiring grad.
   */
  boolean rewroteViewsSince(AutogradSlot view);

  /** The tensor's last reference is gone: give back the grad and the graph node it holds. */
  void release();
}
