package org.jtensor.ops;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;

/**
 * torch.einsum: subscripts [a-zA-Z] per operand, "..." for broadcast dims, an explicit output after
 * "->" or the implicit one (the ellipsis dims, then the letters used once, sorted). Each operand's
 * repeated letters become its diagonal, letters no one else needs are summed at once, then the
 * operands are contracted left to right, each pair as one batched GEMM ([batch, kept, contracted]
 * against [batch, contracted, kept]); all through differentiable ops.
 */
public final class Einsum {
  private Einsum() {}

  private static final String OP = "einsum";

  /** An operand during the contraction: the tensor and one label per dim (letters as chars, ellipsis dims from 128). */
  private record Term(Tensor t, List<Integer> labels) {}

  public static Tensor einsum(String equation, Tensor... operands) {
    if (equation == null) throw new IllegalArgumentException(OP + "(): equation is null");
    if (operands == null) throw new IllegalArgumentException(OP + "(): operands is null");
    if (operands.length == 0) throw new IllegalArgumentException(OP + "(): must provide at least one operand");
    String eq = equation;  // spaces are skipped where they stand, so that indices in messages are the caller's
    int arrow = eq.indexOf("->");
    String lhs = arrow < 0 ? eq : eq.substring(0, arrow);
    String[] subs = lhs.split(",", -1);
    int[] starts = new int[subs.length];
    for (int i = 1; i < subs.length; i++) starts[i] = starts[i - 1] + subs[i - 1].length() + 1;
    if (subs.length != operands.length) {
      throw new IllegalArgumentException(OP + "(): the number of subscripts in the equation (" + subs.length
          + ") does not match the number of operands (" + operands.length + ")");
    }
    int ellipsisRank = 0;
    List<List<Integer>> labels = new ArrayList<>();
    for (int i = 0; i < subs.length; i++) {
      if (operands[i] == null) throw new IllegalArgumentException(OP + "(): operand " + i + " is null");
      List<Integer> l = parse(subs[i], starts[i], Handles.implOf(operands[i], OP).dim(), i);  // a closed operand: "einsum(): tensor is closed"
      labels.add(l);
      ellipsisRank = Math.max(ellipsisRank, (int) l.stream().filter(x -> x >= 128).count());
    }
    // the ellipsis dims of an operand are the last of all operands' ellipsis dims (broadcast from the right)
    for (List<Integer> l : labels) {
      int own = (int) l.stream().filter(x -> x >= 128).count(), k = 0;
      for (int d = 0; d < l.size(); d++) if (l.get(d) >= 128) l.set(d, 128 + ellipsisRank - own + k++);
    }
    List<Integer> out = arrow >= 0 ? parseOutput(eq.substring(arrow + 2), arrow + 2, ellipsisRank, labels) : implicitOutput(labels, ellipsisRank);
    TypePromotion promotion = TypePromotion.start();  // torch.einsum promotes, as its products do
    for (Tensor t : operands) promotion.tensor(Handles.implOf(t, OP));
    DType dtype = promotion.result();
    try (TensorScope s = TensorScope.open()) {
      List<Term> terms = new ArrayList<>();
      for (int i = 0; i < operands.length; i++) {
        Tensor t = operands[i].dtype() == dtype ? operands[i] : operands[i].to(dtype);
        terms.add(diagonals(new Term(t, labels.get(i)), i));
      }
      checkSizes(terms);
      Term acc = sumUnneeded(terms.get(0), terms.subList(1, terms.size()), out);
      for (int i = 1; i < terms.size(); i++) {
        List<Term> later = terms.subList(i + 1, terms.size());
        acc = contract(acc, sumUnneeded(terms.get(i), concat(List.of(acc), later), out), later, out);
      }
      acc = sumUnneeded(acc, List.of(), out);
      int[] perm = new int[out.size()];
      for (int d = 0; d < out.size(); d++) perm[d] = acc.labels.indexOf(out.get(d));
      Tensor r = acc.t.dim() == 0 ? acc.t.view(acc.t.shape()) : acc.t.permute(perm);  // a new handle even for an operand itself
      return s.keep(r);
    }
  }

