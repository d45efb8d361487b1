package org.jtensor.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jtensor.DType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every rule the safetensors header is checked against, each broken once, before any tensor is made. */
class SafeTensorsHeaderTest {
  private static final Path FILE = Path.of("model.safetensors");

  private static SafeTensorsHeader parse(String json, long dataLength) throws TensorFormatException {
    return SafeTensorsHeader.parse(FILE, json, 8 + json.length(), dataLength);
  }

  private static void refused(String json, long dataLength, String problem) {
    TensorFormatException e = assertThrows(TensorFormatException.class, () -> parse(json, dataLength), json);
    assertTrue(e.getMessage().startsWith(FILE + ": safetensors: "), e.getMessage());
    assertTrue(e.getMessage().contains(problem), e.getMessage());
  }

  private static String entry(String name, String dtype, String shape, long begin, long end) {
    return "\"" + name + "\":{\"dtype\":\"" + dtype + "\",\"shape\":" + shape + ",\"data_offsets\":[" + begin + "," + end + "]}";
  }

  @Test
  void readsEntriesInFileOrderAndTheMetadata() throws Exception {
    String json = "{" + entry("b", "I64", "[2]", 8, 24) + "," + "\"__metadata__\":{\"format\":\"pt\"}," + entry("a", "BF16", "[2,2]", 0, 8)
        + "," + entry("e", "F32", "[0,3]", 24, 24) + "}  ";
    SafeTensorsHeader h = parse(json, 24);
    assertEquals(List.of("a", "b", "e"), h.entries.stream().map(SafeTensorsHeader.Entry::name).toList());
    assertEquals(DType.BFLOAT16, h.entries.get(0).dtype());
    assertArrayEquals(new long[] {2, 2}, h.entries.get(0).shape());
    assertEquals(Map.of("format", "pt"), h.metadata);
    assertEquals(0, parse("{}", 0).entries.size(), "an empty file's header");
  }

  @Test
  void refusesBrokenStructure() {
    refused(" {}", 0, "does not begin with '{'");
    refused("[]", 0, "does not begin with '{'");
    refused("{\"a\":1", 0, "header is invalid JSON");
    refused("{\"a\":[1]}", 0, "tensor \"a\" is not an object");
    refused("{\"__metadata__\":{\"k\":1}}", 0, "\"__metadata__\" value of \"k\" is not a string");
    refused("{\"__metadata__\":[]}", 0, "\"__metadata__\" is not an object");
    refused("{\"a\":{\"shape\":[1],\"data_offsets\":[0,4]}}", 4, "has no string \"dtype\"");
    refused("{\"a\":{\"dtype\":\"F32\",\"data_offsets\":[0,4]}}", 4, "has no array \"shape\"");
    refused("{" + entry("a", "F32", "[1]", 0, 4).replace(",4]", "]") + "}", 4, "\"data_offsets\" of 1 numbers, not 2");
    refused("{" + entry("a", "F32", "[-1]", 0, 4) + "}", 4, "\"shape\" element -1, not a non-negative integer");
    refused("{" + entry("a", "F32", "[1.0]", 0, 4) + "}", 4, "\"shape\" element 1.0");
    refused("{" + entry("a", "F32", "[" + "1,".repeat(64) + "1]", 0, 4) + "}", 4, "65 dims; tensors have at most 64");
  }

  @Test
  void refusesDtypesJtensorLacksByName() {
    refused("{" + entry("a", "U16", "[1]", 0, 2) + "}", 2, "dtype \"U16\": a safetensors dtype jtensor has no dtype for");
    refused("{" + entry("a", "F8_E4M3", "[1]", 0, 1) + "}", 1, "a safetensors dtype jtensor has no dtype for");
    refused("{" + entry("a", "float32", "[1]", 0, 4) + "}", 4, "dtype \"float32\": not a safetensors dtype (jtensor reads BOOL, U8, I8, I16, I32, I64, F16, BF16, F32, F64)");
  }

