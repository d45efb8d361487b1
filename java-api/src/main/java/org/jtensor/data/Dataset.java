package org.jtensor.data;

/**
 * A map-style dataset, as {@code torch.utils.data.Dataset}: {@link #size()} samples ({@code __len__}),
 * the i-th given by {@link #get(long)} ({@code __getitem__}).
 *
 * <p>Where PyTorch returns a tuple, a Java dataset returns what suits it: {@link TensorDataset} gives a
 * {@code List<Tensor>} (one row of each of its tensors), and {@link Collate#defaultCollate} stacks
 * samples that are a {@code Tensor}, a {@code Number} or a {@code List} of them; any other type needs
 * the loader's own collate function.
 *
 * <p>Ownership: {@code get} returns new tensors (views or copies), as any op does. A
 * {@link DataLoader} calls it inside a {@link org.jtensor.TensorScope} of its own, on a worker thread or
 * the caller's, so the sample and whatever {@code get} made on the way are closed once the batch is
 * collated. {@code get} may run on several threads at once: it must not change shared state, and a
 * random transform should draw from a generator seeded by the sample's index (and epoch), not from a
 * shared one, so the batches do not depend on which thread loaded them.
 */
public interface Dataset<T> {
  /** The sample at index, 0 ≤ index < size(). */
  T get(long index);

  /** The number of samples. */
  long size();
}
