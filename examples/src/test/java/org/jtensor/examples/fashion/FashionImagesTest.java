package org.jtensor.examples.fashion;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.data.Batch;
import org.jtensor.data.BatchIterator;
import org.jtensor.data.DataLoader;
import org.jtensor.memory.Memory;
import org.junit.jupiter.api.Test;

/**
 * The main job's DataLoader: without --augment it serves exactly the batches the job cut by hand
 * before (randperm of the job's generator, then rows of (byte & 0xff) / 255f), so its results did
 * not move; with --augment the batches are the same for 0 and 3 workers, and differ by epoch.
 */
class FashionImagesTest {
  private static List<float[]> batches(Idx.Split split, boolean augment, int workers, long epoch, int count) {
    FashionImages images = new FashionImages(split, augment, 0);
    images.setEpoch(epoch);
    List<float[]> out = new ArrayList<>();
    try (DataLoader<List<Tensor>> loader = DataLoader.builder(images).batchSize(128).shuffle(true).generator(new Generator(0))
        .numWorkers(workers).build(); BatchIterator it = loader.iterator()) {
      for (int k = 0; k < count; k++) {
        Batch b = it.next();
        assertArrayEquals(new long[] {b.get(1).size(0), 1, 28, 28}, b.get(0).shape());
        out.add(b.get(0).toFloatArray());
        float[] labels = new float[(int) b.get(1).numel()];
        long[] l = b.get(1).toLongArray();
        for (int i = 0; i < l.length; i++) labels[i] = l[i];
        out.add(labels);
      }
    }
    return out;
  }

  @Test
  void withoutAugmentTheBatchesAreTheOnesTheJobCutByHand() throws IOException {
    long before = Memory.memoryAllocated(Device.CPU);
    try (Idx.Split train = Idx.load(null, "train")) {
      List<float[]> served = batches(train, false, 2, 1, 5);
      long[] pixels, labels, order;
      try (Tensor wide = train.images().to(DType.INT64); Tensor perm = Tensor.randperm(train.size(), new Generator(0))) {
        pixels = wide.toLongArray();
        labels = train.labels().toLongArray();
        order = perm.toLongArray();
      }
      for (int k = 0; k < 5; k++) {
        float[] x = new float[128 * 784], y = new float[128];
        for (int i = 0; i < 128; i++) {
          int row = (int) order[128 * k + i];
          for (int p = 0; p < 784; p++) x[784 * i + p] = (pixels[784 * row + p] & 0xff) / 255f;  // the job's decode before
          y[i] = labels[row];
        }
        assertArrayEquals(x, served.get(2 * k), 0, "images of batch " + k);
        assertArrayEquals(y, served.get(2 * k + 1), 0, "labels of batch " + k);
      }
    }
    assertEquals(before, Memory.memoryAllocated(Device.CPU), "bytes left allocated");
  }

  @Test
  void augmentedBatchesDependOnTheSeedAndEpochNotTheWorkers() throws IOException {
    long before = Memory.memoryAllocated(Device.CPU);
    try (Idx.Split train = Idx.load(null, "train")) {
      List<float[]> none = batches(train, true, 0, 1, 4), three = batches(train, true, 3, 1, 4), plain = batches(train, false, 0, 1, 1);
      for (int i = 0; i < none.size(); i++) assertArrayEquals(none.get(i), three.get(i), 0, "array " + i);
      assertFalse(Arrays.equals(plain.get(0), none.get(0)), "the crops and flips changed the images");
      assertArrayEquals(plain.get(1), none.get(1), 0, "and not the labels");
      assertFalse(Arrays.equals(none.get(0), batches(train, true, 0, 2, 1).get(0)), "another epoch, other crops");
    }
    assertEquals(before, Memory.memoryAllocated(Device.CPU), "bytes left allocated");
  }
}
