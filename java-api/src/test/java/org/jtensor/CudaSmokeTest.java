package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.jtensor.dispatch.CudaMatmul;
import org.jtensor.memory.Memory;
import org.jtensor.ops.Factories;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The quick phase of a GPU run (gpu-check.sh --phase quick): one small case of each kernel family
 * on cuda:0 against the CPU, so the first seconds of a GPU window say which families work at all
 * before the whole suites run. A test per family: the table names the family that broke.
 */
class CudaSmokeTest extends CudaParity {
  private final Random rnd = new Random(2026);

  @AfterEach
  void restore() {
    CudaMatmul.setUseCublas(true);
    CudaMatmul.setAllowTf32(false);
  }

  @Test
  void elementwiseDenseTransposedAndBroadcast() {
    for (DType dt : new DType[] {DType.FLOAT32, DType.FLOAT16, DType.INT64, DType.BOOL}) {
      Tensor a = integers(rnd, dt, new long[] {65, 33}, 0, -5, 5), b = integers(rnd, dt, new long[] {65, 33}, 1, -5, 5);
      check("add " + dt, t -> t[0].add(t[1]), a, b);
      check("mul transposed " + dt, t -> t[0].mul(t[1]), a, b);
      check("maximum broadcast row " + dt, t -> t[0].maximum(t[1].select(0, 3)), a, b);
    }
    Tensor x = integers(rnd, DType.FLOAT32, new long[] {1000}, 2, -9, 9);
    check("exp", t -> t[0].mul(0.1).exp(), x);
    check("gelu", t -> t[0].gelu(), x);
    assertMostAgreed();
  }

  @Test
  void copiesAcrossDtypesAndDevices() {
    for (DType from : new DType[] {DType.FLOAT32, DType.BFLOAT16, DType.INT32, DType.UINT8}) {
      Tensor x = integers(rnd, from, new long[] {37, 41}, 1, 0, 9);
      for (DType to : new DType[] {DType.FLOAT64, DType.FLOAT16, DType.INT64, DType.BOOL}) {
        check("to " + from + " -> " + to, t -> t[0].to(to), x);
        check("contiguous " + from, t -> t[0].contiguous(), x);
      }
    }
    assertMostAgreed();
  }

  /**
   * PyTorch's repr names a CUDA tensor's device first: tensor([1., 2.], device='cuda:0',
   * dtype=torch.float16); a CPU tensor's (the rehearsal's dry run) not at all.
   */
  @Test
  void printsItsDevice() {
    Device d = GPU.device();
    String device = d.type() == Device.Type.CUDA ? ", device='" + d + "'" : "";
    assertEquals("tensor([1., 2.]" + device + ")", Tensor.fromArray(new float[] {1, 2}).to(d).toString());
    assertEquals("tensor([1., 2.]" + device + ", dtype=torch.float16)", Tensor.fromArray(new float[] {1, 2}).to(DType.FLOAT16).to(d).toString());
    assertEquals("tensor([]" + device + ", size=(0, 3))", Tensor.zeros(new long[] {0, 3}, DType.FLOAT32, d).toString());
  }

  @Test
  void fillArangeLinspace() {
    Device d = GPU.device();
    GPU.agree("full", Tensor.full(new long[] {5, 7}, 3.0, DType.FLOAT32), Tensor.full(new long[] {5, 7}, 3.0, DType.FLOAT32, d));
    GPU.agree("arange", Tensor.wrap(Factories.arange(-7, 100, 3, DType.INT64, Device.CPU)),
        Tensor.wrap(Factories.arange(-7, 100, 3, DType.INT64, d)));
    GPU.agree("linspace", Tensor.wrap(Factories.linspace(-3.5, 120.25, 1001, DType.FLOAT32, Device.CPU)),
        Tensor.wrap(Factories.linspace(-3.5, 120.25, 1001, DType.FLOAT32, d)));
  }

  @Test
  void reductions() {
    for (DType dt : new DType[] {DType.FLOAT32, DType.INT64, DType.FLOAT16}) {
      Tensor x = integers(rnd, dt, new long[] {300, 257}, 1, -4, 4);
      check("sum " + dt, t -> t[0].sum(), x);
      check("sum dim 0 " + dt, t -> t[0].sum(0), x);
      check("amax dim 1 " + dt, t -> t[0].amax(1, false), x);
      check("argmax dim 1 " + dt, t -> t[0].argmax(1, false), x);
    }
    assertMostAgreed();
  }

