package org.jtensor.nn;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.jtensor.Storage;
import org.jtensor.Tensor;
import org.jtensor.autograd.GradMode;
import org.jtensor.ops.DataOps;

/** Module.loadStateDict (PyTorch's load_state_dict): every check first, then the copies, so a refusal copies nothing. */
final class StateDictLoading {
  private StateDictLoading() {}

  /** Loads state into own (the module's parameters and buffers by dotted name); optional names the buffers a state dict may lack. */
  static Module.IncompatibleKeys load(String owner, Map<String, Tensor> own, Predicate<String> optional, Map<String, Tensor> state,
      boolean strict) {
    if (state == null) throw new IllegalArgumentException("loadStateDict(): expected a state dict, got null");
    List<String> missing = new ArrayList<>(), unexpected = new ArrayList<>();
    Map<String, Tensor> load = new LinkedHashMap<>();
    for (Map.Entry<String, Tensor> e : own.entrySet()) {
      if (state.containsKey(e.getKey())) load.put(e.getKey(), e.getValue());
      else if (!optional.test(e.getKey())) missing.add(e.getKey());
    }
    for (String k : state.keySet()) {
      if (k == null) throw new IllegalArgumentException("loadStateDict(): expected string keys in the state dict, got a null key");
      if (!own.containsKey(k)) unexpected.add(k);
    }
    // PyTorch's error_msgs: every size mismatch, after the missing and unexpected keys when strict, in one refusal
    List<String> errors = new ArrayList<>();
    if (strict && !missing.isEmpty()) errors.add("Missing key(s) in state_dict: " + quoted(missing) + ". ");
    if (strict && !unexpected.isEmpty()) errors.add("Unexpected key(s) in state_dict: " + quoted(unexpected) + ". ");
    List<Tensor> made = new ArrayList<>();  // the 0-dim views of [1] entries, closed after copying
    try {
      Map<String, Tensor> from = new LinkedHashMap<>();
      for (Map.Entry<String, Tensor> e : load.entrySet()) {
        String key = e.getKey();
        Tensor src = state.get(key), dst = e.getValue();
        if (src == null) throw new IllegalArgumentException("loadStateDict(): the entry for " + key + " is null");
        if (src.isClosed()) throw new IllegalStateException("loadStateDict(): the entry for " + key + " is a closed tensor");
        if (src.device().isMeta() && !dst.device().isMeta()) {  // copy_ would refuse it after the entries before it were copied
          throw new IllegalArgumentException("loadStateDict(): the entry for " + key + " is a meta tensor, which holds no data to copy");
        }
        if (dst.dim() == 0 && Arrays.equals(src.shape(), new long[] {1})) {  // PyTorch loads a [1] entry into a 0-dim one (0.3's scalars)
          src = src.view(new long[0]);
          made.add(src);
        }
        if (!Arrays.equals(src.shape(), dst.shape())) {
          errors.add("size mismatch for " + key + ": copying a param with shape " + Arrays.toString(src.shape())
              + " from checkpoint, the shape in current model is " + Arrays.toString(dst.shape()) + ".");
          continue;
        }
        try (Storage s = dst.untypedStorage()) {
          if (s.isReadOnly()) {
            throw new IllegalStateException("loadStateDict(): " + key + " is read-only (over a read-only buffer or a "
                + "memory-mapped file) and cannot be loaded into; clone() it into a writable tensor first");
          }
          if (dst.isInference() && !GradMode.isInferenceModeEnabled()) {
            throw new IllegalStateException("loadStateDict(): " + key + " is an inference tensor (made in GradMode.inferenceMode()): "
                + org.jtensor.core.StorageImpl.INFERENCE_WRITE + "; load it inside inference mode or clone() it first");
          }
        }
        if (DataOps.copyWouldOverlap(dst, src)) {  // copy_ refuses it, after the entries before it were copied
          errors.add("While copying the parameter named \"" + key + "\", whose dimensions in the model are " + Arrays.toString(dst.shape())
              + " and whose dimensions in the checkpoint are " + Arrays.toString(src.shape()) + ", an exception occurred : (" + OVERLAP + ").");
        }
        from.put(key, src);
      }
      if (!errors.isEmpty()) {
        throw new IllegalArgumentException("loadStateDict(): Error(s) in loading state_dict for " + owner + ":\n\t"
            + String.join("\n\t", errors));
      }
      try (GradMode.Scope off = GradMode.noGrad()) {
        for (Map.Entry<String, Tensor> e : load.entrySet()) e.getValue().copy_(from.get(e.getKey()));
      }
    } finally {
      for (Tensor t : made) t.close();
    }
    return new Module.IncompatibleKeys(List.copyOf(missing), List.copyOf(unexpected));
  }

  private static final String OVERLAP = "unsupported operation: some elements of the input tensor and the written-to tensor refer to a "
      + "single memory location. Please clone() the tensor before performing the operation.";

  private static String quoted(List<String> keys) {
    StringBuilder b = new StringBuilder();
    for (String k : keys) b.append(b.length() == 0 ? "" : ", ").append('"').append(k).append('"');
    return b.toString();
  }
}
