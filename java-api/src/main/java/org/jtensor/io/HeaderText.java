package org.jtensor.io;

/**
 * A cursor over a header's text, shared by the two small readers of header languages (JSON for
 * safetensors, Python literals for .npy): whitespace, one-character look-ahead, errors that say
 * where, and the rule that the text holds exactly one value.
 */
abstract class HeaderText {
  /** A syntax error with the character offset where it was found. */
  static final class SyntaxException extends Exception {
    SyntaxException(String language, String problem, int at) {
      super("invalid " + language + " at character " + at + ": " + problem);
    }
  }

  private final String language;
  final String s;
  int pos;

  HeaderText(String language, String s) {
    this.language = language;
    this.s = s;
  }

  /** The value at the cursor; depth counts enclosing containers. */
  abstract Object value(int depth) throws SyntaxException;

  /** The single value the text holds, with only whitespace around it. */
  final Object whole() throws SyntaxException {
    skipSpace();
    Object v = value(0);
    skipSpace();
    if (pos != s.length()) throw error("unexpected '" + s.charAt(pos) + "' after the value");
    return v;
  }

  final SyntaxException error(String problem) {
    return errorAt(problem, pos);
  }

  final SyntaxException errorAt(String problem, int at) {
    return new SyntaxException(language, problem, at);
  }

  final void skipSpace() {
    while (pos < s.length()) {
      char c = s.charAt(pos);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
      pos++;
    }
  }

  final char peek() throws SyntaxException {
    if (pos >= s.length()) throw error("unexpected end of text");
    return s.charAt(pos);
  }
}
