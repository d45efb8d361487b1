package org.jtensor.dispatch;

import org.jtensor.DType;
import org.jtensor.bindings.JtCuda;
import org.jtensor.bindings.JtNative;

/**
 * The CUDA elementwise table: built by nvcc from the CPU's functor lists in the same order, so an
 * op's CPU id (CpuKernels.id) is its CUDA id too; checkTable proves that when CUDA is probed.
 */
final class CudaKernels {
  private CudaKernels() {}

  /** Refuses a libjtensor_cuda.so whose table is not the CPU's, op by op. */
  static void checkTable() {
    int n = JtNative.jt_ew_op_count();
    if (JtCuda.jtc_ew_op_count() != n) {
      throw new IllegalStateException("jtensor: the CUDA elementwise table has " + JtCuda.jtc_ew_op_count()
          + " ops, the CPU's " + n + ": libjtensor_cuda.so is not from this build");
    }
    for (int i = 0; i < n; i++) {
      if (!JtNative.jt_ew_op_name(i).equals(JtCuda.jtc_ew_op_name(i))) {
        throw new IllegalStateException("jtensor: elementwise op " + i + " is " + JtNative.jt_ew_op_name(i)
            + " on the CPU but " + JtCuda.jtc_ew_op_name(i) + " on CUDA");
      }
    }
  }

  static boolean supports(Op op, DType dtype) {
    return JtCuda.jtc_ew_op_info(CpuKernels.id(op), dtype.code()) > 0;
  }
}
