package org.jtensor.io;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict JSON reader and a string writer, for safetensors headers (the library has no runtime
 * JSON dependency). RFC 8259 only: no comments, trailing commas, NaN or leading zeros; duplicate
 * keys and nesting deeper than {@link #MAX_DEPTH} are refused, so a hostile header can neither
 * overflow the stack nor hide a second value under one name. Objects come back as
 * {@link LinkedHashMap} (file order), arrays as {@link List}, integers that fit as {@link Long},
 * other numbers as {@link Double}.
 */
final class Json extends HeaderText {
  static final int MAX_DEPTH = 64;

  /** A syntax error with the character offset where it was found. */
  private Json(String s) {
    super("JSON", s);
  }

  /** The single value that s holds, with only whitespace around it. */
  static Object parse(String s) throws SyntaxException {
    return new Json(s).whole();
  }

  private void expect(char c) throws SyntaxException {
    if (peek() != c) throw error("expected '" + c + "', got '" + s.charAt(pos) + "'");
    pos++;
  }

  @Override
  Object value(int depth) throws SyntaxException {
    if (depth >= MAX_DEPTH) throw error("nested deeper than " + MAX_DEPTH);
    char c = peek();
    switch (c) {
      case '{': return object(depth + 1);
      case '[': return array(depth + 1);
      case '"': return string();
      case 't': return literal("true", Boolean.TRUE);
      case 'f': return literal("false", Boolean.FALSE);
      case 'n': return literal("null", null);
      default:
        if (c == '-' || (c >= '0' && c <= '9')) return number();
        throw error("unexpected '" + c + "'");
    }
  }

  private Object literal(String word, Object v) throws SyntaxException {
    if (!s.startsWith(word, pos)) throw error("expected " + word);
    pos += word.length();
    return v;
  }

  private Map<String, Object> object(int depth) throws SyntaxException {
    expect('{');
    Map<String, Object> m = new LinkedHashMap<>();
    skipSpace();
    if (peek() == '}') {
      pos++;
      return m;
    }
    while (true) {
      skipSpace();
      int keyAt = pos;
      if (peek() != '"') throw error("expected a string key");
      String key = string();
      skipSpace();
      expect(':');
      skipSpace();
      Object v = value(depth);
      if (m.containsKey(key)) throw errorAt("duplicate key \"" + key + "\"", keyAt);
      m.put(key, v);
      skipSpace();
      if (peek() == ',') {
        pos++;
        continue;
      }
      expect('}');
      return m;
    }
  }

  private List<Object> array(int depth) throws SyntaxException {
    expect('[');
    List<Object> a = new ArrayList<>();
    skipSpace();
    if (peek() == ']') {
      pos++;
      return a;
    }
    while (true) {
      skipSpace();
      a.add(value(depth));
      skipSpace();
      if (peek() == ',') {
        pos++;
        continue;
      }
      expect(']');
      return a;
    }
  }

  private String string() throws SyntaxException {
    expect('"');
    StringBuilder b = new StringBuilder();
    while (true) {
      char c = peek();
      pos++;
      if (c == '"') return b.toString();
      if (c < 0x20) throw error("control character in a string");
      if (c != '\\') {
        b.append(c);
        continue;
      }
      char e = peek();
      pos++;
      switch (e) {
        case '"': case '\\': case '/': b.append(e); break;
        case 'b': b.append('\b'); break;
        case 'f': b.append('\f'); break;
        case 'n': b.append('\n'); break;
        case 'r': b.append('\r'); break;
        case 't': b.append('\t'); break;
        case 'u': b.append(hex4()); break;
        default: throw error("bad escape \\" + e);
      }
    }
  }

  private char hex4() throws SyntaxException {
    if (pos + 4 > s.length()) throw error("short \\u escape");
    int v = 0;
    for (int i = 0; i < 4; i++) {
      int d = Character.digit(s.charAt(pos++), 16);
      if (d < 0) throw error("bad hex digit in a \\u escape");
      v = v * 16 + d;
    }
    return (char) v;
  }

  private Object number() throws SyntaxException {
    int start = pos;
    if (peek() == '-') pos++;
    if (peek() == '0') {
      pos++;
    } else {
      digits();
    }
    boolean integral = true;
    if (pos < s.length() && s.charAt(pos) == '.') {
      pos++;
      digits();
      integral = false;
    }
    if (pos < s.length() && (s.charAt(pos) == 'e' || s.charAt(pos) == 'E')) {
      pos++;
      if (peek() == '+' || peek() == '-') pos++;
      digits();
      integral = false;
    }
    String text = s.substring(start, pos);
    if (integral) {
      try {
        return Long.parseLong(text);
      } catch (NumberFormatException tooBig) {
        // out of long range: kept as a double, which every integer field then refuses
      }
    }
    return Double.parseDouble(text);
  }

  private void digits() throws SyntaxException {
    char c = peek();
    if (c < '0' || c > '9') throw error("expected a digit");
    while (pos < s.length() && s.charAt(pos) >= '0' && s.charAt(pos) <= '9') pos++;
  }

  /** s as a JSON string literal, quotes included. */
  static String quote(String s) {
    StringBuilder b = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        b.append('\\').append(c);
      } else if (c < 0x20) {
        b.append(String.format("\\u%04x", (int) c));
      } else {
        b.append(c);
      }
    }
    return b.append('"').toString();
  }
}
