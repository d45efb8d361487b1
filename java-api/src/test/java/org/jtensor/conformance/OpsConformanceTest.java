package org.jtensor.conformance;

import static org.jtensor.conformance.Conformance.check;
import static org.jtensor.conformance.Conformance.ints;
import static org.jtensor.conformance.Conformance.longs;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jtensor.Close;
import org.jtensor.DType;
import org.jtensor.DeviceParity;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.junit.jupiter.api.Test;

/**
 * ops.json (libtorch 2.10): every forward case through real ops, floats within the README's
 * tolerance (relative 1e-5, or against reference_f64), everything else exactly. The autograd
 * cases run in {@link AutogradConformanceTest}. On another device (CudaConformanceTest) each case
 * also runs there and must agree with the CPU, and its result meets the same reference.
 */
class OpsConformanceTest {
  @Test
  void everyForwardCaseMatchesLibtorch() {
    runForwardCases(DeviceParity.CPU);
  }

  static void runForwardCases(DeviceParity on) {
    JsonNode root = Conformance.load("ops.json");
    Conformance c = new Conformance("ops.json", on.device());
    for (JsonNode k : root.get("cases")) {
      if (k.get("op").asText().equals("autograd")) continue;  // AutogradConformanceTest's
      c.run(k.get("id").asText(), () -> runCase(k, on));
    }
    boolean ok = c.report();
    assertTrue(ok, c.summary());
  }

  static Tensor input(JsonNode in) {
    DType dt = DType.fromName(in.get("dtype").asText());
    long[] shape = longs(in.get("shape"));
    JsonNode v = in.get("values");
    double[] d = new double[v.size()];
    long[] l = new long[v.size()];
    for (int i = 0; i < d.length; i++) {
      d[i] = Conformance.number(v.get(i));
      l[i] = v.get(i).isIntegralNumber() || v.get(i).isBoolean() ? (long) Conformance.number(v.get(i)) : 0;
    }
    Tensor base = dt.isFloatingPoint() ? Tensor.fromArray(d) : Tensor.fromArray(l);
    return base.to(dt).reshape(shape);
  }

  private static void runCase(JsonNode k, DeviceParity on) {
    try (TensorScope s = TensorScope.open()) {
      List<String> names = new ArrayList<>();
      List<Tensor> in = new ArrayList<>();
      for (JsonNode i : k.get("inputs")) {
        names.add(i.get("name").asText());
        in.add(input(i));
      }
      Function<Tensor[], Tensor> op = t -> {
        Map<String, Tensor> named = new HashMap<>();
        for (int i = 0; i < t.length; i++) named.put(names.get(i), t[i]);
        return apply(k, named);
      };
      String id = k.get("id").asText();
      if (k.get("expect_error").asBoolean()) {
        try {
          on.apply(id, op, in.toArray(new Tensor[0]));
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
          return;
        }
        throw new AssertionError("no error; libtorch: " + k.get("error").asText());
      }
      Tensor out = on.apply(id, op, in.toArray(new Tensor[0]));
      JsonNode want = k.get("output");
      check(out.dtype().typeName().equals(want.get("dtype").asText()), "dtype " + out.dtype());
      check(Arrays.equals(out.shape(), longs(want.get("shape"))), "shape " + Arrays.toString(out.shape()));
      JsonNode vals = k.has("reference_f64") ? k.get("reference_f64") : want.get("values");
      if (out.dtype().isFloatingPoint()) {
        double[] got = out.toDoubleArray();
        double tol = out.dtype() == DType.FLOAT32 || out.dtype() == DType.FLOAT64 ? 1e-5 : 1e-2;
        for (int i = 0; i < got.length; i++) {
          double w = Conformance.number(vals.get(i));
          check(Close.within(got[i], w, tol * Math.max(1, Math.abs(w))), "value " + i + ": " + got[i] + " vs " + w);
        }
      } else {
        check(Arrays.equals(out.toLongArray(), longs(want.get("values"))), "values " + Arrays.toString(out.toLongArray()));
      }
    }
  }

  private static Tensor apply(JsonNode k, Map<String, Tensor> in) {
    JsonNode a = k.get("args");
    Tensor x = in.get("x");
    switch (k.get("op").asText()) {
      case "add": return in.get("a").add(in.get("b"));
      case "sub": return in.get("a").sub(in.get("b"));
      case "mul": return in.get("a").mul(in.get("b"));
      case "div": return in.get("a").div(in.get("b"));
      case "matmul": return in.get("a").matmul(in.get("b"));
      case "sum": return x.sum(dims(a), a.get("keepdim").asBoolean());
      case "mean": return x.mean(dims(a), a.get("keepdim").asBoolean());
      case "amax": return x.amax(dims(a), a.get("keepdim").asBoolean());
      case "argmax": return a.get("dim").isNull() ? x.argmax() : x.argmax(a.get("dim").asInt(), a.get("keepdim").asBoolean());
      case "softmax": return x.softmax(a.get("dim").asInt());
      case "log_softmax": return x.logSoftmax(a.get("dim").asInt());
      default: throw new AssertionError("unknown op " + k.get("op"));
    }
  }

  private static int[] dims(JsonNode a) {
    return a.get("dim").isNull() ? null : ints(a.get("dim"));
  }
}
