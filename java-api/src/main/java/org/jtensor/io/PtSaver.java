package org.jtensor.io;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtensor.DType;
import org.jtensor.Storage;
import org.jtensor.Tensor;

/**
 * Writes tensors as torch.save does (PyTorch 2.x's zip layout): a dict or list pickled at protocol 2 into archive/data.pkl, each tensor a _rebuild_tensor_v2 call over a persistent
 * storage id, and each distinct storage once, whole, as archive/data/&lt;key&gt;, streamed from its
 * memory to the file.
 */
final class PtSaver {
  private static final String ARCHIVE = "archive/";
  private static final int BATCH = 1000;  // items per SETITEMS/APPENDS, as Python's pickler batches

  /** One storage to write, and the dtype its tensors view it as (torch keeps one per storage). */
  private record Saved(String key, Storage storage, DType dtype, String firstName) {}

  private final List<Saved> saved = new ArrayList<>();
  private final Map<Long, List<Saved>> byAddress = new HashMap<>();

  private PtSaver() {}

  /** names.get(i) names tensors.get(i) in messages; asDict pickles them as a dict keyed by those names. */
  static void save(List<String> names, List<Tensor> tensors, boolean asDict, Path file) throws IOException {
    save(names, tensors, asDict, file, ZipWriter.ZIP64_AT);
  }

  /** As above, with zip64 fields from zip64Threshold bytes on (tests lower it to check other readers on that path). */
  static void save(List<String> names, List<Tensor> tensors, boolean asDict, Path file, long zip64Threshold) throws IOException {
    Object top;
    if (asDict) {
      Map<String, Tensor> m = new LinkedHashMap<>();
      for (int i = 0; i < names.size(); i++) m.put(names.get(i), tensors.get(i));
      top = m;
    } else {
      top = tensors;
    }
    saveObject(top, file, zip64Threshold);
  }

  /** A value of nested maps, lists, tuples (Object[]), tensors and plain values (see Tensors.saveObject). */
  static void saveObject(Object top, Path file, long zip64Threshold) throws IOException {
    PtSaver s = new PtSaver();
    try {
      PickleWriter w = new PickleWriter();
      s.value(w, "", top, 0);
      s.write(w.finish(), file, zip64Threshold);
    } finally {
      for (Saved v : s.saved) v.storage.close();
    }
  }

  /**
   * Containers nested deeper than this are refused (a state dict nests 3 or 4 levels): the writer
   * recurses, and a thread's default stack holds a few hundred levels with room to spare.
   */
  static final int MAX_DEPTH = 256;

