package org.jtensor.io;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads the central directory of a zip archive and hands out each entry's bytes as a channel
 * that reads straight from the file (positional reads, so a storage can be filled with no
 * intermediate copy). Every offset and size the file declares is checked against the file's
 * real size before anything is read or allocated, and each entry's CRC-32 is checked as its
 * last byte is read.
 */
final class ZipReader implements Closeable {
  /** One file in the archive, as the central directory states it. */
  record Entry(String name, int method, long crc, long compressedSize, long size, long localHeaderOffset) {}

  private static final int EOCD_SIZE = 22;
  private static final int CD_HEADER_SIZE = 46;
  private static final int MAX_CD_BYTES = Integer.MAX_VALUE - 64;

  private final Path file;
  private final FileChannel channel;
  private final long fileSize;
  private final long centralDirectoryStart;  // entries' data must lie before it
  private final Map<String, Entry> entries = new LinkedHashMap<>();

  private ZipReader(Path file, FileChannel channel) throws IOException {
    this.file = file;
    this.channel = channel;
    this.fileSize = channel.size();
    this.centralDirectoryStart = readDirectory();
  }

  static ZipReader open(Path file) throws IOException {
    FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
    try {
      return new ZipReader(file, ch);
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
  }

  Path file() {
    return file;
  }

  long fileSize() {
    return fileSize;
  }

  /** The entries in central-directory order. */
  Collection<Entry> entries() {
    return entries.values();
  }

  /** The entry of that name, or null. */
  Entry entry(String name) {
    return entries.get(name);
  }

  private TensorFormatException bad(String problem) {
    return new TensorFormatException(file, problem);
  }

  /** Reads exactly n bytes at pos, or throws: the caller has checked pos + n against the file size. */
  ByteBuffer readAt(long pos, int n) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    while (b.hasRemaining()) {
      if (channel.read(b, pos + b.position()) < 0) throw bad("truncated: expected " + n + " bytes at offset " + pos);
    }
    return b.flip();
  }

  private long readDirectory() throws IOException {
    if (fileSize < EOCD_SIZE) throw bad("not a zip archive: " + fileSize + " bytes is too short to hold one");
    long eocd = findEndOfCentralDirectory();
    ByteBuffer e = readAt(eocd, EOCD_SIZE);
    int disk = e.getShort(4) & 0xffff, cdDisk = e.getShort(6) & 0xffff;
    long onDisk = e.getShort(8) & 0xffff, count = e.getShort(10) & 0xffff;
    long cdSize = e.getInt(12) & 0xffffffffL, cdOffset = e.getInt(16) & 0xffffffffL;
    long directoryEnd = eocd;
    if (eocd >= 20) {
      ByteBuffer loc = readAt(eocd - 20, 20);
      if (loc.getInt(0) == 0x07064b50) {  // zip64 end-of-central-directory locator
        long rec = loc.getLong(8);
        if (rec < 0 || rec > eocd - 20 - 56) throw bad("zip64 end of central directory record at offset " + rec + " lies outside the file");
        ByteBuffer z = readAt(rec, 56);
        if (z.getInt(0) != 0x06064b50) throw bad("zip64 locator points at offset " + rec + ", which holds no zip64 record");
        disk = z.getInt(16);
        cdDisk = z.getInt(20);
        onDisk = z.getLong(24);
        count = z.getLong(32);
        cdSize = z.getLong(40);
        cdOffset = z.getLong(48);
        directoryEnd = rec;
      }
    }
    if (disk != 0 || cdDisk != 0 || onDisk != count) throw bad("multi-disk zip archives are not supported");
    if (cdOffset < 0 || cdSize < 0 || cdOffset > directoryEnd || cdSize > directoryEnd - cdOffset) {
      throw bad("central directory (offset " + cdOffset + ", " + cdSize + " bytes) lies outside the file of " + fileSize + " bytes");
    }
    if (count < 0 || count > cdSize / CD_HEADER_SIZE) {
      throw bad("central directory declares " + count + " entries, more than its " + cdSize + " bytes can hold");
    }
    if (cdSize > MAX_CD_BYTES) throw bad("central directory of " + cdSize + " bytes is too large");
    ByteBuffer cd = readAt(cdOffset, (int) cdSize);
    for (long i = 0; i < count; i++) readDirectoryEntry(cd, cdOffset);
    checkNoOverlap();
    return cdOffset;
  }

