package org.jtensor.conformance;

import static org.jtensor.conformance.Conformance.check;
import static org.jtensor.conformance.Conformance.ints;
import static org.jtensor.conformance.Conformance.longs;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Arrays;
import java.util.List;
import org.jtensor.Close;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Index;
import org.jtensor.Storage;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.memory.Memory;
import org.junit.jupiter.api.Test;

/**
 * Every case of views.json (libtorch 2.10): layouts, storage sharing, values and errors; on the
 * CPU here, on CUDA in CudaConformanceTest (the base is copied there, every step runs there).
 */
class ViewsConformanceTest {
  @Test
  void everyViewCaseMatchesLibtorch() {
    runCases(Device.CPU);
  }

  static void runCases(Device device) {
    JsonNode root = Conformance.load("views.json");
    Conformance c = new Conformance("views.json", device);
    long before = Memory.memoryAllocated(Device.CPU), beforeThere = Memory.memoryAllocated(device);
    for (JsonNode kase : root.get("cases")) c.run(kase.get("id").asText(), () -> runCase(kase, device));
    boolean ok = c.report();
    assertTrue(ok, c.summary());
    assertTrue(root.get("cases").size() == root.get("num_cases").asInt(), "case count");
    check(Memory.memoryAllocated(Device.CPU) == before, "every case released its memory");
    check(Memory.memoryAllocated(device) == beforeThere, "every case released its memory on " + device);
  }

  private static void runCase(JsonNode kase, Device device) {
    try (TensorScope scope = TensorScope.open()) {
      JsonNode b = kase.get("base");
      DType dtype = DType.fromName(b.get("dtype").asText());
      Tensor base = Tensor.arange(0, b.get("arange").asLong(), 1, dtype).to(device);
      if (!b.get("reshape").isNull()) base = base.reshape(longs(b.get("reshape")));
      checkLayout("base", base, base, b);
      Tensor cur = base;
      for (JsonNode step : kase.get("steps")) {
        String op = step.get("op").asText();
        if (step.has("error")) {
          Class<? extends RuntimeException> kind = expectedKind(step.get("error").asText());
          Tensor from = cur;
          try {
            apply(from, op, step.get("args"), step);
          } catch (RuntimeException e) {
            check(kind.isInstance(e), op + " threw " + e + ", expected " + kind.getSimpleName());
            check(e.getMessage() != null && !e.getMessage().isEmpty(), op + ": exception without a message");
            return;
          }
          throw new AssertionError(op + " did not fail; libtorch: " + step.get("error").asText());
        }
        cur = apply(cur, op, step.get("args"), step);
        checkLayout(op, cur, base, step);
      }
    }
  }

  /** DESIGN §7: an index out of range is IndexOutOfBounds; every other misuse is a bad argument. */
  private static Class<? extends RuntimeException> expectedKind(String error) {
    if (error.contains("out of range for tensor of size") || error.startsWith("too many indices")) {
      return IndexOutOfBoundsException.class;
    }
    return IllegalArgumentException.class;
  }

