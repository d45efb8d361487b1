package org.jtensor.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Storage;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** jtensor's .pt files read back by jtensor: every dtype, shared storages, views, 0-dim and size-0, lists, devices. */
class PtRoundTripTest {
  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(DType.class)
  void everyDTypeRoundTrips(DType dtype) throws IOException {
    Path f = dir.resolve(dtype + ".pt");
    try (TensorScope s = TensorScope.open()) {
      Tensor t = PtSamples.sample(dtype), m = t.view(7, 1).expand(7, 3).t();  // a strided, stride-0 view too
      Tensors.save(Map.of("t", t, "m", m), f);
      Map<String, Tensor> back = Tensors.load(f);
      try {
        PtSamples.assertSameTensor("t", t, back.get("t"));
        PtSamples.assertSameTensor("m", m, back.get("m"));
        assertTrue(PtSamples.sameStorage(back.get("t"), back.get("m")));
      } finally {
        Tensors.closeAll(back);
      }
    }
  }

  @Test
  void sharedStoragesLoadSharingAndWritesShowThroughEveryView() throws IOException {
    Path f = dir.resolve("shared.pt");
    try (TensorScope s = TensorScope.open()) {
      Map<String, Tensor> want = PtSamples.mixed();
      want.put("other", Tensor.ones(3));
      Tensors.save(want, f);
      Map<String, Tensor> got = Tensors.load(f);
      for (Tensor t : got.values()) s.keep(t);  // closed by closeAll below, not by the scope
      try {
        assertEquals(List.copyOf(want.keySet()), List.copyOf(got.keySet()));
        for (String k : want.keySet()) PtSamples.assertSameTensor(k, want.get(k), got.get(k));
        for (String k : List.of("base_t", "base_slice", "base_row")) assertTrue(PtSamples.sameStorage(got.get("base"), got.get(k)), k + " shares base's storage");
        assertFalse(PtSamples.sameStorage(got.get("base"), got.get("other")));
        got.get("base_row").setDouble(-5, 2);  // base[2][2], which base_slice holds at [1][1] and base_t at [2][2]
        assertEquals(-5, got.get("base").getDouble(2, 2));
        assertEquals(-5, got.get("base_slice").getDouble(1, 1));
        assertEquals(-5, got.get("base_t").getDouble(2, 2));
        try (Storage st = got.get("base").untypedStorage()) {
          assertEquals(24 * 4, st.nbytes());
        }
      } finally {
        Tensors.closeAll(got);
      }
    }
    try (ZipReader z = ZipReader.open(f)) {  // one storage entry per distinct storage: 10 dtypes, base and 4 more
      assertEquals(DType.values().length + 5, z.entries().stream().filter(e -> e.name().startsWith("archive/data/")).count());
    }
  }

  @Test
  void aViewOfALargeBaseSavesTheWholeStorageAndACloneOnlyItself() throws IOException {
    try (Tensor base = Tensor.zeros(new long[] {1000}, DType.FLOAT64); Tensor view = base.narrow(0, 10, 2); Tensor copy = view.clone()) {
      Tensors.save(Map.of("v", view), dir.resolve("view.pt"));
      Tensors.save(Map.of("v", copy), dir.resolve("clone.pt"));
    }
    try (ZipReader z = ZipReader.open(dir.resolve("view.pt"))) {
      assertEquals(8000, z.entry("archive/data/0").size());
    }
    try (ZipReader z = ZipReader.open(dir.resolve("clone.pt"))) {
      assertEquals(16, z.entry("archive/data/0").size());
    }
    Map<String, Tensor> got = Tensors.load(dir.resolve("view.pt"));
    try (Tensor v = got.get("v"); Storage st = v.untypedStorage()) {
      assertEquals(10, v.storageOffset());
      assertEquals(8000, st.nbytes());
    }
  }

