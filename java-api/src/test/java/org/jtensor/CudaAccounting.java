package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.jtensor.cuda.Cuda;
import org.jtensor.memory.Memory;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * For CUDA test classes ({@code @ExtendWith(CudaAccounting.class)}): each test must end with cuda:0's
 * allocated bytes where they began (after a synchronize), as MemoryAccounting asks of the CPU's.
 * Where CUDA is unavailable a test is skipped with the reason, unless {@code -Djt.cuda.required=true}
 * (the gpu profile, gpu-check.sh): then it fails, naming the missing piece, so a GPU run cannot pass
 * without running. With {@code -Djt.cuda.dryRun=true} every CUDA test runs on the CPU instead
 * ({@link #device()}), CPU against CPU: a check of the tests themselves where no GPU is, before GPU
 * time is spent on them.
 */
public final class CudaAccounting implements BeforeEachCallback, AfterEachCallback {
  private static final Device GPU = Device.cuda(0);
  private static final boolean DRY_RUN = Boolean.getBoolean("jt.cuda.dryRun");
  private static final boolean REQUIRED = Boolean.getBoolean("jt.cuda.required");
  private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(CudaAccounting.class);

  /** The device CUDA tests run on: cuda:0, or the CPU in a dry run. */
  public static Device device() {
    return DRY_RUN ? Device.CPU : GPU;
  }

  /** True in a dry run: the CPU stands in for cuda:0, and what only a GPU can show is not asserted. */
  public static boolean dryRun() {
    return DRY_RUN;
  }

  /** Runs a check only a GPU can make (a copy that on the CPU is no copy, asynchrony, pinned memory); nothing in a dry run. */
  public static void gpuOnly(Runnable check) {
    if (!DRY_RUN) check.run();
  }

  /** cuda:0's DeviceParity, or in a dry run one that still runs every op twice on the CPU and compares. */
  public static DeviceParity parity() {
    return new DeviceParity(device(), true);
  }

  /** Fails (required) or skips the calling test where CUDA cannot run here; nothing in a dry run. */
  public static void requireCuda() {
    if (DRY_RUN || Cuda.isAvailable()) return;
    String why = "CUDA: " + Cuda.unavailableReason();
    if (REQUIRED) fail("CUDA is required here (jt.cuda.required) but unavailable: " + why);
    assumeTrue(false, why);
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    requireCuda();
    if (DRY_RUN) return;  // MemoryAccounting checks the CPU's bytes
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
