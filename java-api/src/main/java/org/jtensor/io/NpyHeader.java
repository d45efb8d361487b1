package org.jtensor.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jtensor.DType;
import org.jtensor.core.Shapes;

/**
 * The preamble of a .npy file: the magic "\x93NUMPY", a version (1.0 with a 2-byte header
 * length, 2.0 and 3.0 with a 4-byte one; 3.0's header is UTF-8), and a Python dict literal
 * {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)} padded with spaces to a 64-byte
 * boundary and ended by a newline.
 */
record NpyHeader(DType dtype, boolean bigEndian, boolean fortranOrder, long[] shape, long preambleBytes) {
  private static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
  /** NumPy's own cap on the header it reads without allow_pickle. */
  static final int MAX_HEADER_BYTES = 10_000;
  private static final int ALIGN = 64;
  /** NumPy's kind letter of each dtype jtensor shares with it; the size digit is the item size. */
  private static final Map<DType, Character> KINDS = Map.of(DType.BOOL, 'b', DType.UINT8, 'u', DType.INT8, 'i',
      DType.INT16, 'i', DType.INT32, 'i', DType.INT64, 'i', DType.FLOAT16, 'f', DType.FLOAT32, 'f', DType.FLOAT64, 'f');
  private static final Map<Character, String> KIND_NAMES = Map.of('b', "bool", 'i', "int", 'u', "uint", 'f', "float",
      'c', "complex", 'O', "object", 'S', "bytes", 'U', "str", 'V', "void", 'M', "datetime64");
  private static final Pattern DESCR = Pattern.compile("([<>|=])([a-zA-Z])(\\d{0,3})");

  /** The data's size in bytes; -1 when it exceeds a long. */
  long nbytes() {
    long n = dtype.itemSize();
    for (long d : shape) {
      try {
        n = Math.multiplyExact(n, d);
      } catch (ArithmeticException overflow) {
        return -1;
      }
    }
    return n;
  }

  /** NumPy's descr of dtype: '|b1', '|u1', '<i4', '<f2' ... (little-endian, as jtensor's bytes are). */
  static String descr(String op, DType dtype) {
    Character kind = KINDS.get(dtype);
    if (kind == null) {
      throw new IllegalArgumentException(op + "(): NumPy has no " + dtype + " dtype; convert first, e.g. to(DType.FLOAT32)");
    }
    return (dtype.itemSize() == 1 ? "|" : "<") + kind + dtype.itemSize();
  }

  /** Magic, version 1.0, header length and the padded header for an array of this layout. */
  static byte[] encode(String op, DType dtype, boolean fortranOrder, long[] shape) {
    StringBuilder dims = new StringBuilder("(");
    for (int i = 0; i < shape.length; i++) dims.append(i > 0 ? ", " : "").append(shape[i]);
    dims.append(shape.length == 1 ? ",)" : ")");
    String dict = "{'descr': '" + descr(op, dtype) + "', 'fortran_order': " + (fortranOrder ? "True" : "False")
        + ", 'shape': " + dims + ", }";
    int fixed = MAGIC.length + 2 + 2;
    int total = (fixed + dict.length() + 1 + ALIGN - 1) / ALIGN * ALIGN;
    ByteBuffer b = ByteBuffer.allocate(total).order(ByteOrder.LITTLE_ENDIAN);
    b.put(MAGIC).put((byte) 1).put((byte) 0).putShort((short) (total - fixed));
    b.put(dict.getBytes(StandardCharsets.ISO_8859_1));
    while (b.position() < total - 1) b.put((byte) ' ');
    b.put((byte) '\n');
    return b.array();
  }

  /** Reads exactly the preamble from ch and checks it; what names the array in messages. */
  static NpyHeader read(Path file, String what, ReadableByteChannel ch) throws IOException {
    ByteBuffer fixed = readFully(file, what, ch, MAGIC.length + 2);
    for (int i = 0; i < MAGIC.length; i++) {
      if (fixed.get(i) != MAGIC[i]) throw new TensorFormatException(file, what + " is not a .npy array: no \\x93NUMPY magic");
    }
    int major = fixed.get(6) & 0xff, minor = fixed.get(7) & 0xff;
    if (minor != 0 || major < 1 || major > 3) {
      throw new TensorFormatException(file, what + " has .npy format version " + major + "." + minor + " (jtensor reads 1.0, 2.0 and 3.0)");
    }
    int lengthBytes = major == 1 ? 2 : 4;
    ByteBuffer len = readFully(file, what, ch, lengthBytes);
    long headerLength = major == 1 ? len.getShort(0) & 0xffff : len.getInt(0) & 0xffffffffL;
    if (headerLength > MAX_HEADER_BYTES) {
      throw new TensorFormatException(file, what + " declares a " + headerLength + "-byte header, over NumPy's cap of " + MAX_HEADER_BYTES);
    }
    ByteBuffer raw = readFully(file, what, ch, (int) headerLength);
    Charset cs = major == 3 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1;
    String text;
    try {
      text = cs.newDecoder().onMalformedInput(CodingErrorAction.REPORT).decode(raw).toString();
    } catch (CharacterCodingException e) {
      throw new TensorFormatException(file, what + " has a header that is not valid " + cs, e);
    }
    return parse(file, what, text, MAGIC.length + 2 + lengthBytes + headerLength);
  }