  /** One operand's labels; "..." stands for as many dims as the operand has beyond its letters (marked 128). at: sub's index in the equation. */
  private static List<Integer> parse(String sub, int at, int dims, int operand) {
    List<Integer> l = new ArrayList<>();
    int ellipses = 0;
    for (int i = 0; i < sub.length(); i++) {
      char c = sub.charAt(i);
      if (c == ' ') continue;
      if (c == '.') {
        if (!sub.startsWith("...", i)) {
          throw new IllegalArgumentException(OP + "(): found '.' for operand " + operand + " that is not part of any ellipsis");
        }
        if (++ellipses > 1) throw new IllegalArgumentException(OP + "(): found more than one ellipsis (\"...\") in subscripts for operand " + operand);
        l.add(-1);
        i += 2;
      } else if (isLabel(c)) {
        l.add((int) c);
      } else {
        throw new IllegalArgumentException(OP + "(): invalid subscript given at index " + (at + i) + " in the equation string, subscripts "
            + "must be in [a-zA-Z]");
      }
    }
    int letters = l.size() - ellipses;
    if (ellipses == 0 && letters != dims) {
      throw new IllegalArgumentException(OP + "(): the number of subscripts in the equation (" + letters + ") does not match the number of "
          + "dimensions (" + dims + ") for operand " + operand + " and no ellipsis was given");
    }
    if (ellipses == 1 && letters > dims) {
      throw new IllegalArgumentException(OP + "(): the number of subscripts in the equation (" + letters + ") is more than the number of "
          + "dimensions (" + dims + ") for operand " + operand);
    }
    List<Integer> full = new ArrayList<>();
    for (int x : l) {
      if (x != -1) full.add(x);
      else for (int k = 0; k < dims - letters; k++) full.add(128);
    }
    return full;
  }

  private static List<Integer> parseOutput(String sub, int at, int ellipsisRank, List<List<Integer>> labels) {
    List<Integer> out = new ArrayList<>();
    Set<Integer> used = new TreeSet<>();
    for (List<Integer> l : labels) used.addAll(l);
    boolean ellipsis = false;
    for (int i = 0; i < sub.length(); i++) {
      char c = sub.charAt(i);
      if (c == ' ') continue;
      if (c == '.') {
        if (!sub.startsWith("...", i)) throw new IllegalArgumentException(OP + "(): found '.' for output but it is not part of any ellipsis (\"...\")");
        if (ellipsis) throw new IllegalArgumentException(OP + "(): found more than one ellipsis (\"...\") in the output subscripts");
        ellipsis = true;
        for (int k = 0; k < ellipsisRank; k++) out.add(128 + k);
        i += 2;
      } else if (isLabel(c)) {
        if (out.contains((int) c)) throw new IllegalArgumentException(OP + "(): output subscript " + c + " appears more than once in the output");
        if (!used.contains((int) c)) {
          throw new IllegalArgumentException(OP + "(): output subscript " + c + " does not appear in the equation for any input operand");
        }
        out.add((int) c);
      } else {
        throw new IllegalArgumentException(OP + "(): invalid subscript given at index " + (at + i) + " in the equation string, subscripts "
            + "must be in [a-zA-Z]");
      }
    }
    return out;  // ellipsis dims the output omits are summed, as PyTorch does
  }

