package org.jtensor.io;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jtensor.DType;
import org.jtensor.core.Shapes;

/**
 * A safetensors file's header: an 8-byte little-endian length N, then N bytes of UTF-8 JSON
 * mapping each tensor name to {dtype, shape, data_offsets} (offsets relative to the data
 * section that follows), plus an optional "__metadata__" object of strings. Everything the
 * format promises is checked here, before any tensor is made: the length fits the file and the
 * cap, the JSON is strict, each dtype is one jtensor has, shape × item size equals the byte
 * range, and the ranges tile the data section exactly (no overlap, no hole, nothing past it).
 */
final class SafeTensorsHeader {
  /** The reference library's cap on the header length: larger is refused unread. */
  static final long MAX_HEADER_BYTES = 100_000_000L;
  static final String METADATA_KEY = "__metadata__";

  /** One tensor's entry, offsets relative to the data section. */
  record Entry(String name, DType dtype, long[] shape, long begin, long end) {
    long nbytes() {
      return end - begin;
    }
  }

  /** The format's dtype names; each is bound to exactly one jtensor dtype. */
  private static final Map<String, DType> DTYPES = Map.of(
      "BOOL", DType.BOOL, "U8", DType.UINT8, "I8", DType.INT8, "I16", DType.INT16, "I32", DType.INT32,
      "I64", DType.INT64, "F16", DType.FLOAT16, "BF16", DType.BFLOAT16, "F32", DType.FLOAT32, "F64", DType.FLOAT64);
  /** Names the format defines that jtensor has no dtype for: refused by name, not as garbage. */
  private static final Set<String> FOREIGN_DTYPES = Set.of(
      "U16", "U32", "U64", "C64", "F8_E4M3", "F8_E5M2", "F8_E8M0", "E8M0", "F4", "F6_E2M3", "F6_E3M2");

  final long dataStart;             // file offset of the data section
  final List<Entry> entries;        // sorted by begin (file order)
  final Map<String, String> metadata;

  private SafeTensorsHeader(long dataStart, List<Entry> entries, Map<String, String> metadata) {
    this.dataStart = dataStart;
    this.entries = entries;
    this.metadata = metadata;
  }

  static String nameOf(DType dtype) {
    for (Map.Entry<String, DType> e : DTYPES.entrySet()) {
      if (e.getValue() == dtype) return e.getKey();
    }
    throw new AssertionError("every dtype has a safetensors name: " + dtype);
  }

