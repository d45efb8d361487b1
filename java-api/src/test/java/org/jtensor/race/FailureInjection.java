package org.jtensor.race;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.function.IntConsumer;
import org.jtensor.Device;
import org.jtensor.core.DeviceMemory;
import org.jtensor.memory.Memory;
import org.jtensor.memory.TensorOutOfMemoryException;

/** The failure-injection loop the tests of failure paths share (DeviceMemory.failNthAllocation). */
final class FailureInjection {
  private FailureInjection() {}

  /**
   * Runs work(n) for n = 1, 2, ... until a run never reaches its failure; work arms the failure
   * (DeviceMemory.failNthAllocation(n)) where failures are to start. Returns the failures seen.
   */
  static int everyFailure(String what, IntConsumer work) {
    for (int n = 1; ; n++) {
      long before = Memory.memoryAllocated(Device.CPU);
      try {
        work.accept(n);
      } catch (TensorOutOfMemoryException expected) {
        // the injected failure: what follows must not see it
      } finally {
        boolean reached = !DeviceMemory.failureArmed();
        DeviceMemory.failNthAllocation(0);
        assertEquals(before, Memory.memoryAllocated(Device.CPU), what + ": bytes left after allocation " + n + " failed");
        if (!reached) return n - 1;
      }
    }
  }

}
