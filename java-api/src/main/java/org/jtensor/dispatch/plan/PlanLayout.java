package org.jtensor.dispatch.plan;

import java.util.Arrays;

/**
 * Note [Plans describe themselves] A plan crosses JNI as one long[]: one-word fields, then arrays
 * whose lengths are expressions of those fields, in the order listed. Each packer states its
 * layout here once, takes its field positions from it, and NativeContract compares the statement
 * with native code's (jt/plans.h) when the library loads, so the two sides cannot drift.
 */
public final class PlanLayout {
  /** Word 0 of every plan; native code refuses a plan of another version. */
  public static final int VERSION = 1;

  public final String plan;
  private final String[] fields;
  private final int header;

  /** fields: "version" first, then one-word fields, then arrays written "name[length]". */
  PlanLayout(String plan, String... fields) {
    this.plan = plan;
    this.fields = fields.clone();
    int h = 0;
    while (h < fields.length && !fields[h].contains("[")) h++;
    this.header = h;
    if (!"version".equals(fields[0])) throw new IllegalArgumentException(plan + " plan: word 0 must be the version");
    for (int i = h; i < fields.length; i++) {
      if (!fields[i].contains("[")) throw new IllegalArgumentException(plan + " plan: field " + fields[i] + " follows an array");
    }
  }

  /** The position of a one-word field. */
  int at(String field) {
    int i = Arrays.asList(fields).indexOf(field);
    if (i < 0 || i >= header) throw new IllegalArgumentException(plan + " plan has no one-word field " + field);
    return i;
  }

  /** The number of one-word fields: where the first array starts. */
  int header() {
    return header;
  }

  /** As native code spells it: every field followed by a comma. */
  public String description() {
    StringBuilder b = new StringBuilder();
    for (String f : fields) b.append(f).append(',');
    return b.toString();
  }

  /** A new plan of header words plus arrayWords, its version word set. */
  long[] allocate(int arrayWords) {
    long[] plan = new long[header + arrayWords];
    plan[0] = VERSION;
    return plan;
  }

  /** Copies array a into plan at w; returns the position after it. */
  static int put(long[] plan, int w, long[] a) {
    System.arraycopy(a, 0, plan, w, a.length);
    return w + a.length;
  }
}
