package org.jtensor.data;

import org.jtensor.Generator;
import org.jtensor.Tensor;

/**
 * One epoch's order of indices cut into batches: 0..n-1, or one randperm from the generator
 * (PyTorch's SequentialSampler / RandomSampler under a BatchSampler). Drawn on the caller's thread
 * when the epoch starts, so the batches never depend on the workers.
 */
final class BatchPlan {
  private final long n;
  private final int batchSize;
  private final long count;
  private final long[] order;  // null: sequential

  BatchPlan(long n, int batchSize, boolean dropLast, Generator shuffle) {
    this.n = n;
    this.batchSize = batchSize;
    this.count = count(n, batchSize, dropLast);
    if (shuffle == null) {
      order = null;
    } else {
      if (n > Integer.MAX_VALUE - 8) throw new IllegalArgumentException("DataLoader: cannot shuffle " + n + " samples (at most 2^31 - 9)");
      try (Tensor perm = Tensor.randperm(n, shuffle)) {
        order = perm.toLongArray();
      }
    }
  }

  /** len(loader): the batches of an epoch, the last one partial unless dropLast. */
  static long count(long n, int batchSize, boolean dropLast) {
    if (n < 0) throw new IllegalArgumentException("DataLoader: the dataset's size() should return >= 0 (__len__() should return >= 0), got " + n);
    return n / batchSize + (dropLast || n % batchSize == 0 ? 0 : 1);  // not (n + batchSize - 1) / batchSize: it overflows near Long.MAX_VALUE
  }

  long count() {
    return count;
  }

  /** The dataset indices of batch k. */
  long[] indices(long k) {
    long from = k * batchSize;
    int len = (int) Math.min(batchSize, n - from);
    long[] idx = new long[len];
    for (int i = 0; i < len; i++) idx[i] = order == null ? from + i : order[(int) (from + i)];
    return idx;
  }
}
