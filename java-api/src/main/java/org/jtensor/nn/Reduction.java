package org.jtensor.nn;

/** How a loss folds its per-element values (PyTorch's reduction argument). */
public enum Reduction {
  NONE, MEAN, SUM;

  /**
   * PyTorch's reduction string ('none', 'mean', 'sum', or the deprecated 'elementwise_mean'),
   * refused otherwise in _Reduction.get_enum's words ("foo is not a valid value for reduction").
   */
  static Reduction of(String op, String reduction) {
    switch (String.valueOf(reduction)) {
      case "none": return NONE;
      case "mean": case "elementwise_mean": return MEAN;
      case "sum": return SUM;
      default: throw new IllegalArgumentException(op + "(): " + reduction + " is not a valid value for reduction");
    }
  }
}
