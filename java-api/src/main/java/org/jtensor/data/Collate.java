package org.jtensor.data;

import java.util.ArrayList;
import java.util.List;
import org.jtensor.Tensor;

/** Turning samples into a {@link Batch}: PyTorch's {@code default_collate}, for the types a Java dataset returns. */
public final class Collate {
  private Collate() {}

  /**
   * Stacks the samples along a new dim 0: Tensors into one tensor, Numbers into a 1-D tensor (int64
   * for integers, float32 for integers or Booleans mixed with floats, float64 for Float/Double first,
   * bool for Booleans, a Boolean counting 1 or 0 beside numbers, as {@code torch.tensor(batch)} /
   * {@code torch.tensor(batch, dtype=torch.float64)}), and
   * Lists field by field into a batch of as many tensors. The samples are left open: the loader's
   * scope closes them. Any other sample type needs a collate function of its own.
   */
  public static Batch defaultCollate(List<?> samples) {
    if (samples == null || samples.isEmpty()) throw new IllegalArgumentException("defaultCollate(): expected at least one sample");
    Object first = samples.get(0);
    if (!(first instanceof List<?> fields)) return Batch.of(field(samples, "sample"));
    List<List<Object>> columns = new ArrayList<>();
    for (int f = 0; f < fields.size(); f++) columns.add(new ArrayList<>(samples.size()));
    for (int i = 0; i < samples.size(); i++) {
      if (!(samples.get(i) instanceof List<?> row) || row.size() != fields.size()) {
        throw new IllegalArgumentException("defaultCollate(): each element in list of batch should be of equal size: sample 0 has "
            + fields.size() + " fields, sample " + i + " has " + (samples.get(i) instanceof List<?> r ? r.size() + " fields" : "type " + typeOf(samples.get(i))));
      }
      for (int f = 0; f < row.size(); f++) columns.get(f).add(row.get(f));
    }
    List<Tensor> out = new ArrayList<>(columns.size());
    for (int f = 0; f < columns.size(); f++) out.add(field(columns.get(f), "field " + f));
    return Batch.of(out);
  }

  /** One field of every sample, stacked. */
  private static Tensor field(List<?> values, String what) {
    Object first = values.get(0);
    if (first instanceof Tensor) {
      List<Tensor> ts = new ArrayList<>(values.size());
      for (Object v : values) ts.add((Tensor) require(v, Tensor.class, what));
      return Tensor.stack(ts);
    }
    int n = values.size();
    boolean firstFloat = first instanceof Double || first instanceof Float;
    if (firstFloat || first instanceof Long || first instanceof Integer || first instanceof Short || first instanceof Byte || first instanceof Boolean) {
      // collate_float_fn is torch.tensor(batch, dtype=torch.float64); collate_int_fn, bools included (isinstance(True, int)),
      // is torch.tensor(batch), which infers from every value: float32 if one is a float, else int64 if one is an
      // integer, else bool; a Boolean counts 1 or 0 beside numbers. ([1, 2.5] is never a truncated int64 batch.)
      boolean anyFloat = false, anyInt = false;
      for (Object v : values) {
        if (!(v instanceof Number || v instanceof Boolean)) {
          throw new IllegalArgumentException("defaultCollate(): every " + what + " must be a Number or a Boolean as the first is, got " + typeOf(v));
        }
        anyFloat |= v instanceof Double || v instanceof Float;
        anyInt |= v instanceof Number && !(v instanceof Double || v instanceof Float);
      }
      if (firstFloat) {
        double[] d = new double[n];
        for (int i = 0; i < n; i++) d[i] = values.get(i) instanceof Boolean b ? (b ? 1 : 0) : ((Number) values.get(i)).doubleValue();
        return Tensor.fromArray(d);
      }
      if (anyFloat) {
        float[] f = new float[n];
        for (int i = 0; i < n; i++) f[i] = values.get(i) instanceof Boolean b ? (b ? 1 : 0) : ((Number) values.get(i)).floatValue();
        return Tensor.fromArray(f);
      }
      if (anyInt) {
        long[] l = new long[n];
        for (int i = 0; i < n; i++) l[i] = values.get(i) instanceof Boolean b ? (b ? 1 : 0) : ((Number) values.get(i)).longValue();
        return Tensor.fromArray(l);
      }
      boolean[] b = new boolean[n];
      for (int i = 0; i < n; i++) b[i] = (Boolean) values.get(i);
      return Tensor.fromArray(b);
    }
    if (first instanceof List<?>) {  // PyTorch collates nested sequences recursively; a Batch is one flat list of tensors
      throw new IllegalArgumentException("defaultCollate(): a " + what + " is a List: nested lists are not collated (a Batch is a flat list "
          + "of tensors); give the DataLoader a collate function for it");
    }
    throw new IllegalArgumentException("defaultCollate(): a " + what + " must be a Tensor, a Number, a Boolean or a List of them, got "
        + typeOf(first) + "; give the DataLoader a collate function for it");
  }

  private static Object require(Object v, Class<?> type, String what) {
    if (!type.isInstance(v)) {
      throw new IllegalArgumentException("defaultCollate(): every " + what + " must be a " + type.getSimpleName() + " as the first is, got " + typeOf(v));
    }
    return v;
  }

  private static String typeOf(Object v) {
    return v == null ? "null" : v.getClass().getName();
  }
}
