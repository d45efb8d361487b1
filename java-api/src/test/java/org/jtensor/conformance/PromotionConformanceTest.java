package org.jtensor.conformance;

import static org.jtensor.conformance.Conformance.check;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.junit.jupiter.api.Test;

/**
 * promotion.json: promoteTypes and resultType for tensor/tensor, tensor/0-dim, 0-dim/0-dim and
 * tensor/scalar pairs, and the dtype a real add() returns for each pair (on the CPU here, on CUDA
 * in CudaConformanceTest).
 */
class PromotionConformanceTest {
  @Test
  void everyPromotionCaseMatchesLibtorch() {
    runCases(Device.CPU);
  }

  static void runCases(Device device) {
    JsonNode root = Conformance.load("promotion.json");
    Conformance c = new Conformance("promotion.json", device);
    int cases = 0;
    for (String group : new String[] {"tensor_tensor", "tensor_zerodim", "zerodim_zerodim", "tensor_scalar", "zerodim_scalar"}) {
      boolean aZeroDim = group.startsWith("zerodim");
      boolean bZeroDim = group.endsWith("zerodim");
      for (JsonNode k : root.get(group)) {
        cases++;
        String id = group + " " + k;
        c.run(id, () -> {
          try (TensorScope s = TensorScope.open()) {
            DType a = DType.fromName(k.get("a").asText());
            Tensor ta = Tensor.ones(aZeroDim ? new long[0] : new long[] {2}, a, device);
            DType got;
            DType added;  // the dtype a real add returns
            if (k.has("scalar")) {
              switch (k.get("scalar").asText()) {
                case "bool": got = ta.resultType(true); added = ta.add(true).dtype(); break;
                case "int": got = ta.resultType(2L); added = ta.add(2L).dtype(); break;
                default: got = ta.resultType(2.5); added = ta.add(2.5).dtype(); break;
              }
            } else {
              DType b = DType.fromName(k.get("b").asText());
              Tensor tb = Tensor.ones(bZeroDim ? new long[0] : new long[] {2}, b, device);
              got = ta.resultType(tb);
              added = ta.add(tb).dtype();
              if (k.has("promote_types")) {
                check(DType.promoteTypes(a, b).typeName().equals(k.get("promote_types").asText()),
                    "promote_types " + DType.promoteTypes(a, b));
              }
            }
            check(got.typeName().equals(k.get("result_type").asText()), "result_type " + got);
            check(added.typeName().equals(k.get("add").asText()), "add() returned " + added);
          }
        });
      }
    }
    boolean ok = c.report();
    assertTrue(ok, c.summary());
    // num_cases (360) counts the whole generated grid; the file keeps its distinct cases.
    assertTrue(cases >= 170, "promotion.json cases read: " + cases);
  }
}
