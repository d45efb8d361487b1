package org.jtensor.race;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.Index;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.core.DeviceMemory;
import org.jtensor.nn.Functional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 18, point 2, across the op surface: every op that allocates more than once, with inputs
 * that require grad (so the graph is recorded) and a backward through it, has its n-th allocation
 * fail for every n in turn. Whatever it had made must be freed; no byte may stay once its
 * handles are closed. A failure here names the op and the allocation.
 */
class OpFailureSweepTest {
  @AfterEach
  void disarm() {
    DeviceMemory.failNthAllocation(0);
  }

  private static Map<String, Function<Tensor[], Tensor>> ops() {
    Map<String, Function<Tensor[], Tensor>> ops = new LinkedHashMap<>();
    ops.put("add", t -> t[0].add(t[1]));
    ops.put("mul of a transposed", t -> t[0].t().mul(t[1].t()));
    ops.put("div_ on a clone", t -> t[0].clone().div_(t[1]));
    ops.put("sum over dim", t -> t[0].mul(t[1]).sum(1));
    ops.put("mean", t -> t[0].mean());
    ops.put("amax", t -> t[0].amax(0, true));
    ops.put("var", t -> t[0].var(new int[] {1}, 1, false));
    ops.put("norm", t -> t[0].norm());
    ops.put("logsumexp", t -> t[0].logsumexp(1, false));
    ops.put("cumsum", t -> t[0].cumsum(1));
    ops.put("softmax", t -> t[0].softmax(1));
    ops.put("logSoftmax", t -> t[0].logSoftmax(0));
    ops.put("sort values", t -> t[0].sort(1, false).values());
    ops.put("topk values", t -> t[0].topk(3, 1, true).values());
    ops.put("max with indices", t -> t[0].max(1, false).values());
    ops.put("matmul", t -> t[0].matmul(t[1].t()));
    ops.put("bmm-like matmul", t -> t[0].unsqueeze(0).matmul(t[1].t().unsqueeze(0)));
    ops.put("addmm", t -> t[0].addmm(t[0], t[1].t(), 0.5, 2.0));
    ops.put("linear", t -> Tensor.linear(t[0], t[1], t[1].select(0, 0)));
    ops.put("linear, 2-D bias", t -> Tensor.linear(t[0], t[1], t[1]));
    ops.put("gather", t -> t[0].gather(1, Tensor.zeros(new long[] {6, 2}, DType.INT64)));
    ops.put("scatterAdd", t -> t[0].scatterAdd(1, Tensor.zeros(new long[] {6, 2}, DType.INT64), t[1]));
    ops.put("indexSelect", t -> t[0].indexSelect(0, Tensor.fromArray(new long[] {1, 0, 5})));
    ops.put("advanced get", t -> t[0].get(Index.of(Tensor.fromArray(new long[] {2, 2}))));
    ops.put("maskedFill", t -> t[0].maskedFill(t[1].gt(0.0), 1.0));
    ops.put("where", t -> Tensor.where(t[0].gt(t[1]), t[0], t[1]));
    ops.put("cat", t -> Tensor.cat(java.util.List.of(t[0], t[1]), 0));
    ops.put("stack", t -> Tensor.stack(java.util.List.of(t[0], t[1]), 1));
    ops.put("contiguous of a transposed", t -> t[0].t().contiguous());
    ops.put("to float64", t -> t[0].to(DType.FLOAT64));
    ops.put("reshape of a transposed", t -> t[0].t().reshape(-1));
    ops.put("gelu", t -> t[0].gelu());
    ops.put("crossEntropy", t -> Functional.crossEntropy(t[0], Tensor.zeros(new long[] {6}, DType.INT64)));
    ops.put("dropout", t -> t[0].dropout(0.5, true, new Generator(3)));
    ops.put("pow", t -> t[0].pow(t[1].abs()));
    return ops;
  }

  @Test
  void everyOpFreesWhatItMadeWhenAnAllocationFails() {
    Generator g = new Generator(17);
    try (Tensor a = Tensor.randn(new long[] {6, 4}, DType.FLOAT32, g); Tensor b = Tensor.randn(new long[] {6, 4}, DType.FLOAT32, g)) {
      int total = 0;
      for (Map.Entry<String, Function<Tensor[], Tensor>> op : ops().entrySet()) {
        total += FailureInjection.everyFailure(op.getKey(), n -> {
          try (TensorScope s = TensorScope.open()) {
            Tensor x = a.clone().requiresGrad_(true), y = b.clone().requiresGrad_(true);
            DeviceMemory.failNthAllocation(n);  // the clones are made: failures start in the op
            Tensor out = op.getValue().apply(new Tensor[] {x, y});
            out.sum().backward();
          }
        });
      }
      assertTrue(total > 250, total + " allocations failed in all");  // 299 when written
    }
  }
}
