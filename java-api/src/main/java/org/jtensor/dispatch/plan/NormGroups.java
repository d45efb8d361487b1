package org.jtensor.dispatch.plan;

import java.util.Arrays;

/**
 * How a normalization groups its input for statistics, as the kernels' jt/norm.h reads it: the
 * input as [n, c, s] (samples, channels, elements per channel), and either one statistics group per
 * channel over every sample (byChannel: batch norm) or groups per sample of c/groups consecutive
 * channels each (layer norm: c the normalized elements, s 1; group norm). Weight and bias have one
 * entry per channel.
 */
public record NormGroups(long n, long c, long s, long groups, boolean byChannel) {
  public NormGroups {
    if (n < 0 || c < 0 || s < 0 || groups < 1 || (!byChannel && c % groups != 0) || (byChannel && groups != 1)) {
      throw new IllegalArgumentException("NormGroups: sizes must be non-negative and groups divide the channels (one group by channel), got n "
          + n + ", c " + c + ", s " + s + ", groups " + groups);
    }
    try {
      Math.multiplyExact(Math.multiplyExact(n, c), s);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("NormGroups: n·c·s = " + n + "·" + c + "·" + s + " overflows a long");
    }
  }

  /** Batch norm over input [N, C, *]: a group per channel. */
  public static NormGroups byChannel(long[] shape) {
    return new NormGroups(shape[0], shape[1], trailing(shape, 2), 1, true);
  }

  /** Layer norm over the last normalizedDims dims of shape: each row of them one group. */
  public static NormGroups layer(long[] shape, int normalizedDims) {
    long rows = 1;
    for (int d = 0; d < shape.length - normalizedDims; d++) rows *= shape[d];
    return new NormGroups(rows, trailing(shape, shape.length - normalizedDims), 1, 1, false);
  }

  /** Group norm over input [N, C, *] in numGroups groups of channels per sample. */
  public static NormGroups grouped(long[] shape, long numGroups) {
    return new NormGroups(shape[0], shape[1], trailing(shape, 2), numGroups, false);
  }

  /** How many statistics groups (the length of the saved mean and rstd). */
  public long units() {
    return byChannel ? c : n * groups;
  }

  /** Elements in each statistics group. */
  public long unitElements() {
    return byChannel ? n * s : c / groups * s;
  }

  /** Elements of the input: n·c·s. */
  public long numel() {
    return n * c * s;
  }

  public long[] statsShape() {
    return byChannel ? new long[] {c} : new long[] {n, groups};
  }

  private static long trailing(long[] shape, int from) {
    long p = 1;
    for (int d = from; d < shape.length; d++) p *= shape[d];
    return p;
  }

  @Override
  public String toString() {
    return (byChannel ? "by channel " : groups + " group(s) ") + Arrays.toString(new long[] {n, c, s});
  }
}
