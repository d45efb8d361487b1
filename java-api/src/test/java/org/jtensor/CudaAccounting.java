package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.jtensor.memory.Memory;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * For CUDA test classes ({@code @ExtendWith(CudaAccounting.class)}): each test is skipped, with the
 * reason, where CUDA is unavailable, and must end with cuda:0's allocated bytes where they began
 * (after a synchronize), as MemoryAccounting asks of the CPU's.
 */
public final class CudaAccounting implements BeforeEachCallback, AfterEachCallback {
  private static final Device GPU = Device.cuda(0);
  private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(CudaAccounting.class);

  @Override
  public void beforeEach(ExtensionContext context) {
    assumeTrue(Cuda.isAvailable(), () -> "CUDA: " + Cuda.unavailableReason());
    context.getStore(NS).put("bytes", Memory.memoryAllocated(GPU));
  }

  @Override
  public void afterEach(ExtensionContext context) {
    Long before = context.getStore(NS).get("bytes", Long.class);
    if (before == null) return;  // skipped: nothing ran
    Cuda.synchronize();
    assertEquals(before.longValue(), Memory.memoryAllocated(GPU), "CUDA bytes left allocated");
  }
}
