package org.jtensor.nn;

import java.util.Arrays;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;

/**
 * Rearranges [*, C·r², H, W] into [*, C, H·r, W·r] (torch.nn.PixelShuffle, sub-pixel convolution's
 * upsampling): out[..., c, h·r + i, w·r + j] = in[..., c·r² + i·r + j, h, w]. {@link PixelUnshuffle}
 * is its inverse. The result is a new contiguous tensor, as PyTorch's, never a view of the input.
 */
public final class PixelShuffle extends Module {
  private final long upscaleFactor;

  public PixelShuffle(long upscaleFactor) {
    this.upscaleFactor = upscaleFactor;
  }

  @Override
  public Tensor forward(Tensor input) {
    return shuffle(input, upscaleFactor, true);
  }

  /**
   * pixel_shuffle (up) or pixel_unshuffle: a view that splits the factor out of the channels (up) or
   * out of H and W, a permutation, and one copy; autograd goes back through the same view ops.
   */
  static Tensor shuffle(Tensor x, long r, boolean up) {
    String op = up ? "pixel_shuffle" : "pixel_unshuffle", factor = up ? "upscale_factor" : "downscale_factor";
    String called = (up ? "pixelShuffle" : "pixelUnshuffle") + "(): ";  // the Java name, then PyTorch's words
    long[] s = x.shape();
    int n = s.length - 3;  // batch dims before C, H, W
    if (n < 0) {
      throw new IllegalArgumentException(called + op + " expects input to have at least 3 dimensions, but got input with " + s.length
          + " dimension(s)");
    }
    if (r <= 0) throw new IllegalArgumentException(called + op + " expects a positive " + factor + ", but got " + r);
    long c = s[n], h = s[n + 1], w = s[n + 2];
    long r2 = times(called, r, r);
    if (up && c % r2 != 0) {
      throw new IllegalArgumentException(called + "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
          + "upscale_factor, but input.size(-3)=" + c + " is not divisible by " + r2);
    }
    if (!up && (h % r != 0 || w % r != 0)) {
      boolean height = h % r != 0;
      throw new IllegalArgumentException(called + "pixel_unshuffle expects " + (height ? "height" : "width") + " to be divisible by "
          + "downscale_factor, but input.size(" + (height ? -2 : -1) + ")=" + (height ? h : w) + " is not divisible by " + r);
    }
    long[] batch = Arrays.copyOf(s, n);
    // up: [*, C', r, r, H, W] -> [*, C', H, r, W, r]; down: [*, C, H', r, W', r] -> [*, C, r, r, H', W']
    long[] split = up ? concat(batch, c / r2, r, r, h, w) : concat(batch, c, h / r, r, w / r, r);
    long[] out = up ? concat(batch, c / r2, times(called, h, r), times(called, w, r)) : concat(batch, times(called, c, r2), h / r, w / r);
    int[] order = new int[n + 5];
    for (int i = 0; i < n; i++) order[i] = i;
    int[] tail = up ? new int[] {0, 3, 1, 4, 2} : new int[] {0, 2, 4, 1, 3};
    for (int i = 0; i < 5; i++) order[n + i] = n + tail[i];
    try (TensorScope scope = TensorScope.open()) {
      Tensor permuted = x.view(split).permute(order);
      Tensor dense = permuted.isContiguous() ? permuted.clone() : permuted.contiguous();  // always a copy
      return scope.keep(dense.view(out));
    }
  }

  /** a · b, refused by name when it overflows a long (a factor of 2^32 squared). */
  private static long times(String called, long a, long b) {
    try {
      return Math.multiplyExact(a, b);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(called + "the size " + a + " · " + b + " overflows int64");
    }
  }

  private static long[] concat(long[] head, long... tail) {
    long[] r = Arrays.copyOf(head, head.length + tail.length);
    System.arraycopy(tail, 0, r, head.length, tail.length);
    return r;
  }

  @Override
  protected String extraRepr() {
    return "upscale_factor=" + upscaleFactor;
  }
}
