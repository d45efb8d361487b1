package org.jtensor.dispatch;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jtensor.DType;
import org.jtensor.bindings.JtNative;
import org.jtensor.core.KernelStatus;
import org.jtensor.dispatch.plan.AttentionPacker;
import org.jtensor.dispatch.plan.ConvPacker;
import org.jtensor.dispatch.plan.GridSamplePacker;
import org.jtensor.dispatch.plan.CopyPacker;
import org.jtensor.dispatch.plan.ElementwisePacker;
import org.jtensor.dispatch.plan.FillPacker;
import org.jtensor.dispatch.plan.GemmPacker;
import org.jtensor.dispatch.plan.IndexAdvancedPacker;
import org.jtensor.dispatch.plan.IndexAlongPacker;
import org.jtensor.dispatch.plan.NonzeroPacker;
import org.jtensor.dispatch.plan.NormPacker;
import org.jtensor.dispatch.plan.PlanLayout;
import org.jtensor.dispatch.plan.RandomPacker;
import org.jtensor.dispatch.plan.ReducePacker;
import org.jtensor.dispatch.plan.ScanPacker;
import org.jtensor.dispatch.plan.SoftmaxPacker;
import org.jtensor.dispatch.plan.SearchPacker;
import org.jtensor.dispatch.plan.SelectPacker;
import org.jtensor.dispatch.plan.SortPacker;
import org.jtensor.dispatch.plan.WindowsPacker;

/**
 * Note [One fact, two languages] What an op is lives in the Java registry (org.jtensor.ops.Ops); what
 * a kernel does lives in the native tables. Where both must know a fact (an op's arity, whether
 * it returns bool, the dtype a reduction writes), the two are compared here when the registry
 * loads, and any disagreement stops the load with a message naming the op: a kernel can never
 * write elements of a width Java did not allocate for.
 */
public final class NativeContract {
  private NativeContract() {}

  /** What the native kernel tables say; the JNI answers in use, a doctored copy in tests. */
  interface KernelTables {
    int elementwiseId(String kernel);
    int elementwiseCount();
    String elementwiseName(int id);
    /** 0: no kernel for the dtype; else 1 | arity << 1 | (returns bool) << 4. */
    int elementwiseInfo(int id, int dtype);
    int reductionId(String kernel);
    int reductionOutDtype(int id, int dtype);
    int scanId(String kernel);
    int scanOutDtype(int id, int dtype);
  }

  static final KernelTables JNI = new KernelTables() {
    @Override public int elementwiseId(String kernel) { return JtNative.jt_ew_op_id(kernel); }
    @Override public int elementwiseCount() { return JtNative.jt_ew_op_count(); }
    @Override public String elementwiseName(int id) { return JtNative.jt_ew_op_name(id); }
    @Override public int elementwiseInfo(int id, int dtype) { return JtNative.jt_ew_op_info(id, dtype); }
    @Override public int reductionId(String kernel) { return JtNative.jt_reduce_op_id(kernel); }
    @Override public int reductionOutDtype(int id, int dtype) { return JtNative.jt_reduce_out_dtype(id, dtype); }
    @Override public int scanId(String kernel) { return JtNative.jt_scan_op_id(kernel); }
    @Override public int scanOutDtype(int id, int dtype) { return JtNative.jt_scan_out_dtype(id, dtype); }
  };

  /** The native dtype table (jt/dtype.h), as the C API gives it. */
  interface DTypeTable {
    int count();
    String name(int code);
    int itemSize(int code);
    /** 0 bool, 1 integral, 2 floating. */
    int kind(int code);
  }

  static final DTypeTable JNI_DTYPES = new DTypeTable() {
    @Override public int count() { return JtNative.jt_dtype_count(); }
    @Override public String name(int code) { return JtNative.jt_dtype_name(code); }
    @Override public int itemSize(int code) { return JtNative.jt_dtype_item_size(code); }
    @Override public int kind(int code) { return JtNative.jt_dtype_kind(code); }
  };

