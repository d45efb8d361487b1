package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A tensor re-pointed by set_ on another thread, between a writable storage and a read-only one,
 * while this thread writes through it: every write lands in the writable storage or is refused,
 * never in the read-only bytes (the read-only check and the held storage must be the same one).
 */
class ReadOnlyRaceTest {
  @Test
  void setOnAnotherThreadNeverSlipsAWriteIntoReadOnlyBytes() throws InterruptedException {
    int n = 256;
    ByteBuffer bytes = ByteBuffer.allocateDirect(4 * n).order(ByteOrder.nativeOrder());
    float[] original = new float[n];
    for (int i = 0; i < n; i++) original[i] = i;
    bytes.asFloatBuffer().put(original);
    try (Tensor ro = Tensor.fromBuffer(bytes.asReadOnlyBuffer(), DType.FLOAT32);
         Storage roStorage = ro.untypedStorage();
         Storage writable = Storage.allocate(4L * n, Device.CPU);
         Tensor t = Tensor.empty(new long[] {0}).set_(writable, 0, new long[] {n}, new long[] {1});
         Tensor zeros = Tensor.zeros(n)) {
      AtomicBoolean stop = new AtomicBoolean();
      AtomicReference<Throwable> failure = new AtomicReference<>();
      Thread flipper = new Thread(() -> {
        try {
          for (int i = 0; !stop.get(); i++) t.set_(i % 2 == 0 ? roStorage : writable, 0, new long[] {n}, new long[] {1});
        } catch (Throwable e) {
          failure.set(e);
        }
      });
      flipper.start();
      long end = System.nanoTime() + 1_500_000_000L;
      int refused = 0;
      try {
        for (int i = 0; System.nanoTime() < end; i++) {
          try {
            switch (i % 4) {
              case 0 -> t.fill_(-1.0);
              case 1 -> t.setDouble(-1, i % n);
              case 2 -> t.add_(1.0);
              default -> t.copy_(zeros);
            }
          } catch (IllegalStateException e) {
            assertTrue(e.getMessage().contains("read-only"), e.getMessage());
            refused++;
          }
        }
      } finally {
        stop.set(true);
        flipper.join();
      }
      if (failure.get() != null) throw new AssertionError("set_ failed", failure.get());
      assertTrue(refused > 0, "the race was never even reached");
      float[] now = new float[n];
      bytes.asFloatBuffer().get(now);
      assertArrayEquals(original, now, "a write landed in the read-only bytes");
    }
  }
}
