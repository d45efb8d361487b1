package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.jtensor.DType;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.junit.jupiter.api.Test;

/**
 * The less common nn layers (interpolation, padding, adaptive pooling, ...) against PyTorch 2.13:
 * each expected value was printed by PyTorch 2.13 (CPU) from the same input. One test per bug
 * found by the session-30 hostile review; each failed before its fix.
 */
class LayerParityHostileTest extends ScopedTest {
  private static final double INF = Double.POSITIVE_INFINITY, NAN = Double.NaN;

  /**
   * adaptive_avg_pool averaged with a matmul by a 0/1 matrix: 0 · inf made one inf or NaN of the
   * input NaN in every output. PyTorch: only the windows that hold it.
   */
  @Test
  void adaptiveAvgPoolKeepsInfAndNanInTheirOwnWindows() {
    for (DType dt : new DType[] {DType.FLOAT32, DType.FLOAT64}) {
      Tensor x = Tensor.fromArray(new double[] {1, INF, 3, 4, 5, 6, 7, NAN, 9, 10, 11}, 1, 1, 11).to(dt);
      // windows of 11 to 4: [0, 3), [2, 6), [5, 9), [8, 11)
      assertArrayEquals(new double[] {INF, 4.5, NAN, 10}, Functional.adaptiveAvgPool1d(x, new long[] {4}).toDoubleArray(), 0, dt + "");
      Tensor even = x.narrow(2, 0, 10);  // 10 to 5: equal windows [0, 2), [2, 4), ...
      assertArrayEquals(new double[] {INF, 3.5, 5.5, NAN, 9.5}, Functional.adaptiveAvgPool1d(even, new long[] {5}).toDoubleArray(), 0, dt + "");
      Tensor x2 = Tensor.fromArray(new double[] {1, 2, 3, 4, -INF, 6, 7, 8, 9, 10, 11, 12}, 1, 4, 3).to(dt).requiresGrad_(true);
      Tensor y = Functional.adaptiveAvgPool2d(x2, new long[] {3, 2});
      assertArrayEquals(new double[] {-INF, -INF, -INF, -INF, 9, 10}, y.toDoubleArray(), 0, dt + " 2-D");
      y.sum().backward();
      assertArrayEquals(new double[] {0.25, 0.5, 0.25, 0.5, 1, 0.5, 0.5, 1, 0.5, 0.25, 0.5, 0.25}, x2.grad().toDoubleArray(), 1e-7, dt + " grad");
    }
  }

  /**
   * PyTorch 2.13's 2-D nearest forward takes nearest_idx's shortcuts: an output as long as the input
   * is a copy and one twice as long reads dst / 2, whatever the scale factor (jtensor used
   * floor(dst / factor): rows [0, 0, 1, 2, 3] for 5 by 1.1). The 1-D forward has no shortcut.
   */
  @Test
  void nearest2dCopiesSameSizeAndHalvesDoubleSizeAsPyTorch() {
    Tensor x = Tensor.arange(10).to(DType.FLOAT32).reshape(1, 1, 2, 5);
    Tensor y = Functional.interpolate(x, new double[] {2.3, 1.1}, "nearest", false);
    assertArrayEquals(new long[] {1, 1, 4, 5}, y.shape());
    assertArrayEquals(new double[] {0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 5, 6, 7, 8, 9}, y.toDoubleArray(), 0);
    Tensor line = Tensor.arange(5).to(DType.FLOAT64).reshape(1, 1, 5);
    assertArrayEquals(new double[] {0, 0, 1, 2, 3}, Functional.interpolate(line, new double[] {1.1}, "nearest", false).toDoubleArray(), 0);
  }

