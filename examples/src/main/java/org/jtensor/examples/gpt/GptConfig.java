package org.jtensor.examples.gpt;

import java.util.LinkedHashMap;
import java.util.Map;

/** The model's shape, saved with a checkpoint so that --resume rebuilds the same model. */
record GptConfig(long vocab, long context, long embd, long heads, long layers, double dropout) {
  GptConfig {
    if (vocab <= 0 || context <= 0 || embd <= 0 || heads <= 0 || layers <= 0 || embd % heads != 0) {
      throw new IllegalArgumentException("GPT config: positive sizes with embd divisible by heads expected, got " + this);
    }
  }

  Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("vocab", vocab);
    m.put("context", context);
    m.put("embd", embd);
    m.put("heads", heads);
    m.put("layers", layers);
    m.put("dropout", dropout);
    return m;
  }

  static GptConfig fromMap(Map<?, ?> m) {
    return new GptConfig(num(m, "vocab").longValue(), num(m, "context").longValue(), num(m, "embd").longValue(),
        num(m, "heads").longValue(), num(m, "layers").longValue(), num(m, "dropout").doubleValue());
  }

  private static Number num(Map<?, ?> m, String key) {
    if (!(m.get(key) instanceof Number n)) throw new IllegalArgumentException("the checkpoint's config has no number '" + key + "'");
    return n;
  }
}
