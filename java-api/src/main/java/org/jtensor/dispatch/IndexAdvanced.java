package org.jtensor.dispatch;

import java.util.List;
import org.jtensor.core.TensorImpl;

/**
 * One advanced-indexing call (x[i, j] get or set), ready for a Backend: self (the basic-indexed
 * view), other (the result, or the values to write) and each index tensor, all walked over the
 * result's shape by strides (0 where broadcast, and self's 0 where the indices supply the
 * position). Index values are checked by the kernel.
 */
public final class IndexAdvanced {
  /** One index tensor, selecting along self's dim {@code dim}; strides over the result's shape. */
  public record Index(TensorImpl tensor, int dim, long[] strides) {}

  public final String name;
  public final boolean put;
  public final long[] shape;
  public final TensorImpl self, other;
  public final long[] selfStrides, otherStrides;
  public final List<Index> indices;
  /** other was allocated by the op and no other thread can reach it yet. */
  public boolean otherIsNew;

  public IndexAdvanced(String name, boolean put, long[] shape, TensorImpl self, long[] selfStrides, TensorImpl other,
                       long[] otherStrides, List<Index> indices) {
    if (other.dtype() != self.dtype()) {  // the kernel moves elements of self's dtype: another's bytes would be misread
      throw new IllegalStateException("jtensor: " + name + " handed the index kernel a " + other.dtype() + " operand for a "
          + self.dtype() + " tensor");
    }
    this.name = name;
    this.put = put;
    this.shape = shape;
    this.self = self;
    this.selfStrides = selfStrides;
    this.other = other;
    this.otherStrides = otherStrides;
    this.indices = indices;
  }
}
