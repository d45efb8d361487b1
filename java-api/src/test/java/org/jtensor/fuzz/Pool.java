package org.jtensor.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.jtensor.Tensor;

/**
 * The fuzzer's live tensors, so that ops chain: results go in, inputs come out. Bounded in count
 * and in elements, so a seed never holds more than a few hundred KiB. Closed handles stay in the
 * pool on purpose until evicted: picking one exercises the use-after-close path.
 */
final class Pool {
  static final int MAX_TENSORS = 24;
  static final long MAX_NUMEL = 256;       // per tensor, logical elements (an expanded view counts in full)
  static final long MAX_BYTES = 96 << 10;  // all entries together, logical bytes

  /** A pooled handle with a stable id for replay descriptions. */
  record Entry(int id, Tensor t, long bytes) {
    @Override
    public String toString() {
      return describe(this);
    }
  }

  private final List<Entry> entries = new ArrayList<>();
  private final Random rnd;
  private int nextId;
  private long bytes;

  Pool(Random rnd) {
    this.rnd = rnd;
  }

  int size() {
    return entries.size();
  }

  /** A random entry (maybe a closed one), or null when the pool is empty. */
  Entry pick() {
    return entries.isEmpty() ? null : entries.get(rnd.nextInt(entries.size()));
  }

  /** A random open entry, or null. */
  Entry pickOpen() {
    for (int tries = 0; tries < 8 && !entries.isEmpty(); tries++) {
      Entry e = pick();
      if (!e.t().isClosed()) return e;
    }
    return null;
  }

  /** Takes ownership of t: keeps it if it fits, evicting (closing) a random entry when full. */
  Entry add(Tensor t) {
    if (t.isClosed()) return null;
    long n = t.numel();
    long b = n * t.elementSize();
    if (n > MAX_NUMEL || b > MAX_BYTES) {
      t.close();
      return null;
    }
    while (!entries.isEmpty() && (entries.size() >= MAX_TENSORS || bytes + b > MAX_BYTES)) {
      evict(rnd.nextInt(entries.size()));
    }
    Entry e = new Entry(nextId++, t, b);
    entries.add(e);
    bytes += b;
    return e;
  }

  private void evict(int i) {
    Entry e = entries.remove(i);
    bytes -= e.bytes();
    e.t().close();
  }

  /** Closes the handle but leaves it pooled, so later ops see a closed tensor. */
  void closeInPlace(Entry e) {
    e.t().close();
  }

  /** Closes every handle: the seed's end. */
  void closeAll() {
    while (!entries.isEmpty()) evict(entries.size() - 1);
    bytes = 0;
  }

  static String describe(Entry e) {
    Tensor t = e.t();
    if (t.isClosed()) return "t" + e.id() + "<closed>";
    StringBuilder sb = new StringBuilder("t").append(e.id()).append('[').append(t.dtype()).append(' ');
    long[] shape = t.shape();
    for (int i = 0; i < shape.length; i++) sb.append(i == 0 ? "" : "x").append(shape[i]);
    if (shape.length == 0) sb.append("scalar");
    sb.append(" s").append(java.util.Arrays.toString(t.stride())).append('+').append(t.storageOffset()).append(']');
    return sb.toString();
  }

  List<Entry> entries() {
    return entries;
  }
}