  @Test
  void refusesSizesThatDisagree() {
    refused("{" + entry("a", "F32", "[2,3]", 0, 20) + "}", 20, "shape [2, 3] needs 24 bytes but data_offsets span 20");
    refused("{" + entry("a", "F64", "[4294967296,4294967296]", 0, 8) + "}", 8, "needs more than 2^63 bytes");
    refused("{" + entry("a", "U8", "[4]", 4, 0) + "}", 4, "end before they begin");
    refused("{" + entry("a", "U8", "[4]", 0, 4) + "}", 1_000_000_000_000L, "cover 4 bytes of data but the file holds 1000000000000");
    refused("{" + entry("a", "U8", "[4]", 0, 4) + "}", 3, "cover 4 bytes of data but the file holds 3 after the header (truncated file?)");
    refused("{" + entry("a", "U8", "[9223372036854775807]", 0, 9223372036854775807L) + "}", 16, "truncated file?");
  }

  @Test
  void refusesOverlapsAndHoles() {
    refused("{" + entry("a", "U8", "[4]", 0, 4) + "," + entry("b", "U8", "[4]", 2, 6) + "}", 6, "tensor \"b\" at data offset 2 overlaps the tensor before it");
    refused("{" + entry("a", "U8", "[4]", 0, 4) + "," + entry("b", "U8", "[4]", 0, 4) + "}", 4, "overlaps");
    refused("{" + entry("a", "U8", "[4]", 0, 4) + "," + entry("b", "U8", "[4]", 6, 10) + "}", 10, "leaves a hole of 2 bytes before it");
    refused("{" + entry("a", "U8", "[4]", 2, 6) + "}", 6, "leaves a hole of 2 bytes");
  }

  private static Path file(Path dir, long declaredLength, byte[] rest) throws IOException {
    Path p = dir.resolve("h.safetensors");
    ByteBuffer b = ByteBuffer.allocate(8 + rest.length).order(ByteOrder.LITTLE_ENDIAN);
    b.putLong(declaredLength).put(rest);
    Files.write(p, b.array());
    return p;
  }

  private static String readRefused(Path p) {
    TensorFormatException e = assertThrows(TensorFormatException.class, () -> {
      try (FileChannel ch = FileChannel.open(p)) {
        SafeTensorsHeader.read(p, ch);
      }
    });
    assertEquals(p, e.file());
    return e.getMessage();
  }

  @Test
  void checksTheLengthPrefixBeforeReadingTheHeader(@TempDir Path dir) throws IOException {
    assertTrue(readRefused(file(dir, 3, new byte[] {'{', '}'})).contains("header length 3 runs past the end of the 10-byte file"));
    assertTrue(readRefused(file(dir, 100_000_001, new byte[0])).contains("header length 100000001 exceeds the 100000000-byte cap"));
    assertTrue(readRefused(file(dir, -1, new byte[0])).contains("header length 18446744073709551615 exceeds"));
    assertTrue(readRefused(file(dir, 2, new byte[] {'{', (byte) 0xff})).contains("header is not valid UTF-8"));
    Path tiny = dir.resolve("tiny");
    Files.write(tiny, new byte[5]);
    assertTrue(readRefused(tiny).contains("file of 5 bytes is shorter than the 8-byte header length"));
  }

  @Test
  void encodesAHeaderThatReadsBackPaddedToEightBytes() throws Exception {
    List<SafeTensorsHeader.Entry> entries = List.of(new SafeTensorsHeader.Entry("w\"eird", DType.FLOAT16, new long[] {3}, 0, 6),
        new SafeTensorsHeader.Entry("s", DType.BOOL, new long[] {}, 6, 7));
    byte[] bytes = SafeTensorsHeader.encode(entries, Map.of("k", "v"));
    assertEquals(0, bytes.length % 8);
    SafeTensorsHeader h = SafeTensorsHeader.parse(FILE, new String(bytes, StandardCharsets.UTF_8), 8 + bytes.length, 7);
    assertEquals("w\"eird", h.entries.get(0).name());
    assertArrayEquals(new long[] {}, h.entries.get(1).shape());
    assertEquals(Map.of("k", "v"), h.metadata);
  }
}
