package org.jtensor.dispatch.plan;

import java.util.Arrays;

/**
 * The geometry of sliding windows over 1 to 3 spatial dims, as convolution and pooling see an
 * image [batch, channels, inSizes...]: windows of kernel elements dilation apart, stride apart,
 * starting at -padding, outSizes of them per dim (checked by the op that made it; the kernels'
 * jt/windows.h reads the same numbers).
 */
public final class Windows {
  public final long batch, channels;
  public final long[] inSizes, outSizes, kernel, stride, padding, dilation;

  public Windows(long batch, long channels, long[] inSizes, long[] outSizes, long[] kernel, long[] stride, long[] padding,
                 long[] dilation) {
    int n = inSizes.length;
    if (n < 1 || n > 3 || outSizes.length != n || kernel.length != n || stride.length != n || padding.length != n
        || dilation.length != n) {
      throw new IllegalArgumentException("windows over 1 to 3 spatial dims, one number per dim for each argument");
    }
    if (batch < 0 || channels < 0) throw new IllegalArgumentException("windows: batch and channels must be non-negative");
    for (int d = 0; d < n; d++) {
      if (inSizes[d] < 0 || outSizes[d] < 0 || kernel[d] < 1 || stride[d] < 1 || padding[d] < 0 || dilation[d] < 1) {
        throw new IllegalArgumentException("windows: sizes and padding must be non-negative, kernel, stride and dilation positive; got "
            + "in " + Arrays.toString(inSizes) + ", out " + Arrays.toString(outSizes) + ", kernel " + Arrays.toString(kernel) + ", stride "
            + Arrays.toString(stride) + ", padding " + Arrays.toString(padding) + ", dilation " + Arrays.toString(dilation));
      }
    }
    try {  // every shape the kernels walk (image, columns, pooled) has a 64-bit element count; the ops checked, naming themselves
      long k = 1, l = 1, plane = 1;
      for (int d = 0; d < n; d++) {
        k = Math.multiplyExact(k, kernel[d]);
        l = Math.multiplyExact(l, outSizes[d]);
        plane = Math.multiplyExact(plane, inSizes[d]);
      }
      long planes = Math.multiplyExact(batch, channels);
      Math.multiplyExact(Math.multiplyExact(Math.max(planes, 1), k), l);
      Math.multiplyExact(channels, k);
      Math.multiplyExact(planes, plane);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("windows: element counts overflow 64 bits: batch " + batch + ", channels " + channels + ", in "
          + Arrays.toString(inSizes) + ", out " + Arrays.toString(outSizes) + ", kernel " + Arrays.toString(kernel));
    }
    this.batch = batch;
    this.channels = channels;
    this.inSizes = inSizes.clone();
    this.outSizes = outSizes.clone();
    this.kernel = kernel.clone();
    this.stride = stride.clone();
    this.padding = padding.clone();
    this.dilation = dilation.clone();
  }

  public int spatialDims() {
    return inSizes.length;
  }

  /** Elements per window: the product of the kernel's sizes. */
  public long windowSize() {
    return product(kernel);
  }

  /** Windows per (batch, channel): the product of outSizes. */
  public long positions() {
    return product(outSizes);
  }

  /** The image's shape: [batch, channels, inSizes...]. */
  public long[] imageShape() {
    return withLeading(inSizes);
  }

  /** The pooled shape: [batch, channels, outSizes...]. */
  public long[] pooledShape() {
    return withLeading(outSizes);
  }

  /** im2col's shape: [batch, channels · windowSize, positions]. */
  public long[] columnsShape() {
    return new long[] {batch, channels * windowSize(), positions()};
  }

  private long[] withLeading(long[] spatial) {
    long[] s = new long[2 + spatial.length];
    s[0] = batch;
    s[1] = channels;
    System.arraycopy(spatial, 0, s, 2, spatial.length);
    return s;
  }

  private static long product(long[] a) {
    long p = 1;
    for (long v : a) p *= v;
    return p;
  }

  @Override
  public String toString() {
    return "windows(in " + Arrays.toString(inSizes) + ", out " + Arrays.toString(outSizes) + ", kernel " + Arrays.toString(kernel)
        + ", stride " + Arrays.toString(stride) + ", padding " + Arrays.toString(padding) + ", dilation " + Arrays.toString(dilation) + ")";
  }
}
