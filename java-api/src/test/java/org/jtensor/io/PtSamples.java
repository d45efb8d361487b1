package org.jtensor.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.Map;
import org.jtensor.DType;
import org.jtensor.Storage;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;

/** Tensors the .pt tests save, and the comparisons they share. */
final class PtSamples {
  private PtSamples() {}

  static boolean sameStorage(Tensor a, Tensor b) {
    try (Storage x = a.untypedStorage(); Storage y = b.untypedStorage()) {
      return x.isAliasOf(y);
    }
  }

  static void assertSameTensor(String what, Tensor want, Tensor got) {
    assertEquals(want.dtype(), got.dtype(), what + " dtype");
    assertArrayEquals(want.shape(), got.shape(), what + " shape");
    assertArrayEquals(want.stride(), got.stride(), what + " stride");
    assertEquals(want.storageOffset(), got.storageOffset(), what + " storage offset");
    assertEquals(want.requiresGrad(), got.requiresGrad(), what + " requires_grad");
    try (TensorScope s = TensorScope.open()) {
      if (want.dtype().isFloatingPoint()) {
        assertArrayEquals(want.detach().to(DType.FLOAT64).toDoubleArray(), got.detach().to(DType.FLOAT64).toDoubleArray(), what + " values");
      } else {
        assertArrayEquals(want.to(DType.INT64).toLongArray(), got.to(DType.INT64).toLongArray(), what + " values");
      }
    }
  }

  /** Seven values of the dtype that reach its edges (and NaN, infinities and -0 for floats). */
  static Tensor sample(DType t) {
    switch (t) {
      case BOOL: return Tensor.fromArray(new boolean[] {true, false, true, true, false, false, true});
      case UINT8: case INT8: case INT16: case INT32: case INT64: {
        long[] v = {0, 1, -1, 100, -100, 42, 7};
        if (t == DType.INT64) { v[5] = Long.MAX_VALUE; v[6] = Long.MIN_VALUE; }
        if (t == DType.INT32) { v[5] = Integer.MAX_VALUE; v[6] = Integer.MIN_VALUE; }
        if (t == DType.UINT8) { v[2] = 255; v[4] = 200; }
        try (Tensor l = Tensor.fromArray(v)) {
          return l.to(t);
        }
      }
      default:
        try (Tensor d = Tensor.fromArray(new double[] {0.5, -0.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1.0 / 3, -1e4})) {
          return d.to(t);
        }
    }
  }

  /**
   * Every dtype, a float32 base with three views of its storage (transposed, stepped slice, row),
   * a 0-dim and a size-0 tensor, and one that requires grad: close them with the caller's scope.
   */
  static Map<String, Tensor> mixed() {
    Map<String, Tensor> m = new LinkedHashMap<>();
    for (DType t : DType.values()) m.put(t.toString(), sample(t));
    Tensor base = Tensor.arange(0, 24, 1, DType.FLOAT32).reshape(4, 6);
    m.put("base", base);
    m.put("base_t", base.t());
    m.put("base_slice", base.slice(0, 1, 3, 1).slice(1, 0, 6, 2));
    m.put("base_row", base.select(0, 2));
    m.put("scalar", Tensor.scalar(-3.5));
    m.put("empty", Tensor.zeros(new long[] {2, 0, 3}, DType.FLOAT16));
    m.put("param", Tensor.ones(new long[] {2}, DType.FLOAT32).requiresGrad_(true));
    return m;
  }
}