  /**
   * pad's fill value is a Python float in PyTorch: -1 for uint8 is refused as pad's ("value cannot
   * be converted to type uint8_t without overflow"); jtensor took it as an int that wraps and
   * full() refused it under its own name.
   */
  @Test
  void padRefusesANegativeFillForUint8UnderItsOwnName() {
    Tensor x = Tensor.fromArray(new long[] {1, 2}).to(DType.UINT8);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Functional.pad(x, new long[] {1, 1}, "constant", -1));
    assertEquals("pad(): value -1.0 cannot be converted to type uint8 without overflow", e.getMessage());
    assertArrayEquals(new double[] {255, 1, 2, 255}, Functional.pad(x, new long[] {1, 1}, "constant", 255).toDoubleArray(), 0);
  }

  /**
   * interpolate computed what PyTorch 2.13 refuses: nearest over int8 to int64 and bool (its
   * nearest kernels take floating types and uint8 only), and an input with no channels ("Non-empty
   * 3D data tensor expected"); only the batch may be empty.
   */
  @Test
  void interpolateRefusesIntegerNearestAndEmptyChannelsAsPyTorch() {
    DType[] types = {DType.INT64, DType.INT32, DType.INT8, DType.BOOL};
    String[] pyTorchNames = {"Long", "Int", "Char", "Bool"};  // PyTorch's C++ names, as its message prints them
    for (int i = 0; i < types.length; i++) {
      Tensor x = Tensor.zeros(1, 1, 4).to(types[i]);
      UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
          () -> Functional.interpolate(x, new long[] {3}, "nearest", false));
      assertEquals("interpolate(): \"upsample_nearest1d\" not implemented for '" + pyTorchNames[i] + "'", e.getMessage());
    }
    assertArrayEquals(new double[] {0, 1, 3}, Functional.interpolate(Tensor.arange(5).to(DType.UINT8).reshape(1, 1, 5), new long[] {3},
        "nearest", false).toDoubleArray(), 0);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Functional.interpolate(Tensor.zeros(1, 0, 4, 4), new long[] {3}, "bilinear", false));
    assertEquals("interpolate(): Non-empty 4D data tensor expected but got a tensor with sizes [1, 0, 4, 4]", e.getMessage());
    assertArrayEquals(new long[] {0, 1, 3}, Functional.interpolate(Tensor.zeros(0, 1, 4), new long[] {3}, "linear", false).shape());
  }

  /**
   * avg_pool3d (and only it: 1-D and 2-D take such inputs) refuses an input smaller than the kernel
   * whatever the padding: PyTorch's "input image (T: 3 H: 4 W: 5) smaller than kernel size (kT: 4
   * kH: 1 kW: 1)". jtensor averaged it.
   */
  @Test
  void avgPool3dRefusesAnInputSmallerThanItsKernel() {
    Tensor x = Tensor.zeros(1, 1, 3, 4, 5);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Functional.avgPool3d(x, new long[] {4, 1, 1}, null, new long[] {2, 0, 0}, false, true));
    assertEquals("avg_pool3d(): input image (T: 3 H: 4 W: 5) smaller than kernel size (kT: 4 kH: 1 kW: 1)", e.getMessage());
    assertArrayEquals(new long[] {3, 2, 5, 6},
        Functional.avgPool3d(Tensor.zeros(3, 4, 5, 6), new long[] {4, 1, 1}, null, new long[] {2, 0, 0}, false, true).shape());
    assertArrayEquals(new long[] {1, 1, 2},
        Functional.avgPool1d(Tensor.zeros(1, 1, 2), new long[] {3}, new long[] {1}, new long[] {1}, true, false).shape());
  }

  /**
   * reflect and replicate pad of an empty non-batch dim: PyTorch refuses ("Expected 2D or 3D (batch
   * mode) tensor with possibly 0 batch size and other non-zero dimensions"); jtensor padded [2, 0, 4]
   * to [2, 0, 6] and refused an empty last dim in its own words. Circular pads any empty dim.
   */
  @Test
  void reflectAndReplicatePadRefuseEmptyNonBatchDimsAsPyTorch() {
    for (String mode : new String[] {"reflect", "replicate"}) {
      for (long[] shape : new long[][] {{2, 0, 4}, {0, 4}, {1, 2, 0}}) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> Functional.pad(Tensor.zeros(shape), new long[] {1, 1}, mode, 0));
        assertEquals("pad(): Expected 2D or 3D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, "
            + "but got: " + java.util.Arrays.toString(shape), e.getMessage(), mode);
      }
      assertArrayEquals(new long[] {0, 3, 6}, Functional.pad(Tensor.zeros(0, 3, 4), new long[] {1, 1}, mode, 0).shape(), mode);
      assertArrayEquals(new long[] {0, 2, 5, 6}, Functional.pad(Tensor.zeros(0, 2, 3, 4), new long[] {1, 1, 1, 1}, mode, 0).shape(), mode);
    }
    assertArrayEquals(new long[] {2, 0, 6}, Functional.pad(Tensor.zeros(2, 0, 4), new long[] {1, 1}, "circular", 0).shape());
  }
}
