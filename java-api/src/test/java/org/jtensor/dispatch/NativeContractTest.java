package org.jtensor.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.junit.jupiter.api.Test;

/** Each fact Java and C++ both hold is compared at load: change one side and the load refuses, naming the op. */
class NativeContractTest {
  /** The real native tables, with one answer changed by a subclass. */
  private static class Doctored implements NativeContract.KernelTables {
    @Override public int elementwiseId(String kernel) { return NativeContract.JNI.elementwiseId(kernel); }
    @Override public int elementwiseCount() { return NativeContract.JNI.elementwiseCount(); }
    @Override public String elementwiseName(int id) { return NativeContract.JNI.elementwiseName(id); }
    @Override public int elementwiseInfo(int id, int dtype) { return NativeContract.JNI.elementwiseInfo(id, dtype); }
    @Override public int reductionId(String kernel) { return NativeContract.JNI.reductionId(kernel); }
    @Override public int reductionOutDtype(int id, int dtype) { return NativeContract.JNI.reductionOutDtype(id, dtype); }
    @Override public int scanId(String kernel) { return NativeContract.JNI.scanId(kernel); }
    @Override public int scanOutDtype(int id, int dtype) { return NativeContract.JNI.scanOutDtype(id, dtype); }
  }

  private static List<Op> registry() {
    try (Tensor t = Tensor.ones(1); Tensor u = t.neg()) {  // loads the registry (org.jtensor.ops.Ops)
      return Op.registered();
    }
  }

