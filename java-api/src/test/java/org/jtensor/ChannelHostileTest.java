package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Storage.readFrom / writeTo against channels that misbehave: ones that never make progress,
 * lie about it, throw, write into what they were given to write out, and a close() on another
 * thread in the middle of a transfer. Each ends in an exception or the right bytes, never a hang
 * or a crash.
 */
class ChannelHostileTest {
  private static final Duration NO_HANG = Duration.ofSeconds(20);

  /** A channel that is always open and closes to nothing: the misbehaviour is in read or write. */
  private abstract static class Open implements java.nio.channels.Channel {
    @Override
    public boolean isOpen() {
      return true;
    }

    @Override
    public void close() {}
  }

  private abstract static class Reader extends Open implements ReadableByteChannel {}

  private abstract static class Writer extends Open implements WritableByteChannel {}

  /** A channel that reports nothing ready, forever (a non-blocking source that never fills), or lies about it. */
  private static final class Starved extends Open implements ReadableByteChannel, WritableByteChannel {
    boolean lie;  // report progress it did not make
    boolean rewind;  // make some, then move the position back before it

    @Override
    public int read(ByteBuffer dst) {
      if (rewind) {
        int at = dst.position();
        dst.put((byte) 1);
        dst.position(Math.max(0, at - 1));
        return 1;
      }
      return lie ? dst.remaining() : 0;
    }

    @Override
    public int write(ByteBuffer src) {
      return lie ? src.remaining() : 0;
    }
  }

  private static Storage bytes(int... v) {
    Storage s = Storage.allocate(v.length, Device.CPU);
    try (Tensor t = Tensor.empty(new long[] {0}, DType.UINT8).set_(s, 0, new long[] {v.length}, new long[] {1})) {
      for (int i = 0; i < v.length; i++) t.setLong(v[i], i);
    }
    return s;
  }

