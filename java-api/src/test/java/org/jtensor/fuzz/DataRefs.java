package org.jtensor.fuzz;

import org.jtensor.DType;

/** References for the data ops: copy_, to, fill_ and zero_, element reads and writes, item, toString, close, scopes. */
final class DataRefs {
  private DataRefs() {}

  /** Element i of r holds element j of v converted to r's dtype as a cast converts it. */
  static void expectCast(Vals r, int i, Vals v, int j, String what) {
    if (v.integral()) {
      Vals.expectExact(r, i, v.l[j], what);
      return;
    }
    double e = Vals.round(v.d[j], r.dtype);
    if (Double.compare(r.d[i], e) != 0 && !(r.d[i] == 0 && e == 0)) throw Vals.mismatch(what + " of " + v.d[j], i, r.d[i], e);
  }

  /** x.copy_(y): y broadcast to x's shape, converted to x's dtype. */
  static Fuzz.Check copy(Pool.Entry x, Pool.Entry y) {
    return Refs.writes(x, (result, in) -> {
      Vals r = Vals.of(result), v = in.of(x), s = in.of(y);
      Vals.expectShape(v.shape, r, "copy_");
      for (int i = 0; i < r.numel(); i++) expectCast(r, i, s, Vals.flat(Refs.squash(Vals.unflat(i, v.shape), s.shape), s.shape), "copy_");
    });
  }

  /** x.to(dt): x's shape, the dtype asked for, each value converted. */
  static Fuzz.Check to(Pool.Entry x, DType dt) {
    return (result, in) -> {
      Vals r = Vals.of(result), v = in.of(x);
      Vals.expectShape(v.shape, r, "to");
      if (r.dtype != dt) throw new AssertionError("to(" + dt + ") gave " + r.dtype);
      for (int i = 0; i < r.numel(); i++) expectCast(r, i, v, i, "to");
    };
  }

  /** fill_(value) or zero_(): every element of x the value (a Double or an exact Long). */
  static Fuzz.Check fill(Pool.Entry x, Number value) {
    return Refs.writesShared(x, (result, in) -> {
      Vals v = in.of(x);
      (value instanceof Long l ? FactoryRefs.filled("fill_", v.shape, v.dtype, (long) l)
          : FactoryRefs.filled("fill_", v.shape, v.dtype, value.doubleValue())).verify(result, in);
    });
  }

  /** The element at idx (negative from the end) as a double. */
  static Fuzz.Check get(Pool.Entry x, long[] idx) {
    return (result, in) -> {
      Vals v = in.of(x);
      int at = Vals.flat(wrap(idx, v.shape), v.shape);
      double e = v.integral() ? (double) v.l[at] : v.d[at];
      if (!(result instanceof Double d) || Double.compare(d, e) != 0) throw new AssertionError("got " + result + ", element " + at + " is " + e);
    };
  }

  /** item(): the one element, as a double. */
  static Fuzz.Check item(Pool.Entry x) {
    return (result, in) -> {
      Vals v = in.of(x);
      double e = v.integral() ? (double) v.l[0] : v.d[0];
      if (!(result instanceof Double d) || Double.compare(d, e) != 0) throw new AssertionError("item() gave " + result + ", the element is " + e);
    };
  }

  /**
   * setDouble(value, idx): that element takes value (converted), and so does every element that
   * shares its storage position (an expanded tensor's); the rest keep theirs.
   */
  static Fuzz.Check set(Pool.Entry x, double value, long[] idx) {
    return Refs.writesShared(x, (result, in) -> {
      Vals r = Vals.of(result), v = in.of(x);
      long[] stride = x.t().stride();
      long target = position(wrap(idx, v.shape), stride);
      double e = Vals.round(value, v.dtype);
      for (int i = 0; i < r.numel(); i++) {
        if (position(Vals.unflat(i, v.shape), stride) == target) {
          if (Double.compare(r.d[i], e) != 0 && !(r.d[i] == 0 && e == 0)) throw Vals.mismatch("setDouble", i, r.d[i], e);
        } else {
          expectCast(r, i, v, i, "setDouble (another element)");
        }
      }
    });
  }

  /** toString: the closed form for a closed tensor, else tensor(...). */
  static Fuzz.Check string(Pool.Entry x) {
    return (result, in) -> {
      String s = (String) result;
      boolean ok = x.t().isClosed() ? s.equals("tensor(<closed>)") : s.startsWith("tensor(") && s.endsWith(")");
      if (!ok) throw new AssertionError("toString gave " + s);
    };
  }

  /** close(): nothing returned, and the handle closed after. */
  static Fuzz.Check closed(Pool.Entry x) {
    return (result, in) -> {
      if (result != null || !x.t().isClosed()) throw new AssertionError("close() left " + x + ", returned " + result);
    };
  }

  /** A scope's kept tensor: x + 1 (in x's shape, or flattened), in the dtype of x + an int64 scalar. */
  static Fuzz.Check plusOne(Pool.Entry x) {
    return (result, in) -> {
      Vals r = Vals.of(result), v = in.of(x);
      if (r.numel() != v.numel() || r.dtype != x.t().resultType(1L)) throw new AssertionError("kept " + result + " from " + x);
      for (int i = 0; i < r.numel(); i++) {
        if (r.integral()) Vals.expectExact(r, i, v.l[i] + 1, "scope's x + 1");
        else if (!Vals.close(r.d[i], Vals.round(Vals.round(v.d[i], r.dtype) + 1, r.dtype), 0)) {
          throw Vals.mismatch("scope's x + 1", i, r.d[i], Vals.round(v.d[i], r.dtype) + 1);
        }
      }
    };
  }

  private static long[] wrap(long[] idx, long[] shape) {
    long[] w = idx.clone();
    for (int d = 0; d < w.length; d++) if (w[d] < 0) w[d] += shape[d];
    return w;
  }

  private static long position(long[] idx, long[] stride) {
    long p = 0;
    for (int d = 0; d < idx.length; d++) p += idx[d] * stride[d];
    return p;
  }

  /** Whether idx names an element of a tensor of this shape (negatives from the end). */
  static boolean inRange(long[] idx, long[] shape) {
    if (idx.length != shape.length) return false;
    for (int d = 0; d < idx.length; d++) if (idx[d] < -shape[d] || idx[d] >= shape[d]) return false;
    return true;
  }
}
