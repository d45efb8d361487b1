package org.jtensor.access;

import org.jtensor.Tensor;

/**
 * One entry of an indexing expression as org.jtensor.Index holds it (Note [Shared secrets]):
 * x[at], x[start:end:step] (null: omitted), None, ..., or x[tensor].
 */
public record IndexTerm(Kind kind, long at, Long start, Long end, long step, Tensor tensor) {
  public enum Kind { AT, SLICE, NONE, ELLIPSIS, TENSOR }
}
