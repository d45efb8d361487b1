package org.jtensor;

import java.nio.ByteBuffer;
import org.jtensor.ops.ArrayInterop;

/**
 * A tensor's data as nested Java arrays and as a direct buffer over its bytes. Inherited by
 * {@link Tensor}; the factories going the other way are {@code Tensor.fromArray(float[][])},
 * {@code Tensor.fromBuffer}.
 */
public sealed interface InteropMethods permits Tensor {
  private org.jtensor.core.TensorImpl impl(String op) {
    return ((Tensor) this).impl(op);
  }

  default float[][] toFloatArray2d() {
    return (float[][]) ArrayInterop.toNested("toFloatArray2d", impl("toFloatArray2d"), DType.FLOAT32, 2, float.class);
  }

  default float[][][] toFloatArray3d() {
    return (float[][][]) ArrayInterop.toNested("toFloatArray3d", impl("toFloatArray3d"), DType.FLOAT32, 3, float.class);
  }

  default double[][] toDoubleArray2d() {
    return (double[][]) ArrayInterop.toNested("toDoubleArray2d", impl("toDoubleArray2d"), DType.FLOAT64, 2, double.class);
  }

  default double[][][] toDoubleArray3d() {
    return (double[][][]) ArrayInterop.toNested("toDoubleArray3d", impl("toDoubleArray3d"), DType.FLOAT64, 3, double.class);
  }

  default long[][] toLongArray2d() {
    return (long[][]) ArrayInterop.toNested("toLongArray2d", impl("toLongArray2d"), DType.INT64, 2, long.class);
  }

  default int[][] toIntArray2d() {
    return (int[][]) ArrayInterop.toNested("toIntArray2d", impl("toIntArray2d"), DType.INT32, 2, int.class);
  }

  /**
   * A contiguous CPU tensor's bytes as a little-endian direct buffer, with no copy (read-only when
   * the storage is). The buffer keeps the storage alive until it is garbage-collected, as the
   * array from torch's numpy() keeps its tensor; writes through it are seen by the tensor. As with
   * numpy(), a tensor that requires grad is refused (detach() first), and the storage's resize_
   * is refused while the buffer lives.
   */
  default ByteBuffer asByteBuffer() {
    return ArrayInterop.asByteBuffer(impl("asByteBuffer"));
  }
}
