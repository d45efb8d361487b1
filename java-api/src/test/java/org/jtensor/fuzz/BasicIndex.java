package org.jtensor.fuzz;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jtensor.Index;

/**
 * A basic index (integers, slices, None, ..., :) as the fuzzer drew it, with an independent model
 * of what it selects: PyTorch's rules, written from their meaning (which element goes where).
 */
final class BasicIndex {
  /** One part: AT(i), SLICE(start, end, step; null for a default), NEW (None), ELLIPSIS, ALL, or NULL (a null Index). */
  enum Kind { AT, SLICE, NEW, ELLIPSIS, ALL, NULL }

  record Part(Kind kind, Long a, Long b, Long step) {}

  final Index[] index;
  final Part[] parts;

  BasicIndex(Index[] index, Part[] parts) {
    this.index = index;
    this.parts = parts;
  }

  /** The selection from a tensor of this shape: the result's shape and, per result element, the source's flat position. */
  record Selection(long[] shape, int[] source) {}

  /** What x[index] selects from a tensor of this shape, or null when PyTorch refuses the index. */
  Selection select(long[] shape) {
    int consuming = 0, ellipses = 0;
    for (Part p : parts) {
      if (p.kind == Kind.NULL) return null;
      if (p.kind == Kind.AT || p.kind == Kind.SLICE || p.kind == Kind.ALL) consuming++;
      if (p.kind == Kind.ELLIPSIS) ellipses++;
    }
    int rank = shape.length;
    if (ellipses > 1 || consuming > rank) return null;
    List<Part> all = new ArrayList<>();
    for (Part p : parts) {
      if (p.kind != Kind.ELLIPSIS) all.add(p);
      else for (int i = 0; i < rank - consuming; i++) all.add(new Part(Kind.ALL, null, null, null));
    }
    if (ellipses == 0) for (int i = 0; i < rank - consuming; i++) all.add(new Part(Kind.ALL, null, null, null));
    long[] fixed = new long[rank];
    List<long[]> out = new ArrayList<>();  // {input dim or -1 for a new one, start, step, length}
    int d = 0;
    for (Part p : all) {
      if (p.kind == Kind.NEW) {
        out.add(new long[] {-1, 0, 0, 1});
        continue;
      }
      long size = shape[d];
      if (p.kind == Kind.AT) {
        if (p.a < -size || p.a >= size) return null;
        fixed[d] = p.a < 0 ? p.a + size : p.a;
      } else if (p.kind == Kind.ALL) {
        out.add(new long[] {d, 0, 1, size});
      } else {
        long step = p.step == null ? 1 : p.step;
        if (step <= 0) return null;
        long start = clamp(p.a == null ? 0 : p.a, size), end = clamp(p.b == null ? size : p.b, size);
        out.add(new long[] {d, start, step, end <= start ? 0 : (end - start + step - 1) / step});
      }
      d++;
    }
    long[] resultShape = out.stream().mapToLong(o -> o[3]).toArray();
    long n = 1;
    for (long s : resultShape) n *= s;
    int[] source = new int[(int) n];
    for (int k = 0; k < n; k++) {
      long[] o = Vals.unflat(k, resultShape), in = fixed.clone();
      for (int j = 0; j < o.length; j++) if (out.get(j)[0] >= 0) in[(int) out.get(j)[0]] = out.get(j)[1] + o[j] * out.get(j)[2];
      source[k] = Vals.flat(in, shape);
    }
    return new Selection(resultShape, source);
  }

  /** A slice bound: negative counts from the end, then clamped into [0, size]. */
  private static long clamp(long v, long size) {
    if (v < 0) v = Math.max(v + size, 0);  // a bound far below -size clamps to 0 (guards overflow too)
    return Math.min(v, size);
  }

  @Override
  public String toString() {
    return Arrays.toString(index);
  }
}
