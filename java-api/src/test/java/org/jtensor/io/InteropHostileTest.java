package org.jtensor.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtensor.DType;
import org.jtensor.Storage;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hostile review of value-level interop with PyTorch 2.13 and NumPy (session 29): each test is
 * named after a bug; the fixtures are make_interop_hostile_fixtures.py's.
 */
class InteropHostileTest {
  @TempDir Path dir;

  private static long storageBytes(Tensor t) {
    try (Storage s = t.untypedStorage()) {
      return s.nbytes();
    }
  }

  /** Before: one storage over the whole mapping, so Tensors.save refused mixed dtypes ("not a whole number of bfloat16 elements"). */
  @Test
  void safetensorsOfMixedDtypesLoadedThenSavedAsPtWereRefused() throws IOException {
    Path pt = dir.resolve("converted.pt");
    Map<String, Tensor> m = SafeTensors.load(Fixtures.path("hostile_mixed.safetensors"));
    try {
      Tensors.save(m, pt);
      Map<String, Tensor> back = Tensors.load(pt);
      try {
        assertEquals(List.copyOf(m.keySet()), List.copyOf(back.keySet()));
        for (String k : m.keySet()) {
          try (TensorScope scope = TensorScope.open()) {  // closes the float64 copies
            Tensor a = m.get(k), b = back.get(k);
            assertEquals(a.dtype(), b.dtype(), k);
            assertArrayEquals(a.shape(), b.shape(), k);
            assertArrayEquals(a.to(DType.FLOAT64).toDoubleArray(), b.to(DType.FLOAT64).toDoubleArray(), k);
            assertEquals(b.nbytes(), storageBytes(b), k + ": its own bytes, as torch.save writes each tensor's storage");
          }
        }
        try (Tensor w = back.get("w").to(DType.FLOAT64)) {
          assertArrayEquals(new double[] {1.5, -2.0, 3.0, 4.25}, w.toDoubleArray());
        }
        assertEquals(7.0, back.get("steps").item());
      } finally {
        Tensors.closeAll(back);
      }
    } finally {
      Tensors.closeAll(m);
    }
  }

  /** Before: saving one tensor of a loaded safetensors file wrote every tensor's bytes (the mapping's storage) to the .pt. */
  @Test
  void oneTensorOfASafetensorsFileSavedAsPtCarriedTheWholeFile() throws IOException {
    Path st = dir.resolve("two.safetensors"), pt = dir.resolve("one.pt");
    Map<String, Tensor> src = new LinkedHashMap<>();
    src.put("big", Tensor.arange(0, 1000, 1, DType.FLOAT32));
    src.put("small", Tensor.arange(0, 2, 1, DType.FLOAT32));
    SafeTensors.save(src, st);
    Tensors.closeAll(src);
    Map<String, Tensor> m = SafeTensors.load(st);
    try {
      assertEquals(8, storageBytes(m.get("small")));
      Tensors.save(Map.of("small", m.get("small")), pt);
      Map<String, Tensor> back = Tensors.load(pt);
      try {
        Tensor s = back.get("small");
        assertEquals(0, s.storageOffset());
        assertEquals(8, storageBytes(s), "the .pt holds the 2 floats, not the 4008 bytes of the file");
        assertArrayEquals(new float[] {0f, 1f}, s.toFloatArray());
      } finally {
        Tensors.closeAll(back);
      }
    } finally {
      Tensors.closeAll(m);
    }
  }

  /** Before: loadObject returned the loader's internal storage record, its bytes already freed (toString threw). */
  @Test
  void aStorageSavedAsAValueLeakedAFreedInternalObject() {
    Path file = Fixtures.path("hostile_storage_value.pt");
    TensorFormatException e = assertThrows(TensorFormatException.class, () -> Tensors.loadObject(file));
    assertTrue(e.getMessage().contains("hostile_storage_value.pt") && e.getMessage().contains("storage '0' itself"), e.getMessage());
  }

