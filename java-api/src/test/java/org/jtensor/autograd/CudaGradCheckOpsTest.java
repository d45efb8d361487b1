package org.jtensor.autograd;

import org.jtensor.CudaAccounting;
import org.jtensor.Device;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Autograd on CUDA tensors (tag cuda): every case of GradCheckOpsTest, first and second order,
 * with its leaves on cuda:0, so the forward graph, backward and the finite differences all run
 * there. Skipped, with the reason, where CUDA is unavailable.
 */
@Tag("cuda")
@ExtendWith(CudaAccounting.class)
class CudaGradCheckOpsTest extends GradCheckOpsTest {
  @Override
  protected Device device() {
    return CudaAccounting.device();
  }
}
