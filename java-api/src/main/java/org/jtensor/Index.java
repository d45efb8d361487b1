package org.jtensor;

import org.jtensor.access.IndexTerm.Kind;

/**
 * One entry of an indexing expression, as Python's {@code x[...]}: basic entries (at, slice,
 * all, none, ellipsis) give views; a tensor entry (integer indices or a boolean mask) gives a copy.
 */
public final class Index {
  final Kind kind;
  final long at;
  final Long start, end;
  final long step;
  final Tensor tensor;

  private Index(Kind kind, long at, Long start, Long end, long step, Tensor tensor) {
    this.kind = kind;
    this.at = at;
    this.start = start;
    this.end = end;
    this.step = step;
    this.tensor = tensor;
  }

  /** x[i]: selects index i (negative counts from the end) and removes the dim. */
  public static Index at(long i) {
    return new Index(Kind.AT, i, null, null, 1, null);
  }

  /** x[start:end:step]; null means omitted. The step must be positive. */
  public static Index slice(Long start, Long end, Long step) {
    return new Index(Kind.SLICE, 0, start, end, step == null ? 1 : step, null);
  }

  public static Index slice(Long start, Long end) {
    return slice(start, end, null);
  }

  /** start:end (Python's slice), with ints as a user types them. */
  /** x[start:] with an int start: {@code Index.slice(1, null)} (the Long form needs 1L). */
  public static Index slice(int start, Long end) {
    return slice((long) start, end, null);
  }

  /** x[:end] with an int end: {@code Index.slice(null, 2)}. */
  public static Index slice(Long start, int end) {
    return slice(start, (long) end, null);
  }

  public static Index slice(int start, int end) {
    return slice((long) start, (long) end, 1L);
  }

  /** start:end:step. */
  public static Index slice(int start, int end, int step) {
    return slice((long) start, (long) end, (long) step);
  }

  /** x[:] */
  public static Index all() {
    return slice(null, null, null);
  }

  /** x[None]: inserts a size-1 dim. */
  public static Index none() {
    return new Index(Kind.NONE, 0, null, null, 1, null);
  }

  /** x[...]: as many full slices as the other entries leave dims. */
  public static Index ellipsis() {
    return new Index(Kind.ELLIPSIS, 0, null, null, 1, null);
  }

  /** x[t]: an integer tensor indexes one dim; a bool tensor masks as many dims as it has. */
  public static Index of(Tensor t) {
    if (t == null) throw new IllegalArgumentException("Index.of(): tensor must not be null");
    return new Index(Kind.TENSOR, 0, null, null, 1, t);
  }

  @Override
  public String toString() {
    switch (kind) {
      case AT: return Long.toString(at);
      case SLICE: return (start == null ? "" : start) + ":" + (end == null ? "" : end) + ":" + step;
      case NONE: return "None";
      case ELLIPSIS: return "...";
      default: return "tensor";
    }
  }
}