  private static byte[] contents(Storage s) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    s.writeTo(Channels.newChannel(out), 0, s.nbytes());
    return out.toByteArray();
  }

  @Test
  void aChannelThatNeverMakesProgressFailsInsteadOfSpinning() {
    try (Storage s = bytes(1, 2, 3, 4)) {
      for (int kind = 0; kind < 3; kind++) {
        Starved ch = new Starved();
        ch.lie = kind == 1;
        ch.rewind = kind == 2;
        IOException r = assertTimeoutPreemptively(NO_HANG, () -> assertThrows(IOException.class, () -> s.readFrom(ch, 0, 4)));
        assertTrue(r.getMessage().startsWith("readFrom(): the channel read no bytes"), r.getMessage());
        IOException w = assertTimeoutPreemptively(NO_HANG, () -> assertThrows(IOException.class, () -> s.writeTo(ch, 0, 4)));
        assertTrue(w.getMessage().startsWith("writeTo(): the channel wrote no bytes"), w.getMessage());
      }
    }
  }

  @Test
  void aNonBlockingChannelIsRefusedUpFront() throws IOException {
    Pipe pipe = Pipe.open();
    try (Storage s = Storage.allocate(8, Device.CPU); Pipe.SourceChannel src = pipe.source(); Pipe.SinkChannel sink = pipe.sink()) {
      src.configureBlocking(false);
      sink.configureBlocking(false);
      IllegalArgumentException r = assertThrows(IllegalArgumentException.class, () -> s.readFrom(src, 0, 8));
      assertTrue(r.getMessage().startsWith("readFrom(): the channel is in non-blocking mode"), r.getMessage());
      assertThrows(IllegalArgumentException.class, () -> s.writeTo(sink, 0, 8));
      assertThrows(IllegalArgumentException.class, () -> s.readFrom(null, 0, 8));
    }
  }

  @Test
  void aThrowingChannelLeavesTheStorageUsableAndUnheld() throws IOException {
    ReadableByteChannel failing = new Reader() {
      int calls;

      @Override
      public int read(ByteBuffer dst) throws IOException {
        if (calls++ == 0) {
          dst.put((byte) 9);
          return 1;
        }
        throw new IOException("disk gone");
      }
    };
    try (Storage s = bytes(1, 2, 3, 4)) {
      IOException e = assertThrows(IOException.class, () -> s.readFrom(failing, 0, 4));
      assertEquals("disk gone", e.getMessage());
      assertArrayEquals(new byte[] {9, 2, 3, 4}, contents(s), "the byte read before the failure is in place");
      s.resize_(16);  // nothing still holds the storage
      assertEquals(16, s.nbytes());
    }
  }

  @Test
  void aChannelCannotWriteIntoWhatItIsGivenToWriteOut() throws IOException {
    WritableByteChannel vandal = new Writer() {
      @Override
      public int write(ByteBuffer src) {
        int n = src.remaining();
        src.put(src.position(), (byte) 99);  // a ByteBuffer given to write() is not the channel's to change
        src.position(src.limit());
        return n;
      }
    };
    try (Storage s = bytes(1, 2, 3, 4)) {
      assertThrows(ReadOnlyBufferException.class, () -> s.writeTo(vandal, 0, 4));
      assertArrayEquals(new byte[] {1, 2, 3, 4}, contents(s));
    }
    // Over a read-only mapping, that write would not be an exception but a SIGSEGV.
    try (Storage ro = Storage.wrap(ByteBuffer.allocateDirect(4).asReadOnlyBuffer())) {
      assertThrows(ReadOnlyBufferException.class, () -> ro.writeTo(vandal, 0, 4));
    }
  }

  @Test
  void rangesNearTheEndsOfLongAreRefusedWithoutOverflow() throws IOException {
    try (Storage s = Storage.allocate(16, Device.CPU)) {
      ReadableByteChannel in = Channels.newChannel(new java.io.ByteArrayInputStream(new byte[16]));
      WritableByteChannel out = Channels.newChannel(new ByteArrayOutputStream());
      long[][] bad = {{Long.MAX_VALUE, 1}, {1, Long.MAX_VALUE}, {Long.MAX_VALUE, Long.MAX_VALUE}, {-1, 0}, {0, -1},
                      {Long.MIN_VALUE, 16}, {16, Long.MIN_VALUE}, {17, 0}, {8, 9}};
      for (long[] r : bad) {
        assertThrows(IndexOutOfBoundsException.class, () -> s.readFrom(in, r[0], r[1]), r[0] + ", " + r[1]);
        assertThrows(IndexOutOfBoundsException.class, () -> s.writeTo(out, r[0], r[1]), r[0] + ", " + r[1]);
      }
      assertEquals(0, s.readFrom(in, 16, 0), "an empty range at the end is fine");
      assertEquals(0, s.writeTo(out, 16, 0));
    }
  }

  /** A channel that blocks in read() until released, to close the storage in the middle of a transfer. */
  private static final class Gate extends Reader {
    final CountDownLatch inside = new CountDownLatch(1), open = new CountDownLatch(1);

    @Override
    public int read(ByteBuffer dst) throws IOException {
      inside.countDown();
      try {
        if (!open.await(20, TimeUnit.SECONDS)) throw new IOException("gate never opened");
      } catch (InterruptedException e) {
        throw new IOException(e);
      }
      int n = dst.remaining();
      for (int i = 0; i < n; i++) dst.put((byte) 5);
      return n;
    }
  }

  @Test
  void aCloseDuringATransferWaitsForTheTransferToLetGo() throws Exception {
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      for (int round = 0; round < 20; round++) {
        Storage s = Storage.allocate(1 << 16, Device.CPU);
        Storage reader = s.share();
        Gate gate = new Gate();
        Future<Long> read = pool.submit(() -> reader.readFrom(gate, 0, 1 << 16));
        assertTrue(gate.inside.await(20, TimeUnit.SECONDS));
        s.close();
        reader.close();  // every handle gone while the channel writes into the bytes
        gate.open.countDown();
        assertEquals(1L << 16, read.get(20, TimeUnit.SECONDS), "the transfer finished into bytes still held");
        assertThrows(IllegalStateException.class, () -> reader.readFrom(gate, 0, 1));
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aReadBlockedOnAnIdleChannelEndsWhenTheChannelIsClosed() throws Exception {
    Pipe pipe = Pipe.open();
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try (Storage s = Storage.allocate(64, Device.CPU); Pipe.SinkChannel sink = pipe.sink()) {
      Future<Long> read = pool.submit(() -> s.readFrom(pipe.source(), 0, 64));
      Thread.sleep(50);  // let it block in read(): nothing will ever be written
      pipe.source().close();  // the way out of a blocking read, as for any channel
      java.util.concurrent.ExecutionException e = assertThrows(java.util.concurrent.ExecutionException.class,
          () -> read.get(20, TimeUnit.SECONDS));
      // AsynchronousCloseException (a ClosedChannelException) when it was blocked already
      assertTrue(e.getCause() instanceof java.nio.channels.ClosedChannelException, String.valueOf(e.getCause()));
      s.resize_(128);  // the transfer let go of the storage
      assertEquals(128, s.nbytes());
    } finally {
      pool.shutdownNow();
    }
  }
}
