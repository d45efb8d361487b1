package org.jtensor.io;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Writes a zip archive of stored (uncompressed) entries as PyTorch's writer lays them out: each
 * entry's data starts on a 64-byte boundary of the file (padding goes into an extra field named
 * "FB"), the CRC-32 is computed while the bytes stream out and patched into the local header,
 * and zip64 fields appear wherever a size or offset does not fit in 32 bits.
 */
final class ZipWriter implements Closeable {
  /** Data alignment of every entry, as PyTorch's kFieldAlignment. */
  static final int ALIGNMENT = 64;
  private static final long MAX32 = 0xffffffffL;
  /** Sizes and offsets from here on need zip64 fields. */
  static final long ZIP64_AT = MAX32;
  private static final int DOS_DATE_1980 = 0x21;  // 1980-01-01: a fixed time keeps files reproducible

  /** Writes exactly the entry's declared bytes to the channel it is given. */
  interface Body {
    void writeTo(WritableByteChannel out) throws IOException;
  }

  private record Written(byte[] name, long crc, long size, long localHeaderOffset) {}

  private final FileChannel out;
  private final List<Written> written = new ArrayList<>();
  private final Set<String> names = new HashSet<>();
  private long pos;
  // sizes and offsets at or above this use zip64 fields (tests lower it to cover that path)
  private final long zip64Threshold;

  ZipWriter(FileChannel out, long zip64Threshold) {
    this.out = out;
    this.zip64Threshold = zip64Threshold;
  }

  /** Adds an entry holding data; returns its CRC-32. */
  long add(String name, byte[] data) throws IOException {
    return add(name, data.length, ch -> writeFully(ch, ByteBuffer.wrap(data)));
  }

  /** Adds an entry of size bytes that body writes; returns its CRC-32. */
  long add(String name, long size, Body body) throws IOException {
    if (!names.add(name)) throw new IllegalArgumentException("zip entry '" + name + "' written twice");
    byte[] nameBytes = name.getBytes(StandardCharsets.UTF_8);
    boolean zip64 = size >= zip64Threshold;
    int zip64Len = zip64 ? 20 : 0;
    long headerEnd = pos + 30 + nameBytes.length + zip64Len + 4;
    int pad = (int) ((ALIGNMENT - headerEnd % ALIGNMENT) % ALIGNMENT);
    ByteBuffer h = le(30 + nameBytes.length + zip64Len + 4 + pad);
    h.putInt(0x04034b50).putShort((short) (zip64 ? 45 : 20)).putShort((short) 0x800).putShort((short) 0)
        .putShort((short) 0).putShort((short) DOS_DATE_1980).putInt(0)  // CRC-32 patched below
        .putInt((int) (zip64 ? MAX32 : size)).putInt((int) (zip64 ? MAX32 : size))
        .putShort((short) nameBytes.length).putShort((short) (zip64Len + 4 + pad)).put(nameBytes);
    if (zip64) h.putShort((short) 1).putShort((short) 16).putLong(size).putLong(size);
    h.put((byte) 'F').put((byte) 'B').putShort((short) pad);
    for (int i = 0; i < pad; i++) h.put((byte) 'Z');
    long headerAt = pos;
    writeFully(h.flip());
    CrcChannel body1 = new CrcChannel();
    try {
      body.writeTo(body1);
    } finally {
      body1.crc.await();  // the helper may still be reading the body's memory
    }
    if (body1.count != size) {
      throw new IllegalStateException("zip entry '" + name + "': wrote " + body1.count + " bytes, declared " + size);
    }
    long crcValue = body1.crc.value();
    ByteBuffer crc = le(4).putInt((int) crcValue).flip();
    while (crc.hasRemaining()) out.write(crc, headerAt + 14 + crc.position());
    written.add(new Written(nameBytes, crcValue, size, headerAt));
    return crcValue;
  }

  /** Writes the central directory and the end records; the archive is complete after this. */
  void finish() throws IOException {
    long cdStart = pos;
    for (Written w : written) {
      boolean bigSize = w.size >= zip64Threshold, bigOffset = w.localHeaderOffset >= zip64Threshold;
      int zip64Len = (bigSize ? 16 : 0) + (bigOffset ? 8 : 0);
      int extraLen = zip64Len == 0 ? 0 : 4 + zip64Len;
      short version = (short) (zip64Len == 0 ? 20 : 45);
      ByteBuffer c = le(46 + w.name.length + extraLen);
      c.putInt(0x02014b50).putShort(version).putShort(version).putShort((short) 0x800).putShort((short) 0)
          .putShort((short) 0).putShort((short) DOS_DATE_1980).putInt((int) w.crc)
          .putInt((int) (bigSize ? MAX32 : w.size)).putInt((int) (bigSize ? MAX32 : w.size))
          .putShort((short) w.name.length).putShort((short) extraLen).putShort((short) 0)
          .putShort((short) 0).putShort((short) 0).putInt(0)
          .putInt((int) (bigOffset ? MAX32 : w.localHeaderOffset)).put(w.name);
      if (zip64Len > 0) {
        c.putShort((short) 1).putShort((short) zip64Len);
        if (bigSize) c.putLong(w.size).putLong(w.size);
        if (bigOffset) c.putLong(w.localHeaderOffset);
      }
      writeFully(c.flip());
    }
    long cdSize = pos - cdStart, count = written.size();
    boolean zip64 = count >= 0xffff || cdSize >= zip64Threshold || cdStart >= zip64Threshold;
    if (zip64) {
      long record = pos;
      writeFully(le(56).putInt(0x06064b50).putLong(44).putShort((short) 45).putShort((short) 45).putInt(0).putInt(0)
          .putLong(count).putLong(count).putLong(cdSize).putLong(cdStart).flip());
      writeFully(le(20).putInt(0x07064b50).putInt(0).putLong(record).putInt(1).flip());
    }
    short shortCount = (short) (zip64 ? 0xffff : count);
    writeFully(le(22).putInt(0x06054b50).putShort((short) 0).putShort((short) 0).putShort(shortCount).putShort(shortCount)
        .putInt((int) (zip64 ? MAX32 : cdSize)).putInt((int) (zip64 ? MAX32 : cdStart)).putShort((short) 0).flip());
    out.truncate(pos);  // an overwritten longer file keeps no stale tail
  }

  private static ByteBuffer le(int n) {
    return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
  }

  private void writeFully(ByteBuffer b) throws IOException {
    while (b.hasRemaining()) pos += out.write(b, pos);
  }

  private static void writeFully(WritableByteChannel ch, ByteBuffer b) throws IOException {
    while (b.hasRemaining()) ch.write(b);
  }

  /**
   * The entry's bytes go to the file at the writer's position a slice at a time; each slice's
   * CRC-32 is taken over the caller's own buffer on a helper thread while the next one is written.
   */
  private final class CrcChannel implements WritableByteChannel {
    final CrcPipeline crc = new CrcPipeline();
    long count;

    @Override
    public int write(ByteBuffer src) throws IOException {
      int from = src.position(), limit = src.limit();
      src.limit(from + Math.min(src.remaining(), CrcPipeline.SLICE));
      int n;
      try {
        n = out.write(src, pos);
      } finally {
        src.limit(limit);
      }
      crc.update(src.duplicate().limit(from + n).position(from));
      pos += n;
      count += n;
      return n;
    }

    @Override
    public boolean isOpen() {
      return out.isOpen();
    }

    @Override
    public void close() {}
  }

  @Override
  public void close() throws IOException {
    out.close();
  }
}
