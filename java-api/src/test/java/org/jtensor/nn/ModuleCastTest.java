package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.jtensor.Close;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Generator;
import org.jtensor.PtFixture;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.jtensor.optim.SGD;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Module.to(DType), half(), bfloat16(), toFloat(), toDouble() (torch's module.half() ...) and
 * Tensor.setData of another dtype, against PyTorch 2.13 on the CPU (resources/modulecast/fixtures.pt
 * from make_fixtures.py beside it): floating parameters, buffers and gradients cast in place, the
 * handles kept, num_batches_tracked left int64, outputs and an SGD step in float16 as PyTorch's.
 */
class ModuleCastTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture f = new PtFixture("/modulecast/fixtures.pt");

  private static final double HALF = 2e-3, BF16 = 1.6e-2;  // a few units in the last place of the 16-bit results

  private static Sequential model() {
    Sequential m = new Sequential(new Conv2d(2, 3, 3, 1, 1, new Generator(1)), new BatchNorm2d(3), new ReLU(), new Flatten(),
        new LayerNorm(48), new Linear(48, 4, new Generator(2)));
    return f.loadInto(m, "model");
  }

  private static void assertState(String prefix, Module m) {
    Map<String, Tensor> state = m.stateDict();
    assertEquals(f.under(prefix).keySet().stream().filter(k -> !k.endsWith("_out")).toList(), List.copyOf(state.keySet()));
    state.forEach((k, v) -> Close.assertTensor(prefix + "." + k, f.tensor(prefix + "." + k), v, 0));  // dtype and the cast's value, exactly
  }

  private static Tensor evalOut(Module m, DType dtype) {
    m.eval();
    return m.forward(f.tensor("x").to(dtype));
  }

  @Test
  void halfThenBfloat16ThenFloatCastsEveryFloatingTensorInPlaceAsPyTorch() {
    try (Sequential m = model()) {
      List<Tensor> params = m.parameters();
      assertSame(m, m.half());
      assertState("half", m);
      assertEquals(DType.INT64, m.stateDict().get("1.num_batches_tracked").dtype());
      Close.assertTensor("half.eval_out", f.tensor("half.eval_out"), evalOut(m, DType.FLOAT16), HALF);
      assertSame(m, m.bfloat16());
      assertState("bf16", m);
      Close.assertTensor("bf16.eval_out", f.tensor("bf16.eval_out"), evalOut(m, DType.BFLOAT16), BF16);
      assertSame(m, m.toFloat());
      assertState("back", m);
      Close.assertTensor("back.eval_out", f.tensor("back.eval_out"), evalOut(m, DType.FLOAT32), 1e-5);
      List<Tensor> after = m.parameters();
      for (int i = 0; i < params.size(); i++) {
        assertSame(params.get(i), after.get(i));
        assertTrue(after.get(i).isLeaf() && after.get(i).requiresGrad());
      }
    }
  }

  @Test
  void anOptimizerBuiltBeforeTheCastStepsTheCastParametersInTheirNewDtype() {
    try (Sequential m = model()) {
      SGD opt = new SGD(m.parameters(), 0.1);  // PyTorch's docs say build it after; the handles are the same either way
      m.half();
      m.train();
      Tensor y = m.forward(f.tensor("x").to(DType.FLOAT16));
      Close.assertTensor("half.train_out", f.tensor("half.train_out"), y, HALF);
      Close.assertTensor("running_mean", f.tensor("half_train.1.running_mean"), m.stateDict().get("1.running_mean"), HALF);
      assertEquals(f.tensor("half_train.1.num_batches_tracked").item(), m.stateDict().get("1.num_batches_tracked").item());
      y.mul(f.tensor("step.up")).sum().backward();
      for (Tensor p : m.parameters()) assertEquals(DType.FLOAT16, p.grad().dtype());  // AccumulateGrad took the new dtype
      opt.step();
      m.stateDict().forEach((k, v) -> Close.assertTensor("step." + k, f.tensor("step." + k), v, 4 * HALF));
    }
  }

  @Test
  void gradientsAreCastWithTheirParameters() {
    try (Linear l = new Linear(3, 2, new Generator(5))) {
      l.forward(Tensor.ones(new long[] {4, 3}, DType.FLOAT32)).sum().backward();
      Tensor w = l.parameters().get(0);  // the Parameter itself (the state dict holds detached aliases)
      float[] g32 = w.grad().toFloatArray();
      l.toDouble();
      assertEquals(DType.FLOAT64, w.dtype());
      assertEquals(DType.FLOAT64, w.grad().dtype());
      double[] g64 = w.grad().toDoubleArray();
      for (int i = 0; i < g32.length; i++) assertEquals(g32[i], g64[i]);
      l.forward(Tensor.ones(new long[] {4, 3}, DType.FLOAT64)).sum().backward();  // accumulates in float64
      for (int i = 0; i < g32.length; i++) assertEquals(2.0 * g32[i], w.grad().toDoubleArray()[i]);
    }
  }

  /** A subclass overriding to(DType) is honoured below a Sequential, as to(Device) is. */
  static final class Counting extends Module {
    int casts;

    Counting() {
      registerBuffer("steps", Tensor.zeros(new long[] {2}, DType.INT64));
      registerBuffer("scale", Tensor.ones(new long[] {2}, DType.FLOAT32));
    }

    @Override
    public Module to(DType dtype) {
      casts++;
      return super.to(dtype);
    }

    @Override
    public Tensor forward(Tensor x) {
      return x;
    }
  }

  @Test
  void aSequentialCastsItsSubmodulesThroughTheirOwnTo() {
    Counting c = new Counting();
    try (Sequential m = new Sequential(new Linear(2, 2, new Generator(3)), c)) {
      m.to(Device.CPU, DType.FLOAT64);
      assertEquals(1, c.casts);
      assertEquals(DType.FLOAT64, m.stateDict().get("0.weight").dtype());
      assertEquals(DType.FLOAT64, m.stateDict().get("1.scale").dtype());
      assertEquals(DType.INT64, m.stateDict().get("1.steps").dtype());
      m.toDouble();  // already float64: nothing is cast
      assertEquals(2, c.casts);
    }
  }

  @Test
  void aModuleCastToAnIntegerDtypeIsRefusedInPyTorchsWords() {
    try (Linear l = new Linear(2, 2, new Generator(4))) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> l.to(DType.INT64));
      assertEquals("Linear.to(): nn.Module.to only accepts floating point or complex dtypes, but got desired dtype=int64", e.getMessage());
      assertEquals(DType.FLOAT32, l.stateDict().get("weight").dtype());
    }
  }

  @Test
  void setDataTakesAnotherDtypeButALeafThatRequiresGradOnlyAFloatingOne() {
    Tensor a = Tensor.fromArray(new float[] {1, 2}).requiresGrad_();
    a.setData(Tensor.fromArray(new double[] {3, 4, 5}));  // PyTorch's p.data = torch.zeros(3, dtype=torch.float64)
    assertEquals(DType.FLOAT64, a.dtype());
    assertArrayEquals(new double[] {3, 4, 5}, a.toDoubleArray());
    a.mul(2).sum().backward();
    assertEquals(DType.FLOAT64, a.grad().dtype());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> a.setData(Tensor.zeros(new long[] {3}, DType.INT64)));
    assertEquals("setData(): data set to a tensor that requires gradients must be floating point or complex dtype (got int64)", e.getMessage());
    Tensor plain = Tensor.fromArray(new float[] {1});
    plain.setData(Tensor.zeros(new long[] {2}, DType.INT64));  // PyTorch: t.data = torch.zeros(2, dtype=torch.int64) is fine
    assertEquals(DType.INT64, plain.dtype());
    assertNotNull(plain.toString());
  }
}
