package org.jtensor.ops;

import java.util.ArrayList;
import java.util.List;
import org.jtensor.core.TensorImpl;
import org.jtensor.core.Shapes;

/** Ops that cut a tensor into a list of views: split, chunk, unbind, tensor_split. */
public final class SplitOps {
  private SplitOps() {}

  public static List<TensorImpl> split(TensorImpl t, long splitSize, long dim) {
    requireDims("split", t);
    int d = Shapes.wrapDim("split", dim, t.dim());
    long size = t.sizes()[d];
    if (splitSize < 0) {
      throw new IllegalArgumentException("split(): split expects split_size be non-negative, but got split_size=" + splitSize);
    }
    if (splitSize == 0 && size != 0) {
      throw new IllegalArgumentException("split(): split_size can only be 0 if dimension size is 0, but got dimension size of " + size);
    }
    long pieces = splitSize == 0 ? 1 : Math.max((size + splitSize - 1) / splitSize, 1);
    long[] sizes = new long[(int) pieces];
    for (int i = 0; i < pieces; i++) sizes[i] = Math.min(splitSize, size - i * splitSize);
    return ViewCreation.multiOutput("Split", narrowAll(t, d, sizes));
  }

  public static List<TensorImpl> splitWithSizes(TensorImpl t, long[] sizes, long dim) {
    requireDims("split", t);
    int d = Shapes.wrapDim("split", dim, t.dim());
    long sum = 0;
    boolean overflow = false;  // sizes whose sum wraps past 2^63 - 1 never add up to the dim (a wrapped sum could)
    for (long s : sizes) {
      if (s < 0) {
        throw new IllegalArgumentException("split(): split expects split_sizes have only "
            + "non-negative entries, but got split_sizes=" + Shapes.str(sizes));
      }
      overflow |= s > Long.MAX_VALUE - sum;
      sum += s;
    }
    if (overflow || sum != t.sizes()[d]) {
      throw new IllegalArgumentException("split(): split expects split_sizes to sum exactly to "
          + t.sizes()[d] + " (input tensor's size at dimension " + d + "), but got split_sizes=" + Shapes.str(sizes));
    }
    return ViewCreation.multiOutput("SplitWithSizes", narrowAll(t, d, sizes));
  }

  public static List<TensorImpl> chunk(TensorImpl t, long chunks, long dim) {
    if (t.dim() == 0) throw new IllegalArgumentException("chunk(): chunk expects at least a 1-dimensional tensor");
    if (chunks <= 0) throw new IllegalArgumentException("chunk(): chunk expects `chunks` to be greater than 0, got: " + chunks);
    int d = Shapes.wrapDim("chunk", dim, t.dim());
    long size = t.sizes()[d];
    long splitSize = (size + chunks - 1) / chunks;
    if (splitSize == 0 && size == 0) {  // keep the number of (empty) chunks, as PyTorch does
      return ViewCreation.multiOutput("Split", narrowAll(t, d, new long[(int) Math.min(chunks, Integer.MAX_VALUE - 8)]));
    }
    return split(t, splitSize, d);
  }

  public static List<TensorImpl> unbind(TensorImpl t, long dim) {
    if (t.dim() == 0) throw Shapes.noDimensions("unbind", 0);  // PyTorch names 0 whatever dim was given
    int d = Shapes.wrapDim("unbind", dim, t.dim());
    List<TensorImpl> out = new ArrayList<>();
    for (long i = 0; i < t.sizes()[d]; i++) out.add(StridedViews.select(t, d, i));
    return ViewCreation.multiOutput("Unbind", out);
  }

  /** tensor_split into n parts: the first (size % n) parts are one larger. */
  public static List<TensorImpl> tensorSplit(TensorImpl t, long sections, long dim) {
    return tensorSplit("tensorSplit", t, sections, dim);
  }

  /** tensorSplit, refusing as op (hsplit, vsplit, dsplit). */
  public static List<TensorImpl> tensorSplit(String op, TensorImpl t, long sections, long dim) {
    requireDims(op, t);
    if (sections <= 0) throw new IllegalArgumentException(op + "(): number of sections must be larger than 0, got " + sections);
    int d = Shapes.wrapDim(op, dim, t.dim());
    long size = t.sizes()[d];
    long[] sizes = new long[(int) sections];
    for (int i = 0; i < sections; i++) sizes[i] = size / sections + (i < size % sections ? 1 : 0);
    return narrowAll(t, d, sizes);
  }

  /** tensor_split at indices: piece i is [indices[i-1], indices[i]), clamped as slicing is. */
  public static List<TensorImpl> tensorSplitAt(TensorImpl t, long[] indices, long dim) {
    return tensorSplitAt("tensorSplit", t, indices, dim);
  }

  public static List<TensorImpl> tensorSplitAt(String op, TensorImpl t, long[] indices, long dim) {
    requireDims(op, t);
    int d = Shapes.wrapDim(op, dim, t.dim());
    List<TensorImpl> out = new ArrayList<>();
    long start = 0;
    for (long idx : indices) {
      out.add(StridedViews.slice(t, d, start, idx, 1));
      start = idx;
    }
    out.add(StridedViews.slice(t, d, start, Long.MAX_VALUE, 1));
    return out;
  }

  private static List<TensorImpl> narrowAll(TensorImpl t, int d, long[] sizes) {
    List<TensorImpl> out = new ArrayList<>(sizes.length);
    long start = 0;
    for (long s : sizes) {
      out.add(StridedViews.slice(t, d, start, start + s, 1));
      start += s;
    }
    return out;
  }

  private static void requireDims(String op, TensorImpl t) {
    if (t.dim() == 0) throw new IllegalArgumentException(op + "(): expects at least a 1-dimensional tensor");
  }
}
