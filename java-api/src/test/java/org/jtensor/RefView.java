package org.jtensor;

import java.util.Arrays;
import org.jtensor.ops.ViewOps;

/**
 * An independent model of a view for the property test: no strides at all, just the shape and,
 * for every logical element in row-major order, the base element it must show. Each op is written
 * from its meaning (which element goes where), never from stride arithmetic.
 */
public final class RefView {  // public: the fuzzer's view models (org.jtensor.fuzz.ViewModels) reuse it
  public final long[] shape;
  public final long[] map;

  RefView(long[] shape, long[] map) {
    this.shape = shape;
    this.map = map;
  }

  public static RefView arange(long[] shape) {
    long n = 1;
    for (long s : shape) n *= s;
    long[] m = new long[(int) n];
    for (int i = 0; i < m.length; i++) m[i] = i;
    return new RefView(shape.clone(), m);
  }

  int numel() {
    return map.length;
  }

  /** Row-major multi-index of flat position k. */
  static long[] unflat(long k, long[] shape) {
    long[] idx = new long[shape.length];
    for (int d = shape.length - 1; d >= 0; d--) {
      idx[d] = k % shape[d];
      k /= shape[d];
    }
    return idx;
  }

  long at(long[] idx) {
    long k = 0;
    for (int d = 0; d < shape.length; d++) k = k * shape[d] + idx[d];
    return map[(int) k];
  }

  interface Source {
    long[] sourceIndex(long[] outIdx);
  }

  /** A new view of the given shape whose element at i is this view's element at src(i). */
  RefView gather(long[] outShape, Source src) {
    long n = 1;
    for (long s : outShape) n *= s;
    long[] m = new long[(int) n];
    for (int k = 0; k < m.length; k++) m[k] = at(src.sourceIndex(unflat(k, outShape)));
    return new RefView(outShape, m);
  }

  RefView permute(int[] perm) {
    long[] out = new long[perm.length];
    for (int i = 0; i < perm.length; i++) out[i] = shape[perm[i]];
    return gather(out, o -> {
      long[] s = new long[shape.length];
      for (int i = 0; i < perm.length; i++) s[perm[i]] = o[i];
      return s;
    });
  }

  RefView transpose(int a, int b) {
    int[] perm = new int[shape.length];
    for (int i = 0; i < perm.length; i++) perm[i] = i;
    perm[a] = b;
    perm[b] = a;
    return permute(perm);
  }

  RefView select(int d, long i) {
    long[] out = ViewOps.remove(shape, d);
    return gather(out, o -> ViewOps.insert(o, d, i));
  }

  /** Elements start, start+step, ... below end (start and end already clamped). */
  RefView range(int d, long start, long end, long step) {
    long[] out = shape.clone();
    out[d] = Math.max(0, (end - start + step - 1) / step);
    return gather(out, o -> {
      long[] s = o.clone();
      s[d] = start + o[d] * step;
      return s;
    });
  }

  RefView unsqueeze(int d) {
    return gather(ViewOps.insert(shape, d, 1), o -> ViewOps.remove(o, d));
  }

  RefView squeezeDims(boolean[] drop) {
    int k = 0;
    for (boolean b : drop) if (!b) k++;
    long[] out = new long[k];
    for (int d = 0, j = 0; d < shape.length; d++) if (!drop[d]) out[j++] = shape[d];
    return gather(out, o -> {
      long[] s = new long[shape.length];
      for (int d = 0, j = 0; d < shape.length; d++) s[d] = drop[d] ? 0 : o[j++];
      return s;
    });
  }

  /** Broadcast to a target shape with as many or more dims. */
  RefView expand(long[] target) {
    int lead = target.length - shape.length;
    return gather(target.clone(), o -> {
      long[] s = new long[shape.length];
      for (int d = 0; d < shape.length; d++) s[d] = shape[d] == 1 ? 0 : o[d + lead];
      return s;
    });
  }

  public RefView diagonal(long offset, int a, int b) {
    long len = offset >= 0 ? Math.max(Math.min(shape[a], shape[b] - offset), 0) : Math.max(Math.min(shape[a] + offset, shape[b]), 0);
    long[] rest = new long[shape.length - 2];
    for (int d = 0, j = 0; d < shape.length; d++) if (d != a && d != b) rest[j++] = shape[d];
    long[] out = Arrays.copyOf(rest, rest.length + 1);
    out[rest.length] = len;
    return gather(out, o -> {
      long[] s = new long[shape.length];
      long k = o[o.length - 1];
      for (int d = 0, j = 0; d < shape.length; d++) {
        if (d == a) s[d] = offset >= 0 ? k : k - offset;
        else if (d == b) s[d] = offset >= 0 ? k + offset : k;
        else s[d] = o[j++];
      }
      return s;
    });
  }

  public RefView unfold(int d, long size, long step) {
    long[] out = Arrays.copyOf(shape, shape.length + 1);
    out[d] = (shape[d] - size) / step + 1;
    out[shape.length] = size;
    return gather(out, o -> {
      long[] s = Arrays.copyOf(o, shape.length);
      s[d] = o[d] * step + o[shape.length];
      return s;
    });
  }

  /** reshape/view/flatten: the same elements in the same row-major order under a new shape. */
  RefView reshape(long[] newShape) {
    return new RefView(newShape.clone(), map);
  }
}
