package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Factories, copies, dtype conversion, contiguity rules and element access on real data. */
class TensorDataTest extends ScopedTest {

  @Test
  void factories() {
    assertArrayEquals(new float[] {0, 0, 0}, Tensor.zeros(3).toFloatArray());
    assertArrayEquals(new long[] {(1L << 60) + 7, (1L << 60) + 7}, Tensor.full(new long[] {2}, (1L << 60) + 7, DType.INT64, Device.CPU).toLongArray());
    assertArrayEquals(new double[] {1, 0, 0, 0, 1, 0}, Tensor.eye(2, 3, DType.FLOAT64).toDoubleArray());
    assertArrayEquals(new float[] {0f, 0.25f, 0.5f, 0.75f, 1f}, Tensor.linspace(0, 1, 5).toFloatArray());
    assertArrayEquals(new double[] {1, 1.5, 2, 2.5}, Tensor.arange(1, 3, 0.5, DType.FLOAT64).toDoubleArray());
    assertArrayEquals(new long[] {10, 7, 4, 1}, Tensor.arange(10, 0, -3, DType.INT64).toLongArray());
    assertEquals(DType.INT64, Tensor.arange(5).dtype());
    Tensor ones = Tensor.ones(new long[] {2, 3}, DType.BFLOAT16);
    assertArrayEquals(new float[] {1, 1, 1, 1, 1, 1}, ones.toFloatArray());
    Tensor t = Tensor.arange(6).view(2, 3).t();
    Tensor like = Tensor.zerosLike(t);
    assertArrayEquals(t.stride(), like.stride(), "zeros_like keeps a dense layout");
    assertEquals(0L, like.getLong(2, 1));
    assertArrayEquals(new long[] {2, 3}, Tensor.fromArray(new double[6], 2, 3).shape());
    assertThrows(IllegalArgumentException.class, () -> Tensor.fromArray(new float[5], 2, 3));
    assertThrows(IllegalArgumentException.class, () -> Tensor.zeros(2, -1));
    assertThrows(IllegalArgumentException.class, () -> Tensor.arange(0, 10, 0, DType.INT64));
    assertThrows(IllegalArgumentException.class, () -> Tensor.arange(0, 10, -1, DType.INT64));
    assertThrows(IllegalArgumentException.class, () -> Tensor.empty(Long.MAX_VALUE / 2, 4));
  }

  @Test
  void float16AndBFloat16RoundToNearestEven() {
    float tieHalf = 1f + 0x1p-11f, aboveTie = 1f + 0x1p-11f + 0x1p-20f;
    Tensor x = Tensor.fromArray(new float[] {tieHalf, aboveTie, 65520f, 1f + 0x1p-8f, 1f + 3 * 0x1p-8f});
    float[] h = x.to(DType.FLOAT16).toFloatArray();
    assertEquals(1f, h[0]);
    assertEquals(1f + 0x1p-10f, h[1]);
    assertEquals(Float.POSITIVE_INFINITY, h[2]);
    float[] b = x.to(DType.BFLOAT16).toFloatArray();
    assertEquals(1f, b[3]);
    assertEquals(1f + 0x1p-6f, b[4]);
    Tensor d = Tensor.fromArray(new double[] {1.0 + 0x1p-11 + 0x1p-40});
    assertEquals(1f + 0x1p-10f, d.to(DType.FLOAT16).toFloatArray()[0], "float64 rounds once, not through float32");
  }

  @Test
  void conversionsBetweenEveryPairOfDtypes() {
    double[] vals = {0, 1, 2, 3, 100, 127};
    for (DType from : DType.values()) {
      for (DType to : DType.values()) {
        Tensor src = Tensor.fromArray(vals).to(from);
        double[] got = src.to(to).toDoubleArray();
        for (int i = 0; i < vals.length; i++) {
          double expect = from == DType.BOOL || to == DType.BOOL ? (vals[i] != 0 ? 1 : 0) : vals[i];
          assertEquals(expect, got[i], from + " -> " + to + " at " + i);
        }
      }
    }
    assertEquals(44, Tensor.fromArray(new double[] {300}).to(DType.UINT8).getLong(0), "wraps through int64");
    assertEquals(-3, Tensor.fromArray(new float[] {-3.7f}).to(DType.INT32).getLong(0), "truncates toward zero");
    assertArrayEquals(new long[] {Long.MAX_VALUE}, Tensor.fromArray(new long[] {Long.MAX_VALUE}).to(DType.INT64).toLongArray());
  }

