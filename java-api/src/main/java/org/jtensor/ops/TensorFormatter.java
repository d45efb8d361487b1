package org.jtensor.ops;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.dispatch.Backend;
import org.jtensor.dispatch.Dispatcher;
import org.jtensor.core.TensorImpl;

/** Prints a tensor as PyTorch's repr does (torch._tensor_str: precision 4, linewidth 80, threshold 1000). */
public final class TensorFormatter {
  private static final int PRECISION = 4, LINEWIDTH = 80, EDGEITEMS = 3, THRESHOLD = 1000;

  private final TensorImpl t;
  private final Backend backend;
  private final boolean floating;
  private final boolean summarize;
  private boolean intMode = true;
  private boolean sciMode;
  private int maxWidth = 1;

  private TensorFormatter(TensorImpl t) {
    this.t = t;
    this.backend = Dispatcher.backend(t.device());
    this.floating = t.dtype().isFloatingPoint();
    this.summarize = t.numel() > THRESHOLD;
  }

  public static String format(TensorImpl t) {
    List<String> suffixes = new ArrayList<>();
    boolean defaultDtype = t.dtype() == DType.FLOAT32 || t.dtype() == DType.INT64 || t.dtype() == DType.BOOL;
    String body;
    if (t.device().type() == Device.Type.CUDA) suffixes.add("device='" + t.device() + "'");  // first, as PyTorch's (cuda:0)
    if (t.device().isMeta()) {
      suffixes.add("device='meta'");
      suffixes.add("size=" + tuple(t.sizes()));
      if (t.dtype() != DType.DEFAULT_FLOAT) suffixes.add("dtype=torch." + t.dtype());
      body = "...";
    } else if (t.numel() == 0) {
      if (t.dim() != 1) suffixes.add("size=" + tuple(t.sizes()));
      if (t.dtype() != DType.DEFAULT_FLOAT) suffixes.add("dtype=torch." + t.dtype());
      body = "[]";
    } else {
      if (!defaultDtype) suffixes.add("dtype=torch." + t.dtype());
      t.checkInBounds("toString");
      TensorFormatter f = new TensorFormatter(t);
      f.measure();
      body = f.str(0, 0, 7);
    }
    AutogradMeta m = AutogradMeta.current(t);
    if (m != null && m.gradFn != null) suffixes.add("grad_fn=<" + m.gradFn.name() + ">");  // nodes carry PyTorch's names (AddBackward0)
    else if (m != null && m.requiresGrad) suffixes.add("requires_grad=True");
    StringBuilder sb = new StringBuilder("tensor(").append(body);
    int lastLine = sb.length() - sb.lastIndexOf("\n") + 1;
    for (String s : suffixes) {
      if (lastLine + s.length() + 2 > LINEWIDTH) {
        sb.append(",\n").append(" ".repeat(7)).append(s);
        lastLine = 7 + s.length();
      } else {
        sb.append(", ").append(s);
        lastLine += s.length() + 2;
      }
    }
    return sb.append(')').toString();
  }

  private static String tuple(long[] sizes) {
    if (sizes.length == 1) return "(" + sizes[0] + ",)";
    StringBuilder sb = new StringBuilder("(");
    for (int i = 0; i < sizes.length; i++) sb.append(i > 0 ? ", " : "").append(sizes[i]);
    return sb.append(')').toString();
  }

  /** Chooses int/fixed/scientific mode and the column width from the values that will print. */
  private void measure() {
    List<Long> offsets = new ArrayList<>();
    collect(t.sizes(), t.strides(), 0, 0, offsets);
    if (!floating) {
      for (long off : offsets) maxWidth = Math.max(maxWidth, raw(off).length());
      return;
    }
    double min = Double.POSITIVE_INFINITY, max = 0;
    boolean any = false;
    List<Double> vals = new ArrayList<>();
    for (long off : offsets) {
      double v = backend.loadDouble("toString", t, off);
      if (Double.isFinite(v) && v != 0) {
        any = true;
        vals.add(v);
        min = Math.min(min, Math.abs(v));
        max = Math.max(max, Math.abs(v));
        if (v != Math.ceil(v)) intMode = false;
      }
    }
    if (!any) return;
    sciMode = max / min > 1000.0 || max > 1.0e8 || (!intMode && min < 1.0e-4);
    for (double v : vals) {
      int w = sciMode ? sci(v).length() : intMode ? fixed(v, 0).length() + 1 : fixed(v, PRECISION).length();
      maxWidth = Math.max(maxWidth, w);
    }
  }

