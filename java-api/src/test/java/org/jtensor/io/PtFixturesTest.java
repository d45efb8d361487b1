package org.jtensor.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigInteger;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Files that PyTorch's torch.save wrote (src/test/resources/io/make_pt_fixtures.py made them, once)
 * load with the values, geometry and storage sharing that pt/expected.json records.
 */
class PtFixturesTest {
  static Path fixture(String name) {
    return Fixtures.path("pt/" + name);
  }

  static JsonNode expected() throws IOException, URISyntaxException {
    return new ObjectMapper().readTree(fixture("expected.json").toFile());
  }

  @ParameterizedTest
  @ValueSource(strings = {"state_dict.pt", "dtypes.pt", "shapes.pt", "list.pt", "checkpoint.pt", "parameter.pt"})
  void loadsWhatTorchSaveWrote(String name) throws Exception {
    JsonNode want = expected().get(name);
    Object got = Tensors.loadObject(fixture(name));
    try {
      match(name, want, got, new HashMap<>());
    } finally {
      Tensors.closeAll(got);
    }
  }

  @Test
  void aStateDictLoadsAsAMapOfTensors() throws Exception {
    Map<String, Tensor> sd = Tensors.load(fixture("state_dict.pt"));
    try {
      assertEquals(List.of("0.weight", "0.bias", "1.weight", "1.bias", "1.running_mean", "1.running_var", "1.num_batches_tracked",
          "base", "base_t", "base_slice", "base_row", "expanded"), new ArrayList<>(sd.keySet()));
      assertEquals(1, sd.get("1.num_batches_tracked").getLong());
      assertEquals(DType.INT64, sd.get("1.num_batches_tracked").dtype());
      sd.get("base").setDouble(100, 2, 4);  // seen through the transposed and row views
      assertEquals(100, sd.get("base_t").getDouble(4, 2));
      assertEquals(100, sd.get("base_row").getDouble(4));
      assertEquals(100, sd.get("base_slice").getDouble(1, 2));
    } finally {
      Tensors.closeAll(sd);
    }
  }

  @Test
  void refusesTheMaliciousCheckpointNamingItsGlobal() throws Exception {
    TensorFormatException e = assertThrows(TensorFormatException.class, () -> Tensors.loadObject(fixture("evil.pt")));
    assertTrue(e.getMessage().contains("posix.system") && e.getMessage().contains("evil.pt"), e.getMessage());
  }

  /** Compares a loaded value with its description; storages maps expected storage ids to a tensor seen over it. */
  static void match(String at, JsonNode want, Object got, Map<Integer, Tensor> storages) {
    if (want.has("tensor")) {
      assertTrue(got instanceof Tensor, at + " is a tensor, got " + got);
      tensor(at, want.get("tensor"), (Tensor) got, storages);
    } else if (want.has("dict")) {
      assertTrue(got instanceof Map, at + " is a dict");
      Map<?, ?> m = (Map<?, ?>) got;
      List<Object> keys = new ArrayList<>(m.keySet());
      assertEquals(want.get("dict").size(), keys.size(), at + " size");
      for (int i = 0; i < keys.size(); i++) {
        JsonNode kv = want.get("dict").get(i);
        assertEquals(kv.get(0).asText(), keys.get(i), at + " key " + i);
        match(at + "." + keys.get(i), kv.get(1), m.get(keys.get(i)), storages);
      }
    } else if (want.has("list")) {
      assertTrue(got instanceof List, at + " is a list or tuple");
      List<?> l = (List<?>) got;
      assertEquals(want.get("list").size(), l.size(), at + " size");
      for (int i = 0; i < l.size(); i++) match(at + "[" + i + "]", want.get("list").get(i), l.get(i), storages);
    } else {
      JsonNode v = want.get("value");
      if (v.isNull()) assertNull(got, at);
      else if (v.isBoolean()) assertEquals(v.asBoolean(), got, at);
      else if (v.isBigInteger()) assertEquals(v.bigIntegerValue(), got instanceof Long ? BigInteger.valueOf((Long) got) : got, at);
      else if (v.isIntegralNumber()) assertEquals(v.asLong(), got, at);
      else if (v.isNumber()) assertEquals(v.asDouble(), got, at);
      else assertEquals(v.asText(), got, at);
    }
  }

  private static void tensor(String at, JsonNode w, Tensor t, Map<Integer, Tensor> storages) {
    assertEquals(DType.fromName(w.get("dtype").asText()), t.dtype(), at + " dtype");
    assertArrayEquals(longs(w.get("shape")), t.shape(), at + " shape");
    assertArrayEquals(longs(w.get("stride")), t.stride(), at + " stride");
    assertEquals(w.get("offset").asLong(), t.storageOffset(), at + " offset");
    assertEquals(w.get("requires_grad").asBoolean(), t.requiresGrad(), at + " requires_grad");
    int id = w.get("storage").asInt();
    for (Map.Entry<Integer, Tensor> e : storages.entrySet()) {
      assertEquals(e.getKey() == id, PtSamples.sameStorage(e.getValue(), t), at + " shares storage " + e.getKey() + " iff torch's did");
    }
    storages.putIfAbsent(id, t);
    JsonNode v = w.get("values");
    try (TensorScope s = TensorScope.open()) {
      Tensor flat = t.detach().reshape(-1);
      if (t.dtype().isFloatingPoint()) {
        double[] got = flat.to(DType.FLOAT64).toDoubleArray();
        double[] want = new double[v.size()];
        for (int i = 0; i < want.length; i++) want[i] = v.get(i).isTextual() ? Double.parseDouble(v.get(i).asText().replace("inf", "Infinity").replace("nan", "NaN")) : v.get(i).asDouble();
        assertArrayEquals(want, got, at + " values");
      } else {
        long[] got = flat.to(DType.INT64).toLongArray();
        long[] want = new long[v.size()];
        for (int i = 0; i < want.length; i++) want[i] = v.get(i).isBoolean() ? (v.get(i).asBoolean() ? 1 : 0) : v.get(i).asLong();
        assertArrayEquals(want, got, at + " values");
      }
    }
    assertFalse(t.device().isMeta());
  }

  private static long[] longs(JsonNode a) {
    long[] r = new long[a.size()];
    for (int i = 0; i < r.length; i++) r[i] = a.get(i).asLong();
    return r;
  }
}