  @Test
  void scansSortsAndSoftmax() {
    Tensor x = integers(rnd, DType.FLOAT32, new long[] {7, 1000}, 1, -3, 3);
    check("cumsum", t -> t[0].cumsum(1), x);
    check("sort values", t -> t[0].sort(1, false).values(), x);
    check("sort indices", t -> t[0].sort(1, true).indices(), x);
    check("topk", t -> t[0].topk(5, 1, true).values(), x);
    check("softmax", t -> t[0].softmax(1), x);
    check("logSoftmax dim 0", t -> t[0].logSoftmax(0), x);
    assertMostAgreed();
  }

  @Test
  void indexingMasksAndNonzero() {
    Tensor x = integers(rnd, DType.FLOAT32, new long[] {40, 30}, 0, -6, 6);
    Tensor idx = integers(rnd, DType.INT64, new long[] {40, 30}, 0, 0, 29);
    check("gather", t -> t[0].gather(1, t[1]), x, idx);
    check("scatterAdd", t -> t[0].scatterAdd(1, t[1], t[0]), x, idx);
    check("indexSelect", t -> t[0].indexSelect(0, t[1].select(1, 0)), x, idx);
    check("maskedSelect", t -> t[0].maskedSelect(t[0].gt(0.0)), x);
    check("nonzero", t -> t[0].nonzero(), x);
    check("advanced get", t -> t[0].get(Index.of(t[1].select(0, 0))), x, idx);
    assertMostAgreed();
  }

  @Test
  void matmulOnCublasAndOnJtensorsOwnKernel() {
    if (!CudaAccounting.dryRun()) assertNull(CudaMatmul.cublasUnavailableReason(), "cuBLAS must load on a GPU machine");
    for (boolean cublas : new boolean[] {true, false}) {
      CudaMatmul.setUseCublas(cublas);
      for (DType dt : new DType[] {DType.FLOAT32, DType.BFLOAT16, DType.INT32}) {
        Tensor a = integers(rnd, dt, new long[] {72, 40}, 0, -3, 3), b = integers(rnd, dt, new long[] {40, 56}, 1, -3, 3);
        check("matmul " + dt + (cublas ? " cuBLAS" : " own kernel"), t -> t[0].matmul(t[1]), a, b);
      }
    }
    assertMostAgreed();
  }

  @Test
  void seededDrawsEqualTheCpus() {
    Tensor cpu = Tensor.empty(new long[] {10_001}, DType.FLOAT32);
    Tensor dev = GPU.twin(cpu);
    assertArrayEquals(cpu.normal_(0, 1, new Generator(9)).toDoubleArray(), dev.normal_(0, 1, new Generator(9)).cpu().toDoubleArray(),
        "normal_ bit for bit");
    assertArrayEquals(cpu.uniform_(-1, 1, new Generator(9)).toDoubleArray(), dev.uniform_(-1, 1, new Generator(9)).cpu().toDoubleArray(),
        "uniform_ bit for bit");
  }

  @Test
  void autogradBackward() {
    Tensor w = Tensor.fromArray(new float[] {0.5f, -1f, 2f}, 3).to(GPU.device()).requiresGrad_(true);
    w.exp().mul(w).sum().backward();
    float[] want = new float[3];
    float[] v = {0.5f, -1f, 2f};
    for (int i = 0; i < 3; i++) want[i] = (float) (Math.exp(v[i]) * (1 + v[i]));
    assertEquals(GPU.device(), w.grad().device());
    assertArrayEquals(want, w.grad().cpu().toFloatArray(), 1e-5f);
  }

  @Test
  void theAllocatorCountsAndReturnsBytes() {
    Device d = GPU.device();
    long before = Memory.memoryAllocated(d);
    try (Tensor g = Tensor.empty(new long[] {1 << 20}, DType.FLOAT32, d)) {
      assertTrue(Memory.memoryAllocated(d) >= before + (4L << 20));
    }
    assertEquals(before, Memory.memoryAllocated(d));
  }
}
