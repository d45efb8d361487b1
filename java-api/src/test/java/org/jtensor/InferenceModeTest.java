package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;
import org.jtensor.autograd.Autograd;
import org.jtensor.autograd.GradMode;
import org.jtensor.nn.BatchNorm1d;
import org.jtensor.nn.Linear;
import org.jtensor.optim.SGD;
import org.junit.jupiter.api.Test;

/**
 * GradMode.inferenceMode(), PyTorch 2.13's torch.inference_mode (Note [Inference tensors] in
 * core.StorageImpl): which tensors are inference tensors, the modes nested, and every way an
 * inference tensor is refused outside the mode (each writer of ReadOnlyWritePathsTest's table,
 * saving for backward, requires_grad, the version counter, an optimizer step, loadStateDict, a
 * BatchNorm's running statistics), each in PyTorch's words (checked in PyTorch 2.13).
 */
class InferenceModeTest extends ScopedTest {
  private static final String INPLACE = "Inplace update to inference tensor outside InferenceMode is not allowed.";

  @Test
  void tensorsAllocatedInsideAreInferenceTensorsAndViewsOfNormalOnesAreNot() {
    Tensor n = Tensor.ones(3);
    Tensor x, v, sum;
    try (GradMode.Scope s = GradMode.inferenceMode()) {
      assertTrue(GradMode.isInferenceModeEnabled());
      assertFalse(GradMode.isEnabled(), "torch.is_grad_enabled() is False inside inference_mode");
      x = Tensor.ones(3);
      v = n.narrow(0, 0, 2);
      sum = n.add(1.0);
    }
    assertFalse(GradMode.isInferenceModeEnabled());
    assertTrue(GradMode.isEnabled());
    assertTrue(x.isInference());
    assertTrue(sum.isInference(), "an op's new output inside is an inference tensor");
    assertFalse(v.isInference(), "a view of a normal tensor made inside stays normal");
    assertFalse(n.isInference());
    assertTrue(x.view(3).isInference() && x.detach().isInference(), "views of an inference tensor are inference tensors");
    assertFalse(x.clone().isInference(), "a clone made outside is normal");
    assertFalse(x.add(1.0).isInference(), "an op outside on an inference tensor gives a normal tensor");
    assertArrayEquals(new float[] {2, 2, 2}, x.add(1.0).toFloatArray());
    n.add_(x);  // an inference tensor may be read by an in-place op on a normal tensor
    assertArrayEquals(new float[] {2, 2, 2}, n.toFloatArray());
  }

  @Test
  void modesNestAsPyTorchsDo() {
    try (GradMode.Scope off = GradMode.noGrad(); GradMode.Scope on = GradMode.inferenceMode(false)) {
      assertTrue(GradMode.isEnabled(), "inference_mode(False) turns grad mode on, even under no_grad");
      assertFalse(GradMode.isInferenceModeEnabled());
    }
    Tensor w = Tensor.ones(3).requiresGrad_();
    try (GradMode.Scope inf = GradMode.inferenceMode()) {
      try (GradMode.Scope grad = GradMode.enableGrad()) {
        assertFalse(w.mul(2.0).requiresGrad(), "enableGrad inside inference mode records nothing, as in PyTorch");
        assertTrue(Tensor.ones(1).isInference());
      }
      try (GradMode.Scope normal = GradMode.inferenceMode(false)) {
        assertTrue(GradMode.isEnabled());
        assertFalse(Tensor.ones(1).isInference());
        assertTrue(w.mul(2.0).requiresGrad());
        try (GradMode.Scope again = GradMode.inferenceMode()) {
          assertFalse(GradMode.isEnabled());
        }
        assertTrue(GradMode.isEnabled());
      }
      assertTrue(GradMode.isInferenceModeEnabled());
      assertFalse(w.mul(2.0).requiresGrad());
    }
    assertTrue(GradMode.isEnabled());
  }

  @Test
  void theModeBelongsToItsThread() throws InterruptedException {
    AtomicBoolean otherSaw = new AtomicBoolean(true);
    try (GradMode.Scope s = GradMode.inferenceMode()) {
      Thread t = new Thread(() -> {
        try (Tensor made = Tensor.ones(2)) {
          otherSaw.set(GradMode.isInferenceModeEnabled() || made.isInference());
        }
      });
      t.start();
      t.join();
    }
    assertFalse(otherSaw.get());
  }

