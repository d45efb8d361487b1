package org.jtensor;

import java.util.ArrayList;
import java.util.List;

/**
 * The property tests' expected shapes, written from PyTorch's rules here rather than taken from
 * the code under test (core.Shapes, ReductionOps), so a mistake there cannot agree with itself.
 */
final class ShapeOracle {
  private ShapeOracle() {}

  /** PyTorch's broadcasting: align from the right; each pair equal, or one of them 1. */
  static long[] broadcast(long[]... shapes) {
    int n = 0;
    for (long[] s : shapes) n = Math.max(n, s.length);
    long[] out = new long[n];
    java.util.Arrays.fill(out, 1);
    for (long[] s : shapes) {
      for (int i = 1; i <= s.length; i++) {
        long have = out[n - i], size = s[s.length - i];
        if (have == 1) out[n - i] = size;
        else if (size != 1 && size != have) throw new AssertionError("shapes do not broadcast at dim -" + i);
      }
    }
    return out;
  }

  /** A reduction's result: each reduced dim dropped, or kept as 1. */
  static long[] reduced(long[] shape, boolean[] reducedDims, boolean keepdim) {
    List<Long> out = new ArrayList<>();
    for (int d = 0; d < shape.length; d++) {
      if (!reducedDims[d]) out.add(shape[d]);
      else if (keepdim) out.add(1L);
    }
    return out.stream().mapToLong(Long::longValue).toArray();
  }
}
