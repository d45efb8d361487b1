package org.jtensor.core;

/**
 * What a TensorImpl knows of its autograd metadata (PyTorch's AutogradMetaInterface): the
 * metadata itself lives with the autograd code and is created only for tensors that need it;
 * core asks whether the tensor requires grad and releases the metadata with the tensor.
 */
public interface AutogradSlot {
  boolean requiresGrad();

  /** The tensor's last reference is gone: give back the grad and the graph node it holds. */
  void release();
}
