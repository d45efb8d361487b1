package org.jtensor.examples.gpt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.jtensor.Device;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.data.Batch;
import org.jtensor.data.BatchIterator;
import org.jtensor.data.DataLoader;
import org.jtensor.memory.Memory;
import org.junit.jupiter.api.Test;

/**
 * The GPT job's batches: window i is (ids[i, i+t), ids[i+1, i+t+1)); a run resumed after any number
 * of batches, across epochs too, is served the batches the straight run was; a text too short for
 * one batch is refused naming the lengths.
 */
class TextWindowsTest {
  @Test
  void resumingAfterAnyBatchServesTheStraightRunsNextBatches() {
    long before = Memory.memoryAllocated(Device.CPU);
    try (Tensor ids = Tensor.arange(40)) {
      List<long[]> straight = new ArrayList<>();
      try (DataLoader<List<Tensor>> loader = TextWindows.loader(ids, 5, 4, new Generator(7), "training")) {
        assertEquals(8, loader.size(), "35 windows, 8 full batches of 4");
        for (int e = 0; e < 3; e++) {
          for (Batch b : loader) {
            long[] x = b.get(0).toLongArray(), y = b.get(1).toLongArray();
            for (int i = 0; i < x.length; i++) assertEquals(x[i] + 1, y[i], "targets are the next characters");
            for (int i = 0; i < x.length; i += 5) assertEquals(x[i] + 4, x[i + 4], "a window is consecutive ids");
            straight.add(x);
          }
        }
      }
      for (int consumed : new int[] {0, 3, 8, 13, 23}) {
        try (DataLoader<List<Tensor>> loader = TextWindows.loader(ids, 5, 4, new Generator(7), "training");
             BatchIterator it = TextWindows.resumeAt(loader, consumed)) {
          BatchIterator batches = it;
          for (int k = consumed; k < Math.min(consumed + 4, straight.size()); k++) {
            if (!batches.hasNext()) batches = loader.iterator();
            assertArrayEquals(straight.get(k), batches.next().get(0).toLongArray(), "batch " + k + " resumed after " + consumed);
          }
        }
      }
      String m = assertThrows(IllegalArgumentException.class, () -> TextWindows.loader(ids, 38, 4, new Generator(7), "validation")).getMessage();
      assertTrue(m.contains("the validation text has 40 characters") && m.contains("needs 42 at least"), m);
    }
    assertEquals(before, Memory.memoryAllocated(Device.CPU), "bytes left allocated");
  }
}
