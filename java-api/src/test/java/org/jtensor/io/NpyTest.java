package org.jtensor.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** .npy and .npz on real data: NumPy's own files, round trips of every shared dtype, both orders. */
class NpyTest extends IoTest {
  @TempDir Path dir;

  private static double[] values(Tensor t) {
    return t.to(DType.FLOAT64).contiguous().toDoubleArray();
  }

  private static void assertSameTensor(Tensor expected, Tensor got, String name) {
    assertEquals(expected.dtype(), got.dtype(), name);
    assertArrayEquals(expected.shape(), got.shape(), name);
    assertArrayEquals(values(expected), values(got), name);
  }

  @Test
  void loadsNumPysNpyFiles() throws IOException {
    Tensor c = Npy.load(Fixtures.path("c_order_f32.npy"));
    assertArrayEquals(new double[] {0, .25, .5, .75, 1, 1.25}, values(c));
    assertArrayEquals(new long[] {2, 3}, c.shape());
    Tensor f = Npy.load(Fixtures.path("fortran_i32.npy"));
    assertArrayEquals(new long[] {3, 4}, f.shape());
    assertArrayEquals(new long[] {1, 3}, f.stride(), "Fortran order: Fortran strides over the file's bytes, no copy");
    for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 4; j++) assertEquals(i * 4 + j - 5, f.getLong(i, j));
    }
    Tensor s = Npy.load(Fixtures.path("scalar_f64.npy"));
    assertEquals(0, s.dim());
    assertEquals(3.25, s.item());
    assertArrayEquals(new long[] {0, 3}, Npy.load(Fixtures.path("empty_i64.npy")).shape());
    assertArrayEquals(new boolean[] {true, false, true}, Npy.load(Fixtures.path("bool.npy")).toBooleanArray());
    assertArrayEquals(new double[] {0, 50, 100, 150, 200}, values(Npy.load(Fixtures.path("v2_u8.npy"))), "version 2.0");
    assertArrayEquals(new double[] {1.5, -2, 65504}, values(Npy.load(Fixtures.path("v3_f16.npy"))), "version 3.0");
    Tensor be = Npy.load(Fixtures.path("big_endian_i16.npy"));
    assertEquals(DType.INT16, be.dtype());
    assertArrayEquals(new double[] {-3, -2, -1, 0, 1, 2}, values(be), "big-endian bytes swapped on load");
    Tensor bf = Npy.load(Fixtures.path("big_endian_f8.npy"));
    assertArrayEquals(new double[] {0.5, -1, 1e300, 2}, values(bf), "big-endian and Fortran order");
  }

  @Test
  void loadsNumPysNpzFilesStoredAndCompressed() throws IOException {
    for (String name : List.of("every_dtype.npz", "every_dtype_compressed.npz")) {
      Map<String, Tensor> m = Npy.loadNpz(Fixtures.path(name));
      Map<String, DType> keys = Map.of("ab1", DType.BOOL, "au1", DType.UINT8, "ai1", DType.INT8, "ai2", DType.INT16,
          "ai4", DType.INT32, "ai8", DType.INT64, "af2", DType.FLOAT16, "af4", DType.FLOAT32, "af8", DType.FLOAT64);
      for (Map.Entry<String, DType> k : keys.entrySet()) {
        Tensor t = m.get(k.getKey());
        assertEquals(k.getValue(), t.dtype(), name + " " + k.getKey());
        double[] want = k.getValue() == DType.BOOL ? new double[] {0, 1, 1, 1, 1, 1}
            : Fixtures.everyDtypeValues(k.getValue() != DType.UINT8);
        assertArrayEquals(want, values(t), name + " " + k.getKey());
      }
      assertEquals(-7L, m.get("scalar").itemLong());
      assertArrayEquals(new long[] {2, 0}, m.get("empty").shape());
      assertArrayEquals(new double[] {0, 1, 2, 3, 4, 5}, values(m.get("fortran")));
      assertEquals(keys.size() + 3, m.size());
    }
  }

  private Map<String, Tensor> everyDtype() {
    Map<String, Tensor> m = new LinkedHashMap<>();
    for (DType t : DType.values()) {
      if (t != DType.BFLOAT16) m.put(t.toString(), sample(t));
    }
    m.put("transposed", sample(DType.FLOAT64).t());
    m.put("strided", Tensor.arange(24).view(2, 3, 4).slice(2, 1, 4, 2));
    m.put("scalar", Tensor.scalar(true));
    m.put("empty", Tensor.zeros(new long[] {2, 0, 3}, DType.INT8));
    return m;
  }

  @Test
  void roundTripsEveryDtypeThroughNpy() throws IOException {
    for (Map.Entry<String, Tensor> e : everyDtype().entrySet()) {
      Path file = dir.resolve(e.getKey() + ".npy");
      Npy.save(e.getValue(), file);
      assertSameTensor(e.getValue(), Npy.load(file), e.getKey());
    }
  }

  @Test
  void roundTripsEveryDtypeThroughNpzStoredAndCompressed() throws IOException {
    Map<String, Tensor> saved = everyDtype();
    Path stored = dir.resolve("s.npz"), deflated = dir.resolve("d.npz");
    Npy.saveNpz(saved, stored);
    Npy.saveNpzCompressed(saved, deflated);
    for (Path p : List.of(stored, deflated)) {
      Map<String, Tensor> m = Npy.loadNpz(p);
      assertEquals(List.copyOf(saved.keySet()), List.copyOf(m.keySet()), "archive order kept");
      for (String k : saved.keySet()) assertSameTensor(saved.get(k), m.get(k), p + " " + k);
    }
    try (java.util.zip.ZipFile z = new java.util.zip.ZipFile(stored.toFile())) {
      assertEquals(ZipEntry.STORED, z.getEntry("float32.npy").getMethod());
    }
    try (java.util.zip.ZipFile z = new java.util.zip.ZipFile(deflated.toFile())) {
      assertEquals(ZipEntry.DEFLATED, z.getEntry("float32.npy").getMethod());
    }
  }

  @Test
  void writesFortranContiguousTensorsInFortranOrderWithoutACopy() throws IOException {
    Tensor m = Tensor.arange(0, 6, 1, DType.FLOAT32).view(2, 3).t();  // shape [3, 2], strides [1, 3]
    Path file = dir.resolve("f.npy");
    Npy.save(m, file);
    String header = new String(Files.readAllBytes(file), 0, 128, StandardCharsets.ISO_8859_1);
    assertTrue(header.contains("'fortran_order': True, 'shape': (3, 2), "), header);
    Tensor back = Npy.load(file);
    assertArrayEquals(new long[] {1, 3}, back.stride());
    assertArrayEquals(values(m), values(back));
    Npy.save(Tensor.arange(24).view(2, 3, 4).slice(2, 0, 4, 2), file);  // neither order: a C-ordered copy
    assertTrue(new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1).contains("'fortran_order': False, 'shape': (2, 3, 2)"));
  }

  @Test
  void refusesBfloat16AndForeignDtypesByName() throws IOException {
    Path file = dir.resolve("bf.npy");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Npy.save(sample(DType.BFLOAT16), file));
    assertEquals("save(): NumPy has no bfloat16 dtype; convert first, e.g. to(DType.FLOAT32)", e.getMessage());
    Path npz = dir.resolve("bf.npz");
    assertThrows(IllegalArgumentException.class, () -> Npy.saveNpz(Map.of("x", Tensor.zeros(2), "y", sample(DType.BFLOAT16)), npz));
    assertFalse(Files.exists(file) || Files.exists(npz), "refused before any file is made");
    for (String name : List.of("refused_u2.npy", "refused_c8.npy", "refused_object.npy", "refused_structured.npy")) {
      TensorFormatException f = assertThrows(TensorFormatException.class, () -> Npy.load(Fixtures.path(name)));
      assertEquals(Fixtures.path(name), f.file());
    }
  }

  @Test
  void refusesTruncatedDataAndArchivesThatAreNotNpz() throws IOException {
    Path file = dir.resolve("t.npy");
    Npy.save(Tensor.arange(0, 100, 1, DType.FLOAT64), file);
    byte[] all = Files.readAllBytes(file);
    Files.write(file, java.util.Arrays.copyOf(all, all.length - 8));
    TensorFormatException e = assertThrows(TensorFormatException.class, () -> Npy.load(file));
    assertTrue(e.getMessage().contains("declares shape [100] of float64, 800 bytes, but at most 792 follow its header"), e.getMessage());

    Path zip = dir.resolve("other.npz");
    try (ZipOutputStream z = new ZipOutputStream(Files.newOutputStream(zip))) {
      z.putNextEntry(new ZipEntry("readme.txt"));
      z.write("hello".getBytes(StandardCharsets.US_ASCII));
    }
    e = assertThrows(TensorFormatException.class, () -> Npy.loadNpz(zip));
    assertTrue(e.getMessage().endsWith("entry \"readme.txt\" is not a .npy array"), e.getMessage());
    e = assertThrows(TensorFormatException.class, () -> Npy.loadNpz(file));
    assertTrue(e.getMessage().contains("not a .npz (zip) archive"), e.getMessage());
  }
}