  /**
   * Entries may not share bytes: a directory that points many names at one run of data (a zip
   * bomb) would otherwise declare far more than the file holds.
   */
  private void checkNoOverlap() throws TensorFormatException {
    Entry[] byOffset = entries.values().toArray(new Entry[0]);
    java.util.Arrays.sort(byOffset, java.util.Comparator.comparingLong(Entry::localHeaderOffset));
    for (int i = 1; i < byOffset.length; i++) {
      Entry a = byOffset[i - 1], b = byOffset[i];
      long aEnd = a.localHeaderOffset() + 30 + a.name().getBytes(StandardCharsets.UTF_8).length + a.compressedSize();
      if (aEnd > b.localHeaderOffset()) {
        throw bad("entries '" + a.name() + "' and '" + b.name() + "' overlap in the file");
      }
    }
  }

  /** The end-of-central-directory record: the last signature whose comment length reaches the end of the file. */
  private long findEndOfCentralDirectory() throws IOException {
    int window = (int) Math.min(fileSize, EOCD_SIZE + 0xffff);
    ByteBuffer tail = readAt(fileSize - window, window);
    for (int i = window - EOCD_SIZE; i >= 0; i--) {
      if (tail.getInt(i) == 0x06054b50 && i + EOCD_SIZE + (tail.getShort(i + 20) & 0xffff) == window) {
        return fileSize - window + i;
      }
    }
    ByteBuffer head = readAt(0, 4);
    if (head.getInt(0) != 0x04034b50) throw bad("not a zip archive (wrong magic " + hex(head) + ")");
    throw bad("truncated zip archive: no end of central directory record");
  }

