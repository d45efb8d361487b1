package org.jtensor.examples.fashion;

import java.util.List;
import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.data.Dataset;
import org.jtensor.nn.Functional;

/**
 * A split's images as samples [image float32 [1, 28, 28] in [0, 1], label int64 []], decoded from the
 * IDX bytes per item as torchvision's ToTensor does; with augment, also RandomCrop(28, padding=2) and
 * RandomHorizontalFlip. Each sample's draws come from a generator seeded by (seed, epoch, index), so
 * a batch is the same whichever DataLoader worker loaded it; {@link #setEpoch} picks the epoch.
 */
final class FashionImages implements Dataset<List<Tensor>> {
  private static final long PAD = 2;
  private final Idx.Split split;
  private final boolean augment;
  private final long seed;
  private volatile long epoch;

  FashionImages(Idx.Split split, boolean augment, long seed) {
    this.split = split;
    this.augment = augment;
    this.seed = seed;
  }

  /** The epoch whose augmentation get() draws (DistributedSampler.set_epoch's idiom); set it before the epoch's iterator. */
  void setEpoch(long epoch) {
    this.epoch = epoch;
  }

  @Override
  public List<Tensor> get(long index) {
    Tensor image = split.images().select(0, index).to(DType.FLOAT32).div(255);  // intermediates: the loader's scope closes them
    if (augment) {
      double[] u = Tensor.rand(new long[] {3}, DType.FLOAT64, new Generator(sampleSeed(index))).toDoubleArray();
      Tensor padded = Functional.pad(image, PAD, PAD, PAD, PAD);
      image = padded.narrow(1, (long) (u[0] * (2 * PAD + 1)), 28).narrow(2, (long) (u[1] * (2 * PAD + 1)), 28);
      if (u[2] < 0.5) image = image.indexSelect(2, Tensor.arange(27, -1, -1, DType.INT64));  // the columns reversed
    }
    return List.of(image, split.labels().select(0, index));
  }

  @Override
  public long size() {
    return split.size();
  }

  /** SplitMix64 over (seed, epoch, index): neighbouring indices get unrelated generators. */
  private long sampleSeed(long index) {
    long z = seed;
    for (long part : new long[] {epoch, index}) {
      z += part + 0x9E3779B97F4A7C15L;
      z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
      z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
      z ^= z >>> 31;
    }
    return z;
  }
}