  /**
   * The native dtype table against DType's constants: same count, and code i is the constant at
   * ordinal i, with its name, item size and kind.
   */
  static void checkDTypes(DType[] constants, DTypeTable table) {
    if (table.count() != constants.length) {
      throw new IllegalStateException("jtensor: the native dtype table has " + table.count()
          + " dtypes but org.jtensor.DType has " + constants.length);
    }
    for (DType t : constants) {
      int code = t.ordinal();
      String name = table.name(code);
      int size = table.itemSize(code), kind = table.kind(code);
      if (!t.typeName().equals(name)) {
        throw dtypeMismatch(t.typeName(), "native dtype code " + code + " is '" + name + "'");
      }
      if (size != t.itemSize()) {
        throw dtypeMismatch(t.typeName(), "its native item size is " + size + " bytes but the Java primitive that carries it is "
            + t.itemSize() + " bytes wide");
      }
      if (kind != t.kind().ordinal()) {
        throw dtypeMismatch(t.typeName(), "the native table gives kind " + kind + ", Java " + t.kind() + " (" + t.kind().ordinal() + ")");
      }
    }
  }

  private static volatile boolean libraryChecked;

  /**
   * The facts the library and Java both state (the dtype table, the status codes, the plan
   * layouts), compared once before a backend runs its first kernel: each backend's class calls it.
   */
  static void checkLibrary() {
    if (libraryChecked) return;
    synchronized (NativeContract.class) {
      if (libraryChecked) return;
      checkDTypes(DType.values(), JNI_DTYPES);
      checkStatuses(JNI_STATUSES);
      checkPlans(PLANS, JNI_PLANS);
      libraryChecked = true;
    }
  }

  private static IllegalStateException dtypeMismatch(String dtype, String what) {
    return new IllegalStateException("jtensor: org.jtensor.DType and the native dtype table disagree on dtype '" + dtype + "': " + what);
  }

  /** Each op's native kernel id and the dtypes it has a kernel for (bit per dtype code), by op ordinal. */
  record Resolved(int[] ids, int[] dtypeMasks) {}

  /** What native code says of its plans (jt/plans.h). */
  interface PlanTable {
    int version();
    /** The layout string of a plan, null when native code has no such plan. */
    String layout(String plan);
  }

  static final PlanTable JNI_PLANS = new PlanTable() {
    @Override public int version() { return JtNative.jt_plan_version(); }
    @Override public String layout(String plan) { return JtNative.jt_plan_layout(plan); }
  };

  /** The native status codes (jt.h), as the C API gives them. */
  interface StatusTable {
    int count();
    String name(int code);
  }

  static final StatusTable JNI_STATUSES = new StatusTable() {
    @Override public int count() { return JtNative.jt_status_count(); }
    @Override public String name(int code) { return JtNative.jt_status_name(code); }
  };

  static void checkStatuses(StatusTable table) {
    KernelStatus[] javaSide = KernelStatus.values();
    for (int code = 0; code < Math.max(javaSide.length, table.count()); code++) {
      String javaName = code < javaSide.length ? javaSide[code].name().toLowerCase(java.util.Locale.ROOT) : null;
      String nativeName = code < table.count() ? table.name(code) : null;
      if (javaName == null || !javaName.equals(nativeName)) {
        throw new IllegalStateException("jtensor: org.jtensor.core.KernelStatus and jt.h's status codes disagree at code " + code
            + ": Java says " + (javaName == null ? "nothing" : "'" + javaName + "'") + ", native code "
            + (nativeName == null ? "nothing" : "'" + nativeName + "'"));
      }
    }
  }

  /** Every plan Java packs. */
  static final List<PlanLayout> PLANS = List.of(CopyPacker.LAYOUT, FillPacker.LAYOUT, ElementwisePacker.LAYOUT,
      ReducePacker.LAYOUT, ScanPacker.LAYOUT, GemmPacker.LAYOUT, IndexAlongPacker.LAYOUT,
      RandomPacker.LAYOUT, IndexAdvancedPacker.LAYOUT, NonzeroPacker.LAYOUT, SortPacker.LAYOUT, SelectPacker.LAYOUT, SearchPacker.LAYOUT,
      SoftmaxPacker.LAYOUT, WindowsPacker.LAYOUT, WindowsPacker.MAX_POOL_LAYOUT, NormPacker.LAYOUT,
      AttentionPacker.LAYOUT, ConvPacker.LAYOUT, GridSamplePacker.LAYOUT);

