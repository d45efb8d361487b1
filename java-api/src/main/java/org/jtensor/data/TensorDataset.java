package org.jtensor.data;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jtensor.Tensor;

/**
 * Samples that are rows of tensors sharing their first dim ({@code torch.utils.data.TensorDataset}):
 * sample i is {@code [t0[i], t1[i], ...]}, a list of views. The dataset refers to the caller's tensors
 * and neither owns nor closes them: they must stay open while it is used.
 *
 * <p>A {@link DataLoader} with the default collate takes a batch of it as one {@code indexSelect} per
 * tensor, not a view per sample stacked: the same values, without the per-sample work.
 */
public final class TensorDataset implements Dataset<List<Tensor>> {
  private final List<Tensor> tensors;
  private final long size;

  public TensorDataset(Tensor... tensors) {
    if (tensors == null || tensors.length == 0) throw new IllegalArgumentException("TensorDataset(): expected at least one tensor");
    long[] sizes = new long[tensors.length];
    for (int i = 0; i < tensors.length; i++) {
      if (tensors[i] == null) throw new IllegalArgumentException("TensorDataset(): tensor " + i + " is null");
      if (tensors[i].dim() == 0) throw new IllegalArgumentException("TensorDataset(): tensor " + i + " is 0-dim; samples are taken along dim 0");
      sizes[i] = tensors[i].size(0);
    }
    for (long s : sizes) {
      if (s != sizes[0]) {
        throw new IllegalArgumentException("TensorDataset(): Size mismatch between tensors: sizes of dim 0 are " + Arrays.toString(sizes));
      }
    }
    this.tensors = List.of(tensors);
    this.size = sizes[0];
  }

  @Override
  public List<Tensor> get(long index) {
    List<Tensor> row = new ArrayList<>(tensors.size());
    for (Tensor t : tensors) row.add(t.select(0, index));
    return row;
  }

  @Override
  public long size() {
    return size;
  }

  /** The tensors, as given ({@code dataset.tensors}). */
  public List<Tensor> tensors() {
    return tensors;
  }

  /** The rows at index (int64, CPU), one indexSelect per tensor: the default collate of those samples. */
  List<Tensor> rows(Tensor index) {
    List<Tensor> out = new ArrayList<>(tensors.size());
    for (Tensor t : tensors) out.add(t.indexSelect(0, t.device().isCpu() ? index : index.to(t.device())));  // indices on the data's device
    return out;
  }
}
