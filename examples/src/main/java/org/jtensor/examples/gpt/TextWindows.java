package org.jtensor.examples.gpt;

import java.util.List;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.data.BatchIterator;
import org.jtensor.data.DataLoader;
import org.jtensor.data.Dataset;

/**
 * Every window of a text's ids as a sample [inputs int64 [t], targets int64 [t]], the targets one
 * character later: sample i is (ids[i, i+t), ids[i+1, i+t+1)), views the loader stacks into [batch, t].
 */
final class TextWindows implements Dataset<List<Tensor>> {
  private final Tensor ids;
  private final long t;

  TextWindows(Tensor ids, long t) {
    this.ids = ids;
    this.t = t;
  }

  @Override
  public List<Tensor> get(long index) {
    return List.of(ids.narrow(0, index, t), ids.narrow(0, index + 1, t));
  }

  @Override
  public long size() {
    return Math.max(0, ids.numel() - t);
  }

  /** Full batches of the windows of ids in a random order drawn from g, a new one every epoch. */
  static DataLoader<List<Tensor>> loader(Tensor ids, long t, int batch, Generator g, String what) {
    TextWindows windows = new TextWindows(ids, t);
    check(ids, t, batch, what);
    return DataLoader.builder(windows).batchSize(batch).shuffle(true).generator(g).dropLast(true).build();
  }

  /** Refuses a text too short for one batch of windows of t (Gpt.run calls it before building a model of that context). */
  static void check(Tensor ids, long t, int batch, String what) {
    if (ids.numel() - t < batch) {
      throw new IllegalArgumentException("the " + what + " text has " + ids.numel() + " characters: a batch of " + batch + " windows of "
          + t + " needs " + (batch + t) + " at least");
    }
  }

  /**
   * The iterator that serves batch number `consumed` of the run (0 the first): each epoch before it
   * drawn again (its order only) and the batches before it in its epoch loaded and dropped.
   */
  static BatchIterator resumeAt(DataLoader<List<Tensor>> loader, long consumed) {
    for (long e = 0; e < consumed / loader.size(); e++) loader.iterator().close();
    BatchIterator it = loader.iterator();
    for (long i = 0; i < consumed % loader.size(); i++) it.next();
    return it;
  }
}
