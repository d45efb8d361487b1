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
 * (after a synchronize), as MemoryAccounting asks of the CPU's. With -Djt.cuda.dryRun=true the
 * device-parameterized CUDA tests run on the CPU instead ({@link #device()}), CPU against CPU: a
 * check of the tests themselves where no GPU is, before GPU time is spent on them.
 */
public final class CudaAccounting implements BeforeEachCallback, AfterEachCallback {
  private static final Device GPU = Device.cuda(0);
  private static final boolean DRY_RUN = Boolean.getBoolean("jt.cuda.dryRun");
  private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(CudaAccounting.class);

  /** The device CUDA tests run on: cuda:0, or the CPU in a dry run. */
  public static Device device() {
    return DRY_RUN ? Device.CPU : GPU;
  }

  /** cuda:0's DeviceParity, or in a dry run one that still runs every op twice on the CPU and compares. */
  public static DeviceParity parity() {
    return new DeviceParity(device(), true);
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    if (DRY_RUN) return;  // MemoryAccounting checks the CPU's bytes
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