  private static ByteBuffer readFully(Path file, String what, ReadableByteChannel ch, int n) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    while (b.hasRemaining()) {
      if (ch.read(b) < 0) throw new TensorFormatException(file, what + " ends inside its .npy header");
    }
    return b.flip();
  }

  static NpyHeader parse(Path file, String what, String text, long preambleBytes) throws TensorFormatException {
    Object v;
    try {
      v = PyLiteral.parse(text);
    } catch (HeaderText.SyntaxException e) {
      throw new TensorFormatException(file, what + " has a header that is an " + e.getMessage(), e);
    }
    if (!(v instanceof Map) || !((Map<?, ?>) v).keySet().equals(Set.of("descr", "fortran_order", "shape"))) {
      throw new TensorFormatException(file, what + " has a header that is not a dict of exactly 'descr', 'fortran_order' and 'shape'");
    }
    Map<?, ?> m = (Map<?, ?>) v;
    if (!(m.get("fortran_order") instanceof Boolean)) throw new TensorFormatException(file, what + ": 'fortran_order' is not True or False");
    if (!(m.get("shape") instanceof List)) throw new TensorFormatException(file, what + ": 'shape' is not a tuple");
    List<?> dims = (List<?>) m.get("shape");
    if (dims.size() > Shapes.MAX_DIMS) {
      throw new TensorFormatException(file, what + " has " + dims.size() + " dims; tensors have at most " + Shapes.MAX_DIMS);
    }
    long[] shape = new long[dims.size()];
    for (int i = 0; i < shape.length; i++) {
      if (!(dims.get(i) instanceof Long) || (Long) dims.get(i) < 0) {
        throw new TensorFormatException(file, what + ": 'shape' element " + dims.get(i) + " is not a non-negative integer");
      }
      shape[i] = (Long) dims.get(i);
    }
    Object descr = m.get("descr");
    if (!(descr instanceof String)) {
      throw new TensorFormatException(file, what + " has a structured dtype " + descr + "; jtensor reads plain numeric arrays only");
    }
    Matcher d = DESCR.matcher((String) descr);
    DType dtype = d.matches() ? dtypeOf(d.group(2).charAt(0), d.group(3)) : null;
    if (dtype == null) throw new TensorFormatException(file, what + " has " + refusal((String) descr, d));
    NpyHeader h = new NpyHeader(dtype, d.group(1).equals(">"), (Boolean) m.get("fortran_order"), shape, preambleBytes);
    if (h.nbytes() < 0 || !TensorBytes.nonZeroDimsFit(dtype.itemSize(), shape)) {  // np.load: "array is too big"
      throw new TensorFormatException(file, what + " declares shape " + Arrays.toString(shape) + ", more than 2^63 bytes"
          + (Arrays.stream(shape).anyMatch(n -> n == 0) ? " in its non-zero dims: the array is too big" : ""));
    }
    return h;
  }

  private static DType dtypeOf(char kind, String size) {
    for (Map.Entry<DType, Character> e : KINDS.entrySet()) {
      if (e.getValue() == kind && String.valueOf(e.getKey().itemSize()).equals(size)) return e.getKey();
    }
    return null;
  }

  private static String refusal(String descr, Matcher d) {
    StringBuilder jt = new StringBuilder();
    for (DType t : DType.values()) {
      if (KINDS.containsKey(t)) jt.append(jt.length() > 0 ? ", " : "").append(t);
    }
    String known = "";
    if (d.matches() && KIND_NAMES.containsKey(d.group(2).charAt(0))) {
      char k = d.group(2).charAt(0);
      boolean sized = "iufc".indexOf(k) >= 0 && !d.group(3).isEmpty();
      known = " (" + KIND_NAMES.get(k) + (sized ? String.valueOf(8 * Integer.parseInt(d.group(3))) : "") + ")";
    }
    return "NumPy dtype '" + descr + "'" + known + ", which jtensor has no dtype for (it reads " + jt + ")";
  }
}
