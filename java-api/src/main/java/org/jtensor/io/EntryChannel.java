package org.jtensor.io;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Path;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;

/**
 * One zip entry's uncompressed bytes: exactly the declared size, then end of stream. A stored
 * entry is read with positional reads straight into the caller's buffer (a storage's memory, for
 * a tensor) a slice at a time, and each slice's CRC-32 is computed over that same memory on a
 * helper thread while the next one is read, so nothing is copied. The CRC is checked when the
 * last byte has been read.
 */
final class EntryChannel implements ReadableByteChannel {
  // deflate expands at most 1032:1; a larger declared size is a lie to be refused before reading
  private static final long MAX_DEFLATE_RATIO = 1032;

  private final Path file;
  private final ZipReader.Entry entry;
  private final FileChannel raw;
  private final long start;
  private final CrcPipeline crc = new CrcPipeline();
  private final InflaterInputStream inflating;  // null for a stored entry
  private final ReadableByteChannel inflated;
  private long done;  // uncompressed bytes handed out
  private boolean open = true;

  EntryChannel(Path file, ZipReader.Entry entry, FileChannel raw, long dataOffset) throws TensorFormatException {
    this.file = file;
    this.entry = entry;
    this.raw = raw;
    this.start = dataOffset;
    if (entry.method() == 8) {
      if (entry.size() > entry.compressedSize() * MAX_DEFLATE_RATIO + 1024) {
        throw new TensorFormatException(file, "entry '" + entry.name() + "' declares " + entry.size()
            + " bytes, more than its " + entry.compressedSize() + " deflated bytes can hold");
      }
      inflating = new InflaterInputStream(new CompressedBytes(), new Inflater(true), 64 * 1024);
      inflated = Channels.newChannel(inflating);
    } else {
      inflating = null;
      inflated = null;
    }
  }

  @Override
  public int read(ByteBuffer dst) throws IOException {
    if (!open) throw new IOException("entry channel is closed");
    long left = entry.size() - done;
    if (left == 0) return -1;
    if (!dst.hasRemaining()) return 0;
    int from = dst.position();
    int oldLimit = dst.limit();
    dst.limit(from + (int) Math.min(Math.min(dst.remaining(), left), CrcPipeline.SLICE));  // a slice: its CRC overlaps the next read
    int n;
    try {
      n = inflated == null ? raw.read(dst, start + done) : inflated.read(dst);
    } catch (java.util.zip.ZipException | java.io.EOFException e) {
      throw new TensorFormatException(file, "entry '" + entry.name() + "' holds malformed deflate data: " + e.getMessage(), e);
    } finally {
      dst.limit(oldLimit);
    }
    if (n < 0) {
      throw new TensorFormatException(file, "entry '" + entry.name() + "' ended after " + done + " of its " + entry.size() + " bytes");
    }
    crc.update(dst.duplicate().limit(from + n).position(from));
    done += n;
    if (done == entry.size() && crc.value() != entry.crc()) {
      throw new TensorFormatException(file, String.format("entry '%s' fails its CRC-32 check (stored %08x, computed %08x)",
          entry.name(), entry.crc(), crc.value()));
    }
    return n;
  }

  @Override
  public boolean isOpen() {
    return open;
  }

  @Override
  public void close() throws IOException {
    if (!open) return;
    open = false;
    crc.await();  // the helper may still be reading the caller's memory
    if (inflating != null) inflating.close();  // ends the Inflater's native state now
  }

  /** The compressed bytes, then one zero byte (raw inflate may ask for one past the end, as ZipFile supplies). */
  private final class CompressedBytes extends InputStream {
    private long pos;

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      long left = entry.compressedSize() + 1 - pos;
      if (left <= 0) return -1;
      if (len == 0) return 0;
      if (left == 1) {
        b[off] = 0;
        pos++;
        return 1;
      }
      int n = raw.read(ByteBuffer.wrap(b, off, (int) Math.min(len, left - 1)), start + pos);
      if (n < 0) throw new TensorFormatException(file, "entry '" + entry.name() + "' is truncated");
      pos += n;
      return n;
    }
  }
}
