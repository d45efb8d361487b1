package org.jtensor.io;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.zip.CRC32;

/**
 * A CRC-32 computed on a helper thread, one region after another in the order given, so that the
 * checksum of the bytes just moved overlaps the transfer of the next ones (at disk or page-cache
 * speed a CRC-32 in line would cost a third of the time). Regions are read in place, never
 * copied; the caller keeps their memory alive until {@link #await()} or {@link #value()} returns.
 */
final class CrcPipeline {
  /** Bytes per region handed to the helper: small enough to overlap, large enough to amortize a hand-off. */
  static final int SLICE = 16 << 20;

  private static final ExecutorService HELPERS = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "jtensor-io-crc");
    t.setDaemon(true);
    return t;
  });

  private final CRC32 crc = new CRC32();
  private CompletableFuture<Void> tail = CompletableFuture.completedFuture(null);

  /** Adds region's remaining bytes (read from a duplicate; region itself is left as it is). */
  void update(ByteBuffer region) {
    ByteBuffer view = region.duplicate();
    if (view.remaining() < 64 << 10) {  // small: in line, after whatever is queued
      await();
      crc.update(view);
      return;
    }
    tail = tail.thenRunAsync(() -> crc.update(view), HELPERS);
  }

  /** Waits until every region given so far has been summed. */
  void await() {
    boolean interrupted = false;
    while (true) {
      try {
        tail.get();
        break;
      } catch (InterruptedException e) {
        interrupted = true;  // the regions' memory must outlive the helper's reads: finish waiting
      } catch (java.util.concurrent.ExecutionException e) {
        throw new IllegalStateException("CRC-32 helper failed", e.getCause());
      }
    }
    if (interrupted) Thread.currentThread().interrupt();
  }

  /** The CRC-32 of every region so far, in order. */
  long value() {
    await();
    return crc.getValue();
  }
}