  @Test
  void contiguousCloneReshapeAndTo() {
    Tensor x = Tensor.arange(24).view(2, 3, 4);
    Tensor same = x.contiguous();
    assertEquals(x.dataPtr(), same.dataPtr(), "contiguous() of a contiguous tensor is itself");
    Tensor p = x.permute(2, 0, 1);
    Tensor pc = p.clone();
    assertArrayEquals(p.stride(), pc.stride(), "clone keeps dense permuted strides");
    assertFalse(pc.isAliasOf(x));
    Tensor c = p.contiguous();
    assertArrayEquals(new long[] {6, 3, 1}, c.stride());
    assertArrayEquals(p.toLongArray(), c.toLongArray());
    Tensor r1 = x.reshape(6, 4);
    assertTrue(r1.isAliasOf(x), "reshape views when it can");
    Tensor r2 = p.reshape(24);
    assertFalse(r2.isAliasOf(x), "and copies only when it must");
    assertArrayEquals(p.toLongArray(), r2.toLongArray());
    assertTrue(x.to(DType.INT64).isAliasOf(x));
    Tensor f = p.to(DType.FLOAT32);
    assertArrayEquals(p.stride(), f.stride(), "to() preserves the layout");
    Tensor expanded = Tensor.arange(3).expand(4, 3);
    Tensor ec = expanded.clone();
    assertArrayEquals(new long[] {3, 1}, ec.stride(), "non-dense layouts clone to dense strides");
    assertArrayEquals(expanded.toLongArray(), ec.toLongArray());
  }

  @Test
  void copyBroadcastsConvertsAndRefusesOverlaps() {
    Tensor dst = Tensor.zeros(new long[] {3, 4}, DType.FLOAT64);
    dst.copy_(Tensor.fromArray(new int[] {1, 2, 3, 4}));
    assertArrayEquals(new double[] {1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4}, dst.toDoubleArray());
    int v = dst.version();
    dst.t().copy_(Tensor.arange(12).view(4, 3));
    assertEquals(v + 1, dst.version());
    assertEquals(1.0, dst.getDouble(1, 0));
    assertThrows(IllegalArgumentException.class, () -> dst.copy_(Tensor.zeros(5)));
    Tensor x = Tensor.arange(10);
    assertThrows(IllegalArgumentException.class, () -> x.narrow(0, 1, 5).copy_(x.narrow(0, 0, 5)));
    Tensor even = x.slice(0, 0, 10, 2), odd = x.slice(0, 1, 10, 2);
    even.copy_(odd);  // interleaved aliases never share an element: goes through a temporary
    assertArrayEquals(new long[] {1, 1, 3, 3, 5, 5, 7, 7, 9, 9}, x.toLongArray());
    assertThrows(IllegalArgumentException.class, () -> Tensor.zeros(3).expand(2, 3).fill_(1.0));
    assertThrows(UnsupportedOperationException.class,
        () -> Tensor.zeros(3).copy_(Tensor.empty(new long[] {3}, DType.FLOAT32, Device.META)));
  }

  @Test
  void elementAccessAndItem() {
    Tensor x = Tensor.arange(0, 12, 1, DType.FLOAT32).view(3, 4).t();
    assertEquals(9.0, x.getDouble(1, 2));
    assertEquals(9.0, x.getDouble(-3, -1));
    x.setDouble(-1, 1, 2);
    assertEquals(-1.0, x.getDouble(1, 2));
    assertThrows(IndexOutOfBoundsException.class, () -> x.getDouble(4, 0));
    assertThrows(IllegalArgumentException.class, () -> x.getDouble(1));
    assertThrows(IllegalArgumentException.class, x::item);
    assertEquals(7.0, x.select(0, 3).select(0, 1).item());
    Tensor big = Tensor.scalar((1L << 62) + 1);
    assertEquals((1L << 62) + 1, big.itemLong());
    assertArrayEquals(new boolean[] {false, true}, Tensor.arange(2).toBooleanArray());
    assertArrayEquals(new int[] {0, 1, 2}, Tensor.arange(3).toIntArray());
  }

  @Test
  void viewDtypeReinterpretsBytes() {
    Tensor f = Tensor.fromArray(new float[] {1f, -2f});
    Tensor i = f.view(DType.INT32);
    assertEquals(Float.floatToRawIntBits(1f), i.getLong(0));
    assertFalse(i.isView());  // PyTorch 2.13: f.view(torch.int32)._is_view() is False (_base None); storage and version shared
    assertTrue(i.isAliasOf(f));
    Tensor bytes = f.view(DType.UINT8);
    assertArrayEquals(new long[] {8}, bytes.shape());
    Tensor back = bytes.view(DType.FLOAT32);
    assertArrayEquals(new float[] {1f, -2f}, back.toFloatArray());
    assertThrows(IllegalArgumentException.class, () -> Tensor.arange(0, 3, 1, DType.UINT8).view(DType.INT16));
  }