  @Test
  void everyWriterIsRefusedOnAnInferenceTensorOutsideAndAllowedInside() {
    Tensor x;
    try (GradMode.Scope s = GradMode.inferenceMode()) {
      x = Tensor.fromArray(new float[] {1, 2, 3, 4}, 2, 2);
    }
    for (Method m : ReadOnlyWritePathsTest.writers()) {
      for (Map.Entry<String, UnaryOperator<Tensor>> v : ReadOnlyWritePathsTest.VIEWS.entrySet()) {
        Tensor target = v.getValue().apply(x);
        Object[] args = ReadOnlyWritePathsTest.ARGS.get(WriterMethods.key(m)).apply(target);
        boolean out = m.getName().endsWith("Out");
        Tensor receiver = out ? Tensor.ones(target.shape()) : target;
        String what = WriterMethods.key(m) + " on " + v.getKey();
        Throwable e = assertThrows(Throwable.class, () -> WriterMethods.invoke(m, receiver, args), what + " was not refused");
        assertTrue(e instanceof IllegalStateException, what + ": " + e);
        assertTrue(e.getMessage().startsWith(m.getName() + "(): ") && e.getMessage().contains(INPLACE), what + ": " + e.getMessage());
        assertArrayEquals(new float[] {1, 2, 3, 4}, x.toFloatArray(), what + " wrote into the inference tensor");
      }
    }
    try (GradMode.Scope s = GradMode.inferenceMode()) {
      x.add_(1.0);
      x.narrow(0, 0, 1).fill_(0.0);
    }
    assertArrayEquals(new float[] {0, 0, 4, 5}, x.toFloatArray());
    try (GradMode.Scope s = GradMode.noGrad()) {
      assertThrows(IllegalStateException.class, () -> x.zero_(), "no_grad is not inference mode");
    }
    try (Storage st = x.untypedStorage(); Storage other = Storage.allocate(16, Device.CPU)) {
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> st.copy_(other));
      assertTrue(e.getMessage().contains(INPLACE), e.getMessage());
    }
  }

  @Test
  void anInferenceTensorIsNeverSavedForBackward() {
    Tensor x;
    try (GradMode.Scope s = GradMode.inferenceMode()) {
      x = Tensor.fromArray(new float[] {1, 2, 3});
    }
    Tensor w = Tensor.fromArray(new float[] {4, 5, 6}).requiresGrad_();
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> x.mul(w));
    assertEquals("mul(): Inference tensors cannot be saved for backward. Please do not use Tensors created in inference mode "
        + "in computation tracked by autograd. To work around this, you can make a clone to get a normal tensor and use it "
        + "in autograd, or use GradMode.noGrad() instead of GradMode.inferenceMode().", e.getMessage());
    assertThrows(IllegalStateException.class, () -> w.exp().mul(x), "w.exp() * x saves x for exp's output's gradient");
    // Not saved: addition needs neither operand for its gradient, as in PyTorch.
    Tensor y = x.add(w).sum();
    List<Tensor> g = Autograd.grad(List.of(y), List.of(Tensor.scalar(1.0f)), List.of(w), false, false, false);
    assertArrayEquals(new float[] {1, 1, 1}, g.get(0).toFloatArray());
    assertArrayEquals(new float[] {4, 10, 18}, x.clone().mul(w).toFloatArray(), "a clone is a normal tensor");
  }

  @Test
  void requiresGradAndTheVersionCounter() {
    Tensor x;
    try (GradMode.Scope s = GradMode.inferenceMode()) {
      x = Tensor.ones(2);
      assertTrue(Tensor.ones(2).requiresGrad_().requiresGrad(), "allowed inside inference mode");
      IllegalStateException e = assertThrows(IllegalStateException.class, x::version);
      assertEquals("version(): Inference tensors do not track version counter.", e.getMessage());
    }
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> x.requiresGrad_());
    assertEquals("requiresGrad_(): Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.",
        e.getMessage());
    assertFalse(x.requiresGrad_(false).requiresGrad());
    assertThrows(IllegalStateException.class, x::version);
  }

  @Test
  void aViewOfANormalTensorMadeInsideIsNotWrittenWithItsChangeRecorded() {
    Tensor w = Tensor.ones(3).requiresGrad_();
    Tensor b = w.mul(1.0);
    Tensor v;
    try (GradMode.Scope s = GradMode.inferenceMode()) {
      v = b.narrow(0, 0, 2);
    }
    assertTrue(v.requiresGrad() && !v.isInference());
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> v.add_(1.0));
    assertTrue(e.getMessage().startsWith("add_(): A view was created in inference mode and is being modified inplace in normal "
        + "mode.") && e.getMessage().contains("both inside the inference_mode block"), e.getMessage());
  }

  @Test
  void aModelBuiltOrRunInInferenceMode() {
    Linear built;
    try (GradMode.Scope s = GradMode.inferenceMode()) {
      built = new Linear(3, 2, Generator.manualSeed(1));
    }
    assertTrue(built.weight().isInference() && built.weight().requiresGrad());
    Tensor in = Tensor.ones(1, 3);
    // PyTorch runs this forward (it saves only what the gradients it needs read: the input, for the
    // weight's) and its backward then leaves weight.grad None; jtensor saves what the derivative reads
    // whichever gradients are needed, so it refuses here, at the forward (GradMode's documentation).
    IllegalStateException saved = assertThrows(IllegalStateException.class, () -> built.forward(in));
    assertTrue(saved.getMessage().contains("Inference tensors cannot be saved for backward"), saved.getMessage());
    try (SGD sgd = new SGD(built.parameters(), 0.1)) {
      built.weight().setGrad(Tensor.ones(2, 3));
      IllegalStateException e = assertThrows(IllegalStateException.class, sgd::step);
      assertTrue(e.getMessage().startsWith("step(): parameter 0 is an inference tensor"), e.getMessage());
    }
    Linear source = new Linear(3, 2, Generator.manualSeed(2));
    Map<String, Tensor> state = source.stateDict();
    IllegalStateException load = assertThrows(IllegalStateException.class, () -> built.loadStateDict(state));
    assertTrue(load.getMessage().startsWith("loadStateDict(): weight is an inference tensor"), load.getMessage());
    try (GradMode.Scope s = GradMode.inferenceMode()) {
      built.loadStateDict(state);  // inside, as PyTorch allows
    }
    assertArrayEquals(state.get("weight").toFloatArray(), built.weight().toFloatArray());
    built.close();
    source.close();

    Linear normal = new Linear(3, 2, Generator.manualSeed(3));
    Tensor out;
    try (GradMode.Scope s = GradMode.inferenceMode()) {
      out = normal.forward(in);
    }
    assertTrue(out.isInference());
    assertFalse(out.requiresGrad());
    assertNull(out.gradFn());
    assertArrayEquals(normal.forward(in).toFloatArray(), out.toFloatArray());
    normal.close();

    BatchNorm1d bn;
    try (GradMode.Scope s = GradMode.inferenceMode()) {
      bn = new BatchNorm1d(2);
    }
    try {
      // num_batches_tracked.add_(1) comes first, as in PyTorch, and is refused in its words
      IllegalStateException counted = assertThrows(IllegalStateException.class, () -> bn.forward(Tensor.ones(4, 2)));
      assertTrue(counted.getMessage().startsWith("add_(): " + INPLACE), counted.getMessage());
      Map<String, Tensor> buffers = bn.stateDict();
      Tensor mean = buffers.get("running_mean"), var = buffers.get("running_var");
      IllegalStateException stats = assertThrows(IllegalStateException.class,
          () -> org.jtensor.nn.Functional.batchNorm(Tensor.ones(4, 2), mean, var, null, null, true, 0.1, 1e-5));
      assertTrue(stats.getMessage().contains("running_mean is an inference tensor") && stats.getMessage().contains("training updates it"),
          stats.getMessage());
      assertArrayEquals(new float[] {0, 0}, mean.toFloatArray(), "nothing was updated");
    } finally {
      bn.close();
    }
  }
}
