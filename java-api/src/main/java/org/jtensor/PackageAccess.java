package org.jtensor;

import org.jtensor.access.ApiAccess;
import org.jtensor.access.IndexTerm;
import org.jtensor.core.TensorImpl;

/**
 * This package's members that the implementation (org.jtensor.ops) uses, kept package-private
 * here and handed out through SharedSecrets, where Tensor's static initializer registers this
 * (Note [Shared secrets] in org.jtensor.access.SharedSecrets).
 */
final class PackageAccess implements ApiAccess {
  @Override
  public Tensor wrap(TensorImpl impl) {
    return Tensor.wrap(impl);
  }

  @Override
  public TensorImpl implOf(Tensor t, String op) {
    return Tensor.implOf(t, op);
  }

  @Override
  public TensorImpl impl(Tensor t, String op) {
    return t.impl(op);
  }

  @Override
  public Tensor same(Tensor t, String op) {
    return t.same(op);
  }

  @Override
  public long reserve(Generator g, long blocks) {
    return g.reserve(blocks);
  }

  @Override
  public double maxFinite(DType dtype) {
    return dtype.maxFinite();
  }

  @Override
  public boolean holds(DType dtype, long v) {
    return dtype.holds(v);
  }

  @Override
  public IndexTerm term(Index i) {
    return new IndexTerm(i.kind, i.at, i.start, i.end, i.step, i.tensor);
  }
}
