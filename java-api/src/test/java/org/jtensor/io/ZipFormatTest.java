package org.jtensor.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The zip layer on its own: layout as PyTorch's writer has it, the JDK's reader as a second opinion, bad archives refused. */
class ZipFormatTest {
  @TempDir Path dir;

  private static Map<String, byte[]> sample() {
    Random r = new Random(1);
    Map<String, byte[]> m = new LinkedHashMap<>();
    m.put("archive/data.pkl", new byte[] {(byte) 0x80, 2, '.'});
    m.put("archive/empty", new byte[0]);
    byte[] big = new byte[100_003];
    r.nextBytes(big);
    m.put("archive/data/0", big);
    m.put("archive/ünicode", "x".getBytes());
    byte[] huge = new byte[CrcPipeline.SLICE * 2 + 12345];  // several slices: CRC-32 on the helper thread, in order
    r.nextBytes(huge);
    m.put("archive/data/1", huge);
    return m;
  }

  private Path write(Map<String, byte[]> entries, long zip64Threshold) throws IOException {
    Path f = dir.resolve("a.zip");
    try (ZipWriter w = new ZipWriter(FileChannel.open(f, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING), zip64Threshold)) {
      for (Map.Entry<String, byte[]> e : entries.entrySet()) w.add(e.getKey(), e.getValue());
      w.finish();
    }
    return f;
  }

  @ParameterizedTest
  @ValueSource(longs = {0xffffffffL, 0})  // plain, and zip64 fields on every entry, offset and end record
  void roundTripAlignedAndReadableByTheJdk(long zip64Threshold) throws IOException {
    Map<String, byte[]> want = sample();
    Path f = write(want, zip64Threshold);
    try (ZipReader r = ZipReader.open(f)) {
      assertEquals(List.copyOf(want.keySet()), r.entries().stream().map(ZipReader.Entry::name).toList());
      for (ZipReader.Entry e : r.entries()) {
        assertEquals(0, r.dataOffset(e) % ZipWriter.ALIGNMENT, e.name() + " data is 64-byte aligned");
        assertArrayEquals(want.get(e.name()), r.readAll(e, Integer.MAX_VALUE), e.name());
      }
    }
    try (ZipFile z = new ZipFile(f.toFile())) {  // an independent reader of the same bytes
      for (Map.Entry<String, byte[]> e : want.entrySet()) {
        ZipEntry ze = z.getEntry(e.getKey());
        assertEquals(ZipEntry.STORED, ze.getMethod());
        CRC32 crc = new CRC32();
        crc.update(e.getValue());
        assertEquals(crc.getValue(), ze.getCrc(), e.getKey());
        assertArrayEquals(e.getValue(), z.getInputStream(ze).readAllBytes(), e.getKey());
      }
    }
  }

  @Test
  void readsTheJdksDeflatedEntriesWithDataDescriptors() throws IOException {
    Path f = dir.resolve("jdk.zip");
    Map<String, byte[]> want = sample();
    try (OutputStream os = Files.newOutputStream(f); ZipOutputStream z = new ZipOutputStream(os)) {
      for (Map.Entry<String, byte[]> e : want.entrySet()) {
        z.putNextEntry(new ZipEntry(e.getKey()));
        z.write(e.getValue());
        z.closeEntry();
      }
    }
    try (ZipReader r = ZipReader.open(f)) {
      for (ZipReader.Entry e : r.entries()) {
        assertEquals(8, e.method());
        assertArrayEquals(want.get(e.name()), r.readAll(e, Integer.MAX_VALUE), e.name());
      }
    }
  }

  private Path corrupt(byte[] bytes) throws IOException {
    Path f = dir.resolve("bad.zip");
    Files.write(f, bytes);
    return f;
  }

  private void refused(byte[] bytes, String expect) throws IOException {
    Path f = corrupt(bytes);
    TensorFormatException e = assertThrows(TensorFormatException.class, () -> {
      try (ZipReader r = ZipReader.open(f)) {
        for (ZipReader.Entry en : r.entries()) r.readAll(en, Integer.MAX_VALUE);
      }
    });
    assertEquals(f, e.file());
    assertTrue(e.getMessage().contains(expect), e.getMessage());
  }

  @Test
  void refusesBadArchivesNamingTheProblem() throws IOException {
    byte[] good = Files.readAllBytes(write(sample(), 0xffffffffL));
    refused(new byte[0], "too short");
    refused("not a zip at all, just some text here".getBytes(), "wrong magic");
    refused(java.util.Arrays.copyOf(good, good.length - 30), "no end of central directory");
    refused(java.util.Arrays.copyOf(good, good.length / 2), "no end of central directory");
    int eocd = good.length - 22;
    ByteBuffer b = ByteBuffer.wrap(good.clone()).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(eocd + 16, good.length);  // central directory offset past the end
    refused(b.array(), "lies outside the file");
    b = ByteBuffer.wrap(good.clone()).order(ByteOrder.LITTLE_ENDIAN);
    b.putShort(eocd + 8, (short) 0xfff0).putShort(eocd + 10, (short) 0xfff0);  // more entries than the directory holds
    refused(b.array(), "more than its");
    int cd = b.getInt(eocd + 16);
    b = ByteBuffer.wrap(good.clone()).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(cd + 24, 0x7fffffff).putInt(cd + 20, 0x7fffffff);  // first entry declares 2 GiB
    refused(b.array(), "outside the file's data area");
    b = ByteBuffer.wrap(good.clone()).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(cd + 42, good.length - 100);  // local header offset inside the central directory
    refused(b.array(), "outside the file's data area");
    b = ByteBuffer.wrap(good.clone()).order(ByteOrder.LITTLE_ENDIAN);
    int second = cd + 46 + (b.getShort(cd + 28) & 0xffff) + (b.getShort(cd + 30) & 0xffff) + (b.getShort(cd + 32) & 0xffff);
    b.putInt(second + 42, b.getInt(cd + 42));  // two names for one run of bytes: a zip bomb's trick
    refused(b.array(), "overlap");
    byte[] flipped = good.clone();
    flipped[200] ^= 1;  // a byte of data/0's payload
    refused(flipped, "CRC-32");
    flipped = good.clone();
    flipped[good.length / 2] ^= 1;  // in the middle slice of data/1
    refused(flipped, "CRC-32");
  }
}