  /** Before: torch.float16 as a value was refused as "not allowed ... as torch.load(weights_only=True) does"; it loads it. */
  @Test
  void torchDtypeValuesWereRefusedThoughWeightsOnlyLoadsThem() throws IOException {
    Object o = Tensors.loadObject(Fixtures.path("hostile_dtype_values.pt"));
    try {
      Map<?, ?> m = (Map<?, ?>) o;
      assertEquals(DType.FLOAT16, m.get("dtype"));
      assertEquals(List.of(DType.BFLOAT16, DType.BOOL, DType.INT64), m.get("dtypes"));
      assertArrayEquals(new float[] {1f, 1f}, ((Tensor) m.get("w")).toFloatArray());
    } finally {
      Tensors.closeAll(o);
    }
  }

  /** Before: a meta tensor (torch.empty(2, 3, device="meta").t()) was refused as a forbidden global; weights_only=True loads it. */
  @Test
  void metaTensorsSavedByTorchWereRefused() throws IOException {
    Map<String, Tensor> m = Tensors.load(Fixtures.path("hostile_meta.pt"));
    try {
      Tensor t = m.get("m"), p = m.get("p");
      assertTrue(t.device().isMeta() && p.device().isMeta(), "meta, whatever the map location, as PyTorch's");
      assertArrayEquals(new long[] {3, 2}, t.shape());
      assertArrayEquals(new long[] {1, 3}, t.stride());
      assertEquals(DType.FLOAT32, t.dtype());
      assertEquals(DType.FLOAT16, p.dtype());
      assertTrue(p.requiresGrad() && !t.requiresGrad());
      assertArrayEquals(new float[] {1f}, m.get("c").toFloatArray());
    } finally {
      Tensors.closeAll(m);
    }
  }

  /** Before: "global 'torch._utils._rebuild_tensor_v3' is not allowed ... as torch.load(weights_only=True) does": it loads it. */
  @Test
  void aUint16TensorWasRefusedAsAForbiddenGlobal() {
    Path file = Fixtures.path("hostile_uint16.pt");
    TensorFormatException e = assertThrows(TensorFormatException.class, () -> Tensors.loadObject(file));
    assertTrue(e.getMessage().contains("hostile_uint16.pt") && e.getMessage().contains("_rebuild_tensor_v3")
        && e.getMessage().contains("uint16") && !e.getMessage().contains("not allowed"), e.getMessage());
  }

  /**
   * Before: saving a META tensor (one Tensors.load just read) threw "only CPU tensors are saved";
   * torch.save writes _rebuild_meta_tensor_no_storage(dtype, size, stride, requires_grad), no storage.
   */
  @Test
  void metaTensorsWereNotSaved() throws IOException {
    Path file = dir.resolve("meta.pt");
    Map<String, Tensor> m = Tensors.load(Fixtures.path("hostile_meta.pt"));
    try {
      Tensors.save(m, file);
    } finally {
      Tensors.closeAll(m);
    }
    Map<String, Tensor> back = Tensors.load(file);
    try {
      Tensor t = back.get("m"), p = back.get("p");
      assertTrue(t.device().isMeta() && p.device().isMeta());
      assertArrayEquals(new long[] {1, 3}, t.stride());
      assertEquals(DType.FLOAT16, p.dtype());
      assertTrue(p.requiresGrad());
      assertArrayEquals(new float[] {1f}, back.get("c").toFloatArray());
    } finally {
      Tensors.closeAll(back);
    }
    try (ZipReader zip = ZipReader.open(file)) {
      assertEquals(1, zip.entries().stream().filter(e -> e.name().contains("/data/")).count(), "one storage entry: c's; meta has none");
    }
  }

  /** Before: a checkpoint loadObject read with a dtype in it could not be saved again ("'dtype' is a org.jtensor.DType"). */
  @Test
  void dtypeValuesLoadedFromAPtCouldNotBeSavedBack() throws IOException {
    Path file = dir.resolve("again.pt");
    Object o = Tensors.loadObject(Fixtures.path("hostile_dtype_values.pt"));
    try {
      Tensors.saveObject(o, file);
    } finally {
      Tensors.closeAll(o);
    }
    Object back = Tensors.loadObject(file);
    try {
      Map<?, ?> m = (Map<?, ?>) back;
      assertEquals(DType.FLOAT16, m.get("dtype"));
      assertEquals(List.of(DType.BFLOAT16, DType.BOOL, DType.INT64), m.get("dtypes"));
    } finally {
      Tensors.closeAll(back);
    }
  }
}