  private final java.util.Set<Object> open = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());

  /** One value; name is its path in the top value (for messages): a key's, or [i] for an item's; depth its nesting. */
  private void value(PickleWriter w, String name, Object o, int depth) {
    boolean container = o instanceof Map<?, ?> || o instanceof List<?> || o instanceof Object[];
    if (container) {
      if (depth >= MAX_DEPTH) {
        throw new IllegalArgumentException("save(): " + where(name) + " is nested deeper than " + MAX_DEPTH + " levels, which loadObject refuses");
      }
      if (!open.add(o)) throw new IllegalArgumentException("save(): " + where(name) + " contains itself; a .pt file this saver writes holds no cycles");
    }
    try {
      write(w, name, o, depth);
    } finally {
      if (container) open.remove(o);
    }
  }

  private void write(PickleWriter w, String name, Object o, int depth) {
    if (o == null) {
      w.none();
    } else if (o instanceof Tensor t) {
      tensor(w, name.isEmpty() ? "tensor" : name, t);
    } else if (o instanceof DType d) {
      w.global("torch", d.typeName());  // as Python pickles a torch.dtype, which loadObject reads back
    } else if (o instanceof Boolean b) {
      w.bool(b);
    } else if (o instanceof Long || o instanceof Integer || o instanceof Short || o instanceof Byte) {
      w.integer(((Number) o).longValue());
    } else if (o instanceof Double || o instanceof Float) {
      w.real(((Number) o).doubleValue());
    } else if (o instanceof String str) {
      for (int i = 0; i < str.length(); i++) {
        char c = str.charAt(i);
        boolean paired = Character.isHighSurrogate(c) ? i + 1 < str.length() && Character.isLowSurrogate(str.charAt(++i))
            : !Character.isLowSurrogate(c);
        if (!paired) throw new IllegalArgumentException("save(): " + where(name) + " holds a lone UTF-16 surrogate, which UTF-8 cannot carry");
      }
      w.string(str);
    } else if (o instanceof Map<?, ?> m) {
      // a plain dict rather than OrderedDict: Python 3 keeps its order, and libtorch's own unpickler
      // (torch::pickle_load) reads a dict but turns an OrderedDict call into None
      java.util.Set<Object> keys = new java.util.HashSet<>();
      for (Object k : m.keySet()) {
        if (!(k instanceof String || k instanceof Long || k instanceof Integer)) {
          throw new IllegalArgumentException("save(): a key of " + where(name) + " is " + (k == null ? "null" : "a " + k.getClass().getSimpleName())
              + "; keys are strings or integers");
        }
        if (!keys.add(k instanceof Integer n ? Long.valueOf(n) : k)) {  // Python has one int: 1 and 1L are one key
          throw new IllegalArgumentException("save(): " + where(name) + " has the key " + k + " twice (as an Integer and a Long)");
        }
      }
      w.emptyDict();
      w.put();
      int i = 0;
      for (Map.Entry<?, ?> e : m.entrySet()) {
        Object k = e.getKey();
        if (i % BATCH == 0) w.mark();
        value(w, "", k, depth + 1);
        value(w, name.isEmpty() ? k.toString() : name + "." + k, e.getValue(), depth + 1);
        if (i % BATCH == BATCH - 1 || i == m.size() - 1) w.setItems();
        i++;
      }
    } else if (o instanceof List<?> l) {
      w.emptyList();
      w.put();
      for (int i = 0; i < l.size(); i++) {
        if (i % BATCH == 0) w.mark();
        value(w, name + "[" + i + "]", l.get(i), depth + 1);
        if (i % BATCH == BATCH - 1 || i == l.size() - 1) w.appends();
      }
    } else if (o instanceof Object[] tuple) {
      if (tuple.length > 3) w.mark();
      for (int i = 0; i < tuple.length; i++) value(w, name + "[" + i + "]", tuple[i], depth + 1);
      w.tuple(tuple.length);
    } else {
      throw new IllegalArgumentException("save(): " + where(name) + " is a " + o.getClass().getName()
          + "; a .pt file holds tensors, maps, lists, tuples (Object[]), numbers, strings, booleans, dtypes and null");
    }
  }

  private static String where(String name) {
    return name.isEmpty() ? "the top value" : "'" + name + "'";
  }

  /** torch._utils._rebuild_tensor_v2(storage, offset, size, stride, requires_grad, OrderedDict()). */
  private void tensor(PickleWriter w, String name, Tensor t) {
    if (t.device().isMeta()) {  // as torch.save: no storage, _rebuild_meta_tensor_no_storage(dtype, size, stride, requires_grad)
      w.global("torch._utils", "_rebuild_meta_tensor_no_storage").mark().global("torch", t.dtype().typeName())
          .longs(t.shape()).longs(t.stride()).bool(t.requiresGrad()).tuple(4).reduce();
      return;
    }
    if (!t.device().isCpu()) {
      throw new UnsupportedOperationException("save(): tensor '" + name + "' is on " + t.device()
          + "; only CPU tensors are saved today (call cpu() first)");
    }
    Saved s = storageOf(name, t);
    w.global("torch._utils", "_rebuild_tensor_v2").mark();
    w.mark().string("storage").global("torch", TorchStorageTypes.name(s.dtype)).string(s.key).string("cpu")
        .integer(s.storage.nbytes() / s.dtype.itemSize()).tuple(5).persistentId();
    w.integer(t.storageOffset()).longs(t.shape()).longs(t.stride()).bool(t.requiresGrad());
    w.global("collections", "OrderedDict").tuple(0).reduce();
    w.tuple(6).reduce();
  }

  /** The storage's entry, shared by every tensor that views it. */
  private Saved storageOf(String name, Tensor t) {
    Storage st = t.untypedStorage();
    List<Saved> same = byAddress.computeIfAbsent(st.dataPtr(), k -> new ArrayList<>());
    for (Saved s : same) {
      if (s.storage.isAliasOf(st)) {
        st.close();
        if (s.dtype != t.dtype()) {
          throw new IllegalArgumentException("save(): tensors '" + s.firstName + "' (" + s.dtype + ") and '" + name + "' ("
              + t.dtype() + ") view the same storage as different dtypes; PyTorch's format keeps one dtype per storage");
        }
        return s;
      }
    }
    if (st.nbytes() % t.dtype().itemSize() != 0) {
      long n = st.nbytes();
      st.close();
      throw new IllegalArgumentException("save(): tensor '" + name + "' views a storage of " + n
          + " bytes, not a whole number of " + t.dtype() + " elements");
    }
    Saved s = new Saved(Integer.toString(saved.size()), st, t.dtype(), name);
    saved.add(s);
    same.add(s);
    return s;
  }

  /** Writes the archive under a temporary name and renames it over file: a failed save leaves the old file as it was. */
  private void write(byte[] pickle, Path file, long zip64Threshold) throws IOException {
    ReplacingWrite.write(file, ch -> {
      ZipWriter z = new ZipWriter(ch, zip64Threshold);  // ReplacingWrite closes the channel
      List<String> names = new ArrayList<>();
      List<Long> crcs = new ArrayList<>();
      add(z, names, crcs, "data.pkl", pickle);
      add(z, names, crcs, ".format_version", ascii("1"));
      add(z, names, crcs, ".storage_alignment", ascii(Integer.toString(ZipWriter.ALIGNMENT)));
      add(z, names, crcs, "byteorder", ascii("little"));
      for (Saved s : saved) {
        long n = s.storage.nbytes();
        names.add(ARCHIVE + "data/" + s.key);
        crcs.add(z.add(ARCHIVE + "data/" + s.key, n, out -> s.storage.writeTo(out, 0, n)));
      }
      add(z, names, crcs, "version", ascii("3\n"));
      z.add(ARCHIVE + ".data/serialization_id", ascii(serializationId(names, crcs)));
      z.finish();
    });
  }

  private static void add(ZipWriter z, List<String> names, List<Long> crcs, String name, byte[] data) throws IOException {
    names.add(ARCHIVE + name);
    crcs.add(z.add(ARCHIVE + name, data));
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  /** As PyTorch's writer: the records' names and CRC-32s hashed together, each as 20 decimal digits. */
  private static String serializationId(List<String> names, List<Long> crcs) {
    long nameHash = 0, crcHash = 0;
    for (String n : names) nameHash = combine(nameHash, n.hashCode());
    for (long c : crcs) crcHash = combine(crcHash, c);
    return pad20(nameHash) + pad20(crcHash);
  }

  private static long combine(long seed, long v) {  // c10::hash_combine
    return seed ^ (v + 0x9e3779b9L + (seed << 6) + (seed >>> 2));
  }

  private static String pad20(long v) {
    String s = Long.toUnsignedString(v);
    return "0".repeat(20 - s.length()) + s;
  }
}
