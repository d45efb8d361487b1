package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.jtensor.DType;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Convolution, pooling, unfold and fold refuse bad arguments before any kernel runs, each with
 * PyTorch 2.13's message (read from torch.nn.functional on these inputs) behind the op's name.
 */
class WindowErrorsTest extends ScopedTest {
  private static final long[] ONE = {1}, ZERO = {0};

  private static void refused(String message, Executable call) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
    assertEquals(message, e.getMessage());
  }

  private static Tensor conv(Tensor x, Tensor w, Tensor b, long[] stride, long[] padding, long[] dilation, long groups) {
    return Functional.conv2d(x, w, b, stride, padding, dilation, groups);
  }

  @Test
  void convolutionArguments() {
    Tensor x = Tensor.randn(2, 3, 5, 5), w = Tensor.randn(8, 3, 3, 3);
    refused("Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: [2, 3]",
        () -> conv(Tensor.randn(2, 3), w, null, ONE, ZERO, ONE, 1));
    refused("conv2d(): Given groups=2, expected weight to be divisible by 2 at dimension 0, but got weight of size [3, 2, 3, 3] instead",
        () -> conv(Tensor.randn(2, 4, 5, 5), Tensor.randn(3, 2, 3, 3), null, ONE, ZERO, ONE, 2));
    refused("conv2d(): Given groups=1, weight of size [8, 4, 3, 3], expected input[2, 3, 5, 5] to have 4 channels, but got 3 channels instead",
        () -> conv(x, Tensor.randn(8, 4, 3, 3), null, ONE, ZERO, ONE, 1));
    refused("conv2d(): Given weight of size [8, 3, 3, 3], expected bias to be 1-dimensional with 8 elements, but got bias of size [4] instead",
        () -> conv(x, w, Tensor.randn(4), ONE, ZERO, ONE, 1));
    refused("conv2d(): Calculated padded input size per channel: (2 x 2). Kernel size: (3 x 3). Kernel size can't be greater than actual input size",
        () -> conv(Tensor.randn(2, 3, 2, 2), w, null, ONE, ZERO, ONE, 1));
    refused("conv2d(): non-positive stride is not supported", () -> conv(x, w, null, ZERO, ZERO, ONE, 1));
    refused("conv2d(): negative padding is not supported", () -> conv(x, w, null, ONE, new long[] {-1}, ONE, 1));
    refused("conv2d(): dilation should be greater than zero, but got [0, 0]", () -> conv(x, w, null, ONE, ZERO, ZERO, 1));
    refused("conv2d(): non-positive groups is not supported", () -> conv(x, w, null, ONE, ZERO, ONE, 0));
    refused("conv2d(): padding='same' is not supported for strided convolutions",
        () -> Functional.conv2d(x, w, null, new long[] {2}, "same", ONE, 1));
    refused("conv2d(): Invalid padding string: 'full' (expected 'same' or 'valid')", () -> Functional.conv2d(x, w, null, ONE, "full", ONE, 1));
    refused("conv2d(): expected stride to be a single integer value or a list of 2 values to match the convolution dimensions, but got "
        + "stride=[1, 1, 1]", () -> conv(x, w, null, new long[] {1, 1, 1}, ZERO, ONE, 1));
    refused("conv2d(): Expected 3-dimensional input for 3-dimensional weight [8, 3, 3], but got 4-dimensional input of size [2, 3, 5, 5] instead",
        () -> conv(x, Tensor.randn(8, 3, 3), null, ONE, ZERO, ONE, 1));
    refused("conv2d(): expected input, weight and bias of one dtype, got input float64, weight float32",
        () -> conv(x.to(DType.FLOAT64), w, null, ONE, ZERO, ONE, 1));
  }

  @Test
  void transposedConvolutionArguments() {
    Tensor x = Tensor.randn(1, 4, 5, 5), w = Tensor.randn(4, 2, 3, 3);
    refused("conv_transpose2d(): output padding must be smaller than either stride or dilation, but got output_padding=[1, 1], stride=[1, 1] "
        + "and dilation=[1, 1]", () -> Functional.convTranspose2d(x, w, null, ONE, ZERO, ONE, 1, ONE));
    refused("conv_transpose2d(): Given transposed=1, weight of size [4, 2, 3, 3], expected input[1, 3, 5, 5] to have 4 channels, but got 3 "
        + "channels instead", () -> Functional.convTranspose2d(Tensor.randn(1, 3, 5, 5), w, null, ONE, ZERO, ZERO, 1, ONE));
    refused("conv_transpose2d(): Given groups=3, expected weight to be divisible by 3 at dimension 0, but got weight of size [4, 2, 3, 3] "
        + "instead", () -> Functional.convTranspose2d(x, w, null, ONE, ZERO, ZERO, 3, ONE));
    refused("conv_transpose2d(): Given transposed=1, weight of size [4, 2, 3, 3], expected bias to be 1-dimensional with 2 elements, but "
        + "got bias of size [3] instead", () -> Functional.convTranspose2d(x, w, Tensor.randn(3), ONE, ZERO, ZERO, 1, ONE));
    refused("conv_transpose2d(): Given input size per channel: (1 x 1). Calculated output size per channel: (-1 x -1). Output size is too "
        + "small", () -> Functional.convTranspose2d(Tensor.randn(1, 4, 1, 1), Tensor.randn(4, 2, 1, 1), null, ONE, ONE, ZERO, 1, ONE));
  }

  @Test
  void poolingArguments() {
    Tensor x = Tensor.randn(1, 1, 5, 5);
    refused("max_pool2d(): non-empty 3D or 4D (batch mode) tensor expected for input, but got: [5, 5]",
        () -> Functional.maxPool2d(Tensor.randn(5, 5), new long[] {2}, null, ZERO, ONE, false));
    refused("max_pool2d(): pad should be at most half of effective kernel size, but got pad=2, kernel_size=2 and dilation=1",
        () -> Functional.maxPool2d(x, new long[] {2}, null, new long[] {2}, ONE, false));
    refused("max_pool2d(): kernel size should be greater than zero, but got [0, 0]",
        () -> Functional.maxPool2d(x, ZERO, null, ZERO, ONE, false));
    refused("max_pool2d(): stride should be greater than zero, but got [0, 0]",
        () -> Functional.maxPool2d(x, new long[] {2}, ZERO, ZERO, ONE, false));
    refused("max_pool2d(): dilation should be greater than zero, but got [0, 0]",
        () -> Functional.maxPool2d(x, new long[] {2}, null, ZERO, ZERO, false));
    refused("max_pool2d(): Given input size: (1x2x2). Calculated output size: (1x0x0). Output size is too small",
        () -> Functional.maxPool2d(Tensor.randn(1, 1, 2, 2), new long[] {3}, null, ONE, new long[] {2}, false));
    refused("max_pool2d(): kernel_size must either be a single int, or a tuple of 2 ints, but got [2, 2, 2]",
        () -> Functional.maxPool2d(x, new long[] {2, 2, 2}, null, ZERO, ONE, false));
    UnsupportedOperationException bool = assertThrows(UnsupportedOperationException.class,
        () -> Functional.maxPool2d(x.gt(0.0), new long[] {2}, null, ZERO, ONE, false));
    assertEquals("max_pool2d(): \"max_pool\" not implemented for 'Bool'", bool.getMessage());
  }

  /** As PyTorch's CPU kernel, integer inputs pool too (no gradient). */
  @Test
  void integerInputsPool() {
    Tensor x = Tensor.arange(16).reshape(1, 1, 4, 4);
    Tensor y = Functional.maxPool2d(x, new long[] {2}, null, ZERO, ONE, false);
    assertEquals(DType.INT64, y.dtype());
    assertArrayEquals(new long[] {5, 7, 13, 15}, y.toLongArray());
  }

  @Test
  void unfoldAndFoldArguments() {
    refused("unfold(): Given input with spatial size (2, 2), kernel_size=(3, 3), dilation=(1, 1), padding=(0, 0), calculated shape of the "
        + "array of sliding blocks as (0, 0), but its components must be at least one.",
        () -> Functional.unfold(Tensor.randn(1, 1, 2, 2), new long[] {3}, ONE, ZERO, ONE));
    refused("fold(): Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got input.size(1)=5 and "
        + "kernel_size=(2, 2).", () -> Functional.fold(Tensor.randn(1, 5, 9), new long[] {4, 4}, new long[] {2}, ONE, ZERO, ONE));
    refused("fold(): Given output_size=(4, 4), kernel_size=(2, 2), dilation=(1, 1), padding=(0, 0), stride=(1, 1), expected size of input's "
        + "dimension 2 to match the calculated number of sliding blocks 3 * 3 = 9, but got input.size(2)=8.",
        () -> Functional.fold(Tensor.randn(1, 4, 8), new long[] {4, 4}, new long[] {2}, ONE, ZERO, ONE));
  }

  /** WindowOps is public: a hand-made geometry whose windows run past the image reads and writes nothing outside it. */
  @Test
  void handMadeGeometriesStayInsideTheImage() {
    Tensor x = Tensor.randn(1, 2, 3, 3);
    org.jtensor.dispatch.plan.Windows past = new org.jtensor.dispatch.plan.Windows(1, 2, new long[] {3, 3}, new long[] {6, 6}, new long[] {2, 2}, new long[] {2, 2},
        new long[] {0, 0}, new long[] {1, 1});
    Tensor cols = org.jtensor.ops.WindowOps.im2col(x, past, "unfold");
    assertArrayEquals(new long[] {1, 8, 36}, cols.shape());
    assertEquals(0.0, cols.getDouble(0, 0, 35));  // a window wholly outside the image: zeros
    org.jtensor.ValuesAndIndices r = org.jtensor.ops.WindowOps.maxPool(x, past, "maxPool");
    assertEquals(-1L, r.indices().getLong(0, 0, 5, 5));  // no element: index -1
    Tensor back = org.jtensor.ops.WindowOps.col2im(cols, past, "fold");
    assertArrayEquals(new long[] {1, 2, 3, 3}, back.shape());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new org.jtensor.dispatch.plan.Windows(1, 1, new long[] {3},
        new long[] {1}, new long[] {0}, new long[] {1}, new long[] {0}, new long[] {1}));
    assertEquals("windows: sizes and padding must be non-negative, kernel, stride and dilation positive; got in [3], out [1], kernel [0], "
        + "stride [1], padding [0], dilation [1]", e.getMessage());
  }

  /** Zero channels or an empty batch convolve to the empty shapes PyTorch gives (the kernels get nothing to write). */
  @Test
  void emptyBatchesAndChannels() {
    assertArrayEquals(new long[] {2, 3, 5, 5}, conv(Tensor.zeros(2, 0, 5, 5), Tensor.zeros(3, 0, 3, 3), null, ONE, ONE, ONE, 1).shape());
    assertArrayEquals(new long[] {0, 3, 5, 5}, conv(Tensor.zeros(0, 2, 5, 5), Tensor.zeros(3, 2, 3, 3), null, ONE, ONE, ONE, 1).shape());
    assertArrayEquals(new long[] {0, 8, 36}, Functional.unfold(Tensor.zeros(0, 2, 5, 5), new long[] {2}, ONE, ONE, ONE).shape());
  }
}
