package org.jtensor.data;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.logging.Logger;
import org.jtensor.Generator;
import org.jtensor.cuda.Cuda;

/**
 * Batches of a {@link Dataset}, as {@code torch.utils.data.DataLoader}: built with
 * {@code DataLoader.builder(dataset).batchSize(64).shuffle(true).generator(g).numWorkers(2).build()},
 * iterated with {@code for (Batch b : loader)}; {@link #size()} is {@code len(loader)}.
 *
 * <p>Each {@link #iterator()} is an epoch. Shuffled, its order is one {@code randperm} drawn from the
 * generator (the default generator when none is given) when the epoch starts, on the caller's thread,
 * so for a seed the batches are the same whatever numWorkers is, and they come in order. The batches
 * are lent ({@link Batch}): the iterator closes each when it moves on. A loop left early keeps its
 * iterator's prefetched batches and workers until it is closed: iterate with
 * {@code try (BatchIterator it = loader.iterator())}, or close the loader, which closes every
 * iterator still open. The loader owns nothing else; it can be iterated again after close().
 */
public final class DataLoader<T> implements Iterable<Batch>, AutoCloseable {
  private static final Logger LOG = Logger.getLogger("org.jtensor.data");
  private final Dataset<T> dataset;
  private final int batchSize, numWorkers, prefetchFactor;
  private final double timeout;
  private final boolean shuffle, dropLast;
  private final Generator generator;
  private final BatchMaker<T> maker;
  private final Set<BatchIterator> open = ConcurrentHashMap.newKeySet();

  private DataLoader(Builder<T> b) {
    dataset = b.dataset;
    batchSize = b.batchSize;
    numWorkers = b.numWorkers;
    prefetchFactor = b.prefetchFactor == null ? 2 : b.prefetchFactor;
    timeout = b.timeout;
    shuffle = b.shuffle;
    dropLast = b.dropLast;
    generator = b.generator == null ? Generator.defaultGenerator() : b.generator;
    boolean pin = b.pinMemory && Cuda.isAvailable();
    if (b.pinMemory && !pin) {  // PyTorch's behaviour: a warning, and pageable batches
      LOG.warning("DataLoader: 'pinMemory' is set but CUDA is not available (" + Cuda.unavailableReason()
          + "), so pinned memory won't be used");
    }
    maker = new BatchMaker<>(dataset, b.collate, pin);
  }

  public static <T> Builder<T> builder(Dataset<T> dataset) {
    if (dataset == null) throw new IllegalArgumentException("DataLoader.builder(): dataset must not be null");
    return new Builder<>(dataset);
  }

  /** The number of batches in an epoch ({@code len(loader)}): the last one partial unless dropLast. */
  public long size() {
    return BatchPlan.count(dataset.size(), batchSize, dropLast);
  }

  /** A new epoch: draws its order now (shuffled) and loads as the iterator is advanced. */
  @Override
  public BatchIterator iterator() {
    BatchPlan plan = new BatchPlan(dataset.size(), batchSize, dropLast, shuffle ? generator : null);
    BatchIterator[] self = new BatchIterator[1];
    BatchIterator it = new BatchIterator(plan, maker, numWorkers, prefetchFactor, timeout, () -> open.remove(self[0]));
    self[0] = it;
    open.add(it);
    return it;
  }

  /** Closes every iterator still open: their workers stop and their batches are closed. */
  @Override
  public void close() {
    for (BatchIterator it : open) it.close();
  }

  public Dataset<T> dataset() {
    return dataset;
  }

  public int batchSize() {
    return batchSize;
  }

  public int numWorkers() {
    return numWorkers;
  }

  /** PyTorch's keyword arguments, with its defaults: batch size 1, no shuffle, no workers, prefetch factor 2. */
  public static final class Builder<T> {
    private final Dataset<T> dataset;
    private int batchSize = 1, numWorkers;
    private Integer prefetchFactor;  // null: not given (2 with workers, as PyTorch)
    private double timeout;
    private boolean shuffle, dropLast, pinMemory;
    private Generator generator;
    private Function<List<T>, Batch> collate;

