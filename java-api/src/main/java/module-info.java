/**
 * jtensor's API: {@code org.jtensor} (Tensor, DType, Device, Storage, Index, Generator, scopes),
 * {@code org.jtensor.cuda} (Cuda, CudaStream, CudaEvent, CudaStreamScope: torch.cuda's streams and
 * events), {@code org.jtensor.memory} (allocator statistics, leak detection, out-of-memory) and
 * {@code org.jtensor.autograd} (GradMode, Autograd, the graph's Node and Edge, GradCheck),
 * {@code org.jtensor.nn} (Module, layers, Functional), {@code org.jtensor.optim}, {@code org.jtensor.io}
 * (files: PyTorch's .pt, safetensors, NumPy's .npy/.npz) and {@code org.jtensor.data} (Dataset,
 * TensorDataset, DataLoader). Everything else
 * is the implementation behind them and is not exported: {@code org.jtensor.ops} (the op
 * implementations, the op registry and autograd's recording), {@code org.jtensor.access} (the
 * accessors through which ops reach the API classes' package-private members: Note [Shared
 * secrets]), {@code org.jtensor.core} (TensorImpl, StorageImpl, reference counting, shape
 * arithmetic) and {@code org.jtensor.dispatch} (the op registry's types, backends, plans and their
 * geometries). On the class path these are reachable, but they are not API.
 */
module org.jtensor {
  requires java.logging;
  requires jdk.unsupported;  // sun.misc.Unsafe: one load reads a storage's data pointer (core.NativeMemory)
  requires org.bytedeco.javacpp;
  requires org.bytedeco.openblas;
  requires static org.bytedeco.cuda;  // optional: CUDA runtime services, loaded only when CUDA is probed
  requires org.jtensor.bindings;

  exports org.jtensor;
  exports org.jtensor.cuda;
  exports org.jtensor.memory;
  exports org.jtensor.autograd;
  exports org.jtensor.nn;
  exports org.jtensor.optim;
  exports org.jtensor.io;
  exports org.jtensor.data;
}
