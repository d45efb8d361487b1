package org.jtensor.dispatch;

import java.util.logging.Level;
import java.util.logging.Logger;
import org.bytedeco.cuda.cublas.cublasContext;
import org.bytedeco.cuda.cudart.CUstream_st;
import org.bytedeco.cuda.global.cublas;
import org.bytedeco.cuda.global.cudart;
import org.bytedeco.javacpp.DoublePointer;
import org.bytedeco.javacpp.FloatPointer;
import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.jtensor.DType;

/**
 * cuBLAS through the bytedeco CUDA presets (DESIGN §8), loaded the first time a CUDA GEMM asks:
 * float32 (TF32 only where {@link CudaMatmul#allowTf32()}), float64, and float16/bfloat16 on
 * tensor cores with float accumulation, as cublasGemmStridedBatchedEx over a {@link CublasLayout}.
 * Where libcublas.so.13 is missing, {@link #available()} is false (the reason logged once) and
 * CUDA GEMMs run jtensor's own kernel (jtc_gemm). One handle per thread, bound to the stream of
 * each call; cuBLAS's own workspace.
 */
final class CudaBlas {
  private static final Logger LOG = Logger.getLogger("org.jtensor.cuda");

  private CudaBlas() {}

  private static final class Loaded {
    static final String FAILURE = load();
  }

  /** True when cuBLAS loaded (libcublas.so.13 on the loader path). */
  static boolean available() {
    return Loaded.FAILURE == null;
  }

  /** Why cuBLAS is not used; null when it is. */
  static String unavailableReason() {
    return Loaded.FAILURE;
  }

  /** The dtypes cuBLAS multiplies here; integers and bool stay with jtc_gemm (as PyTorch has no CUDA kernel for them). */
  static boolean supports(DType dtype) {
    return dtype == DType.FLOAT32 || dtype == DType.FLOAT64 || dtype == DType.FLOAT16 || dtype == DType.BFLOAT16;
  }

  /**
   * Runs g on cuBLAS when cuBLAS is loaded, multiplies g's dtype and reads its operands in place;
   * false when jtc_gemm must. a, b, c: the device addresses of element 0 of A, B and C.
   */
  static boolean tryGemm(String op, GemmCall g, long a, long b, long c, long stream) {
    DType dtype = g.dtype;
    if (!supports(dtype) || !CudaMatmul.useCublas() || !available()) return false;
    for (long s : g.batchSizes) if (s == 0) return true;  // no batch entries: nothing to compute
    CublasLayout l = CublasLayout.of(g.m, g.n, g.k, g.aRow, g.aCol, g.bRow, g.bCol, g.cRow, g.cCol,
        g.batchSizes, g.aBatch, g.bBatch, g.cBatch);
    if (l == null) return false;
    gemm(op, dtype, l, a, b, c, g.alpha, g.beta, stream);
    return true;
  }

  private static String load() {
    try {
      Loader.load(cublas.class);
      return null;
    } catch (Throwable e) {  // no libcublas.so.13, or the presets absent: jtensor's own GEMM serves
      String reason = "cuBLAS unavailable, CUDA GEMMs use jtensor's own kernel: " + CudaProbe.messages(e);
      LOG.log(Level.WARNING, reason);  // a slower GEMM than the user expects: not INFO
      return reason;
    }
  }

  /**
   * A thread's handle and its alpha/beta slots (host pointers, read by cuBLAS when called), each
   * its own allocation at position 0: a void* argument takes a Pointer's address as it is.
   */
  private static final class Handle {
    final cublasContext context = new cublasContext();
    final FloatPointer alphaF = new FloatPointer(1), betaF = new FloatPointer(1);
    final DoublePointer alphaD = new DoublePointer(1), betaD = new DoublePointer(1);

    Handle() {
      check("cublasCreate_v2", cublas.cublasCreate_v2(context));
      check("cublasSetMathMode", cublas.cublasSetMathMode(context, cublas.CUBLAS_DEFAULT_MATH));
    }
  }

  private static final ThreadLocal<Handle> HANDLES = ThreadLocal.withInitial(Handle::new);

  /**
   * C = alpha * A @ B + beta * C per batch entry, as {@code l} lays it out; a, b, c are the device
   * addresses of element 0 of jtensor's A, B and C. Asynchronous on {@code stream} (0: the legacy default).
   */
  static void gemm(String op, DType dtype, CublasLayout l, long a, long b, long c, double alpha, double beta, long stream) {
    Handle h = HANDLES.get();
    check(op, cublas.cublasSetStream_v2(h.context, stream == 0 ? null : new CUstream_st(CudaRuntime.at(stream))));
    int type, compute;
    Pointer alphaP, betaP;
    if (dtype == DType.FLOAT64) {
      type = cudart.CUDA_R_64F;
      compute = cublas.CUBLAS_COMPUTE_64F;
      alphaP = h.alphaD.put(0, alpha);
      betaP = h.betaD.put(0, beta);
    } else {
      type = dtype == DType.FLOAT32 ? cudart.CUDA_R_32F : dtype == DType.FLOAT16 ? cudart.CUDA_R_16F : cudart.CUDA_R_16BF;
      compute = dtype == DType.FLOAT32 && CudaMatmul.allowTf32() ? cublas.CUBLAS_COMPUTE_32F_FAST_TF32 : cublas.CUBLAS_COMPUTE_32F;
      alphaP = h.alphaF.put(0, (float) alpha);
      betaP = h.betaF.put(0, (float) beta);
    }
    long item = dtype.itemSize();
    long first = l.swapped() ? b : a, second = l.swapped() ? a : b;
    for (long i = 0, calls = l.outerCount(); i < calls; i++) {
      long[] off = l.outerOffsets(i);
      int status = cublas.cublasGemmStridedBatchedEx(h.context,
          l.transA() ? cublas.CUBLAS_OP_T : cublas.CUBLAS_OP_N, l.transB() ? cublas.CUBLAS_OP_T : cublas.CUBLAS_OP_N,
          l.m(), l.n(), l.k(), alphaP,
          CudaRuntime.at(first + off[0] * item), type, l.lda(), l.strideA(),
          CudaRuntime.at(second + off[1] * item), type, l.ldb(), l.strideB(), betaP,
          CudaRuntime.at(c + off[2] * item), type, l.ldc(), l.strideC(), l.batchCount(), compute, cublas.CUBLAS_GEMM_DEFAULT);
      if (status != cublas.CUBLAS_STATUS_SUCCESS) {
        throw new IllegalStateException(op + "(): CUDA error: " + cublas.cublasGetStatusName(status).getString()
            + " when calling `cublasGemmStridedBatchedEx`");
      }
    }
  }

  private static void check(String call, int status) {
    if (status != cublas.CUBLAS_STATUS_SUCCESS) {
      throw new IllegalStateException("CUDA error: " + cublas.cublasGetStatusName(status).getString() + " when calling `" + call + "`");
    }
  }
}
