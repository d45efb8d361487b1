package org.jtensor;

import java.util.ArrayDeque;
import java.util.function.Supplier;
import org.jtensor.memory.Memory;
import org.jtensor.memory.TensorOutOfMemoryException;

/**
 * The hostile tests' refused allocations: the CPU's memory limit set at what is reserved and the
 * free space filled, then given back a chunk at a time, a round run after each. A round may only
 * end in its right result or the allocator's TensorOutOfMemoryException, and leaves no byte
 * either way.
 */
public final class RefusedMemory {
  private RefusedMemory() {}

  /**
   * Runs round (in a scope of its own) after each chunk of `chunkBytes` given back, until it gave
   * want `rights` times or the fillers ran out; fails naming `what` on a wrong result, on bytes
   * left by a round, or when no round was refused or fewer than `rights` were right. The limit and
   * the fillers are restored and closed whatever happens.
   */
  public static void stepThrough(String what, long chunkBytes, int rights, double[][] want, Supplier<double[][]> round) {
    long limit = Memory.memoryLimit(Device.CPU);
    int refused = 0, right = 0;
    ArrayDeque<Tensor> fillers = new ArrayDeque<>();
    try {
      Memory.emptyCache(Device.CPU);
      Memory.setMemoryLimit(Device.CPU, Memory.memoryReserved(Device.CPU));
      try {
        while (true) fillers.push(Tensor.empty(chunkBytes / 4));
      } catch (TensorOutOfMemoryException e) {
        // the free space is full
      }
      while (right < rights) {
        long filled = allocated();
        boolean refusedNow = false;
        try (TensorScope s = TensorScope.open()) {
          double[][] got = round.get();
          for (int k = 0; k < want.length; k++) {
            if (!java.util.Arrays.equals(want[k], got[k])) throw new AssertionError(what + ": result " + k + " differs with " + fillers.size() + " fillers");
          }
          right++;
        } catch (TensorOutOfMemoryException e) {
          refused++;
          refusedNow = true;
        }
        if (allocated() != filled) throw new AssertionError(what + ": " + (allocated() - filled) + " bytes left with " + fillers.size() + " fillers");
        if (fillers.isEmpty()) {
          if (refusedNow) break;  // refused with every filler given back: the limit itself is too low
          continue;
        }
        fillers.pop().close();
      }
    } finally {
      fillers.forEach(Tensor::close);
      Memory.setMemoryLimit(Device.CPU, limit);
    }
    if (refused == 0 || right < rights) throw new AssertionError(what + ": " + refused + " refused, " + right + " right");
  }

  public static long allocated() {
    return Memory.memoryStats(Device.CPU).get("allocated_bytes.all.current");
  }
}
