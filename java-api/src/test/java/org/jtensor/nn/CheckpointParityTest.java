package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.junit.jupiter.api.Test;

/**
 * Issue 21 point 2: BatchNorm's state dict as PyTorch's (num_batches_tracked, a cumulative average
 * when momentum is null, the buffer optional on load) and loadStateDict(state, strict) with
 * PyTorch's missing and unexpected keys. A PyTorch-saved ResNet loading unedited is the examples'
 * ResNetCheckpointTest.
 */
class CheckpointParityTest {
  private static void closeAll(Map<String, Tensor> m) {
    m.values().forEach(Tensor::close);
  }

  @Test
  void batchNormHasPyTorchsStateDictAndCountsItsBatches() {
    try (BatchNorm2d bn = new BatchNorm2d(3); TensorScope s = TensorScope.open()) {
      Map<String, Tensor> state = bn.stateDict();
      try {
        assertEquals(List.of("weight", "bias", "running_mean", "running_var", "num_batches_tracked"), List.copyOf(state.keySet()));
        Tensor n = state.get("num_batches_tracked");
        assertEquals(DType.INT64, n.dtype());
        assertEquals(0, n.dim());
        assertEquals(0.0, n.item());
      } finally {
        closeAll(state);
      }
      Tensor x = Tensor.randn(new long[] {4, 3, 2, 2}, DType.FLOAT32, new Generator(1));
      bn.forward(x);
      bn.forward(x);
      try (Tensor n = bn.namedBuffers().get("num_batches_tracked").detach()) {
        assertEquals(2.0, n.item(), "two training batches");
      }
      bn.eval();
      bn.forward(x);
      try (Tensor n = bn.namedBuffers().get("num_batches_tracked").detach()) {
        assertEquals(2.0, n.item(), "eval does not count");
      }
    }
  }

  @Test
  void aNullMomentumAveragesTheBatchesCumulatively() {
    Generator g = new Generator(2);
    try (BatchNorm2d bn = new BatchNorm2d(2, 1e-5, null, true, true); TensorScope s = TensorScope.open()) {
      Tensor a = Tensor.randn(new long[] {5, 2, 3, 3}, DType.FLOAT32, g), b = Tensor.randn(new long[] {5, 2, 3, 3}, DType.FLOAT32, g).add(2.0);
      bn.forward(a);
      bn.forward(b);
      // factor 1 then 1/2: the running mean is the two batch means' average.
      Tensor want = a.mean(new int[] {0, 2, 3}, false).add(b.mean(new int[] {0, 2, 3}, false)).mul(0.5);
      assertArrayEquals(want.toDoubleArray(), bn.namedBuffers().get("running_mean").toDoubleArray(), 1e-6);
    }
  }

  @Test
  void withoutRunningStatisticsEvalUsesTheBatchAndTheStateHasNoBuffers() {
    try (BatchNorm2d bn = new BatchNorm2d(2, 1e-5, 0.1, false, false); TensorScope s = TensorScope.open()) {
      assertTrue(bn.stateDict().isEmpty(), "no affine parameters, no running statistics");
      bn.eval();
      Tensor x = Tensor.randn(new long[] {6, 2, 2, 2}, DType.FLOAT32, new Generator(3));
      Tensor y = bn.forward(x);
      assertArrayEquals(new double[] {0, 0}, y.mean(new int[] {0, 2, 3}, false).toDoubleArray(), 1e-6);
    }
  }

  @Test
  void aStateDictWithoutTheCountLoadsAndKeepsIt() {
    try (BatchNorm2d a = new BatchNorm2d(2); BatchNorm2d b = new BatchNorm2d(2); TensorScope s = TensorScope.open()) {
      a.forward(Tensor.randn(new long[] {3, 2, 2, 2}, DType.FLOAT32, new Generator(4)));
      b.forward(Tensor.randn(new long[] {3, 2, 2, 2}, DType.FLOAT32, new Generator(5)));
      b.forward(Tensor.randn(new long[] {3, 2, 2, 2}, DType.FLOAT32, new Generator(6)));
      Map<String, Tensor> old = new LinkedHashMap<>(a.stateDict());
      old.remove("num_batches_tracked").close();  // a state dict saved before the buffer existed
      try {
        Module.IncompatibleKeys keys = b.loadStateDict(old);
        assertEquals(List.of(), keys.missingKeys());
        assertArrayEquals(a.namedBuffers().get("running_mean").toDoubleArray(), b.namedBuffers().get("running_mean").toDoubleArray(), 0);
        assertEquals(2.0, b.namedBuffers().get("num_batches_tracked").item(), "the count stays as it was");
      } finally {
        closeAll(old);
      }
    }
  }

  @Test
  void strictRefusesInPyTorchsWordsAndNonStrictLoadsWhatMatches() {
    Generator g = new Generator(7);
    try (Sequential a = new Sequential(new Linear(3, 4, g), new ReLU(), new Linear(4, 2, g));
         Sequential b = new Sequential(new Linear(3, 4, g), new ReLU(), new Linear(4, 2, g)); TensorScope s = TensorScope.open()) {
      Map<String, Tensor> state = new LinkedHashMap<>(a.stateDict());
      state.remove("2.bias").close();
      state.put("3.weight", Tensor.zeros(2));
      try {
        double[] bias2 = b.namedParameters().get("2.bias").toDoubleArray();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.loadStateDict(state));
        assertEquals("loadStateDict(): Error(s) in loading state_dict for Sequential:\n\tMissing key(s) in state_dict: \"2.bias\". "
            + "\n\tUnexpected key(s) in state_dict: \"3.weight\". ", e.getMessage());
        assertTrue(b.namedParameters().get("0.weight").toDoubleArray()[0] != a.namedParameters().get("0.weight").toDoubleArray()[0],
            "a refused load copies nothing");
        Module.IncompatibleKeys keys = b.loadStateDict(state, false);
        assertEquals(List.of("2.bias"), keys.missingKeys());
        assertEquals(List.of("3.weight"), keys.unexpectedKeys());
        assertArrayEquals(a.namedParameters().get("0.weight").toDoubleArray(), b.namedParameters().get("0.weight").toDoubleArray(), 0);
        assertArrayEquals(bias2, b.namedParameters().get("2.bias").toDoubleArray(), 0, "a missing key keeps its value");
        state.put("0.bias", Tensor.zeros(5));
        IllegalArgumentException size = assertThrows(IllegalArgumentException.class, () -> b.loadStateDict(state, false));
        assertTrue(size.getMessage().contains("size mismatch for 0.bias"), size.getMessage());
      } finally {
        closeAll(state);
      }
    }
  }
}
