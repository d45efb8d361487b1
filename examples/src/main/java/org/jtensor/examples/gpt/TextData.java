package org.jtensor.examples.gpt;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;

/**
 * A text as character ids: the vocabulary (its distinct characters, sorted), the first 90% for
 * training and the rest for validation ({@link TextWindows} makes its batches), and the unigram
 * baseline (the validation text's cross-entropy under the training text's character frequencies).
 */
final class TextData implements AutoCloseable {
  static final String BUNDLED = "/gpt-sample/licenses.txt";
  static final Path FORTUNES = Path.of("/usr/share/games/fortunes");

  /** The vocabulary's characters as one string; a character is a code point (an emoji's two UTF-16 halves are one). */
  final String vocab;
  private final int[] symbols;  // vocab's code points, sorted: id i is symbols[i]
  private final java.util.Map<Integer, Integer> idByCodePoint = new java.util.HashMap<>();
  final Tensor train, val;  // int64 ids
  final String source;

  private TextData(String text, String vocab, String source) {
    this.vocab = vocab;
    this.symbols = vocab.codePoints().toArray();
    for (int i = symbols.length - 1; i >= 0; i--) idByCodePoint.put(symbols[i], i);  // a repeated symbol keeps its first id
    this.source = source;
    long[] encoded = encode(text);
    int split = (int) (encoded.length * 0.9);
    train = TensorScope.escape(Tensor.fromArray(java.util.Arrays.copyOfRange(encoded, 0, split)));
    val = TensorScope.escape(Tensor.fromArray(java.util.Arrays.copyOfRange(encoded, split, encoded.length)));
  }

  /** The bundled text (data null), "fortunes" (Debian's fortunes package), or a text file. vocab null: the text's own. */
  static TextData load(String data, String vocab) throws IOException {
    String text, source;
    if (data == null) {
      try (InputStream in = TextData.class.getResourceAsStream(BUNDLED)) {
        if (in == null) throw new IOException("the bundled text " + BUNDLED + " is missing from the classpath");
        text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      source = "bundled GNU licence texts";
    } else if (data.equals("fortunes")) {
      text = fortunes();
      source = "Debian fortunes (" + FORTUNES + ")";
    } else {
      Path file = Path.of(data);
      if (!Files.isRegularFile(file)) throw new IOException("--data " + data + ": no such file (a UTF-8 text file, or fortunes)");
      try {
        text = Files.readString(file, StandardCharsets.UTF_8);
      } catch (java.nio.charset.CharacterCodingException e) {  // its own message is only "Input length = 1"
        throw new IOException("--data " + data + ": not UTF-8 text (" + e.getMessage() + ")", e);
      }
      source = data;
    }
    long n = text.codePoints().count();
    if (n < 1000) throw new IllegalArgumentException("the text of " + source + " has " + n + " characters; 1000 at least");
    String v = vocab != null ? vocab : vocabOf(text);
    return new TextData(text, v, source);
  }

  private static String fortunes() throws IOException {
    if (!Files.isDirectory(FORTUNES)) throw new IOException(FORTUNES + " is missing: scripts/gpt.sh --data fortunes installs it");
    StringBuilder b = new StringBuilder();
    List<Path> files = new ArrayList<>();
    try (Stream<Path> s = Files.list(FORTUNES)) {
      s.filter(p -> Files.isRegularFile(p) && !p.getFileName().toString().contains(".")).sorted().forEach(files::add);
    }
    for (Path p : files) b.append(new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1));
    return b.toString().replace("\n%\n", "\n\n");
  }

  /** The text's distinct code points, sorted (were UTF-16 units: a model then sampled half an emoji, which sample.txt cannot hold). */
  private static String vocabOf(String text) {
    TreeSet<Integer> set = new TreeSet<>();
    text.codePoints().forEach(set::add);
    StringBuilder b = new StringBuilder();
    for (int c : set) b.appendCodePoint(c);
    return b.toString();
  }

  /** The vocabulary's size (its code points). */
  int size() {
    return symbols.length;
  }

  /** The id of code point c, -1 if the vocabulary lacks it. */
  long idOf(int c) {
    return idByCodePoint.getOrDefault(c, -1);
  }

  /** The character of an id, as a string (one or two UTF-16 units). */
  String symbol(long id) {
    return Character.toString(symbols[(int) id]);
  }

  /** Each character's id in the vocabulary; a character it lacks (a resumed run on another text) is refused. */
  private long[] encode(String text) {
    int[] cps = text.codePoints().toArray();
    long[] out = new long[cps.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = idOf(cps[i]);
      if (out[i] < 0) throw new IllegalArgumentException("character U+" + Integer.toHexString(cps[i]).toUpperCase(java.util.Locale.ROOT)
          + " is not in the vocabulary");
    }
    return out;
  }

  String decode(long[] ids) {
    StringBuilder b = new StringBuilder();
    for (long id : ids) b.append(symbol(id));
    return b.toString();
  }

  /** Cross-entropy (nats per character) of the validation text under the training text's character frequencies. */
  double unigramBaseline() {
    double[] counts = new double[symbols.length];
    for (long id : train.toLongArray()) counts[(int) id]++;
    long[] v = val.toLongArray();
    double total = train.numel(), loss = 0;
    for (long id : v) loss -= Math.log(Math.max(counts[(int) id], 0.5) / total);  // a character unseen in training: half a count
    return loss / v.length;
  }

  @Override
  public void close() {
    train.close();
    val.close();
  }
}
