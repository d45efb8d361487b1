package org.jtensor.core;

/** Values as Python's repr writes them, for messages and reprs that copy PyTorch's text. */
public final class PyRepr {
  private PyRepr() {}

  /** A float as Python's repr writes it: nan, inf, 1000000000000.0, 1e-05, 1e+16. */
  public static String pyFloat(double d) {
    if (Double.isNaN(d)) return "nan";
    if (Double.isInfinite(d)) return d > 0 ? "inf" : "-inf";
    if (d == 0) return 1 / d < 0 ? "-0.0" : "0.0";
    java.math.BigDecimal b = new java.math.BigDecimal(Double.toString(d)).stripTrailingZeros();
    int exp = b.precision() - b.scale() - 1;  // the first digit's power of ten
    if (exp >= -4 && exp < 16) {
      String plain = b.toPlainString();
      return plain.contains(".") ? plain : plain + ".0";
    }
    String digits = b.unscaledValue().abs().toString();
    String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
    return (d < 0 ? "-" : "") + mantissa + "e" + (exp < 0 ? "-" : "+") + (Math.abs(exp) < 10 ? "0" : "") + Math.abs(exp);
  }

  /** True or False. */
  public static String bool(boolean b) {
    return b ? "True" : "False";
  }

  /** A Python tuple of ints: (3,) or (3, 5). */
  public static String tuple(long... v) {
    StringBuilder s = new StringBuilder("(");
    for (int i = 0; i < v.length; i++) s.append(i == 0 ? "" : ", ").append(v[i]);
    return s.append(v.length == 1 ? ",)" : ")").toString();
  }
}
