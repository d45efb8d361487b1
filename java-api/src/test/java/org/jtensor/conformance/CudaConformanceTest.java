package org.jtensor.conformance;

import org.jtensor.CudaAccounting;
import org.jtensor.Device;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The whole conformance suite on cuda:0 (tag cuda): views.json, promotion.json and ops.json with
 * its autograd cases, each case run on CUDA against libtorch's reference, and the forward op cases
 * also against the CPU's result on the same data. Skipped, with the reason, where CUDA is unavailable.
 */
@Tag("cuda")
@ExtendWith(CudaAccounting.class)
class CudaConformanceTest {
  private static final Device GPU = CudaAccounting.device();

  @Test
  void everyViewCaseMatchesLibtorchOnCuda() {
    ViewsConformanceTest.runCases(GPU);
  }

  @Test
  void everyPromotionCaseMatchesLibtorchOnCuda() {
    PromotionConformanceTest.runCases(GPU);
  }

  @Test
  void everyForwardCaseMatchesLibtorchAndTheCpuOnCuda() {
    OpsConformanceTest.runForwardCases(CudaAccounting.parity());
  }

  @Test
  void everyAutogradCaseMatchesLibtorchOnCuda() {
    AutogradConformanceTest.runCases(CudaAccounting.parity());
  }
}
