package org.jtensor.core;

/**
 * What a kernel entry point answers (jt.h's JT_FORALL_STATUSES, in code order: this enum's
 * ordinal is the code). NativeContract compares the two lists by name when the library loads, so
 * a code added or reordered on one side stops the load instead of being read as another.
 */
public enum KernelStatus {
  OK,
  /** Scratch or device memory was refused. */
  OUT_OF_MEMORY,
  /** A plan native code refused (another layout version, an output dtype it would not write, an offset outside its storage). */
  INVALID,
  /** No kernel for the op and dtype. */
  NO_KERNEL,
  /** An index tensor held a value outside its dim (reported, nothing written). */
  INDEX_OUT_OF_RANGE,
  /** An input held a value outside the op's domain (reported, nothing written). */
  VALUE_OUT_OF_RANGE,
  /** The CUDA runtime refused a launch or a copy (libjtensor_cuda only; jtc_last_error names it). */
  CUDA_ERROR;

  private static final KernelStatus[] BY_CODE = values();

  /** The status of a code a kernel returned; null for a code neither list has. */
  public static KernelStatus of(int code) {
    return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
  }

  public int code() {
    return ordinal();
  }
}
