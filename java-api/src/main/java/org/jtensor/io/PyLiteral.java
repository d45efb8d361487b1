package org.jtensor.io;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Python literals a .npy header is written in (NumPy writes the repr of a dict and reads it
 * back with ast.literal_eval): dicts, tuples, lists, quoted strings, integers (with the Python 2
 * "L" suffix old files carry), True, False and None. Nothing else is accepted, and nesting is
 * bounded. Dicts come back as {@link LinkedHashMap}, tuples and lists as {@link List}, integers
 * as {@link Long}.
 */
final class PyLiteral extends HeaderText {
  private static final int MAX_DEPTH = 16;

  private PyLiteral(String s) {
    super("Python literal", s);
  }

  static Object parse(String s) throws SyntaxException {
    return new PyLiteral(s).whole();
  }

  @Override
  Object value(int depth) throws SyntaxException {
    if (depth >= MAX_DEPTH) throw error("nested deeper than " + MAX_DEPTH);
    char c = peek();
    if (c == '{') return dict(depth + 1);
    if (c == '(') return sequence(depth + 1, ')');
    if (c == '[') return sequence(depth + 1, ']');
    if (c == '\'' || c == '"') return string(c);
    if (c == '-' || (c >= '0' && c <= '9')) return integer();
    for (String word : new String[] {"True", "False", "None"}) {
      if (s.startsWith(word, pos)) {
        pos += word.length();
        return word.equals("None") ? null : Boolean.valueOf(word.equals("True"));
      }
    }
    throw error("unexpected '" + c + "'");
  }

  /** Items up to close, commas between them and an optional one after the last. */
  private List<Object> sequence(int depth, char close) throws SyntaxException {
    pos++;
    List<Object> items = new ArrayList<>();
    while (true) {
      skipSpace();
      if (peek() == close) {
        pos++;
        return items;
      }
      items.add(value(depth));
      skipSpace();
      if (peek() == ',') {
        pos++;
      } else if (peek() != close) {
        throw error("expected ',' or '" + close + "'");
      }
    }
  }

  private Map<Object, Object> dict(int depth) throws SyntaxException {
    pos++;
    Map<Object, Object> m = new LinkedHashMap<>();
    while (true) {
      skipSpace();
      if (peek() == '}') {
        pos++;
        return m;
      }
      int keyAt = pos;
      Object key = value(depth);
      if (key instanceof List || key instanceof Map) throw errorAt("unhashable dict key", keyAt);
      skipSpace();
      if (peek() != ':') throw error("expected ':'");
      pos++;
      skipSpace();
      Object v = value(depth);
      if (m.containsKey(key)) throw errorAt("duplicate key " + key, keyAt);
      m.put(key, v);
      skipSpace();
      if (peek() == ',') {
        pos++;
      } else if (peek() != '}') {
        throw error("expected ',' or '}'");
      }
    }
  }

  private String string(char quote) throws SyntaxException {
    pos++;
    StringBuilder b = new StringBuilder();
    while (true) {
      char c = peek();
      pos++;
      if (c == quote) return b.toString();
      if (c == '\n') throw error("newline inside a string");
      if (c == '\\') {
        c = peek();
        pos++;
        if (c != '\\' && c != '\'' && c != '"') throw error("unsupported escape \\" + c);
      }
      b.append(c);
    }
  }

  private Long integer() throws SyntaxException {
    int start = pos;
    if (peek() == '-') pos++;
    if (peek() < '0' || peek() > '9') throw error("expected a digit");
    while (pos < s.length() && s.charAt(pos) >= '0' && s.charAt(pos) <= '9') pos++;
    String digits = s.substring(start, pos);
    if (pos < s.length() && s.charAt(pos) == 'L') pos++;
    try {
      return Long.parseLong(digits);
    } catch (NumberFormatException e) {
      throw errorAt("integer " + digits + " out of range", start);
    }
  }
}
