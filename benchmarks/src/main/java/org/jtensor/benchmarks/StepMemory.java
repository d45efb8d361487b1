package org.jtensor.benchmarks;

import org.jtensor.Device;
import org.jtensor.memory.Memory;

/**
 * The extra memory one CNN training step of TrainingStepBenchmark (batch 128, Adam) needs: the
 * allocator's peak allocated bytes over 10 steps less what was allocated before the first (the
 * model and the batch), and the growth of the process's peak resident set (VmHWM, which also sees
 * the kernels' own scratch and the JVM), beside PyTorch's growth of ru_maxrss over the same steps
 * (peers/torch_step_memory_peer.py). Run: java -cp benchmarks.jar org.jtensor.benchmarks.StepMemory
 */
public final class StepMemory {
  private StepMemory() {}

  public static void main(String[] args) {
    TrainingStepBenchmark b = new TrainingStepBenchmark();
    b.model = "cnn";
    b.setup();
    try {
      long before = Memory.memoryAllocated(Device.CPU), hwm = peakResidentKiB();
      Memory.resetPeakMemoryStats(Device.CPU);
      for (int i = 0; i < 10; i++) b.step();
      long peak = Memory.maxMemoryAllocated(Device.CPU), hwmGrowth = peakResidentKiB() - hwm;
      System.out.printf("jtensor cnnStepPeakMiB %.2f (allocated before the first step %.2f MiB, reserved now %.2f MiB; VmHWM grew %.2f MiB)%n",
          (peak - before) / 1048576.0, before / 1048576.0, Memory.memoryReserved(Device.CPU) / 1048576.0, hwmGrowth / 1024.0);
    } finally {
      b.tearDown();
    }
  }

  /** The process's peak resident set so far (VmHWM in /proc/self/status), KiB; 0 where there is no such file. */
  static long peakResidentKiB() {
    try {
      for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/status"))) {
        if (line.startsWith("VmHWM:")) return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    } catch (java.io.IOException | NumberFormatException e) {
      return 0;
    }
    return 0;
  }
}
