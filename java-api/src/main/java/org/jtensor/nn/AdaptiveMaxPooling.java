package org.jtensor.nn;

import java.util.Arrays;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.ValuesAndIndices;
import org.jtensor.core.ScalarTypes;

/**
 * adaptive_max_pool1d/2d/3d: each output position takes the maximum over its adaptive window
 * (per dim [floor(o·in/out), ceil((o+1)·in/out))), with the window's first maximum in row-major
 * order, or its last NaN where it holds one, as PyTorch's kernel (val > max || isnan(val)); the
 * index is the position in the input's spatial volume, row-major. Separable: one dim at a time,
 * last first, every window of the dim gathered at once; within a window the first maximum of the
 * first row holding the maximum is the row-major first one, and the last NaN of the last NaN row the
 * row-major last. Values are gathered at the winner, so the gradient goes to that one element.
 */
final class AdaptiveMaxPooling {
  private AdaptiveMaxPooling() {}

  static ValuesAndIndices pool(int nsp, Tensor input, long[] outputArg) {
    String op = "adaptive_max_pool" + nsp + "d";
    long[] outSize = Pooling.expand(op, "output_size", outputArg, nsp);
    if (input.dim() != nsp + 1 && input.dim() != nsp + 2) {
      throw new IllegalArgumentException(op + "(): Expected " + (nsp + 1) + "D or " + (nsp + 2) + "D tensor, but got "
          + WindowArgs.shape(input.shape()));
    }
    for (int d = 1; d < input.dim(); d++) {  // PyTorch's check skips dim 0, an unbatched input's channels too
      if (input.shape()[d] == 0) {
        throw new IllegalArgumentException(op + "(): Expected input to have non-zero size for non-batch dimensions, but input has sizes "
            + WindowArgs.shape(input.shape()) + " with dimension " + d + " being empty");
      }
    }
    for (long o : outSize) {
      if (o < 0) throw new IllegalArgumentException(op + "(): elements of output_size must be greater than or equal to 0 but received " + o);
    }
    if (!input.dtype().isFloatingPoint()) {  // PyTorch's 1-d runs as its 2-d, and names that kernel
      throw ScalarTypes.notImplemented(op, nsp == 1 ? "adaptive_max_pool2d" : nsp == 3 ? "adaptive_max_pool3d_cpu" : op, input.dtype());
    }
    int first = input.dim() - nsp;
    long[] in = Arrays.copyOfRange(input.shape(), first, input.dim());
    try (TensorScope s = TensorScope.open()) {
      boolean nan;
      try (Tensor any = input.isnan().any()) {
        nan = any.item() != 0;  // without NaNs a window's winner is simply its first maximum
      }
      Tensor values = input, index = null;  // index: the winners' row-major positions in the dims pooled so far
      long stride = 1;  // of dim k in the spatial volume
      for (int k = nsp - 1; k >= 0; k--) {
        Tensor[] vi = alongDim(values, index, first + k, in[k], outSize[k], stride, nan);
        values = vi[0];
        index = vi[1];
        stride *= in[k];
      }
      return new ValuesAndIndices(s.keep(values.contiguous()), s.keep(index.contiguous()));
    }
  }

  /**
   * One dim's windows: {values, indices} with dim d pooled from in to out positions; index (null
   * for the first dim pooled) holds the positions chosen in the dims pooled before, and the winner's
   * position along d enters it times stride.
   */
  private static Tensor[] alongDim(Tensor values, Tensor index, int d, long in, long out, long stride, boolean nan) {
    boolean even = out > 0 && in % out == 0;  // equal disjoint windows: a view, nothing gathered
    long widest = out == 0 ? 1 : even ? in / out : in / out + 2;  // at least the widest window
    if (out > (Integer.MAX_VALUE - 8) / widest) {
      throw new IllegalArgumentException("adaptive max pooling: " + in + " positions pooled to " + out + " need a window index of more "
          + "than 2^31 entries, which this implementation does not support");
    }
    // window o's positions, a shorter window filled up with its own last position again: a repeat
    // ties its original, which comes first, and a NaN repeat that wins as the last NaN is that same
    // element (repeating the first position instead let a NaN there win over a later one)
    long[] gather = new long[(int) (out * widest)], starts = new long[(int) out], lasts = new long[(int) out];
    for (int o = 0; o < out; o++) {
      long start = Math.floorDiv(o * in, out), end = -Math.floorDiv(-(o + 1) * in, out);
      starts[o] = start;
      lasts[o] = end - 1;
      for (int j = 0; j < widest; j++) gather[(int) (o * widest + j)] = start + j < end ? start + j : end - 1;
    }
    long[] split = new long[values.dim() + 1], at = new long[values.dim() + 1];
    Arrays.fill(at, 1);
    for (int i = 0, j = 0; i < values.dim(); i++) {
      if (i == d) {
        at[j] = out;
        split[j++] = out;
        split[j++] = widest;
      } else {
        split[j++] = values.shape()[i];
      }
    }
    Tensor positions = even ? null : Tensor.fromArray(gather).to(values.device());
    Tensor win = even ? values.reshape(split) : values.indexSelect(d, positions).reshape(split);
    int w = d + 1;
    Tensor local = win.max(w, true).indices();
    if (nan) {
      long[] slot = new long[split.length];
      Arrays.fill(slot, 1);
      slot[w] = widest;
      // the last NaN's slot + 1 (0 where the window has none)
      Tensor lastNan = Tensor.arange(widest).to(values.device()).add(1L).reshape(slot).mul(win.isnan().to(DType.INT64))
          .amax(new int[] {w}, true);
      local = Tensor.where(lastNan.gt(0L), lastNan.sub(1L), local);
    }
    Tensor pos = local.add(Tensor.fromArray(starts).to(values.device()).reshape(at)).minimum(Tensor.fromArray(lasts).to(values.device()).reshape(at));
    Tensor chosen = pos.squeeze(w).mul(stride);
    if (index != null) {
      Tensor winIndex = even ? index.reshape(split) : index.indexSelect(d, positions).reshape(split);
      chosen = chosen.add(winIndex.gather(w, local).squeeze(w));
    }
    return new Tensor[] {win.gather(w, local).squeeze(w), chosen};
  }
}
