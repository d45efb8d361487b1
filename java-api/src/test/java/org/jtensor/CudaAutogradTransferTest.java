package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Autograd across to(Device) on a GPU machine (tag cuda): the gradient of a CPU leaf used on CUDA
 * comes back to the CPU (ToCopyBackward0), and a CUDA leaf's gradient stays on CUDA, with the
 * values of the same graph run on the CPU.
 */
@Tag("cuda")
@org.junit.jupiter.api.extension.ExtendWith(CudaAccounting.class)
class CudaAutogradTransferTest {
  private static final Device GPU = CudaAccounting.device();  // the CPU in a dry run

  @Test
  void cpuLeafUsedOnCudaGetsItsGradientOnTheCpu() {
    try (TensorScope s = TensorScope.open()) {
      Tensor x = Tensor.fromArray(new double[] {1, -2, 3, 0.5}, 2, 2).requiresGrad_(true);
      Tensor onGpu = x.to(GPU);
      CudaAccounting.gpuOnly(() -> assertEquals("ToCopyBackward0", onGpu.gradFn().name()));  // to(CPU) of a CPU tensor is itself
      onGpu.mul(onGpu).sum().backward();
      assertEquals(Device.CPU, x.grad().device());
      assertArrayEquals(new double[] {2, -4, 6, 1}, x.grad().toDoubleArray(), 0);
    }
  }

  @Test
  void gradientCrossesBackAndForth() {
    try (TensorScope s = TensorScope.open()) {
      Tensor w = Tensor.fromArray(new float[] {0.5f, -1f, 2f}, 3).to(GPU).requiresGrad_(true);
      Tensor onCpu = w.exp().cpu();
      onCpu.mul(Tensor.fromArray(new float[] {1, 2, 3}, 3)).sum().backward();
      assertEquals(GPU, w.grad().device());
      float[] expected = {(float) Math.exp(0.5), (float) (2 * Math.exp(-1)), (float) (3 * Math.exp(2))};
      assertArrayEquals(expected, w.grad().cpu().toFloatArray(), 1e-5f);
    }
  }

  @Test
  void aModuleMovedToCudaTrainsAsOnTheCpu() {
    try (org.jtensor.nn.Linear cpu = new org.jtensor.nn.Linear(5, 3, new Generator(7));
         org.jtensor.nn.Linear gpu = new org.jtensor.nn.Linear(5, 3, new Generator(7));
         TensorScope s = TensorScope.open()) {
      Tensor w = gpu.weight();
      assertEquals(GPU, gpu.to(GPU).parameters().get(0).device());
      assertEquals(w, gpu.weight());  // the same handle, moved in place
      Tensor x = Tensor.fromArray(new float[] {1, -2, 0.5f, 3, -1, 2, 2, -0.25f, 1, 0}, 2, 5);
      cpu.forward(x).square().sum().backward();
      gpu.forward(x.to(GPU)).square().sum().backward();
      assertEquals(GPU, gpu.weight().grad().device());
      assertArrayEquals(cpu.weight().grad().toFloatArray(), gpu.weight().grad().cpu().toFloatArray(), 1e-5f);
      assertArrayEquals(cpu.bias().grad().toFloatArray(), gpu.bias().grad().cpu().toFloatArray(), 1e-5f);
      gpu.cpu();
      assertEquals(Device.CPU, gpu.weight().grad().device());
    }
  }
}
