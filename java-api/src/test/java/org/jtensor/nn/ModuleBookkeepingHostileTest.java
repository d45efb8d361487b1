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

  /** Two [2, 2] parameters, "a" then "b", so that a refusal of the second entry comes after the first could be copied. */
  static final class TwoSquares extends Module {
    final Tensor a, b;

    TwoSquares() {
      a = registerParameter("a", Tensor.zeros(2, 2));
      b = registerParameter("b", Tensor.arange(0, 4, 1, DType.FLOAT32).reshape(2, 2));
    }

    @Override
    public Tensor forward(Tensor x) {
      return x.view(x.shape());
    }
  }

  // loadStateDict promises nothing copied unless everything can be; {"a": ones, "b": m.b.t()} copied "a" and then
  // copy_() refused "b" (PyTorch refuses "b" too: 'While copying the parameter named "b", ... an exception
  // occurred : ('unsupported operation: some elements of the input tensor and the written-to tensor refer to a
  // single memory location...',)'). Now refused in those words, naming loadStateDict, before any copy.
  @Test
  void anEntryOverlappingItsDestinationIsRefusedBeforeAnEarlierEntryIsCopied() {
    try (TwoSquares m = new TwoSquares()) {
      Map<String, Tensor> sd = new LinkedHashMap<>();
      sd.put("a", Tensor.ones(2, 2));
      sd.put("b", m.b.t());
      String e = assertThrows(IllegalArgumentException.class, () -> m.loadStateDict(sd)).getMessage();
      assertTrue(e.startsWith("loadStateDict(): Error(s) in loading state_dict for TwoSquares:\n\tWhile copying the parameter named \"b\", "
          + "whose dimensions in the model are [2, 2] and whose dimensions in the checkpoint are [2, 2], an exception occurred : "
          + "(unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location."), e);
      assertArrayEquals(new double[] {0, 0, 0, 0}, m.a.toDoubleArray(), 0.0, "nothing copied");
      assertArrayEquals(new double[] {0, 1, 2, 3}, m.b.toDoubleArray(), 0.0);
      sd.put("b", m.b);  // the destination itself is a full alias: allowed, as PyTorch's copy_
      m.loadStateDict(sd);
      assertArrayEquals(new double[] {1, 1, 1, 1}, m.a.toDoubleArray(), 0.0);
    }
  }

  // PyTorch loads a [1] entry into a 0-dim parameter or buffer (bn.load_state_dict with num_batches_tracked =
  // torch.tensor([7]) gives tensor(7)) and refuses [3] ('size mismatch for num_batches_tracked: copying a param
  // with shape torch.Size([3]) ...'); here [1] was refused as a size mismatch.
  @Test
  void aOneElementEntryLoadsIntoAZeroDimBufferAsPyTorchDoes() {
    try (BatchNorm bn = BatchNorm.batchNorm1d(2)) {
      Map<String, Tensor> sd = bn.stateDict();
      sd.put("num_batches_tracked", Tensor.fromArray(new long[] {7}, 1));
      assertEquals(new Module.IncompatibleKeys(List.of(), List.of()), bn.loadStateDict(sd));
      Tensor n = bn.namedBuffers().get("num_batches_tracked");
      assertEquals(0, n.dim());
      assertEquals(7.0, n.item(), 0.0);
      sd.put("num_batches_tracked", Tensor.fromArray(new long[] {7, 8, 9}, 3));
      String e = assertThrows(IllegalArgumentException.class, () -> bn.loadStateDict(sd)).getMessage();
      assertTrue(e.contains("size mismatch for num_batches_tracked: copying a param with shape [3] from checkpoint, "
          + "the shape in current model is []."), e);
      assertEquals(7.0, n.item(), 0.0);
    }
  }

  // PyTorch: nn.Sequential(l, r)[-1] is r and nn.ModuleList([l, r])[-2] is l; [2] and [-3] raise IndexError
  // "index 2 is out of range". get(-1) threw ArrayIndexOutOfBoundsException "Index -1 out of bounds for length 2".
  @Test
  void negativeContainerIndicesCountFromTheEndAndOutOfRangeUsesPyTorchsWords() {
    Linear l = new Linear(1, 1);
    ReLU r = new ReLU();
    try (Sequential s = new Sequential(l, r); ModuleList<Module> ml = new ModuleList<>(List.of(new Identity(), new Tanh()))) {
      assertSame(r, s.get(-1));
      assertSame(l, s.get(-2));
      assertSame(ml.get(0), ml.get(-2));
      String a = assertThrows(IndexOutOfBoundsException.class, () -> s.get(2)).getMessage();
      assertEquals("Sequential.get(): index 2 is out of range", a);
      String b = assertThrows(IndexOutOfBoundsException.class, () -> s.get(-3)).getMessage();
      assertEquals("Sequential.get(): index -3 is out of range", b);
      String c = assertThrows(IndexOutOfBoundsException.class, () -> ml.get(-3)).getMessage();
      assertEquals("ModuleList.get(): index -3 is out of range", c);
    }
  }

  /** An integer parameter, which PyTorch's nn.Parameter refuses: "Only Tensors of floating point and complex dtype can require gradients". */
  static final class IntegerParameter extends Module {
    IntegerParameter() {
      registerParameter("p", Tensor.ones(new long[] {1}, DType.INT64));
    }

    @Override
    public Tensor forward(Tensor x) {
      return x.view(x.shape());
    }
  }

  // registerParameter escaped the tensor from its scope and then requiresGrad_ refused it: the refused tensor
  // was in no scope and no module, 512 bytes left allocated until the leak detector found it collected.
  @Test
  void anIntegerParameterIsRefusedWithoutLeakingIt() {
    String e = assertThrows(IllegalArgumentException.class, IntegerParameter::new).getMessage();
    assertTrue(e.contains("only Tensors of floating point and complex dtype can require gradients, got int64"), e);
  }

  /** PyTorch's register_parameter("p", None) and register_buffer("x", None), beside a parameter "w". */
  static final class NoneEntries extends Module {
    NoneEntries() {
      registerParameter("p", null);
      registerBuffer("x", null);
      registerParameter("w", Tensor.ones(1));
    }

    @Override
    public Tensor forward(Tensor x) {
      return x.view(x.shape());
    }
  }

  // PyTorch: a None parameter or buffer takes its name but is left out of state_dict(), named_parameters() and
  // named_buffers(); load_state_dict({"w": .., "x": ..}, strict=False) reports x as unexpected. Here the null was
  // stored: registerParameter threw NullPointerException and stateDict() "Cannot invoke Tensor.detach()".
  @Test
  void aNullParameterOrBufferIsRegisteredAsPyTorchsNoneAndListedNowhere() {
    try (NoneEntries m = new NoneEntries()) {
      assertEquals(List.of("w"), new ArrayList<>(m.stateDict().keySet()));
      assertEquals(List.of("w"), new ArrayList<>(m.namedParameters().keySet()));
      assertTrue(m.namedBuffers().isEmpty());
      Module.IncompatibleKeys k = m.loadStateDict(Map.of("w", Tensor.full(new long[] {1}, 3.0), "x", Tensor.ones(1)), false);
      assertEquals(new Module.IncompatibleKeys(List.of(), List.of("x")), k);
      assertEquals(3.0, m.parameters().get(0).item(), 0.0);
      m.to(org.jtensor.Device.CPU);
      m.zeroGrad();
    }
  }

  // A closed module's methods failed naming an accessor of one of its tensors the user never called
  // ("detach(): tensor is closed", "shape(): ...", "device(): ...", "setGrad(): ..."), and parameters() handed
  // out its closed handles for an optimizer to fail on later; closing twice stays a no-op.
  @Test
  void aClosedModuleIsRefusedNamingTheModuleAndTheMethodCalled() {
    Linear c = new Linear(2, 2, new Generator(0));
    c.close();
    c.close();
    String[] got = {
      assertThrows(IllegalStateException.class, c::stateDict).getMessage(),
      assertThrows(IllegalStateException.class, c::parameters).getMessage(),
      assertThrows(IllegalStateException.class, () -> c.loadStateDict(Map.of("weight", Tensor.ones(2, 2), "bias", Tensor.ones(2)))).getMessage(),
      assertThrows(IllegalStateException.class, () -> c.to(org.jtensor.Device.CPU)).getMessage(),
      assertThrows(IllegalStateException.class, c::zeroGrad).getMessage()};
    String[] methods = {"stateDict", "namedParameters", "loadStateDict", "to", "zeroGrad"};
    for (int i = 0; i < got.length; i++) {
      assertEquals("Linear." + methods[i] + "(): the module is closed: close() freed its parameters and buffers", got[i]);
    }
    Linear open = new Linear(1, 1);
    try (Sequential s = new Sequential(open, new Sequential(new ReLU(), c))) {
      String m = assertThrows(IllegalStateException.class, s::stateDict).getMessage();
      assertEquals("Sequential.stateDict(): its submodule '1.1' is closed: close() freed its parameters and buffers", m);
    }
  }
}
