package org.jtensor.data;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;

/**
 * Loads one batch on the calling thread (a worker or the consumer): the samples, the collate, the
 * optional pinning, all inside a TensorScope of its own, so samples and intermediates are closed and
 * only the batch's tensors leave it (owned by no scope: the iterator closes them).
 */
final class BatchMaker<T> {
  private final Dataset<T> dataset;
  private final Function<List<T>, Batch> collate;  // null: the default, with TensorDataset's fast path
  private final boolean pin;

  BatchMaker(Dataset<T> dataset, Function<List<T>, Batch> collate, boolean pin) {
    this.dataset = dataset;
    this.collate = collate;
    this.pin = pin;
  }

  Batch make(long batch, long[] indices) {
    List<Tensor> kept = new ArrayList<>();
    try (TensorScope scope = TensorScope.open()) {
      Batch b = collated(batch, indices);
      for (Tensor t : b.tensors()) kept.add(TensorScope.escape(pin ? t.pinMemory() : t));
      return Batch.of(kept);
    } catch (RuntimeException | Error e) {
      for (Tensor t : kept) t.close();
      throw e;
    }
  }

  private Batch collated(long batch, long[] indices) {
    if (collate == null && dataset instanceof TensorDataset td) {
      try {
        return Batch.of(td.rows(Tensor.fromArray(indices)));
      } catch (RuntimeException e) {
        throw failure("indexSelect of the TensorDataset's rows", -1, batch, e);
      }
    }
    List<T> samples = new ArrayList<>(indices.length);
    for (long i : indices) {
      try {
        samples.add(dataset.get(i));
      } catch (RuntimeException e) {
        throw failure("dataset.get(" + i + ")", i, batch, e);
      }
    }
    Batch b;
    try {
      b = collate == null ? Collate.defaultCollate(samples) : collate.apply(samples);
    } catch (RuntimeException e) {
      throw failure("collate", -1, batch, e);
    }
    if (b == null) throw failure("collate", -1, batch, new IllegalStateException("the collate function returned null"));
    return b;
  }

  private static DataLoaderException failure(String what, long index, long batch, RuntimeException cause) {
    return new DataLoaderException("DataLoader: " + what + " failed on thread '" + Thread.currentThread().getName() + "' (batch " + batch
        + "): " + cause, index, batch, cause);
  }
}
