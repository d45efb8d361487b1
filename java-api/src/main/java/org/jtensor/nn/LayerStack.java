package org.jtensor.nn;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.jtensor.Tensor;

/**
 * TransformerEncoder's and TransformerDecoder's shape: numLayers layers ("layers.0.*", ...), then an
 * optional final norm ("norm.*"). PyTorch deep-copies one layer numLayers times; here a supplier
 * makes each, and must make a new one each time (one layer listed twice would tie the layers'
 * weights, and a checkpoint loaded into it would keep only the last's).
 */
abstract class LayerStack<L extends Module> extends Module {
  final ModuleList<L> layers;
  private final Module norm;

  LayerStack(String owner, Supplier<L> layer, int numLayers, Module norm) {
    ModuleList<L> made = make(owner, layer, numLayers);
    try {
      layers = registerModule("layers", made);
      this.norm = norm == null ? null : registerModule("norm", norm);
    } catch (RuntimeException | Error e) {
      made.close();
      throw e;
    }
  }

  /** x through the final norm, if any; a new handle where the stack had no layers and no norm (input itself came back). */
  final Tensor finish(Tensor x, Tensor input) {
    if (norm != null) x = norm.forward(x);
    return x == input ? input.view(input.shape()) : x;
  }

  public final ModuleList<L> layers() {
    return layers;
  }

  /** The layers, or (refused) none: those made are closed, a layer handed out twice is left to the caller. */
  private static <L extends Module> ModuleList<L> make(String owner, Supplier<L> layer, int numLayers) {
    if (numLayers < 0) throw new IllegalArgumentException(owner + "(): num_layers must be non-negative, got " + numLayers);
    if (layer == null) throw new IllegalArgumentException(owner + "(): expected a layer supplier, got null");
    List<L> made = new ArrayList<>();
    try {
      for (int i = 0; i < numLayers; i++) {
        L l = layer.get();
        if (l == null) throw new IllegalArgumentException(owner + "(): the layer supplier returned null for layer " + i);
        for (int j = 0; j < made.size(); j++) {
          if (made.get(j) == l) {
            made.remove(j);  // the caller holds it (the supplier handed it out twice): not ours to close
            throw new IllegalArgumentException(owner + "(): the layer supplier returned the same layer for layers " + j + " and " + i
                + "; PyTorch's num_layers layers are independent copies, so the supplier must make a new layer each time");
          }
        }
        made.add(l);
      }
      return new ModuleList<>(made);
    } catch (RuntimeException | Error e) {
      for (L m : made) m.close();
      throw e;
    }
  }
}