  private static String hex(ByteBuffer b) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < b.limit(); i++) sb.append(String.format("%02x", b.get(i)));
    return sb.toString();
  }

  private void readDirectoryEntry(ByteBuffer cd, long cdOffset) throws IOException {
    int at = cd.position();
    if (cd.remaining() < CD_HEADER_SIZE || cd.getInt(at) != 0x02014b50) {
      throw bad("central directory entry at offset " + (cdOffset + at) + " is malformed");
    }
    int flags = cd.getShort(at + 8) & 0xffff, method = cd.getShort(at + 10) & 0xffff;
    long crc = cd.getInt(at + 16) & 0xffffffffL;
    long comp = cd.getInt(at + 20) & 0xffffffffL, size = cd.getInt(at + 24) & 0xffffffffL;
    int nameLen = cd.getShort(at + 28) & 0xffff, extraLen = cd.getShort(at + 30) & 0xffff, commentLen = cd.getShort(at + 32) & 0xffff;
    long lho = cd.getInt(at + 42) & 0xffffffffL;
    if (cd.remaining() < CD_HEADER_SIZE + nameLen + extraLen + commentLen) {
      throw bad("central directory entry at offset " + (cdOffset + at) + " runs past the directory's end");
    }
    byte[] nameBytes = new byte[nameLen];
    cd.get(at + CD_HEADER_SIZE, nameBytes);
    String name = new String(nameBytes, (flags & 0x800) != 0 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
    // zip64 extended information: only the fields saturated in the fixed header, in this order
    int x = at + CD_HEADER_SIZE + nameLen, xEnd = x + extraLen;
    while (x + 4 <= xEnd) {
      int id = cd.getShort(x) & 0xffff, len = cd.getShort(x + 2) & 0xffff;
      if (x + 4 + len > xEnd) throw bad("entry '" + name + "': extra field runs past its end");
      if (id == 0x0001) {
        int p = x + 4, pEnd = p + len;
        if (size == 0xffffffffL) { if (p + 8 > pEnd) throw bad("entry '" + name + "': short zip64 field"); size = cd.getLong(p); p += 8; }
        if (comp == 0xffffffffL) { if (p + 8 > pEnd) throw bad("entry '" + name + "': short zip64 field"); comp = cd.getLong(p); p += 8; }
        if (lho == 0xffffffffL) { if (p + 8 > pEnd) throw bad("entry '" + name + "': short zip64 field"); lho = cd.getLong(p); }
      }
      x += 4 + len;
    }
    cd.position(at + CD_HEADER_SIZE + nameLen + extraLen + commentLen);
    if ((flags & 1) != 0) throw bad("entry '" + name + "' is encrypted");
    if (method != 0 && method != 8) throw bad("entry '" + name + "' uses compression method " + method + " (stored and deflated are supported)");
    if (size < 0 || comp < 0 || lho < 0 || lho > cdOffset || comp > cdOffset - lho) {
      throw bad("entry '" + name + "' (offset " + lho + ", " + comp + " bytes) lies outside the file's data area of " + cdOffset + " bytes");
    }
    if (method == 0 && comp != size) throw bad("stored entry '" + name + "' declares " + size + " bytes but holds " + comp);
    if (entries.putIfAbsent(name, new Entry(name, method, crc, comp, size, lho)) != null) {
      throw bad("entry '" + name + "' appears twice in the central directory");
    }
  }

  /** Where the entry's bytes start: after its local header, which must agree with the directory. */
  long dataOffset(Entry e) throws IOException {
    long lho = e.localHeaderOffset();
    if (lho + 30 > centralDirectoryStart) throw bad("entry '" + e.name() + "': local header at " + lho + " lies outside the data area");
    ByteBuffer h = readAt(lho, 30);
    if (h.getInt(0) != 0x04034b50) throw bad("entry '" + e.name() + "': no local header at offset " + lho);
    int nameLen = h.getShort(26) & 0xffff, extraLen = h.getShort(28) & 0xffff;
    long data = lho + 30 + nameLen + extraLen;
    if (data > centralDirectoryStart || e.compressedSize() > centralDirectoryStart - data) {
      throw bad("entry '" + e.name() + "': its " + e.compressedSize() + " bytes at offset " + data + " run past the data area");
    }
    byte[] local = new byte[nameLen];
    readAt(lho + 30, nameLen).get(local);
    if (!new String(local, StandardCharsets.UTF_8).equals(e.name()) && !new String(local, StandardCharsets.ISO_8859_1).equals(e.name())) {
      throw bad("entry '" + e.name() + "': its local header names a different file");
    }
    return data;
  }

  /**
   * The entry's uncompressed bytes as a channel that ends after exactly size() bytes and checks the
   * CRC-32 as its last byte is read. Stored entries are read straight from the file into the
   * caller's buffer.
   */
  ReadableByteChannel open(Entry e) throws IOException {
    long data = dataOffset(e);
    return new EntryChannel(file, e, channel, data);
  }

  /**
   * A small entry's bytes in a heap array; refused above max bytes before anything is allocated.
   * A stored entry's size is bounded by the file's; a deflated one's is only declared, so its
   * buffer grows with the bytes that actually inflate.
   */
  byte[] readAll(Entry e, int max) throws IOException {
    if (e.size() > max) throw bad("entry '" + e.name() + "' declares " + e.size() + " bytes, more than the " + max + " allowed");
    try (ReadableByteChannel ch = open(e)) {
      if (e.method() != 0) return java.nio.channels.Channels.newInputStream(ch).readNBytes((int) e.size());
      ByteBuffer b = ByteBuffer.allocate((int) e.size());
      while (b.hasRemaining()) {
        if (ch.read(b) < 0) throw bad("entry '" + e.name() + "' ended early");
      }
      return b.array();
    }
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
