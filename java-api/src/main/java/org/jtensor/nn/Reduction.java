package org.jtensor.nn;

/** How a loss folds its per-element values (PyTorch's reduction argument). */
public enum Reduction { NONE, MEAN, SUM }
