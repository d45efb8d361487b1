package org.jtensor;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The CPU's property tests on cuda:0 (tag cuda): every op runs on the CPU and on CUDA over the
 * same data in the same layout (DeviceParity), the two agree exactly for integer and bool results
 * and within the dtype's tolerance for floats, and the CUDA result also meets the test's own
 * plain-loop reference. Skipped, with the reason, where CUDA is unavailable.
 */
@Tag("cuda")
@ExtendWith(CudaAccounting.class)
class CudaPropertyTest {
  static final DeviceParity GPU = CudaAccounting.parity();

  @Nested
  class Elementwise extends ElementwisePropertyTest {
    @Override
    protected DeviceParity parity() {
      return GPU;
    }
  }

  @Nested
  class Reductions extends ReductionPropertyTest {
    @Override
    protected DeviceParity parity() {
      return GPU;
    }
  }

  @Nested
  class Matmul extends MatmulPropertyTest {
    @Override
    protected DeviceParity parity() {
      return GPU;
    }
  }
}
