package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.jtensor.autograd.GradMode;
import org.junit.jupiter.api.Test;

/**
 * A hostile review of the module system's bookkeeping (registration, listing, state dicts, containers,
 * close) against PyTorch 2.13's nn.Module; PyTorch's answers, checked with torch itself, beside each case.
 */
class ModuleBookkeepingHostileTest extends ScopedTest {
  // PyTorch: s = nn.Sequential(a, bn, a, bn): named_children() ['0', '1'], named_buffers() lists bn's three
  // once, and s.apply(fn) calls fn on Linear, BatchNorm1d, Sequential: three calls. Here namedChildren() had
  // four entries, namedBuffers() six, and apply() ran fn twice on a and bn (an init that scales scaled twice).
  @Test
  void aSubmoduleRegisteredTwiceIsListedAndVisitedOnceAsPyTorchDoes() {
    Linear a = new Linear(2, 2, new Generator(0));
    BatchNorm bn = BatchNorm.batchNorm1d(2);
    try (Sequential s = new Sequential(a, bn, a, bn)) {
      assertEquals(List.of("0", "1"), new ArrayList<>(s.namedChildren().keySet()));
      assertEquals(List.of("1.running_mean", "1.running_var", "1.num_batches_tracked"), new ArrayList<>(s.namedBuffers().keySet()));
      assertEquals(List.of("0.weight", "0.bias", "1.weight", "1.bias"), new ArrayList<>(s.namedParameters().keySet()));
      assertEquals(14, s.stateDict().size(), "state_dict names a shared module under each name");
      List<String> calls = new ArrayList<>();
      double[] before = a.weight().toDoubleArray();
      s.apply(m -> {
        calls.add(m.getClass().getSimpleName());
        if (m instanceof Linear l) {
          try (GradMode.Scope off = GradMode.noGrad()) {
            l.weight().mul_(2.0);
          }
        }
      });
      assertEquals(List.of("Linear", "BatchNorm1d", "Sequential"), calls);
      double[] after = a.weight().toDoubleArray();
      for (int i = 0; i < before.length; i++) assertEquals(2 * before[i], after[i], 0.0, "scaled once");
    }
  }
}