  private static boolean isLabel(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  /** The ellipsis dims, then every letter used exactly once over all operands, in sorted order. */
  private static List<Integer> implicitOutput(List<List<Integer>> labels, int ellipsisRank) {
    List<Integer> out = new ArrayList<>();
    for (int k = 0; k < ellipsisRank; k++) out.add(128 + k);
    int[] count = new int[128];
    for (List<Integer> l : labels) for (int x : l) if (x < 128) count[x]++;
    for (int c = 0; c < 128; c++) if (count[c] == 1) out.add(c);
    return out;
  }

  /** Repeated labels of one operand: their diagonal (the label kept once, as the last dim). */
  private static Term diagonals(Term term, int operand) {
    Tensor t = term.t;
    List<Integer> l = new ArrayList<>(term.labels);
    for (int i = 0; i < l.size(); i++) {
      int j = l.subList(i + 1, l.size()).indexOf(l.get(i));
      if (j < 0) continue;
      j += i + 1;
      if (t.shape()[i] != t.shape()[j]) {
        throw new IllegalArgumentException(OP + "(): subscript " + label(l.get(i)) + " is repeated for operand " + operand + " but the sizes don't match, "
            + t.shape()[j] + " != " + t.shape()[i]);
      }
      int lab = l.get(i);
      t = t.diagonal(0, i, j);
      l.remove(j);
      l.remove(i);
      l.add(lab);
      i = -1;  // start over: the dims moved
    }
    return new Term(t, l);
  }

  /** Every label has one size over the operands, or size 1 (broadcast). */
  private static void checkSizes(List<Term> terms) {
    long[] size = new long[256];
    Arrays.fill(size, 1);
    for (int i = 0; i < terms.size(); i++) {
      Term term = terms.get(i);
      for (int d = 0; d < term.labels.size(); d++) {
        int lab = term.labels.get(d);
        long n = term.t.shape()[d];
        if (n != 1 && size[lab] != 1 && size[lab] != n) {
          throw new IllegalArgumentException(OP + "(): subscript " + label(lab) + " has size " + n + " for operand " + i + " which does not broadcast with previously seen size " + size[lab]);
        }
        if (n != 1) size[lab] = n;
      }
    }
  }

  /** Sums the labels of term that neither the output nor any of others has. */
  private static Term sumUnneeded(Term term, List<Term> others, List<Integer> out) {
    List<Integer> keep = new ArrayList<>();
    List<Integer> drop = new ArrayList<>();
    for (int d = 0; d < term.labels.size(); d++) {
      int lab = term.labels.get(d);
      boolean needed = out.contains(lab) || others.stream().anyMatch(o -> o.labels.contains(lab));
      if (needed) keep.add(lab);
      else drop.add(d);
    }
    if (drop.isEmpty()) return term;
    return new Term(term.t.sum(drop.stream().mapToInt(Integer::intValue).toArray(), false), keep);
  }

  /** a and b as one batched GEMM over their shared labels: the batch ones (still needed) kept, the rest summed. */
  private static Term contract(Term a, Term b, List<Term> later, List<Integer> out) {
    List<Integer> batch = new ArrayList<>(), summed = new ArrayList<>(), onlyA = new ArrayList<>(), onlyB = new ArrayList<>();
    for (int lab : a.labels) {
      if (!b.labels.contains(lab)) onlyA.add(lab);
      else if (out.contains(lab) || later.stream().anyMatch(o -> o.labels.contains(lab))) batch.add(lab);
      else summed.add(lab);
    }
    for (int lab : b.labels) if (!a.labels.contains(lab)) onlyB.add(lab);
    long[] sizes = new long[256];
    java.util.Arrays.fill(sizes, 1);  // a label's size: the one that is not 1 (0 included), else 1
    for (Term t : List.of(a, b)) for (int d = 0; d < t.labels.size(); d++) if (t.t.shape()[d] != 1) sizes[t.labels.get(d)] = t.t.shape()[d];
    Tensor x = arrange(a, concat(concat(batch, onlyA), summed), sizes, batch, summed);
    Tensor y = arrange(b, concat(concat(batch, summed), onlyB), sizes, batch, summed);
    long nb = product(batch, sizes), m = product(onlyA, sizes), k = product(summed, sizes), n = product(onlyB, sizes);
    Tensor r = x.reshape(nb, m, k).bmm(y.reshape(nb, k, n));
    List<Integer> labels = concat(concat(batch, onlyA), onlyB);
    long[] shape = new long[labels.size()];
    for (int d = 0; d < shape.length; d++) shape[d] = sizes[labels.get(d)];
    return new Term(r.reshape(shape), labels);
  }

  /** t permuted to order, its batch and summed dims expanded to the full sizes (size-1 broadcast). */
  private static Tensor arrange(Term t, List<Integer> order, long[] sizes, List<Integer> batch, List<Integer> summed) {
    int[] perm = new int[order.size()];
    long[] full = new long[order.size()];
    for (int d = 0; d < order.size(); d++) {
      perm[d] = t.labels.indexOf(order.get(d));
      int lab = order.get(d);
      full[d] = batch.contains(lab) || summed.contains(lab) ? sizes[lab] : t.t.shape()[perm[d]];
    }
    Tensor p = t.t.dim() == 0 ? t.t : t.t.permute(perm);
    return Arrays.equals(p.shape(), full) ? p : p.expand(full);
  }

  private static long product(List<Integer> labels, long[] sizes) {
    long p = 1;
    for (int lab : labels) p *= sizes[lab];
    return p;
  }

  private static <T> List<T> concat(List<T> a, List<T> b) {
    List<T> r = new ArrayList<>(a);
    r.addAll(b);
    return r;
  }

  private static String label(int lab) {
    return lab < 128 ? Character.toString((char) lab) : "...";
  }
}
