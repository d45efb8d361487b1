package org.jtensor;

/**
 * torch.unique's results: the distinct values in ascending order, and where asked for, each
 * element's position among them (inverse, the input's shape) and how often each occurs (counts).
 * Unasked-for parts are null. Closing it closes every part.
 */
public record Unique(Tensor values, Tensor inverse, Tensor counts) implements AutoCloseable {
  @Override
  public void close() {
    values.close();
    if (inverse != null) inverse.close();
    if (counts != null) counts.close();
  }

  /** The values of x's elements without repeats, sorted; composed from sort, cumsum and scatter (no gradient, as PyTorch's). */
  static Unique of(Tensor x, boolean returnInverse, boolean returnCounts) {
    if (x.device().isMeta()) {  // how many distinct values there are is data: PyTorch has no meta unique either
      throw new UnsupportedOperationException("unique(): meta tensors have no values to find the distinct ones of");
    }
    try (TensorScope s = TensorScope.open()) {
      Tensor flat = x.reshape(-1);
      long n = flat.numel();
      if (n == 0) {
        return new Unique(s.keep(flat.clone()), returnInverse ? s.keep(Tensor.zeros(x.shape(), DType.INT64, x.device())) : null,
            returnCounts ? s.keep(Tensor.zeros(new long[] {0}, DType.INT64, x.device())) : null);
      }
      ValuesAndIndices sorted = flat.detach().sort(0, false);
      Tensor v = sorted.values();
      // a new value starts where the sorted run changes (the first element always does)
      Tensor starts = Tensor.cat(java.util.List.of(Tensor.ones(new long[] {1}, DType.BOOL, x.device()),
          v.narrow(0, 1, n - 1).ne(v.narrow(0, 0, n - 1))), 0);
      Tensor group = starts.to(DType.INT64).cumsum(0).sub(1L);  // each sorted element's value number
      Tensor values = v.maskedSelect(starts);
      Tensor inverse = null, counts = null;
      if (returnInverse) {
        inverse = Tensor.zeros(new long[] {n}, DType.INT64, x.device()).scatter(0, sorted.indices(), group).reshape(x.shape());
      }
      if (returnCounts) counts = group.bincount();
      return new Unique(s.keep(values), inverse == null ? null : s.keep(inverse), counts == null ? null : s.keep(counts));
    }
  }

  /**
   * torch.unique(x, dim=d): the distinct slices along dim d (compared whole), in lexicographic order;
   * inverse and counts are per slice ([x.size(d)]). Slices holding NaN never equal another, as
   * PyTorch's; where such slices go in the order may differ from PyTorch's (its sort compares NaN as
   * neither less nor greater; here NaN sorts last).
   */
  static Unique ofDim(Tensor x, int dim, boolean returnInverse, boolean returnCounts) {
    return slices("unique", x, dim, true, returnInverse, returnCounts);
  }

  /** torch.unique_consecutive: runs of equal elements (dim null, x flattened) or equal slices along dim, each kept once. */
  static Unique consecutive(Tensor x, Integer dim, boolean returnInverse, boolean returnCounts) {
    if (dim != null) return slices("uniqueConsecutive", x, dim, false, returnInverse, returnCounts);
    try (TensorScope s = TensorScope.open()) {
      Unique u = slices("uniqueConsecutive", x.reshape(-1), 0, false, returnInverse, returnCounts);
      return new Unique(s.keep(u.values), returnInverse ? s.keep(u.inverse.reshape(x.shape())) : null, returnCounts ? s.keep(u.counts) : null);
    }
  }

  /**
   * The distinct slices of x along dim: sorted (lexicographically, by stable sorts of one element
   * column after another, the last first) or consecutive runs. Composed from sort, cumsum and
   * indexSelect, with no gradient, as jtensor's flat unique.
   */
  private static Unique slices(String op, Tensor x, int dim, boolean sort, boolean returnInverse, boolean returnCounts) {
    if (x.device().isMeta()) throw new UnsupportedOperationException(op + "(): meta tensors have no values to find the distinct ones of");
    if (x.dim() == 0) throw org.jtensor.core.Shapes.noDimensions(op, dim);
    int d = org.jtensor.core.Shapes.wrapDim(op, dim, x.dim());
    long n = x.size(d), m = n == 0 ? 0 : x.numel() / n;
    if (n > 0 && m == 0) throw new IllegalArgumentException(op + "(): There are 0 sized dimensions, and they aren't selected, so unique cannot be applied");
    try (TensorScope s = TensorScope.open()) {
      Tensor xd = x.detach();
      if (n == 0) {
        Tensor none = Tensor.zeros(new long[] {0}, DType.INT64, x.device());
        return new Unique(s.keep(xd.clone()), returnInverse ? s.keep(none.clone()) : null, returnCounts ? s.keep(none.clone()) : null);
      }
      Tensor rows = xd.movedim(d, 0).reshape(n, m);
      Tensor order = Tensor.arange(n).to(x.device());
      if (sort) {
        for (long c = m - 1; c >= 0; c--) order = order.indexSelect(0, rows.select(1, c).indexSelect(0, order).sort(0, false).indices());
        rows = rows.indexSelect(0, order);
      }
      // a new slice starts where any element differs from the slice before (NaN differs from NaN)
      Tensor starts = Tensor.cat(java.util.List.of(Tensor.ones(new long[] {1}, DType.BOOL, x.device()),
          rows.narrow(0, 1, n - 1).ne(rows.narrow(0, 0, n - 1)).any(1, false)), 0);
      Tensor group = starts.to(DType.INT64).cumsum(0).sub(1L);
      Tensor values = xd.indexSelect(d, order.maskedSelect(starts));
      Tensor inverse = returnInverse ? Tensor.zeros(new long[] {n}, DType.INT64, x.device()).scatter(0, order, group) : null;
      Tensor counts = returnCounts ? group.bincount() : null;
      return new Unique(s.keep(values), inverse == null ? null : s.keep(inverse), counts == null ? null : s.keep(counts));
    }
  }
}
