package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.BiFunction;
import org.jtensor.dispatch.CudaMatmul;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * CUDA matmul against the CPU's, on a GPU machine (tag cuda), for every dtype and in every layout
 * the GEMM paths tell apart: odd sizes (the tiled kernel), multiples of 8 (tensor cores for
 * float16/bfloat16), transposed operands, batches, broadcast batches, narrowed operands whose
 * base is or is not 16-byte aligned, vectors, an empty depth, and addmm's alpha and beta. Each
 * case runs on cuBLAS (which must load on a GPU machine) and on jtensor's own kernel; float32 on
 * Gaussian inputs against a float64 product, with TF32 off (1e-5) and allowed (its 2e-3). Exact for
 * integer results, within the dtype's tolerance for floats.
 */
@Tag("cuda")
@org.junit.jupiter.api.extension.ExtendWith(CudaAccounting.class)
class CudaMatmulTest {
  private static final Device GPU = CudaAccounting.device();  // the CPU in a dry run
  private static final DType[] DTYPES = {DType.FLOAT32, DType.FLOAT64, DType.FLOAT16, DType.BFLOAT16, DType.UINT8,
      DType.INT8, DType.INT16, DType.INT32, DType.INT64, DType.BOOL};
  @AfterEach
  void restore() {
    CudaMatmul.setUseCublas(true);
    CudaMatmul.setAllowTf32(false);
  }

  /** Quarter-steps in [-4, 4] (integers for integer dtypes): products and their sums are exact in float. */
  private static Tensor values(DType dtype, int seed, long... shape) {
    long n = 1;
    for (long s : shape) n *= s;
    double[] v = new double[(int) n];
    for (int i = 0; i < n; i++) {
      long x = ((i * 7919L + seed * 104729L) % 33) - 16;
      v[i] = dtype.isFloatingPoint() ? x * 0.25 : dtype == DType.BOOL ? (x > 8 ? 1 : 0) : dtype == DType.UINT8 ? Math.abs(x) : x;
    }
    try (Tensor d = Tensor.fromArray(v, shape)) {
      return d.to(dtype);
    }
  }

  /** One case: operands made on the CPU by `make`, multiplied by `op` on the CPU and on CUDA. */
  private static void check(String what, DType dtype, BiFunction<DType, Integer, Tensor[]> make,
                            BiFunction<Tensor, Tensor, Tensor> op) {
    Tensor[] cpu = make.apply(dtype, 1);
    Tensor want;
    try {
      want = op.apply(cpu[0], cpu[1]);
    } catch (RuntimeException e) {  // the CPU refuses this dtype: CUDA must refuse it the same way
      try (Tensor ga = cpu[0].to(GPU); Tensor gb = cpu[1].to(GPU)) {
        assertThrows(e.getClass(), () -> op.apply(ga, gb), what + " " + dtype);
      }
      close(cpu);
      return;
    }
    // Views of the CPU operands keep their layout on the GPU: copy the base, then take the same view.
    Tensor[] gpu = make.apply(dtype, 2);
    try (Tensor got = op.apply(gpu[0], gpu[1]); Tensor back = got.cpu()) {
      DeviceParity.assertAgree(what + " " + dtype, want, back);
    } finally {
      want.close();
      close(cpu);
      close(gpu);
    }
  }

  private static void close(Tensor[] ts) {
    for (Tensor t : ts) t.close();
  }

  /** Operands a (from shape sa) and b (from shape sb), each through `view`, on the CPU (1) or CUDA (2). */
  private static BiFunction<DType, Integer, Tensor[]> operands(long[] sa, long[] sb, java.util.function.Function<Tensor, Tensor> va,
                                                            java.util.function.Function<Tensor, Tensor> vb) {
    return (dtype, where) -> {
      try (Tensor a = values(dtype, 1, sa); Tensor b = values(dtype, 2, sb)) {
        if (where == 1) return new Tensor[] {va.apply(a), vb.apply(b)};  // each a new handle
        try (Tensor ga = a.to(GPU); Tensor gb = b.to(GPU)) {
          return new Tensor[] {va.apply(ga), vb.apply(gb)};
        }
      }
    };
  }

  private static long[] s(long... shape) {
    return shape;
  }

