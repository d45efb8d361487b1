package org.jtensor.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.jtensor.DType;
import org.junit.jupiter.api.Test;

/** The .npy preamble: what NumPy writes reads back, and each broken rule is refused by name. */
class NpyHeaderTest {
  private static final Path FILE = Path.of("a.npy");

  private static NpyHeader read(byte[] bytes) throws IOException {
    return NpyHeader.read(FILE, "the file", Channels.newChannel(new java.io.ByteArrayInputStream(bytes)));
  }

  private static NpyHeader readFixture(String name) throws IOException {
    Path p = Fixtures.path(name);
    try (FileChannel ch = FileChannel.open(p)) {
      return NpyHeader.read(p, "the file", ch);
    }
  }

  private static String refusedFixture(String name) {
    return assertThrows(TensorFormatException.class, () -> readFixture(name)).getMessage();
  }

  private static String refused(byte[] bytes) {
    return assertThrows(TensorFormatException.class, () -> read(bytes)).getMessage();
  }

  private static byte[] preamble(int major, String dict) {
    byte[] text = dict.getBytes(StandardCharsets.UTF_8);
    int lenBytes = major == 1 ? 2 : 4;
    java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(8 + lenBytes + text.length).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    b.put(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', (byte) major, 0});
    if (major == 1) b.putShort((short) text.length); else b.putInt(text.length);
    return b.put(text).array();
  }

  @Test
  void readsWhatNumPyWrote() throws IOException {
    NpyHeader f = readFixture("fortran_i32.npy");
    assertEquals(DType.INT32, f.dtype());
    assertTrue(f.fortranOrder());
    assertArrayEquals(new long[] {3, 4}, f.shape());
    assertEquals(128, f.preambleBytes(), "NumPy pads the preamble to 64 bytes");
    assertArrayEquals(new long[] {}, readFixture("scalar_f64.npy").shape());
    assertEquals(DType.UINT8, readFixture("v2_u8.npy").dtype());
    assertEquals(DType.FLOAT16, readFixture("v3_f16.npy").dtype());
    NpyHeader big = readFixture("big_endian_i16.npy");
    assertTrue(big.bigEndian());
    assertFalse(readFixture("c_order_f32.npy").bigEndian());
    assertEquals(DType.BOOL, readFixture("bool.npy").dtype());
  }

  @Test
  void refusesNumPyDtypesJtensorLacksByName() {
    assertTrue(refusedFixture("refused_u2.npy").contains("NumPy dtype '<u2' (uint16), which jtensor has no dtype for (it reads bool, uint8, int8, int16, int32, int64, float16, float32, float64)"));
    assertTrue(refusedFixture("refused_c8.npy").contains("'<c8' (complex64)"));
    assertTrue(refusedFixture("refused_object.npy").contains("'|O' (object)"));
    assertTrue(refusedFixture("refused_structured.npy").contains("structured dtype"));
    assertTrue(refused(preamble(1, "{'descr': '<f16', 'fortran_order': False, 'shape': (1,), }")).contains("'<f16' (float128)"));
  }

  @Test
  void encodesWhatItReadsBack() throws IOException {
    for (DType t : DType.values()) {
      if (t == DType.BFLOAT16) continue;
      byte[] bytes = NpyHeader.encode("save", t, true, new long[] {2, 0, 5});
      assertEquals(0, bytes.length % 64);
      NpyHeader h = read(bytes);
      assertEquals(t, h.dtype());
      assertTrue(h.fortranOrder());
      assertArrayEquals(new long[] {2, 0, 5}, h.shape());
      assertEquals(bytes.length, h.preambleBytes());
    }
    assertArrayEquals(new long[] {7}, read(NpyHeader.encode("save", DType.INT8, false, new long[] {7})).shape());
    assertArrayEquals(new long[] {}, read(NpyHeader.encode("save", DType.INT8, false, new long[] {})).shape());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NpyHeader.encode("save", DType.BFLOAT16, false, new long[] {1}));
    assertEquals("save(): NumPy has no bfloat16 dtype; convert first, e.g. to(DType.FLOAT32)", e.getMessage());
  }

  @Test
  void refusesBrokenPreambles() {
    assertTrue(refused("NUMPY".getBytes()).contains("ends inside its .npy header"));
    assertTrue(refused(new byte[] {'P', 'K', 3, 4, 0, 0, 0, 0, 0, 0}).contains("not a .npy array: no \\x93NUMPY magic"));
    assertTrue(refused(preamble(4, "{}")).contains("format version 4.0 (jtensor reads 1.0, 2.0 and 3.0)"));
    byte[] huge = preamble(2, "{}");
    huge[8] = (byte) 0xff; huge[9] = (byte) 0xff; huge[10] = (byte) 0xff; huge[11] = (byte) 0x7f;
    assertTrue(refused(huge).contains("declares a 2147483647-byte header, over NumPy's cap of 10000"));
    assertTrue(refused(preamble(1, "{'descr': '<f4', 'shape': (1,), }")).contains("not a dict of exactly 'descr', 'fortran_order' and 'shape'"));
    assertTrue(refused(preamble(1, "{'descr': '<f4', 'fortran_order': 0, 'shape': (1,), }")).contains("'fortran_order' is not True or False"));
    assertTrue(refused(preamble(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }")).contains("'shape' element -1"));
    assertTrue(refused(preamble(1, "{'descr': '<f4', 'fortran_order': False, 'shape': 3, }")).contains("'shape' is not a tuple"));
    assertTrue(refused(preamble(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }")).contains("more than 2^63 bytes"));
    assertTrue(refused(preamble(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), ")).contains("invalid Python literal"));
    byte[] latin = preamble(3, "{'descr': '<f4\u00e9'}");
    latin[latin.length - 3] = (byte) 0xff;  // not UTF-8 in a version 3.0 header
    assertTrue(refused(latin).contains("not valid UTF-8"));
  }
}
