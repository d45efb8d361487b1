package org.jtensor.io;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * Emits pickle protocol 2 opcodes as Python's pickler does for the values torch.save writes:
 * ints in their shortest form, str as BINUNICODE, tuples of up to three items with TUPLE1..3,
 * and each global memoized on first use so that later uses are a BINGET.
 */
final class PickleWriter {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final Map<String, Integer> globals = new HashMap<>();
  private int memoSize;

  PickleWriter() {
    out.write(0x80);
    out.write(2);
  }

  byte[] finish() {
    out.write('.');
    return out.toByteArray();
  }

  PickleWriter mark() {
    out.write('(');
    return this;
  }

  PickleWriter none() {
    out.write('N');
    return this;
  }

  PickleWriter bool(boolean b) {
    out.write(b ? 0x88 : 0x89);
    return this;
  }

  PickleWriter integer(long v) {
    if (v >= 0 && v < 256) {
      out.write('K');
      out.write((int) v);
    } else if (v >= 0 && v < 65536) {
      out.write('M');
      le(v, 2);
    } else if (v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE) {
      out.write('J');
      le(v, 4);
    } else {
      int n = 1;  // LONG1: the fewest two's-complement bytes that sign-extend back to v
      while (n < 8 && ((v << (64 - 8 * n)) >> (64 - 8 * n)) != v) n++;
      out.write(0x8a);
      out.write(n);
      le(v, n);
    }
    return this;
  }

  /** BINFLOAT: the double's 8 bytes, big-endian. */
  PickleWriter real(double v) {
    out.write('G');
    long bits = Double.doubleToRawLongBits(v);
    for (int i = 7; i >= 0; i--) out.write((int) (bits >>> (8 * i)) & 0xff);
    return this;
  }

  PickleWriter string(String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    out.write('X');
    le(b.length, 4);
    out.write(b, 0, b.length);
    return this;
  }

  /** A module attribute such as collections.OrderedDict; the second use reads it back from the memo. */
  PickleWriter global(String module, String name) {
    String key = module + "\n" + name;
    Integer slot = globals.get(key);
    if (slot != null) {
      get(slot);
      return this;
    }
    out.write('c');
    byte[] b = (key + "\n").getBytes(StandardCharsets.UTF_8);
    out.write(b, 0, b.length);
    globals.put(key, put());
    return this;
  }

  /** Closes a tuple of n items pushed after the last mark (n &gt; 3) or without one (n &le; 3). */
  PickleWriter tuple(int n) {
    if (n == 0) out.write(')');
    else if (n <= 3) out.write(0x84 + n);
    else out.write('t');
    return this;
  }

  /** A tuple of ints (a size or stride). */
  PickleWriter longs(long[] v) {
    if (v.length > 3) mark();
    for (long x : v) integer(x);
    return tuple(v.length);
  }

  PickleWriter emptyDict() {
    out.write('}');
    return this;
  }

  PickleWriter emptyList() {
    out.write(']');
    return this;
  }

  PickleWriter setItems() {
    out.write('u');
    return this;
  }

  PickleWriter appends() {
    out.write('e');
    return this;
  }

  PickleWriter reduce() {
    out.write('R');
    return this;
  }

  PickleWriter persistentId() {
    out.write('Q');
    return this;
  }

  /** Stores the top of the stack in the next memo slot and returns the slot. */
  int put() {
    int slot = memoSize++;
    if (slot < 256) {
      out.write('q');
      out.write(slot);
    } else {
      out.write('r');
      le(slot, 4);
    }
    return slot;
  }

  PickleWriter get(int slot) {
    if (slot < 256) {
      out.write('h');
      out.write(slot);
    } else {
      out.write('j');
      le(slot, 4);
    }
    return this;
  }

  private void le(long v, int n) {
    for (int i = 0; i < n; i++) out.write((int) (v >>> (8 * i)) & 0xff);
  }
}
