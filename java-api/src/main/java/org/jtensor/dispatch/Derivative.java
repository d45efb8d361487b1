package org.jtensor.dispatch;

/**
 * An op's derivative, as derivatives.yaml states one: the slot each {@link Op} keeps for it. What
 * it computes (a vector-Jacobian product written with jtensor's own ops) is org.jtensor.ops.Gradient;
 * the registry (org.jtensor.ops.Ops) states each op's beside the op.
 */
public interface Derivative {}
