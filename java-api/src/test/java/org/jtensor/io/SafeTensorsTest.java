package org.jtensor.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.memory.Memory;
import org.jtensor.Tensor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** safetensors on real data: round trips, the reference-format fixture, the read-only mapping and its lifetime. */
class SafeTensorsTest extends IoTest {
  @TempDir Path dir;

  private static void assertSameTensor(Tensor expected, Tensor got, String name) {
    assertEquals(expected.dtype(), got.dtype(), name);
    assertArrayEquals(expected.shape(), got.shape(), name);
    assertArrayEquals(expected.to(DType.FLOAT64).contiguous().toDoubleArray(), got.to(DType.FLOAT64).contiguous().toDoubleArray(), name);
  }

  @Test
  void roundTripsEveryDtypeWithViewsScalarsEmptiesAndMetadata() throws IOException {
    Map<String, Tensor> saved = new LinkedHashMap<>();
    for (DType t : DType.values()) saved.put("t_" + t, sample(t));
    saved.put("transposed", sample(DType.FLOAT32).t());
    saved.put("strided", Tensor.arange(20).view(4, 5).slice(1, 1, 4, 2).slice(0, 1, 4, 1));
    saved.put("scalar", Tensor.scalar(2.5));
    saved.put("empty", Tensor.zeros(new long[] {0, 3}, DType.INT16));
    assertFalse(saved.get("transposed").isContiguous());
    Path file = dir.resolve("m.safetensors");
    SafeTensors.save(saved, Map.of("format", "pt", "note", "é \"quoted\""), file);

    Map<String, Tensor> loaded = SafeTensors.load(file);
    assertEquals(saved.keySet(), loaded.keySet());
    for (String name : saved.keySet()) assertSameTensor(saved.get(name), loaded.get(name), name);
    assertEquals(Map.of("format", "pt", "note", "é \"quoted\""), SafeTensors.metadata(file));
    List<String> order = SafeTensors.names(file);
    assertEquals("t_int64", order.get(0), "largest element size first, so that every tensor is aligned");
    assertEquals(0, readLength(file) % 8, "header padded to 8 bytes");
  }

  private static long readLength(Path file) throws IOException {
    byte[] b = Files.readAllBytes(file);
    return java.nio.ByteBuffer.wrap(b, 0, 8).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong();
  }

  @Test
  void loadsAFileWrittenByTheReferenceLayout() throws IOException {
    Map<String, Tensor> m = SafeTensors.load(Fixtures.path("every_dtype.safetensors"));
    for (DType t : DType.values()) {
      String name = "t_" + SafeTensorsHeader.nameOf(t).toLowerCase();
      Tensor got = m.get(name);
      assertEquals(t, got.dtype(), name);
      assertArrayEquals(new long[] {2, 3}, got.shape(), name);
      double[] want = Fixtures.everyDtypeValues(t != DType.BOOL && t != DType.UINT8);
      if (t == DType.BOOL) want = new double[] {0, 1, 1, 1, 1, 1};
      assertArrayEquals(want, got.to(DType.FLOAT64).toDoubleArray(), name);
    }
    assertEquals(2.5, m.get("scalar").item());
    assertEquals(0, m.get("scalar").dim());
    assertArrayEquals(new long[] {0, 4}, m.get("empty").shape());
    assertEquals(Map.of("format", "pt", "made_by", "make_np_fixtures.py"), SafeTensors.metadata(Fixtures.path("every_dtype.safetensors")));
  }

