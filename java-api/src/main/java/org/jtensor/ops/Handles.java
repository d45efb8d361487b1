package org.jtensor.ops;

import org.jtensor.Tensor;
import org.jtensor.access.SharedSecrets;
import org.jtensor.core.TensorImpl;

/** Tensor's package-private handle members, as this package's ops reach them (Note [Shared secrets]). */
final class Handles {
  private Handles() {}

  /** Tensor.wrap: a new handle owning one reference to impl (the caller's reference moves into it). */
  static Tensor wrap(TensorImpl impl) {
    return SharedSecrets.api().wrap(impl);
  }

  /** Tensor.implOf: a tensor argument's impl; a null is refused as a bad argument, a closed tensor as closed. */
  static TensorImpl implOf(Tensor t, String op) {
    return SharedSecrets.api().implOf(t, op);
  }

  /** Tensor.impl: t's impl; fails on a closed handle. */
  static TensorImpl impl(Tensor t, String op) {
    return SharedSecrets.api().impl(t, op);
  }

  /** Tensor.same: a new handle on t's impl. */
  static Tensor same(Tensor t, String op) {
    return SharedSecrets.api().same(t, op);
  }
}