  @Test
  void setRepointsAtAStorageWithBoundsChecked() {
    Tensor src = Tensor.arange(0, 6, 1, DType.FLOAT32);
    Tensor t = Tensor.zeros(1);
    try (Storage s = src.untypedStorage()) {
      t.set_(s, 1, new long[] {2, 2}, new long[] {2, 1});
      assertArrayEquals(new float[] {1, 2, 3, 4}, t.toFloatArray());
      assertTrue(t.isAliasOf(src));
      assertThrows(IllegalArgumentException.class, () -> t.set_(s, 5, new long[] {2}, new long[] {1}));
      assertEquals(24, s.nbytes());
      s.resize_(8);
      IllegalStateException e = assertThrows(IllegalStateException.class, t::toFloatArray);
      assertTrue(e.getMessage().contains("storage now holds 8"), e.getMessage());
    }
  }

  @Test
  void storageCopyFillClone() {
    try (Storage a = Storage.allocate(16, Device.CPU); Storage b = a.clone()) {
      a.fill_((byte) 7);
      b.copy_(a);
      assertNotEquals(a.dataPtr(), b.dataPtr());
      Tensor view = Tensor.zeros(new long[] {1}, DType.UINT8);
      view.set_(b, 3, new long[] {2}, new long[] {1});
      assertArrayEquals(new long[] {7, 7}, view.toLongArray());
      try (Storage small = Storage.allocate(8, Device.CPU)) {
        assertThrows(IllegalArgumentException.class, () -> a.copy_(small));
      }
    }
  }

  @Test
  void metaTensorsCarryShapesWithoutBytes() {
    Tensor m = Tensor.empty(new long[] {1 << 20, 1 << 20}, DType.FLOAT32, Device.META);  // 4 TiB, no bytes
    assertEquals(0, m.dataPtr());
    Tensor v = m.t().reshape(-1);
    assertArrayEquals(new long[] {1L << 40}, v.shape());
    assertEquals(Device.META, v.device());
    Tensor c = m.t().contiguous();
    assertArrayEquals(new long[] {1 << 20, 1}, c.stride());
    assertThrows(UnsupportedOperationException.class, () -> m.getDouble(0, 0));
    assertThrows(UnsupportedOperationException.class, () -> m.to(Device.CPU));
    Tensor onMeta = Tensor.arange(6).view(2, 3).t().to(Device.META);
    assertArrayEquals(new long[] {1, 3}, onMeta.stride());
  }

  @Test
  void generatorIsSeededAndReproducible() {
    Tensor a = Tensor.rand(new long[] {1000}, new Generator(7));
    Tensor b = Tensor.rand(new long[] {1000}, new Generator(7));
    assertArrayEquals(a.toFloatArray(), b.toFloatArray());
    Generator g = new Generator(7);
    Tensor first = Tensor.rand(new long[] {10}, g), second = Tensor.rand(new long[] {10}, g);
    assertFalse(java.util.Arrays.equals(first.toFloatArray(), second.toFloatArray()), "draws advance the generator");
    double[] n = Tensor.randn(new long[] {200_000}, DType.FLOAT64, new Generator(1)).toDoubleArray();
    double mean = 0, sq = 0;
    for (double x : n) {
      mean += x;
      sq += x * x;
    }
    mean /= n.length;
    assertEquals(0, mean, 0.01);
    assertEquals(1, Math.sqrt(sq / n.length - mean * mean), 0.01);
    for (float u : a.toFloatArray()) assertTrue(u >= 0 && u < 1);
    long[] r = Tensor.randint(-3, 4, new long[] {5000}, new Generator(3)).toLongArray();
    long min = Long.MAX_VALUE, max = Long.MIN_VALUE;
    for (long x : r) {
      min = Math.min(min, x);
      max = Math.max(max, x);
    }
    assertEquals(-3, min);
    assertEquals(3, max);
    assertThrows(IllegalArgumentException.class, () -> Tensor.randint(5, 5, new long[] {1}, new Generator(0)));
    assertEquals(0, Tensor.randn(new long[0], new Generator(0)).dim());
  }
}
