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

  /** PyTorch's rule: a 0-dim CPU tensor goes with tensors of any device (read as a scalar), its gradient back on the CPU. */
  @Test
  void aZeroDimCpuTensorGoesWithCudaTensors() {
    try (TensorScope s = TensorScope.open()) {
      Tensor x = Tensor.fromArray(new float[] {1, -2, 3}, 3).to(GPU).requiresGrad_(true);
      Tensor k = Tensor.scalar(2.5, DType.FLOAT64).requiresGrad_(true);  // a 0-dim float64 tensor keeps x's float32
      Tensor y = x.mul(k).add(Tensor.scalar(1L));
      assertEquals(GPU, y.device());
      assertEquals(DType.FLOAT32, y.dtype());
      assertArrayEquals(new float[] {3.5f, -4f, 8.5f}, y.cpu().toFloatArray(), 0);
      y.pow(Tensor.scalar(2.0)).sum().backward();
      assertArrayEquals(new float[] {17.5f, -20f, 42.5f}, x.grad().cpu().toFloatArray(), 1e-5f);  // 2·y·k
      assertEquals(Device.CPU, k.grad().device());
      assertEquals(2 * (3.5 * 1 + -4 * -2 + 8.5 * 3), k.grad().item(), 1e-4);  // Σ 2·y·x
      CudaAccounting.gpuOnly(() -> {  // a CPU tensor of one element but one dim is no scalar: refused, as in PyTorch
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
            () -> x.add(Tensor.fromArray(new float[] {1f}, 1)));
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().startsWith("add(): Expected all tensors to be on the same device"),
            e.getMessage());
      });
    }
  }
}
