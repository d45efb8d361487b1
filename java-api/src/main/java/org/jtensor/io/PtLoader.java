package org.jtensor.io;

import java.io.IOException;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Storage;
import org.jtensor.Tensor;
import org.jtensor.dispatch.Dispatcher;

/**
 * Reads the archive torch.save writes: the pickle in data.pkl, run by the restricted
 * {@link PickleReader} with this class deciding which torch globals exist (those
 * torch.load(weights_only=True) allows for dense tensors), and one data/&lt;key&gt; entry per storage,
 * read once into a storage however many tensors view it.
 */
final class PtLoader implements PickleReader.Resolver {
  private static final int MAX_PICKLE_BYTES = 1 << 30;

  /** torch's rebuild functions and types that a weights file may name. */
  private enum Global { REBUILD_TENSOR_V2, REBUILD_PARAMETER, REBUILD_PARAMETER_WITH_STATE, REBUILD_FROM_TYPE_V2, REBUILD_META, TENSOR_TYPE, SIZE,
    DEVICE }

  /** A typed-storage class such as torch.FloatStorage, as a persistent id names it (not a dtype value). */
  private record StorageClass(DType dtype) {}

  /** A storage as its persistent id names it: loaded once per key. */
  private record StorageRef(String key, DType dtype, Storage storage) {}

  private final ZipReader zip;
  private final String prefix;
  private final Device device;
  private final Map<String, Storage> storages = new HashMap<>();
  private final List<Tensor> made = new ArrayList<>();

  private PtLoader(ZipReader zip, String prefix, Device device) {
    this.zip = zip;
    this.prefix = prefix;
    this.device = device;
  }

  /** The value the file's pickle builds; every tensor in it is the caller's to close. */
  static Object load(Path file, Device device) throws IOException {
    if (!device.isCpu() && !device.isMeta()) {
      try {
        Dispatcher.backend(device);
      } catch (UnsupportedOperationException e) {
        throw new UnsupportedOperationException("load(): cannot load onto " + device + ": " + e.getMessage(), e);
      }
    }
    try (ZipReader zip = PtArchive.open(file)) {
      String prefix = PtArchive.prefix(zip);
      PtArchive.checkVersion(zip, prefix);
      ZipReader.Entry pkl = zip.entry(prefix + "data.pkl");
      if (pkl == null) throw bad(file, "no " + prefix + "data.pkl entry: not a torch.save archive");
      byte[] pickle = zip.readAll(pkl, MAX_PICKLE_BYTES);
      PtLoader loader = new PtLoader(zip, prefix, device);
      try {
        Object result = PickleReader.load(pickle, file, loader);
        loader.checkValues(result);
        loader.keepOnly(result);
        return result;
      } catch (IOException | RuntimeException e) {
        loader.closeAll();
        throw e;
      } finally {
        for (Storage s : loader.storages.values()) s.close();  // tensors hold their own references
      }
    }
  }

  private static TensorFormatException bad(Path file, String problem) {
    return new TensorFormatException(file, problem);
  }

  private TensorFormatException bad(String problem) {
    return bad(zip.file(), problem);
  }

  @Override
  public Object global(String module, String name) throws TensorFormatException {
    String full = module + "." + name;
    switch (full) {
      case "torch._utils._rebuild_tensor_v2": return Global.REBUILD_TENSOR_V2;
      case "torch._utils._rebuild_parameter": return Global.REBUILD_PARAMETER;
      case "torch._utils._rebuild_parameter_with_state": return Global.REBUILD_PARAMETER_WITH_STATE;
      case "torch._tensor._rebuild_from_type_v2": return Global.REBUILD_FROM_TYPE_V2;
      case "torch._utils._rebuild_meta_tensor_no_storage": return Global.REBUILD_META;
      case "torch._utils._rebuild_tensor_v3":  // torch.save's rebuild for dtypes with no storage class
        throw bad("a tensor is rebuilt by _rebuild_tensor_v3, which torch.save writes only for dtypes with no storage class"
            + " (uint16, uint32, uint64, float8 types, ...), none of which jtensor has");
      case "torch.Tensor": case "torch.nn.parameter.Parameter": return Global.TENSOR_TYPE;
      case "torch.Size": return Global.SIZE;
      case "torch.device": return Global.DEVICE;
      default: break;
    }
    if (module.equals("torch")) {
      DType t = TorchStorageTypes.dtype(name);
      if (t != null) return new StorageClass(t);
      try {
        return DType.fromName(name);  // a dtype as a value (torch.float16), as weights_only=True loads it
      } catch (IllegalArgumentException notADType) {
        // another torch global: refused below
      }
      if (TorchStorageTypes.isOtherTorchStorage(name)) throw bad("torch." + name + " has no jtensor dtype");
    }
    throw bad("global '" + full + "' is not allowed: only tensors, storages and plain containers are loaded,"
        + " as torch.load(weights_only=True) does, and nothing named in the file is run");
  }

