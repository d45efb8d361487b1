package org.jtensor.io;

import java.math.BigInteger;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A cursor over a pickle's bytes: the fixed-width and text arguments of its opcodes, each length
 * checked against what is left before anything is allocated. Problems name the byte where the
 * current opcode starts.
 */
final class PickleInput {
  private final byte[] data;
  private final Path file;
  private int pos;
  private int opAt;

  PickleInput(byte[] data, Path file) {
    this.data = data;
    this.file = file;
  }

  /** Reads the next opcode and remembers where it starts, for messages. */
  int startOp() throws TensorFormatException {
    opAt = pos;
    return u8();
  }

  TensorFormatException bad(String problem) {
    return new TensorFormatException(file, "pickle byte " + opAt + ": " + problem);
  }

  void skip(int n) throws TensorFormatException {
    need(n);
    pos += n;
  }

  /** BINFLOAT: a big-endian IEEE double. */
  double float64() throws TensorFormatException {
    need(8);
    long bits = 0;
    for (int i = 0; i < 8; i++) bits = bits << 8 | (data[pos++] & 0xff);
    return Double.longBitsToDouble(bits);
  }

  void need(long n) throws TensorFormatException {
    if (n > data.length - pos) throw bad("truncated: needs " + n + " more bytes, " + (data.length - pos) + " left");
  }

  int u8() throws TensorFormatException {
    need(1);
    return data[pos++] & 0xff;
  }

  int i32() throws TensorFormatException {
    need(4);
    int v = (data[pos] & 0xff) | (data[pos + 1] & 0xff) << 8 | (data[pos + 2] & 0xff) << 16 | (data[pos + 3] & 0xff) << 24;
    pos += 4;
    return v;
  }

  long i64() throws TensorFormatException {
    long lo = i32() & 0xffffffffL, hi = i32() & 0xffffffffL;
    return hi << 32 | lo;
  }

  /** A declared length, checked against what is left before anything is allocated. */
  int length(long n) throws TensorFormatException {
    if (n < 0) throw bad("negative length " + n);
    need(n);
    return (int) n;
  }

  byte[] bytes(int n) throws TensorFormatException {
    need(n);
    byte[] b = java.util.Arrays.copyOfRange(data, pos, pos + n);
    pos += n;
    return b;
  }

  /**
   * A pickled str: UTF-8 as Python's unpickler reads it ('surrogatepass': ED A0 80 is a lone
   * U+D800). new String() would turn invalid bytes into U+FFFD; Python refuses them.
   */
  String utf8(int n) throws TensorFormatException {
    byte[] b = bytes(n);
    StringBuilder out = new StringBuilder(n);
    int start = 0;
    for (int i = 0; i + 2 < b.length; i++) {
      if (b[i] == (byte) 0xED && (b[i + 1] & 0xE0) == 0xA0 && (b[i + 2] & 0xC0) == 0x80) {  // a surrogate's three bytes
        out.append(strictUtf8(b, start, i)).append((char) (0xD000 | (b[i + 1] & 0x3F) << 6 | (b[i + 2] & 0x3F)));
        start = i + 3;
        i += 2;
      }
    }
    return out.append(strictUtf8(b, start, b.length)).toString();
  }

  private String strictUtf8(byte[] b, int from, int to) throws TensorFormatException {
    try {
      return StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(b, from, to - from)).toString();
    } catch (java.nio.charset.CharacterCodingException e) {
      throw bad("a str is not valid UTF-8 (Python: UnicodeDecodeError)");
    }
  }

  String latin1(int n) throws TensorFormatException {
    return new String(bytes(n), StandardCharsets.ISO_8859_1);
  }

  /** A little-endian two's-complement integer of n bytes (LONG1, LONG4). */
  Object longBytes(int n) throws TensorFormatException {
    byte[] le = bytes(n);
    if (n == 0) return 0L;
    byte[] be = new byte[n];
    for (int i = 0; i < n; i++) be[i] = le[n - 1 - i];
    BigInteger v = new BigInteger(be);
    return v.bitLength() < 64 ? (Object) v.longValue() : v;
  }

  String line() throws TensorFormatException {
    return line(StandardCharsets.UTF_8);
  }

  String line(Charset cs) throws TensorFormatException {
    int start = pos;
    while (pos < data.length && data[pos] != '\n') pos++;
    if (pos == data.length) throw bad("truncated: unterminated text argument");
    return new String(data, start, pos++ - start, cs);
  }

  Object textInt(String s) throws TensorFormatException {
    if (s.equals("01")) return Boolean.TRUE;  // protocol 0 writes bools as I01 / I00
    if (s.equals("00")) return Boolean.FALSE;
    return textLong(s);
  }

  Object textLong(String s) throws TensorFormatException {
    String digits = s.endsWith("L") ? s.substring(0, s.length() - 1) : s;
    try {
      BigInteger v = new BigInteger(digits.trim());
      return v.bitLength() < 64 ? (Object) v.longValue() : v;
    } catch (NumberFormatException e) {
      throw bad("malformed integer '" + s + "'");
    }
  }

  double textFloat(String s) throws TensorFormatException {
    try {
      return Double.parseDouble(s.trim());
    } catch (NumberFormatException e) {
      throw bad("malformed float '" + s + "'");
    }
  }

  long memoIndex(String s) throws TensorFormatException {
    try {
      return Long.parseLong(s.trim());
    } catch (NumberFormatException e) {
      throw bad("malformed memo index '" + s + "'");
    }
  }

  /** Protocol 0's UNICODE argument: latin-1 text with backslash-u escapes. */
  String rawUnicodeEscape(String s) throws TensorFormatException {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      int digits = c == '\\' && i + 1 < s.length() ? (s.charAt(i + 1) == 'u' ? 4 : s.charAt(i + 1) == 'U' ? 8 : 0) : 0;
      if (digits == 0) {
        sb.append(c);
        continue;
      }
      if (i + 2 + digits > s.length()) throw bad("malformed escape in UNICODE argument");
      try {
        sb.appendCodePoint(Integer.parseInt(s.substring(i + 2, i + 2 + digits), 16));
      } catch (IllegalArgumentException e) {
        throw bad("malformed escape in UNICODE argument");
      }
      i += 1 + digits;
    }
    return sb.toString();
  }

}
