package org.jtensor.benchmarks.gpu;

import java.util.Map;

/**
 * What each GPU benchmark measures and what it is held against: its work per op (bytes read and
 * written, or FLOPs), PyTorch 2.11's figure on an H100 (issue 10), and the target, either
 * absolute or a fraction of another case measured in the same run.
 */
enum GpuFigures {
  COPY("copy1GiB", "device-to-device copy, 1 GiB", Unit.BYTES, 2.0 * 4 * GpuBenchmark.N256M, 3.00e12, 0, null, "-"),
  ADD("add256M", "add, 256M float32", Unit.BYTES, 3.0 * 4 * GpuBenchmark.N256M, 3.04e12, 0.95, "copy1GiB", ">= 95% of the copy"),
  SUM("sum256M", "sum, 256M float32", Unit.BYTES, 4.0 * GpuBenchmark.N256M, 3.04e12, 2.9e12, null, ">= 2.9 TB/s"),
  SUM0("sumDim0", "sum over dim 0, 16384^2", Unit.BYTES, 4.0 * GpuBenchmark.SIDE * GpuBenchmark.SIDE, 3.01e12, 2.9e12, null,
      ">= 2.9 TB/s"),
  SUM1("sumDim1", "sum over dim 1, 16384^2", Unit.BYTES, 4.0 * GpuBenchmark.SIDE * GpuBenchmark.SIDE, 3.09e12, 2.9e12, null,
      ">= 2.9 TB/s"),
  ADD_T("addTransposed", "add, transposed 16384^2 operand", Unit.BYTES, 12.0 * GpuBenchmark.SIDE * GpuBenchmark.SIDE, 1.33e12,
      2.0e12, null, ">= 2.0 TB/s"),
  SOFTMAX("softmaxDim1", "softmax over dim 1, 16384^2", Unit.BYTES, 8.0 * GpuBenchmark.SIDE * GpuBenchmark.SIDE, 2.58e12, 2.6e12,
      null, ">= 2.6 TB/s"),
  LAYER_NORM("layerNormDim1", "layerNorm over dim 1, 16384^2", Unit.BYTES, 8.0 * GpuBenchmark.SIDE * GpuBenchmark.SIDE, 0, 0, null, "-"),
  BATCH_NORM("batchNorm64Channels", "batchNorm (training), [256, 64, 128, 128]", Unit.BYTES, 8.0 * GpuBenchmark.SIDE * GpuBenchmark.SIDE, 0, 0,
      null, "-"),
  SDPA("sdpaCausalForwardBackward dtype=float32", "SDPA causal fwd+bwd, [4, 8, 1024, 64] float32", Unit.SECONDS, 1, 0, 0, null, "-"),
  SDPA_F16("sdpaCausalForwardBackward dtype=float16", "SDPA causal fwd+bwd, [4, 8, 1024, 64] float16", Unit.SECONDS, 1, 0, 0, null, "-"),
  SDPA_FWD("sdpaCausalForward dtype=float32", "SDPA causal forward, [4, 8, 1024, 64] float32", Unit.SECONDS, 1, 0, 0, null, "-"),
  SDPA_FWD_F16("sdpaCausalForward dtype=float16", "SDPA causal forward, [4, 8, 1024, 64] float16", Unit.SECONDS, 1, 0, 0, null, "-"),
  SDPA_FWD_BF16("sdpaCausalForward dtype=bfloat16", "SDPA causal forward, [4, 8, 1024, 64] bfloat16", Unit.SECONDS, 1, 0, 0, null, "-"),
  SDPA_BF16("sdpaCausalForwardBackward dtype=bfloat16", "SDPA causal fwd+bwd, [4, 8, 1024, 64] bfloat16", Unit.SECONDS, 1, 0, 0, null, "-"),
  MM_F32("matmul gemm=float32", "matmul 8192^2 float32 (TF32 off), cuBLAS", Unit.FLOPS, gemmFlops(), 51.6e12, 0.97 * 51.6e12, null,
      "within 3% of PyTorch"),
  MM_BF16("matmul gemm=bfloat16", "matmul 8192^2 bfloat16, cuBLAS", Unit.FLOPS, gemmFlops(), 786e12, 0.97 * 786e12, null, "within 3% of PyTorch"),
  MM_F16("matmul gemm=float16", "matmul 8192^2 float16, cuBLAS", Unit.FLOPS, gemmFlops(), 753e12, 0.97 * 753e12, null, "within 3% of PyTorch"),
  MM_OWN("matmul gemm=own-bfloat16", "matmul 8192^2 bfloat16, jtensor's own GEMM", Unit.FLOPS, gemmFlops(), 786e12, 0.40, "matmul gemm=bfloat16",
      ">= 40% of cuBLAS"),
  ADD4("add4HostCost", "4-element add, host cost", Unit.SECONDS, 1, 10.2e-6, 4e-6, null, "<= 4 us"),
  ALLOC("alloc1MiBCached", "1 MiB alloc + free from the cache", Unit.SECONDS, 1, 3.9e-6, 1e-6, null, "<= 1 us"),
  MLP("step model=mlp", "MLP 784-256-128-10 training step, batch 128", Unit.SECONDS, 1, 1.24e-3, 1.24e-3, null, "<= PyTorch"),
  CNN("step model=cnn", "CNN training step, batch 128", Unit.SECONDS, 1, 1.93e-3, 1.93e-3, null, "<= PyTorch");

