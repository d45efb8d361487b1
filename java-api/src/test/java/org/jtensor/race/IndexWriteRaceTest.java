package org.jtensor.race;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import org.jtensor.DType;
import org.jtensor.Index;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.junit.jupiter.api.Test;

/**
 * Writes through an index that another thread changes while the op runs. The kernels check every
 * index before a byte changes, then read the indices again as they write: an index made bad between
 * the two readings must be caught at the second too. The values of such a race are undefined (as
 * PyTorch's), but nothing may be written outside the target: here the bytes right after it, in
 * the same storage, stay as they were.
 */
class IndexWriteRaceTest {
  private static final int N = 4096, CALLS = 3000;

  @Test
  void anIndexMadeBadDuringTheWriteNeverWritesPastTheTarget() throws Exception {
    List<BiConsumer<Tensor, Tensor>> writes = List.of(
        (target, index) -> target.set(Tensor.zeros(N), Index.of(index)),              // index put
        (target, index) -> target.scatter_(0, index, Tensor.zeros(N)),               // scatter
        (target, index) -> target.indexAdd_(0, index, Tensor.ones(N)));             // index add
    for (BiConsumer<Tensor, Tensor> write : writes) {
      try (TensorScope s = TensorScope.open()) {
        Tensor base = Tensor.full(new long[] {2L * N}, 7.0, DType.FLOAT32), target = base.narrow(0, 0, N);
        Tensor index = Tensor.arange(N), last = index.narrow(0, N - 1, 1);
        AtomicBoolean stop = new AtomicBoolean();
        Thread flipper = new Thread(() -> {
          try (TensorScope t = TensorScope.open()) {
            while (!stop.get()) {
              last.fill_(N + 5);  // out of range for the target: the bytes after it
              last.fill_(N - 1);
            }
          }
        });
        flipper.start();
        int refused = 0;
        // CALLS calls, then on until one saw the bad index (at most 20 s): on a loaded host the
        // flipper may not get a core during the first CALLS (it failed once so, under four builds)
        long deadline = System.nanoTime() + 20_000_000_000L;
        try {
          for (int i = 0; i < CALLS || (refused == 0 && System.nanoTime() < deadline); i++) {
            try (TensorScope call = TensorScope.open()) {
              write.accept(target, index);
            } catch (IndexOutOfBoundsException | IllegalArgumentException e) {
              refused++;
            }
          }
        } finally {
          stop.set(true);
          flipper.join();
        }
        float[] after = base.narrow(0, N, N).toFloatArray();
        for (int i = 0; i < N; i++) assertEquals(7f, after[i], "element " + i + " past the target was written");
        assertTrue(refused > 0, "the race never happened: no call saw the bad index");
      }
    }
  }
}
