package org.jtensor.io;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtensor.Device;
import org.jtensor.Tensor;

/**
 * PyTorch's own file format (torch.save / torch.load): a zip archive holding a pickle of the
 * tensors and one entry per storage. Tensors that share a storage are written once and load
 * sharing it again, with their offsets and strides; a view of a large base saves the whole
 * storage, as PyTorch does ({@code clone()} first saves only the view). Python reads what this
 * writes with {@code torch.load(path, weights_only=True)}, and this reads state dicts and tensor
 * collections that {@code torch.save} wrote.
 *
 * <p>Loading runs no code from the file: the pickle is read by a restricted machine that knows
 * tensors, storages, dicts, lists, tuples, OrderedDict, numbers, strings, bytes, None and bools,
 * as {@code weights_only=True} does, and refuses anything else. A file that is not what it claims
 * (truncated, wrong magic, offsets outside it, sizes it cannot hold, a forbidden global) is refused
 * with a {@link TensorFormatException} naming the file and the problem, before anything is
 * allocated at a size it declares.
 */
public final class Tensors {
  private Tensors() {}

  /** Saves a dict of the tensors under their names (a state dict), in the map's order. */
  public static void save(Map<String, Tensor> tensors, Path file) throws IOException {
    List<String> names = new ArrayList<>();
    List<Tensor> values = new ArrayList<>();
    for (Map.Entry<String, Tensor> e : tensors.entrySet()) {
      if (e.getKey() == null) throw new IllegalArgumentException("save(): a tensor's name is null");
      if (e.getValue() == null) throw new IllegalArgumentException("save(): tensor '" + e.getKey() + "' is null");
      names.add(e.getKey());
      values.add(e.getValue());
    }
    PtSaver.save(names, values, true, file);
  }

  /** Saves a list of the tensors; {@link #loadObject(Path)} reads it back as a List. */
  public static void save(List<Tensor> tensors, Path file) throws IOException {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < tensors.size(); i++) {
      if (tensors.get(i) == null) throw new IllegalArgumentException("save(): tensor " + i + " of the list is null");
      names.add("[" + i + "]");
    }
    PtSaver.save(names, tensors, false, file);
  }

  /**
   * Saves any value torch.save would write for a state dict, an optimizer's state_dict or a
   * checkpoint: nested Maps (String or integer keys, kept in order), Lists, tuples (an Object[]),
   * tensors, Long/Integer, Double/Float, String, Boolean, DType (a torch.dtype) and null. PyTorch reads it with
   * torch.load(weights_only=True); {@link #loadObject(Path)} reads it back (tuples as Lists).
   */
  public static void saveObject(Object value, Path file) throws IOException {
    PtSaver.saveObject(value, file, ZipWriter.ZIP64_AT);
  }

  /** The tensors of a file whose top level is a dict of tensors (a state dict), on the CPU. */
  public static Map<String, Tensor> load(Path file) throws IOException {
    return load(file, Device.CPU);
  }

  /**
   * The tensors of a file whose top level is a dict of tensors, on device (torch.load's
   * map_location): the CPU; META, which reads only shapes; or a device this build has a backend
   * for, otherwise an UnsupportedOperationException. The caller closes every tensor.
   */
  public static Map<String, Tensor> load(Path file, Device device) throws IOException {
    Object top = PtLoader.load(file, device);
    if (top instanceof Map) {
      Map<String, Tensor> out = new LinkedHashMap<>();
      for (Map.Entry<?, ?> e : ((Map<?, ?>) top).entrySet()) {
        if (e.getKey() instanceof String && e.getValue() instanceof Tensor) {
          out.put((String) e.getKey(), (Tensor) e.getValue());
          continue;
        }
        closeAll(top);
        throw new TensorFormatException(file, "entry " + PickleReader.typeName(e.getKey()) + " '" + e.getKey() + "' of the top-level dict"
            + " is a " + PickleReader.typeName(e.getValue()) + ", not a tensor named by a str; use loadObject for other contents");
      }
      return out;
    }
    closeAll(top);
    throw new TensorFormatException(file, "top level is a " + PickleReader.typeName(top) + ", not a dict of tensors; use loadObject");
  }

  /** Whatever the file's pickle holds (see {@link #loadObject(Path, Device)}), on the CPU. */
  public static Object loadObject(Path file) throws IOException {
    return loadObject(file, Device.CPU);
  }

  /**
   * Whatever the file's pickle holds: a Tensor; a List (list or tuple) or Map (dict or
   * OrderedDict, keys in order) of tensors and plain values, nested as saved; or a plain value.
   * Python's values arrive as null, Boolean, Long (BigInteger beyond 64 bits), Double, String and
   * byte[], and a torch dtype (torch.float16) as its {@link org.jtensor.DType}; a bare storage
   * (torch.save of x.storage()) is refused. Every tensor in it is the caller's to close ({@link #closeAll(Object)} does it).
   */
  public static Object loadObject(Path file, Device device) throws IOException {
    return PtLoader.load(file, device);
  }

  /** Closes every tensor inside a value that loadObject returned (or a map or list of tensors). */
  public static void closeAll(Object loaded) {
    LoadedValues.forEachTensor(loaded, Tensor::close);
  }
}