  @Override
  public Object call(Object callable, List<Object> args) throws TensorFormatException {
    if (!(callable instanceof Global)) throw bad("a " + PickleReader.typeName(callable) + " is called, which is not allowed");
    switch ((Global) callable) {
      case REBUILD_TENSOR_V2: return rebuildTensor(args);
      case REBUILD_META: {  // (dtype, size, stride, requires_grad): a meta tensor, saved with no storage
        if (args.size() != 4 || !(args.get(0) instanceof DType) || !(args.get(3) instanceof Boolean)) {
          throw bad("_rebuild_meta_tensor_no_storage takes (dtype, size, stride, requires_grad)");
        }
        Tensor t;
        try {
          t = Tensor.emptyStrided(longs(args.get(1), "size"), longs(args.get(2), "stride"), (DType) args.get(0), Device.META);
        } catch (IllegalArgumentException e) {
          throw bad("meta tensor: " + e.getMessage());
        }
        made.add(t);
        return requiresGrad(t, (Boolean) args.get(3));
      }
      case REBUILD_PARAMETER:
      case REBUILD_PARAMETER_WITH_STATE: {
        int n = callable == Global.REBUILD_PARAMETER ? 3 : 4;
        if (args.size() != n || !(args.get(0) instanceof Tensor) || !(args.get(1) instanceof Boolean)) {
          throw bad("_rebuild_parameter takes (tensor, requires_grad, hooks" + (n == 4 ? ", state)" : ")"));
        }
        return requiresGrad((Tensor) args.get(0), (Boolean) args.get(1));
      }
      case REBUILD_FROM_TYPE_V2: {  // (func, type, args, state): a tensor or Parameter with Python attributes
        Object func = args.size() == 4 ? args.get(0) : null;
        boolean rebuild = func == Global.REBUILD_TENSOR_V2 || func == Global.REBUILD_PARAMETER || func == Global.REBUILD_PARAMETER_WITH_STATE;
        if (!rebuild || args.get(1) != Global.TENSOR_TYPE || !(args.get(2) instanceof List)) {  // one level: no recursion to exploit
          throw bad("_rebuild_from_type_v2 takes (a tensor rebuild function, torch.Tensor or Parameter, args, state)");
        }
        @SuppressWarnings("unchecked") List<Object> inner = (List<Object>) args.get(2);
        return call(func, inner);
      }
      case SIZE:
        if (args.size() != 1 || !(args.get(0) instanceof List)) throw bad("torch.Size takes one tuple");
        return args.get(0);
      case DEVICE:
        if (args.isEmpty() || !(args.get(0) instanceof String)) throw bad("torch.device takes a str");
        return args.get(0);
      default:
        throw bad("torch.Tensor is called directly, which torch.save never writes");
    }
  }

  @Override
  public Object persistentLoad(Object pid) throws IOException {
    if (!(pid instanceof List) || ((List<?>) pid).size() != 5 || !"storage".equals(((List<?>) pid).get(0))) {
      throw bad("persistent id is not ('storage', type, key, location, numel)");
    }
    List<?> id = (List<?>) pid;
    if (!(id.get(1) instanceof StorageClass) || !(id.get(2) instanceof String) || !(id.get(3) instanceof String) || !(id.get(4) instanceof Long)) {
      throw bad("persistent id is not ('storage', type, key, location, numel)");
    }
    DType dtype = ((StorageClass) id.get(1)).dtype();
    String key = (String) id.get(2);
    long numel = (Long) id.get(4);
    long nbytes;
    try {
      if (numel < 0) throw new ArithmeticException();
      nbytes = Math.multiplyExact(numel, dtype.itemSize());
    } catch (ArithmeticException e) {
      throw bad("storage '" + key + "' declares " + numel + " elements of " + dtype);
    }
    Storage s = storages.get(key);
    if (s == null) {
      s = readStorage(key, nbytes);
      storages.put(key, s);
    } else if (s.nbytes() != nbytes) {
      throw bad("storage '" + key + "' is named with " + nbytes + " bytes here and " + s.nbytes() + " bytes before");
    }
    return new StorageRef(key, dtype, s);
  }

  /** The entry data/&lt;key&gt;, whose size must be what the pickle declares, read straight into a new storage. */
  private Storage readStorage(String key, long nbytes) throws IOException {
    String name = prefix + "data/" + key;
    ZipReader.Entry e = zip.entry(name);
    if (e == null) throw bad("storage '" + key + "' has no entry " + name);
    if (e.size() != nbytes) throw bad("entry " + name + " holds " + e.size() + " bytes but the pickle declares " + nbytes);
    if (device.isMeta()) return Storage.allocate(nbytes, Device.META);  // shapes only: nothing is read
    if (e.method() != 0) inflatesToItsSize(e);
    Storage s = Storage.allocate(nbytes, Device.CPU);
    try {
      try (ReadableByteChannel ch = zip.open(e)) {
        long got = s.readFrom(ch, 0, nbytes);
        if (got != nbytes) throw bad("entry " + name + " ended after " + got + " of its " + nbytes + " bytes");
      }
      return device.isCpu() ? s : moved(s);
    } catch (IOException | RuntimeException ex) {
      s.close();
      throw ex;
    }
  }