  private static Tensor apply(Tensor x, String op, JsonNode a, JsonNode step) {
    switch (op) {
      case "view": return x.view(longs(a.get("size")));
      case "reshape": return x.reshape(longs(a.get("shape")));
      case "transpose": return x.transpose(a.get("dim0").asInt(), a.get("dim1").asInt());
      case "swapaxes": return x.swapaxes(a.get("axis0").asInt(), a.get("axis1").asInt());
      case "swapdims": return x.swapdims(a.get("dim0").asInt(), a.get("dim1").asInt());
      case "t": return x.t();
      case "mT": return x.mT();
      case "contiguous": return x.contiguous();
      case "clone": return x.clone();
      case "permute": return x.permute(ints(a.get("dims")));
      case "narrow": return x.narrow(a.get("dim").asInt(), a.get("start").asLong(), a.get("length").asLong());
      case "select": return x.select(a.get("dim").asInt(), a.get("index").asLong());
      case "slice":
        return x.slice(a.get("dim").asInt(), a.get("start").isNull() ? 0 : a.get("start").asLong(),
            a.get("end").isNull() ? Long.MAX_VALUE : a.get("end").asLong(), a.get("step").asLong());
      case "index": return x.get(indices(a.get("indices")));
      case "unsqueeze": return x.unsqueeze(a.get("dim").asInt());
      case "squeeze":
        if (!a.has("dim")) return x.squeeze();
        return a.get("dim").isArray() ? x.squeeze(ints(a.get("dim"))) : x.squeeze(a.get("dim").asInt());
      case "expand": return x.expand(longs(a.get("size")));
      case "expand_as": {
        Tensor other = Tensor.empty(longs(a.get("other_shape")), DType.FLOAT32, Device.META);
        return x.expandAs(other);
      }
      case "flatten": return x.flatten(a.get("start_dim").asInt(), a.get("end_dim").asInt());
      case "unflatten": return x.unflatten(a.get("dim").asInt(), longs(a.get("sizes")));
      case "unfold": return x.unfold(a.get("dimension").asInt(), a.get("size").asLong(), a.get("step").asLong());
      case "diagonal": return x.diagonal(a.get("offset").asLong(), a.get("dim1").asInt(), a.get("dim2").asInt());
      case "movedim":
        return a.get("source").isArray() ? x.movedim(ints(a.get("source")), ints(a.get("destination")))
            : x.movedim(a.get("source").asInt(), a.get("destination").asInt());
      case "as_strided":
        return a.get("storage_offset").isNull() ? x.asStrided(longs(a.get("size")), longs(a.get("stride")))
            : x.asStrided(longs(a.get("size")), longs(a.get("stride")), a.get("storage_offset").asLong());
      case "split": {
        JsonNode s = a.get("split_size");
        List<Tensor> pieces = s.isArray() ? x.split(longs(s), a.get("dim").asInt()) : x.split(s.asLong(), a.get("dim").asInt());
        return take(pieces, a, step);
      }
      case "chunk": return take(x.chunk(a.get("chunks").asInt(), a.get("dim").asInt()), a, step);
      case "unbind": return take(x.unbind(a.get("dim").asInt()), a, step);
      default: throw new AssertionError("unknown op " + op);
    }
  }

  private static Tensor take(List<Tensor> pieces, JsonNode a, JsonNode step) {
    if (step.has("num_pieces")) {
      check(pieces.size() == step.get("num_pieces").asInt(), "num_pieces " + pieces.size());
      for (int i = 0; i < pieces.size(); i++) {
        check(Arrays.equals(pieces.get(i).shape(), longs(step.get("piece_shapes").get(i))), "piece " + i + " shape");
      }
    }
    return pieces.get(a.get("take").asInt());
  }

  private static Index[] indices(JsonNode list) {
    Index[] out = new Index[list.size()];
    for (int i = 0; i < out.length; i++) {
      JsonNode e = list.get(i);
      if (e.has("int")) out[i] = Index.at(e.get("int").asLong());
      else if (e.has("ellipsis")) out[i] = Index.ellipsis();
      else {
        JsonNode s = e.get("slice");
        out[i] = Index.slice(s.get(0).isNull() ? null : s.get(0).asLong(), s.get(1).isNull() ? null : s.get(1).asLong(),
            s.get(2).isNull() ? null : s.get(2).asLong());
      }
    }
    return out;
  }

  private static void checkLayout(String op, Tensor t, Tensor base, JsonNode e) {
    check(t.dtype().typeName().equals(e.get("dtype").asText()), op + " dtype " + t.dtype());
    check(Arrays.equals(t.shape(), longs(e.get("shape"))), op + " shape " + Arrays.toString(t.shape()));
    check(Arrays.equals(t.stride(), longs(e.get("stride"))), op + " stride " + Arrays.toString(t.stride()));
    check(t.storageOffset() == e.get("storage_offset").asLong(), op + " storage_offset " + t.storageOffset());
    check(t.isContiguous() == e.get("is_contiguous").asBoolean(), op + " is_contiguous " + t.isContiguous());
    check(t.numel() == e.get("numel").asLong(), op + " numel " + t.numel());
    try (Storage s = t.untypedStorage(); Storage bs = base.untypedStorage()) {
      check((s.dataPtr() == bs.dataPtr()) == e.get("shares_storage").asBoolean(), op + " shares_storage");
    }
    check(t.isAliasOf(base) == e.get("is_alias_of").asBoolean(), op + " is_alias_of");
    JsonNode vals = e.get("values");
    if (t.dtype().isFloatingPoint()) {
      double[] got = t.toDoubleArray();
      check(got.length == vals.size(), op + " values length");
      for (int i = 0; i < got.length; i++) {
        double want = Conformance.number(vals.get(i));
        check(Close.within(got[i], want, 1e-5 * Math.abs(want)), op + " value " + i + ": " + got[i] + " vs " + want);
      }
    } else {
      check(Arrays.equals(t.toLongArray(), longs(vals)), op + " values " + Arrays.toString(t.toLongArray()));
    }
  }
}
