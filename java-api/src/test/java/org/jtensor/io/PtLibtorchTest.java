package org.jtensor.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bytedeco.javacpp.DoublePointer;
import org.bytedeco.javacpp.LongPointer;
import org.bytedeco.pytorch.ByteVector;
import org.bytedeco.pytorch.GenericDict;
import org.bytedeco.pytorch.GenericDictIterator;
import org.bytedeco.pytorch.IValue;
import org.bytedeco.pytorch.IValueVector;
import org.bytedeco.pytorch.TensorOptions;
import org.bytedeco.pytorch.Tuple;
import org.bytedeco.pytorch.global.torch;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A second, independent implementation of the format checks jtensor's .pt files: libtorch 2.10's
 * own torch::pickle_load (C++, Python-compatible, its zip reader and unpickler) reads what jtensor
 * writes, and jtensor reads what torch::pickle_save writes.
 */
class PtLibtorchTest {
  @TempDir Path dir;

  private static torch.ScalarType scalarType(DType t) {
    switch (t) {
      case BOOL: return torch.ScalarType.Bool;
      case UINT8: return torch.ScalarType.Byte;
      case INT8: return torch.ScalarType.Char;
      case INT16: return torch.ScalarType.Short;
      case INT32: return torch.ScalarType.Int;
      case INT64: return torch.ScalarType.Long;
      case FLOAT16: return torch.ScalarType.Half;
      case BFLOAT16: return torch.ScalarType.BFloat16;
      case FLOAT32: return torch.ScalarType.Float;
      default: return torch.ScalarType.Double;
    }
  }

  /** A libtorch tensor's values in row-major order: doubles for floating dtypes, longs (as doubles' bits) otherwise. */
  private static double[] doubles(org.bytedeco.pytorch.Tensor t) {
    long n = t.numel();
    try (DoublePointer p = new DoublePointer(Math.max(1, n))) {
      torch.from_blob(p, t.sizes().vec().get(), new TensorOptions(torch.ScalarType.Double)).copy_(t);
      double[] out = new double[(int) n];
      p.get(out);
      return out;
    }
  }

  private static long[] longs(org.bytedeco.pytorch.Tensor t) {
    long n = t.numel();
    try (LongPointer p = new LongPointer(Math.max(1, n))) {
      torch.from_blob(p, t.sizes().vec().get(), new TensorOptions(torch.ScalarType.Long)).copy_(t);
      long[] out = new long[(int) n];
      p.get(out);
      return out;
    }
  }

  private static void same(String what, Tensor want, org.bytedeco.pytorch.Tensor got) {
    assertEquals(scalarType(want.dtype()).value, got.scalar_type().value, what + " dtype");
    assertArrayEquals(want.shape(), got.sizes().vec().get(), what + " shape");
    assertArrayEquals(want.stride(), got.strides().vec().get(), what + " stride");
    assertEquals(want.storageOffset(), got.storage_offset(), what + " offset");
    try (TensorScope s = TensorScope.open()) {
      if (want.dtype().isFloatingPoint()) assertArrayEquals(want.to(DType.FLOAT64).toDoubleArray(), doubles(got), what + " values");
      else assertArrayEquals(want.to(DType.INT64).toLongArray(), longs(got), what + " values");
    }
  }

  @Test
  void libtorchPickleLoadReadsWhatJtensorWrites() throws Exception {
    Path f = dir.resolve("jt.pt");
    try (TensorScope s = TensorScope.open()) {
      Map<String, Tensor> want = PtSamples.mixed();
      Tensors.save(want, f);

      IValue top = torch.pickle_load(new ByteVector(Files.readAllBytes(f)));
      assertTrue(top.isGenericDict(), "a dict at the top");
      GenericDict d = top.toGenericDict();
      Map<String, org.bytedeco.pytorch.Tensor> got = new LinkedHashMap<>();
      for (GenericDictIterator it = d.begin(); it.notEquals(d.end()); it = it.increment()) {
        got.put(it.access().key().toStringRef().getString(), it.access().value().toTensor());
      }
      assertEquals(new ArrayList<>(want.keySet()), new ArrayList<>(got.keySet()));
      // each view keeps its offset and strides into the whole storage; libtorch's pickle_load reads a
      // storage once per tensor (it does so for PyTorch's own files too), so sharing is checked by the other tests
      for (String k : want.keySet()) same(k, want.get(k), got.get(k));
    }
  }

  @Test
  void jtensorReadsWhatLibtorchPickleSaveWrites() throws Exception {
    double[] v = {1, 2, 3, 4, 5, 6};
    org.bytedeco.pytorch.Tensor base;
    try (DoublePointer p = new DoublePointer(v)) {
      base = torch.from_blob(p, new long[] {2, 3}, new TensorOptions(torch.ScalarType.Double)).clone();
    }
    org.bytedeco.pytorch.Tensor view = base.t(), ints = base.to(torch.ScalarType.Int), row = base.select(0, 1);
    IValue top = new IValue(Tuple.create(new IValueVector(new IValue(base), new IValue(view), new IValue(ints), new IValue(row))));
    Path f = dir.resolve("lt.pt");
    Files.write(f, torch.pickle_save(top).get());

    Object loaded = Tensors.loadObject(f);
    try {
      List<?> l = (List<?>) loaded;
      List<org.bytedeco.pytorch.Tensor> want = List.of(base, view, ints, row);
      assertEquals(want.size(), l.size());
      Map<Integer, Tensor> byIndex = new HashMap<>();
      for (int i = 0; i < l.size(); i++) {
        Tensor t = (Tensor) l.get(i);
        byIndex.put(i, t);
        same("item " + i, t, want.get(i));
      }
      assertTrue(PtSamples.sameStorage(byIndex.get(0), byIndex.get(1)));
      assertTrue(PtSamples.sameStorage(byIndex.get(0), byIndex.get(3)));
      assertFalse(PtSamples.sameStorage(byIndex.get(0), byIndex.get(2)));
    } finally {
      Tensors.closeAll(loaded);
    }
  }
}
