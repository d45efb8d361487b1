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
}
