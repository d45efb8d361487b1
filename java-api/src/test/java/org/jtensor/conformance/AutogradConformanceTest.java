package org.jtensor.conformance;

import static org.jtensor.conformance.Conformance.check;
import static org.jtensor.conformance.Conformance.longs;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.function.Function;
import org.jtensor.Close;
import org.jtensor.DeviceParity;
import org.jtensor.Index;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.junit.jupiter.api.Test;

/**
 * The autograd cases of ops.json (libtorch 2.10): each case's expression in jtensor, its loss and
 * the gradient of every input that requires grad, against libtorch's float64 reference (relative
 * 1e-5, as the forward cases). A case this test does not know fails: nothing is skipped. On
 * another device (CudaConformanceTest) the inputs are copied there first and the whole graph,
 * forward and backward, runs there.
 */
class AutogradConformanceTest {
  private static final Map<String, Function<Map<String, Tensor>, Tensor>> LOSSES = Map.of(
      "grad_t_mul", in -> in.get("x").t().mul(in.get("w")).sum(),
      "grad_narrow_square", in -> in.get("x").narrow(1, 1, 2).pow(2.0).sum(),
      "grad_expand", in -> in.get("x").expand(3, 4).mul(in.get("w")).sum(),
      "grad_slice_step", in -> in.get("x").get(Index.all(), Index.slice(null, null, 2L)).mul(in.get("w")).sum(),
      "grad_mlp_relu_log_softmax", in -> in.get("x").matmul(in.get("w1")).relu().matmul(in.get("w2")).logSoftmax(1)
          .mul(in.get("onehot")).sum().neg().div(4.0),
      "grad_amax_ties_split", in -> in.get("x").amax(new int[] {1}, false).sum(),
      "grad_max_all_ties_split", in -> in.get("x").amax(),
      "grad_div", in -> in.get("x").div(in.get("y")).sum(),
      "grad_matmul_batched_broadcast", in -> in.get("a").matmul(in.get("b")).sum());

  @Test
  void everyAutogradCaseMatchesLibtorch() {
    runCases(DeviceParity.CPU);
  }

  static void runCases(DeviceParity on) {
    JsonNode root = Conformance.load("ops.json");
    Conformance c = new Conformance("ops.json autograd", on.device());
    int cases = 0;
    for (JsonNode k : root.get("cases")) {
      if (!k.get("op").asText().equals("autograd")) continue;
      cases++;
      c.run(k.get("id").asText(), () -> runCase(k, on));
    }
    boolean ok = c.report();
    assertTrue(cases >= 9, "ops.json has its autograd cases: " + cases);
    assertTrue(ok, c.summary());
  }

  private static void runCase(JsonNode k, DeviceParity on) {
    Function<Map<String, Tensor>, Tensor> loss = LOSSES.get(k.get("id").asText());
    check(loss != null, "no jtensor expression for '" + k.get("expr").asText() + "'");
    try (TensorScope s = TensorScope.open()) {
      Map<String, Tensor> in = new HashMap<>();
      for (JsonNode i : k.get("inputs")) in.put(i.get("name").asText(), on.twin(OpsConformanceTest.input(i)));
      for (JsonNode r : k.get("requires_grad")) in.get(r.asText()).requiresGrad_();
      Tensor l = loss.apply(in);
      close(l.toDoubleArray(), k.get("reference_f64").get("loss"), "loss");
      l.backward();
      JsonNode grads = k.get("reference_f64").get("grads");
      for (Iterator<String> names = grads.fieldNames(); names.hasNext(); ) {
        String name = names.next();
        Tensor g = in.get(name).grad();
        check(g == null || g.device().equals(on.device()), name + ".grad on " + (g == null ? null : g.device()));
        check(g != null, "no gradient for " + name);
        check(Arrays.equals(g.shape(), longs(k.get("grads").get(name).get("shape"))), name + ".grad shape " + Arrays.toString(g.shape()));
        check(g.dtype().typeName().equals(k.get("grads").get(name).get("dtype").asText()), name + ".grad dtype " + g.dtype());
        close(g.toDoubleArray(), grads.get(name), name + ".grad");
        g.close();
      }
    }
  }

  private static void close(double[] got, JsonNode want, String what) {
    check(got.length == want.size(), what + ": " + got.length + " values, expected " + want.size());
    for (int i = 0; i < got.length; i++) {
      double w = Conformance.number(want.get(i));
      check(Close.within(got[i], w, 1e-5 * Math.max(1, Math.abs(w))), what + " value " + i + ": " + got[i] + " vs " + w);
    }
  }
}