  private static void refuses(NativeContract.KernelTables tables, String message) {
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> NativeContract.check(registry(), tables));
    assertEquals(message, e.getMessage());
  }

  @Test
  void theRealTablesAgreeWithTheRegistry() {
    NativeContract.Resolved r = NativeContract.check(registry(), NativeContract.JNI);
    assertEquals(registry().size(), r.ids().length);
  }

  @Test
  void anArityThatDiffersStopsTheLoad() {
    int add = NativeContract.JNI.elementwiseId("add");
    refuses(new Doctored() {
      @Override public int elementwiseInfo(int id, int dtype) {
        int info = super.elementwiseInfo(id, dtype);
        return id == add && info != 0 ? (info & ~(7 << 1)) | (3 << 1) : info;
      }
    }, "jtensor: the op registry and the native kernels disagree on op 'add': it takes 2 inputs in the registry but its kernel 'add' takes 3");
  }

  @Test
  void aBoolResultThatDiffersStopsTheLoad() {
    int eq = NativeContract.JNI.elementwiseId("eq");
    refuses(new Doctored() {
      @Override public int elementwiseInfo(int id, int dtype) {
        int info = super.elementwiseInfo(id, dtype);
        return id == eq ? info & ~16 : info;
      }
    }, "jtensor: the op registry and the native kernels disagree on op 'eq': it returns bool in the registry but its kernel 'eq' does not");
  }

  @Test
  void aReductionDtypeThatDiffersStopsTheLoad() {
    int sum = NativeContract.JNI.reductionId("sum");
    refuses(new Doctored() {
      @Override public int reductionOutDtype(int id, int dtype) {
        return id == sum && dtype == org.jtensor.DType.INT32.code() ? dtype : super.reductionOutDtype(id, dtype);
      }
    }, "jtensor: the op registry and the native kernels disagree on op 'sum': for int32 input it returns int64 in the "
        + "registry but its kernel 'sum' writes int32");
  }

  @Test
  void aMissingOrUnregisteredKernelStopsTheLoad() {
    refuses(new Doctored() {
      @Override public int scanId(String kernel) {
        return kernel.equals("cumprod") ? -1 : super.scanId(kernel);
      }
    }, "jtensor: the op registry and the native kernels disagree on op 'cumprod': the native scan table has no kernel 'cumprod'");
    refuses(new Doctored() {
      @Override public int elementwiseCount() { return super.elementwiseCount() + 1; }
      @Override public String elementwiseName(int id) { return id == super.elementwiseCount() ? "frobnicate" : super.elementwiseName(id); }
    }, "jtensor: the native elementwise kernel 'frobnicate' has no entry in the op registry");
  }

  /** The real native dtype table with one answer changed. */
  private static class DoctoredDTypes implements NativeContract.DTypeTable {
    @Override public int count() { return NativeContract.JNI_DTYPES.count(); }
    @Override public String name(int code) { return NativeContract.JNI_DTYPES.name(code); }
    @Override public int itemSize(int code) { return NativeContract.JNI_DTYPES.itemSize(code); }
    @Override public int kind(int code) { return NativeContract.JNI_DTYPES.kind(code); }
  }

  @Test
  void dtypeStatesWhatTheNativeTableStates() {
    NativeContract.checkDTypes(DType.values(), NativeContract.JNI_DTYPES);
    for (DType t : DType.values()) {
      assertEquals(NativeContract.JNI_DTYPES.itemSize(t.code()), t.itemSize(), t.name());
      assertEquals(NativeContract.JNI_DTYPES.name(t.code()), t.typeName());
      assertEquals(NativeContract.JNI_DTYPES.kind(t.code()), t.kind().ordinal());
    }
    assertEquals(2, DType.BFLOAT16.itemSize());
    assertEquals("bfloat16", DType.BFLOAT16.toString());
  }

  @Test
  void aDTypeItemSizeThatDiffersStopsTheLoad() {
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> NativeContract.checkDTypes(DType.values(),
        new DoctoredDTypes() {
          @Override public int itemSize(int code) { return code == DType.FLOAT32.code() ? 8 : super.itemSize(code); }
        }));
    assertEquals("jtensor: org.jtensor.DType and the native dtype table disagree on dtype 'float32': its native item size is 8"
        + " bytes but the Java primitive that carries it is 4 bytes wide", e.getMessage());
  }

  @Test
  void aDTypeKindThatDiffersStopsTheLoad() {
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> NativeContract.checkDTypes(DType.values(),
        new DoctoredDTypes() {
          @Override public int kind(int code) { return code == DType.BOOL.code() ? 1 : super.kind(code); }
        }));
    assertEquals("jtensor: org.jtensor.DType and the native dtype table disagree on dtype 'bool': the native table gives kind 1, "
        + "Java BOOL (0)", e.getMessage());
  }

  @Test
  void aDTypeNameOrCountThatDiffersStopsTheLoad() {
    IllegalStateException named = assertThrows(IllegalStateException.class, () -> NativeContract.checkDTypes(DType.values(),
        new DoctoredDTypes() {
          @Override public String name(int code) { return code == 6 ? "half" : super.name(code); }
        }));
    assertEquals("jtensor: org.jtensor.DType and the native dtype table disagree on dtype 'float16': native dtype code 6 is 'half'",
        named.getMessage());
    IllegalStateException counted = assertThrows(IllegalStateException.class, () -> NativeContract.checkDTypes(DType.values(),
        new DoctoredDTypes() {
          @Override public int count() { return 11; }
        }));
    assertEquals("jtensor: the native dtype table has 11 dtypes but org.jtensor.DType has 10", counted.getMessage());
  }

  @Test
  void everyPackerMatchesTheNativePlanLayouts() {
    NativeContract.checkPlans(NativeContract.PLANS, NativeContract.JNI_PLANS);
    assertEquals("version,ndim,dst,dst_dtype,src,src_dtype,sizes[ndim],dst_strides[ndim],src_strides[ndim],",
        NativeContract.JNI_PLANS.layout("copy"));
  }

  @Test
  void aPlanLayoutOrVersionThatDiffersStopsTheLoad() {
    IllegalStateException moved = assertThrows(IllegalStateException.class, () -> NativeContract.checkPlans(NativeContract.PLANS,
        new NativeContract.PlanTable() {
          @Override public int version() { return NativeContract.JNI_PLANS.version(); }
          @Override public String layout(String plan) {
            String l = NativeContract.JNI_PLANS.layout(plan);
            return plan.equals("scan") ? l.replace("dim,out,in,", "dim,in,out,") : l;
          }
        }));
    assertEquals("jtensor: the scan plan is laid out differently in Java (version,op,dtype,out_dtype,ndim,dim,out,in,indices,sizes[ndim],"
        + "out_strides[ndim],in_strides[ndim],indices_strides[ndim],) and in native code (version,op,dtype,out_dtype,ndim,dim,in,out,"
        + "indices,sizes[ndim],out_strides[ndim],in_strides[ndim],indices_strides[ndim],)", moved.getMessage());
    IllegalStateException versioned = assertThrows(IllegalStateException.class, () -> NativeContract.checkPlans(NativeContract.PLANS,
        new NativeContract.PlanTable() {
          @Override public int version() { return 2; }
          @Override public String layout(String plan) { return NativeContract.JNI_PLANS.layout(plan); }
        }));
    assertEquals("jtensor: Java packs plans of layout version 1 but the native library reads version 2", versioned.getMessage());
  }

  @Test
  void kernelStatusMatchesTheNativeStatusCodes() {
    NativeContract.checkStatuses(NativeContract.JNI_STATUSES);
    assertEquals("index_out_of_range", NativeContract.JNI_STATUSES.name(org.jtensor.core.KernelStatus.INDEX_OUT_OF_RANGE.code()));
    IllegalStateException swapped = assertThrows(IllegalStateException.class, () -> NativeContract.checkStatuses(
        new NativeContract.StatusTable() {
          @Override public int count() { return NativeContract.JNI_STATUSES.count(); }
          @Override public String name(int code) {
            return code == 4 ? "value_out_of_range" : code == 5 ? "index_out_of_range" : NativeContract.JNI_STATUSES.name(code);
          }
        }));
    assertEquals("jtensor: org.jtensor.core.KernelStatus and jt.h's status codes disagree at code 4: Java says "
        + "'index_out_of_range', native code 'value_out_of_range'", swapped.getMessage());
    IllegalStateException added = assertThrows(IllegalStateException.class, () -> NativeContract.checkStatuses(
        new NativeContract.StatusTable() {
          @Override public int count() { return NativeContract.JNI_STATUSES.count() + 1; }
          @Override public String name(int code) { return code == count() - 1 ? "timed_out" : NativeContract.JNI_STATUSES.name(code); }
        }));
    assertEquals("jtensor: org.jtensor.core.KernelStatus and jt.h's status codes disagree at code 7: Java says nothing, "
        + "native code 'timed_out'", added.getMessage());
  }
}
