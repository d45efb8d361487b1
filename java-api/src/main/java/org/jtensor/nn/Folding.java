package org.jtensor.nn;

import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.core.Shapes;
import org.jtensor.dispatch.plan.Windows;
import org.jtensor.ops.WindowOps;

/** torch.nn.functional.unfold and fold (im2col and col2im over two spatial dims) with PyTorch's checks and messages. */
final class Folding {
  private Folding() {}

  static Tensor unfold(Tensor input, long[] kernelArg, long[] dilationArg, long[] paddingArg, long[] strideArg) {
    String op = "unfold";
    long[] kernel = WindowArgs.expand(op, "kernel_size", kernelArg, 2), dilation = WindowArgs.expand(op, "dilation", dilationArg, 2);
    long[] padding = WindowArgs.expand(op, "padding", paddingArg, 2), stride = WindowArgs.expand(op, "stride", strideArg, 2);
    checkPositive(op, kernel, dilation, padding, stride);
    if (input.dim() != 3 && input.dim() != 4) {
      throw new IllegalArgumentException(op + "(): Expected 3D or 4D (batch mode) tensor for input, but got: " + WindowArgs.shape(input.shape()));
    }
    boolean batched = input.dim() == 4;
    long[] x = batched ? input.shape() : new long[] {1, input.shape()[0], input.shape()[1], input.shape()[2]};
    if (x[1] == 0 || x[2] == 0 || x[3] == 0) {  // PyTorch's im2col_shape_check: only the batch may be empty
      throw new IllegalArgumentException(op + "(): Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero "
          + "dimensions for input, but got: " + WindowArgs.shape(input.shape()));
    }
    long[] in = WindowArgs.spatial(x), blocks = blocks(op, in, kernel, dilation, padding, stride);
    if (blocks[0] < 1 || blocks[1] < 1) {
      throw new IllegalArgumentException(op + "(): Given input with spatial size " + tuple(in) + ", kernel_size=" + tuple(kernel)
          + ", dilation=" + tuple(dilation) + ", padding=" + tuple(padding) + ", calculated shape of the array of sliding blocks as "
          + tuple(blocks) + ", but its components must be at least one.");
    }
    // the columns' element count in 64 bits (a kernel of 274177 × 67280421310721 is 2^64 + 1 elements, which wrapped to 1)
    WindowArgs.checkColumns(op, x[0], x[1], kernel, blocks);
    Windows w = new Windows(x[0], x[1], in, blocks, kernel, stride, padding, dilation);
    try (TensorScope s = TensorScope.open()) {
      Tensor cols = WindowOps.im2col(batched ? input : input.unsqueeze(0), w, op);
      return s.keep(batched ? cols : cols.squeeze(0));
    }
  }

  static Tensor fold(Tensor input, long[] outputArg, long[] kernelArg, long[] dilationArg, long[] paddingArg, long[] strideArg) {
    String op = "fold";
    long[] outSize = WindowArgs.expand(op, "output_size", outputArg, 2), kernel = WindowArgs.expand(op, "kernel_size", kernelArg, 2);
    long[] dilation = WindowArgs.expand(op, "dilation", dilationArg, 2), padding = WindowArgs.expand(op, "padding", paddingArg, 2);
    long[] stride = WindowArgs.expand(op, "stride", strideArg, 2);
    checkPositive(op, kernel, dilation, padding, stride);
    if (outSize[0] < 1 || outSize[1] < 1) {
      throw new IllegalArgumentException(op + "(): Expected output spatial size to be positive, but got: output_size=" + tuple(outSize) + ".");
    }
    if (input.dim() != 2 && input.dim() != 3) {
      throw new IllegalArgumentException(op + "(): Expected 2D or 3D (batch mode) tensor for input, but got: " + WindowArgs.shape(input.shape()));
    }
    boolean batched = input.dim() == 3;
    long[] x = batched ? input.shape() : new long[] {1, input.shape()[0], input.shape()[1]};
    if (x[1] == 0 || x[2] == 0) {  // PyTorch's col2im_shape_check: only the batch may be empty
      throw new IllegalArgumentException(op + "(): Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero "
          + "dimensions for input, but got: " + WindowArgs.shape(input.shape()));
    }
    long k;
    try {
      k = Math.multiplyExact(kernel[0], kernel[1]);
    } catch (ArithmeticException e) {  // PyTorch's col2im_shape_check words
      throw new IllegalArgumentException(op + "(): Given kernel_width = " + kernel[1] + " and kernel_height = " + kernel[0]
          + " the product of kernel_width and kernel_height overflowed.");
    }
    if (x[1] % k != 0) {
      throw new IllegalArgumentException(op + "(): Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got "
          + "input.size(1)=" + x[1] + " and kernel_size=" + tuple(kernel) + ".");
    }
    long[] blocks = blocks(op, outSize, kernel, dilation, padding, stride);
    if (blocks[0] < 1 || blocks[1] < 1 || x[2] != Shapes.multiply(op, blocks[0], blocks[1])) {
      throw new IllegalArgumentException(op + "(): Given output_size=" + tuple(outSize) + ", kernel_size=" + tuple(kernel) + ", dilation="
          + tuple(dilation) + ", padding=" + tuple(padding) + ", stride=" + tuple(stride) + ", expected size of input's dimension 2 to match "
          + "the calculated number of sliding blocks " + blocks[0] + " * " + blocks[1] + " = " + blocks[0] * blocks[1]
          + ", but got input.size(2)=" + x[2] + ".");
    }
    Windows w = new Windows(x[0], x[1] / k, outSize, blocks, kernel, stride, padding, dilation);
    try (TensorScope s = TensorScope.open()) {
      Tensor image = WindowOps.col2im(batched ? input : input.unsqueeze(0), w, op);
      return s.keep(batched ? image : image.squeeze(0));
    }
  }

  /** Windows per dim, (in + 2·padding − dilation·(kernel − 1) − 1) / stride + 1, each step checked against 64 bits. */
  private static long[] blocks(String op, long[] in, long[] kernel, long[] dilation, long[] padding, long[] stride) {
    long[] b = new long[2];
    for (int d = 0; d < 2; d++) {
      long padded = WindowArgs.padded(op, in[d], padding[d], padding[d]), reach = WindowArgs.reach(op, dilation[d], kernel[d]);
      b[d] = Math.floorDiv(padded - reach, stride[d]) + 1;
    }
    return b;
  }

  private static void checkPositive(String op, long[] kernel, long[] dilation, long[] padding, long[] stride) {
    for (int d = 0; d < 2; d++) {
      if (kernel[d] <= 0) throw new IllegalArgumentException(op + "(): kernel size should be greater than zero, but got " + tuple(kernel));
      if (dilation[d] <= 0) throw new IllegalArgumentException(op + "(): dilation should be greater than zero, but got " + tuple(dilation));
      if (padding[d] < 0) throw new IllegalArgumentException(op + "(): padding should be non-negative, but got " + tuple(padding));
      if (stride[d] <= 0) throw new IllegalArgumentException(op + "(): stride should be greater than zero, but got " + tuple(stride));
    }
  }

  private static String tuple(long[] v) {
    return "(" + v[0] + ", " + v[1] + ")";
  }
}