  enum Unit { BYTES, FLOPS, SECONDS }

  final String key, what, targetText, relativeTo;
  final Unit unit;
  final double work, pytorch, target;

  GpuFigures(String key, String what, Unit unit, double work, double pytorch, double target, String relativeTo, String targetText) {
    this.key = key;
    this.what = what;
    this.unit = unit;
    this.work = work;
    this.pytorch = pytorch;
    this.target = target;
    this.relativeTo = relativeTo;
    this.targetText = targetText;
  }

  private static double gemmFlops() {
    double n = GpuBenchmark.GEMM;
    return 2 * n * n * n;
  }

  /** The figure for a time per op: a rate (bytes/s, FLOP/s) or, for host and step costs, the time itself. */
  double value(double secondsPerOp) {
    return unit == Unit.SECONDS ? secondsPerOp : work / secondsPerOp;
  }

  /** jtensor against a PyTorch figure, above 1 when jtensor is better (a higher rate or a shorter time). */
  double ratio(double value, double pytorchValue) {
    return unit == Unit.SECONDS ? pytorchValue / value : value / pytorchValue;
  }

  /**
   * "yes" or "NO" for the target, given every case's value in this run (by key) and PyTorch's
   * in the same run (null where none ran); "-" without one. A target stated against PyTorch ("within
   * 3% of PyTorch", "<= PyTorch") is held against the same run's figure where there is one.
   */
  String met(double value, Map<String, Double> values, Double peer) {
    if (target == 0) return "-";
    double bar = targetText.contains("PyTorch") && peer != null ? target / pytorch * peer : target;
    if (relativeTo == null) return (unit == Unit.SECONDS ? value <= bar : value >= bar) ? "yes" : "NO";
    Double other = values.get(relativeTo);
    return other == null ? "? (" + relativeTo + " not run)" : value >= target * other ? "yes" : "NO";
  }

  String format(double value) {
    switch (unit) {
      case BYTES: return String.format("%.2f TB/s", value / 1e12);
      case FLOPS: return String.format("%.1f TFLOP/s", value / 1e12);
      default: return value < 1e-3 ? String.format("%.2f us", value * 1e6) : String.format("%.3f ms", value * 1e3);
    }
  }

  static GpuFigures of(String key) {
    for (GpuFigures f : values()) if (f.key.equals(key)) return f;
    return null;
  }
}
