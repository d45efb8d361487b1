package org.jtensor.examples.gpt;

import java.util.List;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;

/**
 * A decoder's keys and values so far, one pair per layer ([batch, heads, length, head size]), for
 * generation one token at a time: each layer appends its new keys and values and attends over all
 * of them. Used by the character-level GPT and the GPT-2 loader.
 */
public final class KvCache implements AutoCloseable {
  private final Tensor[] keys, values;
  private long length;

  public KvCache(int layers) {
    keys = new Tensor[layers];
    values = new Tensor[layers];
  }

  /** The positions cached so far. */
  public long length() {
    return length;
  }

  /** Layer i's keys and values with k and v appended along the sequence (the cache keeps them); returns {keys, values}. */
  public Tensor[] append(int i, Tensor k, Tensor v) {
    Tensor nk = keys[i] == null ? k.contiguous() : Tensor.cat(List.of(keys[i], k), 2);
    Tensor nv = values[i] == null ? v.contiguous() : Tensor.cat(List.of(values[i], v), 2);
    if (keys[i] != null) keys[i].close();
    if (values[i] != null) values[i].close();
    keys[i] = TensorScope.escape(nk);
    values[i] = TensorScope.escape(nv);
    return new Tensor[] {keys[i], values[i]};
  }

  /** After every layer appended t positions. */
  public void advance(long t) {
    length += t;
  }

  @Override
  public void close() {
    for (Tensor k : keys) if (k != null) k.close();
    for (Tensor v : values) if (v != null) v.close();
  }
}
