package org.jtensor.dispatch;

import org.jtensor.bindings.JtNative;
import org.jtensor.core.TensorImpl;

/**
 * One indexing-along-a-dim call (gather, scatter, scatter_add, index_select, index_add_), ready
 * for a Backend: the three tensors over one iteration shape, each with its strides in elements
 * (index's 0 where one value serves a whole slice), self's along dim applied to the index value.
 * Shapes and dtypes arrive checked; index values are checked by the kernel.
 */
public final class IndexAlong {
  /**
   * Which operand is written: other = self[index] (GATHER), self[index] = other, self[index] += other,
   * and scatterReduce's self[index] *= other, = max(self[index], other), = min(...) (CPU only).
   */
  public enum Mode {
    GATHER, SCATTER, ACCUMULATE, PROD, AMAX, AMIN;

    /** The native mode code, found by name so the two sides cannot disagree on an order. */
    public final int code = JtNative.jt_index_along_mode(name().toLowerCase(java.util.Locale.ROOT));

    Mode() {
      if (code < 0) throw new IllegalStateException("jtensor: the native index kernel has no mode '" + name() + "'");
    }
  }

  public final String name;
  public final Mode mode;
  public final int dim;
  public final long[] shape;
  public final TensorImpl self, index, other;
  /** self's geometry (a 0-dim tensor as one dim of size 1): index values lie in [-selfSizes[dim], selfSizes[dim]). */
  public final long[] selfSizes, selfStrides;
  public final long[] indexStrides, otherStrides;
  /** other was allocated by the op and no other thread can reach it yet. */
  public boolean otherIsNew;

  public IndexAlong(String name, Mode mode, int dim, long[] shape, TensorImpl self, long[] selfSizes, long[] selfStrides,
                    TensorImpl index, long[] indexStrides, TensorImpl other, long[] otherStrides) {
    if (other.dtype() != self.dtype()) {  // the kernel moves elements of self's dtype: another's bytes would be misread
      throw new IllegalStateException("jtensor: " + name + " handed the index kernel a " + other.dtype() + " operand for a "
          + self.dtype() + " tensor");
    }
    this.name = name;
    this.mode = mode;
    this.dim = dim;
    this.shape = shape;
    this.self = self;
    this.selfSizes = selfSizes;
    this.selfStrides = selfStrides;
    this.index = index;
    this.indexStrides = indexStrides;
    this.other = other;
    this.otherStrides = otherStrides;
  }
}
