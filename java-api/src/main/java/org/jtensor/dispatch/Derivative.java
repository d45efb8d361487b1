package org.jtensor.dispatch;

/**
 * An op's derivative, as derivatives.yaml states one: the slot each {@link Op} keeps for it. The
 * autograd issue defines what it computes (a vector-Jacobian product written with jtensor's own
 * ops) and fills the slots; until then every op's is null and nothing is differentiable.
 */
public interface Derivative {}