  /** Offsets of every printed element: all of them, or the edge items of each dim when summarizing. */
  private void collect(long[] sizes, long[] strides, int d, long base, List<Long> out) {
    if (d == sizes.length) {
      out.add(base);
      return;
    }
    for (long i : indices(sizes[d])) collect(sizes, strides, d + 1, base + i * strides[d], out);
  }

  private List<Long> indices(long size) {
    List<Long> idx = new ArrayList<>();
    if (summarize && size > 2 * EDGEITEMS) {
      for (long i = 0; i < EDGEITEMS; i++) idx.add(i);
      for (long i = size - EDGEITEMS; i < size; i++) idx.add(i);
    } else {
      for (long i = 0; i < size; i++) idx.add(i);
    }
    return idx;
  }

  /** Dims d.. of the element block at offset base, as torch's _tensor_str_with_formatter. */
  private String str(int d, long base, int indent) {
    long[] sizes = t.sizes(), strides = t.strides();
    int dim = sizes.length - d;
    if (dim == 0) return formatAt(base);
    long size = sizes[d];
    boolean cut = summarize && size > 2 * EDGEITEMS;
    if (dim == 1) {
      List<String> data = new ArrayList<>();
      for (long i : indices(size)) {
        if (cut && i == size - EDGEITEMS) data.add(" ...");
        data.add(formatAt(base + i * strides[d]));
      }
      int perLine = Math.max(1, (LINEWIDTH - indent) / (maxWidth + 2));
      StringBuilder sb = new StringBuilder("[");
      for (int i = 0; i < data.size(); i++) {
        if (i > 0) sb.append(i % perLine == 0 ? ",\n" + " ".repeat(indent + 1) : ", ");
        sb.append(data.get(i));
      }
      return sb.append(']').toString();
    }
    String sep = "," + "\n".repeat(dim - 1) + " ".repeat(indent + 1);
    StringBuilder sb = new StringBuilder("[");
    boolean first = true;
    for (long i : indices(size)) {
      if (!first) sb.append(sep);
      if (cut && i == size - EDGEITEMS) sb.append("...").append(sep);
      sb.append(str(d + 1, base + i * strides[d], indent + 1));
      first = false;
    }
    return sb.append(']').toString();
  }

  private String formatAt(long off) {
    String s;
    if (!floating) {
      s = raw(off);
    } else {
      double v = backend.loadDouble("toString", t, off);
      if (sciMode && Double.isFinite(v)) s = sci(v);
      else if (intMode) s = Double.isFinite(v) ? fixed(v, 0) + "." : nonFinite(v);
      else s = Double.isFinite(v) ? fixed(v, PRECISION) : nonFinite(v);
    }
    return " ".repeat(Math.max(0, maxWidth - s.length())) + s;
  }

  private String raw(long off) {
    if (t.dtype() == DType.BOOL) return backend.loadLong("toString", t, off) != 0 ? "True" : "False";
    return Long.toString(backend.loadLong("toString", t, off));
  }

  private static String nonFinite(double v) {
    return Double.isNaN(v) ? "nan" : v > 0 ? "inf" : "-inf";
  }

  /** Python's "{:.Nf}": the exact binary value rounded half-to-even, keeping the sign of -0. */
  private static String fixed(double v, int digits) {
    String s = new BigDecimal(v).setScale(digits, RoundingMode.HALF_EVEN).toPlainString();
    boolean negZero = (v < 0 || (v == 0 && 1 / v < 0)) && !s.startsWith("-");
    return negZero ? "-" + s : s;
  }

  /**
   * Python's "{:.Ne}": the exact binary value rounded half-to-even to N + 1 significant digits. Not
   * String.format, which rounds the shortest decimal form instead (2.00025, really 2.000249999..., gave
   * 2.0003e+00; 4.9e-324 gave 4.9000e-324 for 4.9407e-324).
   */
  private static String sci(double v) {
    boolean negative = v < 0 || (v == 0 && 1 / v < 0);
    String digits;
    int exponent;
    if (v == 0) {
      digits = "0".repeat(PRECISION + 1);
      exponent = 0;
    } else {
      BigDecimal r = new BigDecimal(Math.abs(v)).round(new MathContext(PRECISION + 1, RoundingMode.HALF_EVEN));
      digits = r.unscaledValue().toString();
      exponent = digits.length() - r.scale() - 1;
      digits = (digits + "0".repeat(PRECISION + 1)).substring(0, PRECISION + 1);
    }
    String e = Integer.toString(Math.abs(exponent));
    return (negative ? "-" : "") + digits.charAt(0) + "." + digits.substring(1) + "e" + (exponent < 0 ? "-" : "+")
        + (e.length() < 2 ? "0" : "") + e;
  }
}
