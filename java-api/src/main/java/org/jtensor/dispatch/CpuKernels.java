package org.jtensor.dispatch;

import org.jtensor.DType;

/** The CPU kernel tables as the registry check resolved them: each op's native id and dtypes. */
final class CpuKernels {
  private static volatile NativeContract.Resolved resolved;

  private CpuKernels() {}

  static void install(NativeContract.Resolved r) {
    resolved = r;
  }

  private static NativeContract.Resolved tables() {
    NativeContract.Resolved r = resolved;
    if (r == null) throw new IllegalStateException("jtensor: the op registry has not been checked against the native kernels");
    return r;
  }

  static int id(Op op) {
    return tables().ids()[op.ordinal];
  }

  static boolean supports(Op op, DType dtype) {
    return (tables().dtypeMasks()[op.ordinal] & (1 << dtype.code())) != 0;
  }
}
