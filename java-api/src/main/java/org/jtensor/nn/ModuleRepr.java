package org.jtensor.nn;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jtensor.core.PyRepr;

/** print(model): PyTorch's nn.Module.__repr__ and ModuleList's, with the helpers the modules' extraRepr() write with. */
final class ModuleRepr {
  private ModuleRepr() {}

  /** The name, then extraRepr() on one line when there are no children, else each extra line and "(name): child" indented. */
  static String of(Module m) {
    String extra = m.extraRepr();
    List<String> lines = new ArrayList<>(extra.isEmpty() ? List.of() : List.of(extra.split("\n", -1)));
    int extraLines = lines.size();
    for (Map.Entry<String, Module> c : m.children.entrySet()) {
      lines.add("(" + c.getKey() + "): " + indent(c.getValue() == null ? "None" : c.getValue().toString()));
    }
    return wrap(m.reprName(), lines, extraLines == 1 && lines.size() == 1);
  }

  /** ModuleList's repr: runs of equal entries as "(0-2): 3 x Linear(...)". */
  static String ofList(String name, List<? extends Module> modules) {
    List<String> lines = new ArrayList<>();
    for (int start = 0; start < modules.size();) {
      String r = modules.get(start).toString();
      int end = start;
      while (end + 1 < modules.size() && modules.get(end + 1).toString().equals(r)) end++;
      lines.add(indent(start == end ? "(" + start + "): " + r : "(" + start + "-" + end + "): " + (end - start + 1) + " x " + r));
      start = end + 1;
    }
    return wrap(name, lines, false);
  }

  private static String wrap(String name, List<String> lines, boolean oneLine) {
    if (lines.isEmpty()) return name + "()";
    if (oneLine) return name + "(" + lines.get(0) + ")";
    return name + "(\n  " + String.join("\n  ", lines) + "\n)";
  }

  /** PyTorch's _addindent(s, 2): every line after the first two spaces further in. */
  private static String indent(String s) {
    return s.replace("\n", "\n  ");
  }

  static String f(double v) {
    return PyRepr.pyFloat(v);
  }

  static String b(boolean v) {
    return PyRepr.bool(v);
  }

  /** A size argument as PyTorch keeps it: n values (one given: repeated), printed as a tuple. */
  static String tuple(long[] v, int n) {
    if (v.length == n) return PyRepr.tuple(v);
    long[] all = new long[n];
    java.util.Arrays.fill(all, v[0]);
    return PyRepr.tuple(all);
  }

  /** Conv*d's and ConvTranspose*d's extra_repr: padding, dilation, output_padding, groups and bias only where not the default. */
  static String conv(long in, long out, long[] weightShape, int nsp, LayerOptions o, long[] outputPadding, boolean bias) {
    StringBuilder s = new StringBuilder(in + ", " + out + ", kernel_size=" + PyRepr.tuple(java.util.Arrays.copyOfRange(weightShape, 2, 2 + nsp))
        + ", stride=" + tuple(o.convStride(), nsp));
    if (o.paddingMode != null) s.append(", padding=").append(o.paddingMode);
    else if (!all(o.padding, 0)) s.append(", padding=").append(tuple(o.padding, nsp));
    if (!all(o.dilation, 1)) s.append(", dilation=").append(tuple(o.dilation, nsp));
    if (outputPadding != null && !all(outputPadding, 0)) s.append(", output_padding=").append(tuple(outputPadding, nsp));
    if (o.groups != 1) s.append(", groups=").append(o.groups);
    if (!bias) s.append(", bias=False");
    return s.toString();
  }

  /** MaxPool*d's extra_repr (stride: the kernel unless given). */
  static String maxPool(long[] kernel, LayerOptions o) {
    return avgPool(kernel, o) + ", dilation=" + given(o.dilation) + ", ceil_mode=" + b(o.ceilMode);
  }

  /** AvgPool*d's extra_repr: kernel_size, stride, padding (PyTorch shows no more). */
  static String avgPool(long[] kernel, LayerOptions o) {
    return "kernel_size=" + given(kernel) + ", stride=" + given(o.stride == null ? kernel : o.stride) + ", padding=" + given(o.padding);
  }

  /** MaxUnpool*d's extra_repr: kernel_size, stride (the kernel unless given) and padding as n-tuples. */
  static String maxUnpool(long[] kernel, long[] stride, long[] padding, int n) {
    return "kernel_size=" + tuple(kernel, n) + ", stride=" + tuple(stride == null ? kernel : stride, n) + ", padding=" + tuple(padding, n);
  }

  /** Scale factors as the caller gave them: one as a float, several as a tuple of floats. */
  static String given(double[] v) {
    if (v.length == 1) return f(v[0]);
    StringBuilder s = new StringBuilder("(");
    for (int i = 0; i < v.length; i++) s.append(i == 0 ? "" : ", ").append(f(v[i]));
    return s.append(")").toString();
  }

  private static boolean all(long[] v, long value) {
    for (long x : v) if (x != value) return false;
    return true;
  }

  /** A pooling argument as the caller gave it: one value as an int, several as a tuple. */
  static String given(long[] v) {
    return v.length == 1 ? String.valueOf(v[0]) : PyRepr.tuple(v);
  }
}