  @Test
  void zeroDimAndSizeZeroTensors() throws IOException {
    Path f = dir.resolve("shapes.pt");
    try (TensorScope s = TensorScope.open()) {
      Map<String, Tensor> want = new LinkedHashMap<>();
      want.put("scalar", Tensor.scalar(2.5));
      want.put("empty", Tensor.zeros(new long[] {0}, DType.INT64));
      want.put("empty3d", Tensor.zeros(new long[] {2, 0, 3}, DType.FLOAT16));
      Tensors.save(want, f);
      Map<String, Tensor> got = Tensors.load(f);
      try {
        for (String k : want.keySet()) PtSamples.assertSameTensor(k, want.get(k), got.get(k));
        assertEquals(0, got.get("scalar").dim());
        assertEquals(2.5, got.get("scalar").item());
      } finally {
        Tensors.closeAll(got);
      }
    }
  }

  @Test
  void listsLoadThroughLoadObjectAndRequiresGradSurvives() throws IOException {
    Path f = dir.resolve("list.pt");
    try (TensorScope s = TensorScope.open()) {
      Tensor a = Tensor.arange(0, 6, 1, DType.FLOAT32).requiresGrad_(true), b = a.detach().view(2, 3);
      Tensors.save(List.of(a, b), f);
      Object top = Tensors.loadObject(f);
      try {
        List<?> l = (List<?>) top;
        assertEquals(2, l.size());
        PtSamples.assertSameTensor("a", a, (Tensor) l.get(0));
        PtSamples.assertSameTensor("b", b, (Tensor) l.get(1));
        assertTrue(PtSamples.sameStorage((Tensor) l.get(0), (Tensor) l.get(1)));
      } finally {
        Tensors.closeAll(top);
      }
      TensorFormatException e = assertThrows(TensorFormatException.class, () -> Tensors.load(f));
      assertTrue(e.getMessage().contains("top level is a list"), e.getMessage());
    }
  }

  @Test
  void manyTensorsSpanSeveralPickleBatches() throws IOException {
    Path f = dir.resolve("many.pt");
    try (TensorScope s = TensorScope.open()) {
      Tensor base = Tensor.arange(0, 2500, 1, DType.INT32);
      Map<String, Tensor> want = new LinkedHashMap<>();
      for (int i = 0; i < 2500; i++) want.put("p" + i, base.narrow(0, i, 1));
      Tensors.save(want, f);
      Map<String, Tensor> got = Tensors.load(f);
      try {
        assertEquals(2500, got.size());
        assertEquals(1234, got.get("p1234").getLong(0));
        assertTrue(PtSamples.sameStorage(got.get("p0"), got.get("p2499")));
      } finally {
        Tensors.closeAll(got);
      }
    }
  }

  @Test
  void metaLoadsShapesWithoutData() throws IOException {
    Path f = dir.resolve("meta.pt");
    try (Tensor a = Tensor.ones(new long[] {3, 4}, DType.FLOAT32); Tensor t = a.t()) {
      Tensors.save(Map.of("a", a, "t", t), f);
    }
    Map<String, Tensor> got = Tensors.load(f, Device.META);
    try {
      assertEquals(Device.META, got.get("a").device());
      assertArrayEquals(new long[] {4, 3}, got.get("t").shape());
      assertArrayEquals(new long[] {1, 4}, got.get("t").stride());
      assertTrue(PtSamples.sameStorage(got.get("a"), got.get("t")));
    } finally {
      Tensors.closeAll(got);
    }
  }

  @Test
  void refusesWhatItCannotSaveOrLoadClearly() throws IOException {
    Path f = dir.resolve("x.pt");
    try (Tensor a = Tensor.zeros(new long[] {4}, DType.INT32); Tensor b = a.view(DType.FLOAT32)) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Tensors.save(Map.of("a", a, "b", b), f));
      assertTrue(e.getMessage().contains("different dtypes"), e.getMessage());
      assertFalse(Files.exists(f), "nothing written when the tensors are refused");
      Tensors.save(Map.of("a", a), f);
    }
    UnsupportedOperationException u = assertThrows(UnsupportedOperationException.class, () -> Tensors.load(f, Device.cuda(0)));
    assertTrue(u.getMessage().startsWith("load()"), u.getMessage());
  }
}
