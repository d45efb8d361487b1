package org.jtensor.data;

import java.util.List;
import org.jtensor.Tensor;

/**
 * One collated batch: a tensor per field of the samples (a {@link TensorDataset} of (x, y) gives
 * {@code get(0)} = x's rows, {@code get(1)} = y's), as PyTorch's default collate gives a list.
 *
 * <p>A batch from a {@link DataLoader}'s iterator is lent: the iterator closes it when it moves to the
 * next batch, finishes or is closed, so {@code for (Batch b : loader)} leaks nothing. {@code clone()} a
 * tensor to keep it longer. Closing a batch closes its tensors (handles, so views made from them live on).
 */
public final class Batch implements AutoCloseable {
  private final List<Tensor> tensors;

  private Batch(List<Tensor> tensors) {
    this.tensors = tensors;
  }

  /** A batch of these tensors, which it then owns (what a collate function returns). */
  public static Batch of(Tensor... tensors) {
    return of(List.of(tensors));
  }

  public static Batch of(List<Tensor> tensors) {
    if (tensors == null) throw new IllegalArgumentException("Batch.of(): tensors must not be null");
    for (int i = 0; i < tensors.size(); i++) {
      if (tensors.get(i) == null) throw new IllegalArgumentException("Batch.of(): tensor " + i + " is null");
    }
    return new Batch(List.copyOf(tensors));
  }

  /** Field i of the batch. */
  public Tensor get(int i) {
    if (i < 0 || i >= tensors.size()) {
      throw new IndexOutOfBoundsException("Batch.get(): index " + i + " out of range for a batch of " + tensors.size() + " tensors");
    }
    return tensors.get(i);
  }

  /** The number of tensors (fields), not of samples: that is {@code get(0).size(0)}. */
  public int size() {
    return tensors.size();
  }

  public List<Tensor> tensors() {
    return tensors;
  }

  @Override
  public void close() {
    for (Tensor t : tensors) t.close();
  }
}
