package org.jtensor.access;

import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.Index;
import org.jtensor.Tensor;
import org.jtensor.core.TensorImpl;

/** The package-private members of org.jtensor's classes that the implementation uses (Note [Shared secrets]). */
public interface ApiAccess {
  /** Tensor.wrap: a new handle owning one reference to impl (the caller's reference moves into it). */
  Tensor wrap(TensorImpl impl);

  /** Tensor.implOf: a tensor argument's impl; a null is refused as a bad argument, a closed tensor as closed. */
  TensorImpl implOf(Tensor t, String op);

  /** Tensor.impl: t's impl; fails on a closed handle. */
  TensorImpl impl(Tensor t, String op);

  /** Tensor.same: a new handle on t's impl. */
  Tensor same(Tensor t, String op);

  /** Generator.reserve: reserves n blocks of 4 random words; returns the first block's counter. */
  long reserve(Generator g, long blocks);

  /** DType.maxFinite: the largest finite value of a floating dtype. */
  double maxFinite(DType dtype);

  /** DType.holds: whether v is a value of the dtype (bool 0 or 1, the integer range, a floating dtype's finite range). */
  boolean holds(DType dtype, long v);

  /** What an Index selects. */
  IndexTerm term(Index index);
}