  private void everyLayout(String path) {
    java.util.function.Function<Tensor, Tensor> same = t -> t.contiguous();
    for (DType dt : DTYPES) {
      check(path + " odd sizes", dt, operands(s(37, 29), s(29, 53), same, same), Tensor::matmul);
      check(path + " multiples of 8", dt, operands(s(136, 72), s(72, 264), same, same), Tensor::matmul);
      check(path + " A transposed", dt, operands(s(72, 136), s(72, 264), t -> t.mT(), same), Tensor::matmul);
      check(path + " B transposed", dt, operands(s(136, 72), s(264, 72), same, t -> t.mT()), Tensor::matmul);
      check(path + " both transposed, odd", dt, operands(s(29, 37), s(53, 29), t -> t.mT(), t -> t.mT()), Tensor::matmul);
      check(path + " batched", dt, operands(s(3, 40, 24), s(3, 24, 48), same, same), Tensor::matmul);
      check(path + " broadcast batch", dt, operands(s(2, 1, 16, 24), s(3, 24, 32), same, same), Tensor::matmul);
      check(path + " matrix times a stack", dt, operands(s(16, 24), s(5, 24, 40), same, same), Tensor::matmul);
      check(path + " narrowed, aligned", dt, operands(s(40, 48), s(24, 32), t -> t.narrow(1, 8, 24), same), Tensor::matmul);
      check(path + " narrowed, misaligned", dt, operands(s(40, 48), s(24, 40), t -> t.narrow(1, 3, 24),
          t -> t.narrow(1, 1, 32)), Tensor::matmul);
      check(path + " vector @ matrix", dt, operands(s(24), s(24, 16), same, same), Tensor::matmul);
      check(path + " matrix @ vector", dt, operands(s(16, 24), s(24), same, same), Tensor::matmul);
      check(path + " empty depth", dt, operands(s(5, 0), s(0, 7), same, same), Tensor::matmul);
      check(path + " addmm alpha beta", dt, operands(s(33, 40), s(40, 48), same, same),
          (a, b) -> {
            try (Tensor an = a.narrow(1, 0, 33); Tensor bn = b.narrow(0, 0, 33); Tensor c = an.matmul(bn)) {
              return c.addmm(a, b, 0.5, 2.0);
            }
          });
    }
  }

  @Test
  void cublasAgreesWithTheCpu() {
    // on a GPU machine cuBLAS must load: otherwise these cases would test jtensor's own kernel twice
    CudaAccounting.gpuOnly(() -> assertNull(CudaMatmul.cublasUnavailableReason(), "cuBLAS"));
    everyLayout("cuBLAS");
  }

  @Test
  void jtensorsOwnKernelAgreesWithTheCpu() {
    CudaMatmul.setUseCublas(false);
    everyLayout("own kernel");
    // An empty depth is beta * C whatever alpha, as PyTorch's addmm (2.0 * 0.5 here, not inf * 0 = NaN).
    // Strides of 8 and 24 (narrowed to the empty depth): float16/bfloat16 take the tensor-core kernel,
    // which multiplied its empty sum by alpha.
    for (DType dt : DTYPES) {
      check("own kernel empty depth, alpha inf", dt, operands(s(16, 8), s(8, 24), t -> t.narrow(1, 0, 0), t -> t.narrow(0, 0, 0)), (a, b) -> {
        try (Tensor c = Tensor.full(new long[] {16, 24}, 2.0, dt, a.device())) {
          return c.addmm(a, b, 0.5, Double.POSITIVE_INFINITY);
        }
      });
    }
  }

  /**
   * The largest error of a float32 product against the float64 one, in units of (|a| @ |b|): the
   * size of the terms summed, so cancellation cannot hide or inflate an error. Gaussian inputs, as
   * TF32's rounding of the inputs to 10 mantissa bits shows on them (quarter-steps would be exact).
   */
  private static double float32Error(boolean cublas, boolean tf32) {
    CudaMatmul.setUseCublas(cublas);
    CudaMatmul.setAllowTf32(tf32);
    try (TensorScope s = TensorScope.open()) {
      Generator g = new Generator(11);
      Tensor a = Tensor.randn(new long[] {256, 512}, g), b = Tensor.randn(new long[] {512, 384}, g);
      Tensor exact = a.to(DType.FLOAT64).matmul(b.to(DType.FLOAT64));
      Tensor scale = a.to(DType.FLOAT64).abs().matmul(b.to(DType.FLOAT64).abs());
      Tensor got = a.to(GPU).matmul(b.to(GPU)).cpu().to(DType.FLOAT64);
      return got.sub(exact).abs().div(scale).amax().item();
    }
  }

  @Test
  void tf32OffIsFloat32Accurate() {
    assertEquals(false, CudaMatmul.allowTf32());
    for (boolean cublas : new boolean[] {true, false}) {
      double err = float32Error(cublas, false);
      assertTrue(err < 1e-5, (cublas ? "cuBLAS" : "own kernel") + " float32 with TF32 off: error " + err + " of |a|@|b|");
    }
  }

  @Test
  void tf32OnStaysWithinItsDocumentedError() {
    // TF32 rounds each input to 10 mantissa bits (relative 2^-11 each), products accumulate in float32
    double err = float32Error(true, true);
    assertTrue(err < 2e-3, "float32 with TF32 allowed: error " + err + " of |a|@|b|");
  }
}