  /**
   * Checks the registry against the CPU kernel tables and every packer against native code's
   * plan layouts, then hands the CPU backend the kernel ids. Runs when the registry loads.
   */
  public static void verify(List<Op> ops) {
    checkLibrary();
    CpuKernels.install(check(ops, JNI));
  }

  static void checkPlans(List<PlanLayout> plans, PlanTable table) {
    if (table.version() != PlanLayout.VERSION) {
      throw new IllegalStateException("jtensor: Java packs plans of layout version " + PlanLayout.VERSION
          + " but the native library reads version " + table.version());
    }
    for (PlanLayout p : plans) {
      String nativeLayout = table.layout(p.plan);
      if (!p.description().equals(nativeLayout)) {
        throw new IllegalStateException("jtensor: the " + p.plan + " plan is laid out differently in Java ("
            + p.description() + ") and in native code (" + (nativeLayout == null ? "no such plan" : nativeLayout) + ")");
      }
    }
  }

  static Resolved check(List<Op> ops, KernelTables tables) {
    int n = ops.isEmpty() ? 0 : ops.get(ops.size() - 1).ordinal + 1;
    int[] ids = new int[n], masks = new int[n];
    Set<String> elementwiseKernels = new HashSet<>();
    for (Op op : ops) {
      if (op.family == Op.Family.COMPOSITE) continue;  // checked through the plans it runs
      int id = kernelId(op, tables);
      if (id < 0) throw mismatch(op, "the native " + table(op) + " table has no kernel '" + op.kernel + "'");
      int mask = 0;
      for (DType t : DType.values()) {
        if (op.family == Op.Family.ELEMENTWISE) {
          int info = tables.elementwiseInfo(id, t.code());
          if (info == 0) continue;
          int arity = (info >> 1) & 7;
          boolean bool = (info & 16) != 0;
          if (arity != op.arity) {
            throw mismatch(op, "it takes " + op.arity + " inputs in the registry but its kernel '" + op.kernel + "' takes " + arity);
          }
          if (bool != op.returnsBool()) {
            throw mismatch(op, (op.returnsBool() ? "it returns bool in the registry but its kernel '" + op.kernel + "' does not"
                : "its kernel '" + op.kernel + "' returns bool but the registry does not say so"));
          }
          elementwiseKernels.add(op.kernel);
        } else {
          int out = op.family == Op.Family.REDUCTION ? tables.reductionOutDtype(id, t.code()) : tables.scanOutDtype(id, t.code());
          if (out < 0) continue;
          DType want = op.reduceKind.out(t);
          if (out != want.code()) {
            throw mismatch(op, "for " + t + " input it returns " + want + " in the registry but its kernel '" + op.kernel
                + "' writes " + (out < DType.values().length ? DType.values()[out] : "dtype code " + out));
          }
        }
        mask |= 1 << t.code();
      }
      if (mask == 0) throw mismatch(op, "its kernel '" + op.kernel + "' has no dtype at all");
      ids[op.ordinal] = id;
      masks[op.ordinal] = mask;
    }
    for (int i = 0; i < tables.elementwiseCount(); i++) {
      String kernel = tables.elementwiseName(i);
      if (!elementwiseKernels.contains(kernel)) {
        throw new IllegalStateException("jtensor: the native elementwise kernel '" + kernel + "' has no entry in the op registry");
      }
    }
    return new Resolved(ids, masks);
  }

  private static int kernelId(Op op, KernelTables tables) {
    switch (op.family) {
      case ELEMENTWISE: return tables.elementwiseId(op.kernel);
      case REDUCTION: return tables.reductionId(op.kernel);
      default: return tables.scanId(op.kernel);
    }
  }

  private static String table(Op op) {
    return op.family.name().toLowerCase(java.util.Locale.ROOT);
  }

  private static IllegalStateException mismatch(Op op, String what) {
    return new IllegalStateException("jtensor: the op registry and the native kernels disagree on op '" + op.name + "': " + what);
  }
}
