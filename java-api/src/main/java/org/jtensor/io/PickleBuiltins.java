package org.jtensor.io;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The standard-library globals through which Python's pickler writes plain values at protocols
 * below 4 (bytes as _codecs.encode, sets as builtins.set, and collections.OrderedDict), which
 * torch.load(weights_only=True) also allows. The reader builds their values itself.
 */
enum PickleBuiltins {
  ORDERED_DICT, ENCODE, SET, FROZENSET, BYTEARRAY;

  /** The builtin a GLOBAL names, or null for any other name. */
  static PickleBuiltins of(String module, String name) {
    if (module.equals("collections") && name.equals("OrderedDict")) return ORDERED_DICT;
    if (module.equals("_codecs") && name.equals("encode")) return ENCODE;
    if (module.equals("builtins") || module.equals("__builtin__")) {
      switch (name) {
        case "set": return SET;
        case "frozenset": return FROZENSET;
        case "bytearray": return BYTEARRAY;
        default: return null;
      }
    }
    return null;
  }

  /** The value of calling this builtin with args, or a refusal naming what was wrong. */
  Object call(List<Object> args, PickleReader r) throws TensorFormatException {
    switch (this) {
      case ORDERED_DICT: {
        Map<Object, Object> m = new LinkedHashMap<>();
        if (args.isEmpty()) return m;
        for (Object pair : iterable(args, r)) {
          if (!(pair instanceof List) || ((List<?>) pair).size() != 2) throw r.bad("OrderedDict item is not a pair");
          m.put(r.key(((List<?>) pair).get(0)), ((List<?>) pair).get(1));
        }
        return m;
      }
      case ENCODE: {
        if (args.size() != 2 || !(args.get(0) instanceof String) || !(args.get(1) instanceof String)) {
          throw r.bad("_codecs.encode takes (str, encoding)");
        }
        String enc = (String) args.get(1);
        java.nio.charset.Charset cs = enc.equals("latin1") || enc.equals("latin-1") ? StandardCharsets.ISO_8859_1
            : enc.equals("utf-8") || enc.equals("utf8") ? StandardCharsets.UTF_8 : null;
        if (cs == null) throw r.bad("_codecs.encode to '" + enc + "' is not supported");
        try {  // getBytes would write '?' for what the codec cannot encode; Python raises UnicodeEncodeError
          java.nio.ByteBuffer b = cs.newEncoder().encode(java.nio.CharBuffer.wrap((String) args.get(0)));
          byte[] out = new byte[b.remaining()];
          b.get(out);
          return out;
        } catch (java.nio.charset.CharacterCodingException e) {
          throw r.bad("_codecs.encode: the '" + enc + "' codec can't encode a character of the str (Python: UnicodeEncodeError)");
        }
      }
      case SET:
      case FROZENSET: {
        Set<Object> s = new LinkedHashSet<>();
        if (!args.isEmpty()) {
          for (Object o : iterable(args, r)) s.add(r.key(o));
        }
        return this == SET ? s : Collections.unmodifiableSet(s);
      }
      default: {  // BYTEARRAY
        if (args.isEmpty()) return new byte[0];
        if (args.get(0) instanceof byte[]) return args.get(0);
        throw r.bad("bytearray takes bytes");
      }
    }
  }

  private static List<?> iterable(List<Object> args, PickleReader r) throws TensorFormatException {
    if (args.size() != 1 || !(args.get(0) instanceof List)) throw r.bad("expected one list or tuple argument");
    return new ArrayList<>((List<?>) args.get(0));
  }
}