    private Builder(Dataset<T> dataset) {
      this.dataset = dataset;
    }

    public Builder<T> batchSize(int batchSize) {
      if (batchSize <= 0) throw new IllegalArgumentException("DataLoader: batchSize should be a positive integer value, but got batchSize=" + batchSize);
      this.batchSize = batchSize;
      return this;
    }

    /** A new order every epoch (one randperm of the generator), instead of 0..n-1; build() refuses it over an empty dataset, as PyTorch. */
    public Builder<T> shuffle(boolean shuffle) {
      this.shuffle = shuffle;
      return this;
    }

    /** Where shuffling draws from; null: the default generator. */
    public Builder<T> generator(Generator generator) {
      this.generator = generator;
      return this;
    }

    /** Drops the last batch when it would be partial. */
    public Builder<T> dropLast(boolean dropLast) {
      this.dropLast = dropLast;
      return this;
    }

    /** Samples to a batch; default {@link Collate#defaultCollate}. It must return new tensors: the samples are closed after it. */
    public Builder<T> collate(Function<List<T>, Batch> collate) {
      if (collate == null) throw new IllegalArgumentException("DataLoader: collate must not be null");
      this.collate = collate;
      return this;
    }

    /** Threads that load batches ahead; 0 (the default) loads each batch on the caller's thread when it is asked for. */
    public Builder<T> numWorkers(int numWorkers) {
      if (numWorkers < 0) {
        throw new IllegalArgumentException("DataLoader: numWorkers option should be non-negative; use numWorkers=0 to load on the calling thread, got "
            + numWorkers);
      }
      this.numWorkers = numWorkers;
      return this;
    }

    /** Batches loaded ahead per worker (default 2). */
    public Builder<T> prefetchFactor(int prefetchFactor) {
      if (prefetchFactor <= 0) throw new IllegalArgumentException("DataLoader: prefetchFactor should be a positive integer, got " + prefetchFactor);
      this.prefetchFactor = prefetchFactor;
      return this;
    }

    /**
     * Seconds to wait for a worker's batch (PyTorch's timeout; 0, the default, waits as long as it
     * takes): past it, next() throws {@link DataLoaderException} ("DataLoader timed out after N
     * seconds") and closes the iterator, and close() waits no longer than that for the batches still
     * loading, which are then closed by their workers when they finish. Needs numWorkers &gt; 0.
     */
    public Builder<T> timeout(double seconds) {
      if (!(seconds >= 0) || Double.isInfinite(seconds)) {
        throw new IllegalArgumentException("DataLoader: timeout option should be non-negative, got " + seconds);
      }
      this.timeout = seconds;
      return this;
    }

    /** Batches in page-locked memory, for asynchronous copies to CUDA; without CUDA a warning and a no-op, as PyTorch. */
    public Builder<T> pinMemory(boolean pinMemory) {
      this.pinMemory = pinMemory;
      return this;
    }

    public DataLoader<T> build() {
      if (prefetchFactor != null && numWorkers == 0) {
        throw new IllegalArgumentException("DataLoader: prefetchFactor option could only be specified with numWorkers > 0 (got prefetchFactor="
            + prefetchFactor + ", numWorkers=0)");
      }
      if (timeout > 0 && numWorkers == 0) {  // PyTorch: "_SingleProcessDataLoaderIter requires timeout == 0"
        throw new IllegalArgumentException("DataLoader: timeout option could only be specified with numWorkers > 0 (got timeout=" + timeout
            + ", numWorkers=0): without workers each batch loads on the caller's thread");
      }
      if (shuffle && dataset.size() == 0) {  // PyTorch's RandomSampler refuses it when the loader is made
        throw new IllegalArgumentException("DataLoader: num_samples should be a positive integer value, but got num_samples=0 "
            + "(shuffle needs a dataset with at least one sample)");
      }
      return new DataLoader<>(this);
    }
  }
}
