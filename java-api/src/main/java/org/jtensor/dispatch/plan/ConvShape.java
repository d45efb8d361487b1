package org.jtensor.dispatch.plan;

import java.util.Arrays;

/**
 * One convolution's geometry (the conv plan, jt/plans.h): input [batch, channels, inSizes...],
 * weight [outChannels, channels / groups, kernel...], output [batch, outChannels, outSizes...], all
 * contiguous; the input padded with padBefore and padAfter zeros per spatial dim, the kernel's taps
 * dilation apart, windows stride apart, so out = (in + padBefore + padAfter − dilation·(kernel − 1)
 * − 1) / stride + 1.
 */
public record ConvShape(long batch, long channels, long outChannels, long groups, long[] inSizes, long[] kernel, long[] padBefore,
                        long[] padAfter, long[] dilation, long[] stride) {
  public ConvShape {
    int n = inSizes.length;
    boolean ok = n >= 1 && n <= 3 && kernel.length == n && padBefore.length == n && padAfter.length == n && dilation.length == n
        && stride.length == n && batch >= 0 && channels > 0 && outChannels > 0 && groups > 0 && channels % groups == 0
        && outChannels % groups == 0;
    for (int d = 0; ok && d < n; d++) {
      ok = inSizes[d] > 0 && kernel[d] > 0 && dilation[d] > 0 && stride[d] > 0 && padBefore[d] >= 0 && padAfter[d] >= 0
          && inSizes[d] + padBefore[d] + padAfter[d] > dilation[d] * (kernel[d] - 1);
    }
    if (!ok) {
      throw new IllegalArgumentException("convolution geometry out of range: batch " + batch + ", channels " + channels + " to " + outChannels
          + " in " + groups + " groups, in " + Arrays.toString(inSizes) + ", kernel " + Arrays.toString(kernel) + ", padding "
          + Arrays.toString(padBefore) + " / " + Arrays.toString(padAfter) + ", dilation " + Arrays.toString(dilation) + ", stride "
          + Arrays.toString(stride));
    }
    inSizes = inSizes.clone();
    kernel = kernel.clone();
    padBefore = padBefore.clone();
    padAfter = padAfter.clone();
    dilation = dilation.clone();
    stride = stride.clone();
  }

  public int spatialDims() {
    return inSizes.length;
  }

  public long[] outSizes() {
    long[] out = new long[inSizes.length];
    for (int d = 0; d < out.length; d++) out[d] = (inSizes[d] + padBefore[d] + padAfter[d] - dilation[d] * (kernel[d] - 1) - 1) / stride[d] + 1;
    return out;
  }

  public long[] inputShape() {
    return leading(batch, channels, inSizes);
  }

  public long[] weightShape() {
    return leading(outChannels, channels / groups, kernel);
  }

  public long[] outputShape() {
    return leading(batch, outChannels, outSizes());
  }

  /**
   * Whether the gradient kernels take the input's gradient: at any stride but 1 always (the
   * channels-in-lanes kernels); at stride 1 it is itself a correlation, so no side may be padded by
   * more than the kernel's reach.
   */
  public boolean takesDirectInputGradient() {
    for (long s : stride) if (s != 1) return true;
    for (int d = 0; d < inSizes.length; d++) {
      long reach = dilation[d] * (kernel[d] - 1);
      if (padBefore[d] > reach || padAfter[d] > reach) return false;
    }
    return true;
  }

  private static long[] leading(long a, long b, long[] rest) {
    long[] s = new long[2 + rest.length];
    s[0] = a;
    s[1] = b;
    System.arraycopy(rest, 0, s, 2, rest.length);
    return s;
  }
}
