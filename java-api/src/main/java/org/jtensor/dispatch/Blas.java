package org.jtensor.dispatch;

import java.util.logging.Level;
import java.util.logging.Logger;
import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.openblas.global.openblas_nolapack;
import org.jtensor.bindings.JtNative;

/**
 * Finds OpenBLAS (from its JavaCPP presets) once and hands libjtensor the addresses of its
 * sgemm/dgemm, so batched GEMM loops stay in native code. Without it, GEMM runs jtensor's own loops.
 */
final class Blas {
  private static final Logger LOG = Logger.getLogger("org.jtensor.blas");
  private static final boolean AVAILABLE = register();

  private Blas() {}

  static boolean available() {
    return AVAILABLE;
  }

  private static boolean register() {
    try {
      Loader.load(openblas_nolapack.class);  // the small JNI; brings libopenblas in
      long s = address("cblas_sgemm"), d = address("cblas_dgemm"), t = address("openblas_set_num_threads");
      if (s == 0 || d == 0) throw new IllegalStateException("cblas_sgemm/cblas_dgemm not found");
      JtNative.jt_blas_register(s, d, t);
      return JtNative.jt_blas_available() == 1;
    } catch (Throwable e) {  // no presets on the classpath, or a platform they do not cover
      LOG.log(Level.INFO, "OpenBLAS unavailable, GEMM uses jtensor's own loops: " + e);
      return false;
    }
  }

  private static long address(String symbol) {
    Pointer p = Loader.addressof(symbol);
    return p == null ? 0 : p.address();
  }
}