  @Test
  void loadedTensorsAreReadOnlyStoragesOverTheMapping() throws IOException {
    Path file = dir.resolve("ro.safetensors");
    SafeTensors.save(Map.of("a", sample(DType.FLOAT32), "b", sample(DType.INT64), "c", sample(DType.BOOL)), file);
    byte[] before = Files.readAllBytes(file);
    Map<String, Tensor> m = SafeTensors.load(file);
    Tensor a = m.get("a"), b = m.get("b"), c = m.get("c");
    assertFalse(sameStorage(a, b) || sameStorage(b, c), "a storage per tensor, as .pt keeps one dtype per storage");
    assertTrue(readOnly(a) && readOnly(b) && readOnly(c));
    assertEquals(b.dataPtr() + 48, a.dataPtr(), "int64 first, float32 after its 48 bytes in the one mapping");
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> a.fill_(1.0));
    assertTrue(e.getMessage().contains("fill_"), e.getMessage());
    assertThrows(IllegalStateException.class, () -> b.copy_(sample(DType.INT64)));
    assertThrows(IllegalStateException.class, () -> c.setDouble(0, 0, 0));
    assertThrows(IllegalStateException.class, () -> a.view(6).slice(0, 1, 3, 1).zero_());
    assertArrayEquals(new double[] {0, 1, -2, 3, 100, 127}, a.to(DType.FLOAT64).toDoubleArray(), "nothing was written");
    Tensor sum = a.add(a);  // reads work and produce ordinary tensors
    assertFalse(readOnly(sum));
    assertArrayEquals(before, Files.readAllBytes(file), "the file is untouched");
  }

  @Test
  void tensorsNotAlignedToTheirElementSizeAreCopied() throws IOException {
    Map<String, Tensor> m = SafeTensors.load(Fixtures.path("unaligned.safetensors"));
    Tensor bytes = m.get("bytes"), floats = m.get("floats");
    assertArrayEquals(new long[] {7, 8, 9}, bytes.toLongArray());
    assertArrayEquals(new float[] {1.5f, -4f}, floats.toFloatArray());
    assertTrue(readOnly(bytes), "aligned: a view of the mapping");
    assertFalse(sameStorage(bytes, floats), "the float32 tensor at data offset 3 has storage of its own");
    assertEquals(0, floats.dataPtr() % 4, "and that storage is aligned");
    floats.fill_(2.0);  // a copy is the caller's, as PyTorch's loader gives it
    assertArrayEquals(new float[] {2f, 2f}, floats.toFloatArray());
  }

  private static long wrappedBytes() {
    return Memory.memoryStats(Device.CPU).get("wrapped_bytes.current");
  }

  @Test
  void viewsKeepTheMappingAliveAfterTheLoadedTensorsCloseAndOnlyUntilTheLastCloses() throws IOException {
    Path file = dir.resolve("alive.safetensors");
    SafeTensors.save(Map.of("w", Tensor.arange(1000, 2000, 1, DType.FLOAT64)), file);
    long before = wrappedBytes(), allocated = Memory.memoryAllocated(Device.CPU);
    Map<String, Tensor> m = SafeTensors.load(file);
    assertEquals(8000, wrappedBytes() - before, "the mapping's bytes count as wrapped, one storage over the data");
    assertEquals(allocated, Memory.memoryAllocated(Device.CPU), "nothing was allocated for the tensors' bytes");
    Tensor view = m.get("w").slice(0, 500, 510, 1);
    closeAll(m);
    Files.delete(file);  // the mapping, not the path, holds the bytes
    System.gc();
    assertEquals(8000, wrappedBytes() - before, "a view still holds the mapping");
    assertEquals(1500.0, view.getDouble(0));
    assertEquals(1509.0, view.getDouble(9));
    assertTrue(mapped(file), "still mapped");
    view.close();
    assertEquals(before, wrappedBytes(), "the last view's close releases it");
    assertFalse(mapped(file), "and unmaps the file then, not at a later garbage collection");
  }

  /** Whether this process maps the file (Linux's /proc/self/maps lists each mapping's path). */
  private static boolean mapped(Path file) throws IOException {
    Path maps = Path.of("/proc/self/maps");
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.isReadable(maps), "no /proc/self/maps here");
    return Files.readString(maps).contains(file.toAbsolutePath().toString());
  }

  @Test
  void savingOverTheFileTheTensorsAreMappedFromKeepsThemReadable() throws IOException {
    Path file = dir.resolve("same.safetensors");
    SafeTensors.save(Map.of("w", Tensor.arange(0, 4096, 1, DType.FLOAT32)), file);
    Map<String, Tensor> m = SafeTensors.load(file);
    Tensor doubled = m.get("w").mul(2.0);
    SafeTensors.save(Map.of("w", m.get("w"), "doubled", doubled), file);  // reads the mapping while replacing its file
    assertEquals(4095.0, m.get("w").getDouble(4095), "the old mapping still holds the old file's bytes");
    Map<String, Tensor> again = SafeTensors.load(file);
    assertEquals(8190.0, again.get("doubled").getDouble(4095));
    try (var files = Files.list(dir)) {
      assertEquals(List.of("same.safetensors"), files.map(p -> p.getFileName().toString()).toList(), "no temporary file left");
    }
  }

  @Test
  void filesLargerThanOneMappingSpreadOverSeveralAndHugeTensorsAreRead() throws IOException {
    Path file = dir.resolve("chunks.safetensors");
    Map<String, Tensor> saved = new LinkedHashMap<>();
    saved.put("a", Tensor.arange(0, 100, 1, DType.FLOAT32));
    saved.put("b", Tensor.arange(100, 200, 1, DType.FLOAT32));
    saved.put("c", Tensor.arange(200, 300, 1, DType.FLOAT32));
    saved.put("big", Tensor.arange(0, 300, 1, DType.FLOAT32));
    SafeTensors.save(saved, file);
    Map<String, Tensor> m;
    try (FileChannel ch = FileChannel.open(file)) {
      m = SafeTensorsMapping.tensors(file, ch, SafeTensorsHeader.read(file, ch), 1024);
    }
    assertEquals(m.get("a").dataPtr() + 400, m.get("b").dataPtr(), "a and b fit one 1024-byte mapping");
    assertTrue(readOnly(m.get("c")));
    assertFalse(readOnly(m.get("big")), "1200 bytes cannot be mapped in 1024: read into its own storage");
    for (String name : saved.keySet()) assertSameTensor(saved.get(name), m.get(name), name);
  }

  @Test
  void aThreeGibFileMapsAsTwoStoragesWithNothingRead() throws IOException {
    // sparse: 3 GiB of file that costs no disk and, mapped, no memory; Java maps at most 2 GiB per buffer
    long a = 3L << 29, b = 3L << 29;  // 1.5 GiB of uint8, then 1.5 GiB of float32
    List<SafeTensorsHeader.Entry> entries = List.of(new SafeTensorsHeader.Entry("a", DType.UINT8, new long[] {a}, 0, a),
        new SafeTensorsHeader.Entry("b", DType.FLOAT32, new long[] {b / 4}, a, a + b));
    byte[] header = SafeTensorsHeader.encode(entries, Map.of());
    Path file = dir.resolve("sparse.safetensors");
    long data = 8 + header.length;
    try (FileChannel ch = FileChannel.open(file, java.nio.file.StandardOpenOption.CREATE_NEW, java.nio.file.StandardOpenOption.WRITE)) {
      ch.write(java.nio.ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(0, header.length), 0);
      ch.write(java.nio.ByteBuffer.wrap(header), 8);
      ch.write(java.nio.ByteBuffer.wrap(new byte[] {42}), data + a - 1);  // a's last element
      ch.write(java.nio.ByteBuffer.allocate(4).order(java.nio.ByteOrder.LITTLE_ENDIAN).putFloat(0, 2.5f), data + a + b - 4);  // b's last
    }
    long allocated = Memory.memoryAllocated(Device.CPU), wrapped = wrappedBytes();
    Map<String, Tensor> m = SafeTensors.load(file);
    assertEquals(allocated, Memory.memoryAllocated(Device.CPU), "nothing allocated: both are mapped");
    assertEquals(a + b, wrappedBytes() - wrapped);
    assertFalse(sameStorage(m.get("a"), m.get("b")), "one mapping each");
    assertEquals(42, m.get("a").getLong(a - 1));
    assertEquals(0, m.get("a").getLong(0));
    assertEquals(2.5, m.get("b").getDouble(b / 4 - 1));
    closeAll(m);
    assertEquals(wrapped, wrappedBytes());
  }

  @Test
  void refusesBadArgumentsBeforeWriting() {
    Path file = dir.resolve("never.safetensors");
    assertThrows(IllegalArgumentException.class, () -> SafeTensors.save(Map.of("__metadata__", Tensor.zeros(1)), file));
    Map<String, String> nullValue = new java.util.HashMap<>();
    nullValue.put("k", null);
    assertThrows(IllegalArgumentException.class, () -> SafeTensors.save(Map.of("x", Tensor.zeros(1)), nullValue, file));
    assertFalse(Files.exists(file));
    assertThrows(java.nio.file.NoSuchFileException.class, () -> SafeTensors.load(file));
  }
}