  /**
   * torch.save stores storages, but torch.load also reads an archive `zip` deflated again. Such an
   * entry may declare more than the file holds: one pass inflates it (its size and CRC-32 checked)
   * before anything is allocated at that size.
   */
  private void inflatesToItsSize(ZipReader.Entry e) throws IOException {
    java.nio.ByteBuffer sink = java.nio.ByteBuffer.allocate(1 << 16);
    try (ReadableByteChannel ch = zip.open(e)) {
      while (ch.read(sink.clear()) >= 0) {
        // EntryChannel refuses a stream that ends early, is malformed or fails its CRC
      }
    }
  }

  /** The storage's bytes on the target device, in one transfer, so that every view of it stays a view there. */
  private Storage moved(Storage cpu) {
    try (Tensor bytes = Tensor.empty(new long[] {0}, DType.UINT8).set_(cpu, 0, new long[] {cpu.nbytes()}, new long[] {1});
         Tensor there = bytes.to(device)) {
      return there.untypedStorage();
    } finally {
      cpu.close();
    }
  }

  /** _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks[, metadata]). */
  private Tensor rebuildTensor(List<Object> a) throws TensorFormatException {
    if ((a.size() != 6 && a.size() != 7) || !(a.get(0) instanceof StorageRef) || !(a.get(1) instanceof Long)
        || !(a.get(4) instanceof Boolean)) {
      throw bad("_rebuild_tensor_v2 takes (storage, storage_offset, size, stride, requires_grad, backward_hooks)");
    }
    StorageRef ref = (StorageRef) a.get(0);
    long offset = (Long) a.get(1);
    long[] size = longs(a.get(2), "size"), stride = longs(a.get(3), "stride");
    Object hooks = a.get(5);
    if (hooks instanceof Map && !((Map<?, ?>) hooks).isEmpty()) throw bad("a tensor carries backward hooks, which are code and are not loaded");
    Tensor t = Tensor.empty(new long[] {0}, ref.dtype(), ref.storage().device());
    made.add(t);
    try {
      t.set_(ref.storage(), offset, size, stride);
    } catch (IllegalArgumentException e) {
      throw bad("tensor over storage '" + ref.key() + "' does not fit it: " + e.getMessage());
    }
    return requiresGrad(t, (Boolean) a.get(4));
  }

  private Tensor requiresGrad(Tensor t, boolean requiresGrad) throws TensorFormatException {
    if (!requiresGrad) return t;
    if (!t.dtype().isFloatingPoint()) throw bad("a " + t.dtype() + " tensor is marked requires_grad, which only floating dtypes may be");
    return t.requiresGrad_(true);
  }

  private long[] longs(Object o, String what) throws TensorFormatException {
    if (!(o instanceof List)) throw bad("tensor " + what + " is a " + PickleReader.typeName(o) + ", not a tuple of ints");
    List<?> l = (List<?>) o;
    long[] v = new long[l.size()];
    for (int i = 0; i < v.length; i++) {
      if (!(l.get(i) instanceof Long)) throw bad("tensor " + what + " holds a " + PickleReader.typeName(l.get(i)) + ", not an int");
      v[i] = (Long) l.get(i);
    }
    return v;
  }

  @Override
  public void build(Object target, Object state) throws TensorFormatException {
    // a tensor's Python attributes (BUILD after _rebuild_from_type_v2) hold no tensor data
    if (target instanceof Tensor && (state == null || state instanceof Map)) return;
    throw bad("BUILD on a " + PickleReader.typeName(target) + " is not allowed");
  }

  /**
   * Refuses a result holding a value that is no tensor or plain Python value: a storage (torch.save
   * of x.storage() or x.untyped_storage()), a storage class or a rebuild function. These are
   * internal to the loader (a storage's bytes are freed when the load ends), never returned.
   */
  private void checkValues(Object result) throws TensorFormatException {
    Object odd = LoadedValues.firstUnplainLeaf(result);
    if (odd instanceof StorageRef ref) {
      throw bad("holds storage '" + ref.key() + "' itself (torch.save of a storage, not a tensor), which is not loaded: save the tensor");
    }
    if (odd != null) {
      throw bad("holds a " + PickleReader.typeName(odd) + " (" + odd + ") as a value, which is not loaded: only tensors, dtypes and plain values are");
    }
  }

  /** Closes the tensors the pickle made that the result does not hold (intermediates, dropped values). */
  private void keepOnly(Object result) {
    java.util.Set<Tensor> kept = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    LoadedValues.forEachTensor(result, kept::add);
    for (Tensor t : made) if (!kept.contains(t)) t.close();
  }

  private void closeAll() {
    for (Tensor t : made) t.close();
  }
}