  /** Reads and checks the header of the file open on ch (at any position). */
  static SafeTensorsHeader read(Path file, FileChannel ch) throws IOException {
    long size = ch.size();
    if (size < 8) throw new TensorFormatException(file, "safetensors: file of " + size + " bytes is shorter than the 8-byte header length");
    ByteBuffer len = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
    readFully(file, ch, len, 0);
    long n = len.getLong(0);
    if (n < 0 || n > MAX_HEADER_BYTES) {
      throw new TensorFormatException(file, "safetensors: header length " + Long.toUnsignedString(n)
          + " exceeds the " + MAX_HEADER_BYTES + "-byte cap");
    }
    if (n > size - 8) {
      throw new TensorFormatException(file, "safetensors: header length " + n + " runs past the end of the " + size + "-byte file");
    }
    ByteBuffer raw = ByteBuffer.allocate((int) n);
    readFully(file, ch, raw, 8);
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(raw.flip()).toString();
    } catch (CharacterCodingException e) {
      throw new TensorFormatException(file, "safetensors: header is not valid UTF-8", e);
    }
    return parse(file, text, 8 + n, size - 8 - n);
  }

  private static void readFully(Path file, FileChannel ch, ByteBuffer dst, long at) throws IOException {
    while (dst.hasRemaining()) {
      int r = ch.read(dst, at + dst.position());
      if (r < 0) throw new TensorFormatException(file, "safetensors: file ends inside the header", new EOFException());
    }
  }

  static SafeTensorsHeader parse(Path file, String text, long dataStart, long dataLength) throws TensorFormatException {
    if (!text.startsWith("{")) throw new TensorFormatException(file, "safetensors: header does not begin with '{'");
    Object root;
    try {
      root = Json.parse(text);
    } catch (HeaderText.SyntaxException e) {
      throw new TensorFormatException(file, "safetensors: header is " + e.getMessage(), e);
    }
    if (!(root instanceof Map)) throw new TensorFormatException(file, "safetensors: header is not a JSON object");
    Map<String, String> metadata = Collections.emptyMap();
    List<Entry> entries = new ArrayList<>();
    for (Map.Entry<?, ?> e : ((Map<?, ?>) root).entrySet()) {
      String name = (String) e.getKey();
      if (name.equals(METADATA_KEY)) {
        metadata = metadata(file, e.getValue());
      } else {
        entries.add(entry(file, name, e.getValue()));
      }
    }
    entries.sort(Comparator.comparingLong(Entry::begin).thenComparingLong(Entry::end));
    long at = 0;
    for (Entry t : entries) {
      if (t.begin != at) {
        String what = t.begin < at ? "overlaps the tensor before it" : "leaves a hole of " + (t.begin - at) + " bytes before it";
        throw new TensorFormatException(file, "safetensors: tensor \"" + t.name + "\" at data offset " + t.begin + " " + what);
      }
      at = t.end;
    }
    if (at != dataLength) {
      throw new TensorFormatException(file, "safetensors: tensors cover " + at + " bytes of data but the file holds "
          + dataLength + " after the header" + (at > dataLength ? " (truncated file?)" : ""));
    }
    return new SafeTensorsHeader(dataStart, List.copyOf(entries), metadata);
  }

  private static Map<String, String> metadata(Path file, Object v) throws TensorFormatException {
    if (!(v instanceof Map)) throw new TensorFormatException(file, "safetensors: \"__metadata__\" is not an object");
    Map<String, String> m = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
      if (!(e.getValue() instanceof String)) {
        throw new TensorFormatException(file, "safetensors: \"__metadata__\" value of \"" + e.getKey() + "\" is not a string");
      }
      m.put((String) e.getKey(), (String) e.getValue());
    }
    return Collections.unmodifiableMap(m);
  }

  private static Entry entry(Path file, String name, Object v) throws TensorFormatException {
    String where = "safetensors: tensor \"" + name + "\"";
    if (!(v instanceof Map)) throw new TensorFormatException(file, where + " is not an object");
    Map<?, ?> m = (Map<?, ?>) v;
    if (!(m.get("dtype") instanceof String)) throw new TensorFormatException(file, where + " has no string \"dtype\"");
    String dtypeName = (String) m.get("dtype");
    DType dtype = DTYPES.get(dtypeName);
    if (dtype == null) {
      String why = FOREIGN_DTYPES.contains(dtypeName) ? "a safetensors dtype jtensor has no dtype for" : "not a safetensors dtype";
      throw new TensorFormatException(file, where + " has dtype \"" + dtypeName + "\": " + why
          + " (jtensor reads " + String.join(", ", sortedNames()) + ")");
    }
    long[] shape = longs(file, where, "shape", m.get("shape"), -1);
    if (shape.length > Shapes.MAX_DIMS) {
      throw new TensorFormatException(file, where + " has " + shape.length + " dims; tensors have at most " + Shapes.MAX_DIMS);
    }
    long[] offsets = longs(file, where, "data_offsets", m.get("data_offsets"), 2);
    long begin = offsets[0], end = offsets[1];
    if (end < begin) throw new TensorFormatException(file, where + " has data_offsets [" + begin + ", " + end + "] that end before they begin");
    long nbytes = dtype.itemSize();
    for (long d : shape) {
      nbytes = multiplyOrMinus(nbytes, d);
    }
    if (nbytes == 0 && !TensorBytes.nonZeroDimsFit(dtype.itemSize(), shape)) {  // no strides for it (torch: "Stride calculation overflowed")
      throw new TensorFormatException(file, where + " of dtype " + dtypeName + " and shape " + java.util.Arrays.toString(shape)
          + " needs more than 2^63 bytes in its non-zero dims: its strides overflow");
    }
    if (nbytes != end - begin) {
      throw new TensorFormatException(file, where + " of dtype " + dtypeName + " and shape " + java.util.Arrays.toString(shape)
          + " needs " + (nbytes < 0 ? "more than 2^63" : nbytes) + " bytes but data_offsets span " + (end - begin));
    }
    return new Entry(name, dtype, shape, begin, end);
  }

  private static long multiplyOrMinus(long a, long b) {
    if (a < 0) return a;
    try {
      return Math.multiplyExact(a, b);
    } catch (ArithmeticException overflow) {
      return -1;
    }
  }

  private static List<String> sortedNames() {
    List<String> names = new ArrayList<>(DTYPES.keySet());
    names.sort(Comparator.comparingInt((String s) -> DTYPES.get(s).ordinal()));
    return names;
  }

  /** A JSON array of non-negative integers (of the given length, unless it is -1). */
  private static long[] longs(Path file, String where, String field, Object v, int length) throws TensorFormatException {
    if (!(v instanceof List)) throw new TensorFormatException(file, where + " has no array \"" + field + "\"");
    List<?> a = (List<?>) v;
    if (length >= 0 && a.size() != length) {
      throw new TensorFormatException(file, where + " has \"" + field + "\" of " + a.size() + " numbers, not " + length);
    }
    long[] out = new long[a.size()];
    for (int i = 0; i < out.length; i++) {
      if (!(a.get(i) instanceof Long) || (Long) a.get(i) < 0) {
        throw new TensorFormatException(file, where + " has \"" + field + "\" element " + a.get(i) + ", not a non-negative integer");
      }
      out[i] = (Long) a.get(i);
    }
    return out;
  }

  /**
   * The header text for these entries, padded with spaces so that the data section starts on an
   * 8-byte boundary as the reference writer does.
   */
  static byte[] encode(List<Entry> entries, Map<String, String> metadata) {
    StringBuilder b = new StringBuilder("{");
    if (!metadata.isEmpty()) {
      b.append(Json.quote(METADATA_KEY)).append(":{");
      String sep = "";
      for (Map.Entry<String, String> e : metadata.entrySet()) {
        b.append(sep).append(Json.quote(e.getKey())).append(':').append(Json.quote(e.getValue()));
        sep = ",";
      }
      b.append('}');
    }
    for (Entry t : entries) {
      if (b.length() > 1) b.append(',');
      b.append(Json.quote(t.name)).append(":{\"dtype\":\"").append(nameOf(t.dtype)).append("\",\"shape\":[");
      for (int i = 0; i < t.shape.length; i++) b.append(i > 0 ? "," : "").append(t.shape[i]);
      b.append("],\"data_offsets\":[").append(t.begin).append(',').append(t.end).append("]}");
    }
    b.append('}');
    byte[] json = b.toString().getBytes(StandardCharsets.UTF_8);
    int padded = (json.length + 7) / 8 * 8;
    byte[] out = java.util.Arrays.copyOf(json, padded);
    java.util.Arrays.fill(out, json.length, padded, (byte) ' ');
    return out;
  }
}
