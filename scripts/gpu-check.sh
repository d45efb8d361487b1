#!/usr/bin/env bash
# The one command for a GPU machine without a JDK, run from the folder scripts/gpu-bundle.sh made:
#   ./gpu-check.sh [--no-bench] [JMH options for the GPU benchmarks, e.g. -wi 1 -i 2]
# 1. the CTest suites labelled cuda (CUDA kernels against the CPU's, in C++);
# 2. every JUnit test tagged cuda (classes named Cuda*Test: the conformance suite, the property
#    tests, indexing/scans/sort/random parity, autograd and a training step on CUDA, against the CPU);
# 3. the GPU benchmarks (GpuReport: rates beside PyTorch's H100 figures and the issue's targets)
#    and cuda_gemm_bench.
# Everything goes to gpu-check.log; gpu-summary.md gets the device, each part's outcome and the
# benchmark table. Exits non-zero when a part fails, and 3 when CUDA tests were aborted because this
# process cannot run CUDA (each skip names the missing piece, Cuda.unavailableReason()).
set -uo pipefail
cd "$(dirname "$0")"
[ -x jre/bin/java ] || { echo "gpu-check: run scripts/gpu-bundle.sh first, then me from its folder" >&2; exit 2; }
bench=1
[ "${1:-}" = "--no-bench" ] && { bench=0; shift; }
log=gpu-check.log summary=gpu-summary.md
: >"$log"
export LD_LIBRARY_PATH="$PWD/native${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
[ -d /usr/local/cuda/lib64 ] && export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:/usr/local/cuda/lib64"
java=(jre/bin/java -Dorg.bytedeco.javacpp.cachedir="$PWD/javacpp-cache" -Xss4m)
status=0
note() { echo "$*" | tee -a "$summary"; }

{ echo "# jtensor gpu-check, $(date -u '+%Y-%m-%d %H:%M UTC')"; echo
  echo "device: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null || echo 'no nvidia-smi')"
  echo; } >"$summary"

# 1. CTest, label cuda: the executables were built with the jars; their test file is written here.
if [ -s native/cuda-tests.txt ]; then
  { for t in $(cat native/cuda-tests.txt); do
      echo "add_test($t \"$PWD/native/$t\")"
      echo "set_tests_properties($t PROPERTIES LABELS cuda)"
    done; } >native/CTestTestfile.cmake
  if command -v ctest >/dev/null; then
    ctest --test-dir native -L cuda --output-on-failure 2>&1 | tee -a "$log"; rc=${PIPESTATUS[0]}
  else
    rc=0
    for t in $(cat native/cuda-tests.txt); do native/$t 2>&1 | tee -a "$log" || rc=1; done
  fi
  if [ "$rc" -ne 0 ] && grep -q "no usable GPU" "$log"; then
    note "- CTest label cuda: ABORTED, $(grep -m1 -o 'no usable GPU.*' "$log")"; status=3
  else
    note "- CTest label cuda: $([ "$rc" -eq 0 ] && echo passed || echo "FAILED (rc $rc)")"
    [ "$rc" -eq 0 ] || status=1
  fi
else
  note "- CTest label cuda: not in this bundle (it was built without nvcc)"
fi

# 2. JUnit, tag cuda: every Cuda*Test class (nested classes too) on the test class path.
"${java[@]}" -jar junit-platform-console-standalone.jar execute \
  --class-path "test-classes:$(ls lib/*.jar | tr '\n' ':')" --scan-classpath test-classes \
  --include-classname '.*\.Cuda\w*Test(\$\w+)*' --include-tag cuda --details=tree --disable-banner --disable-ansi-colors 2>&1 | tee junit.log | tee -a "$log" >/dev/null; rc=${PIPESTATUS[0]}
sed -n '/^Failures (/,$p' junit.log | head -300  # the failures, with their messages, before the tallies
grep -E "tests (successful|failed|skipped|aborted)|containers failed" junit.log | sed 's/^/    /' | tee -a "$summary"
if grep -Eq "\[ +[1-9][0-9]* tests (skipped|aborted)" junit.log; then
  note "- JUnit tag cuda: ABORTED, this process cannot run CUDA: $(grep -m1 -o 'CUDA: .*' junit.log)"
  [ "$rc" -ne 0 ] || rc=3
else
  note "- JUnit tag cuda: $([ "$rc" -eq 0 ] && echo passed || echo "FAILED (rc $rc): $(grep -c '✘' junit.log) marks in junit.log")"
fi
[ "$rc" -eq 0 ] || [ "$status" -ne 0 ] || status=$rc

# 3. The GPU benchmarks: JMH forks run this runtime with the same class path.
if [ "$bench" -eq 1 ]; then
  echo >>"$summary"
  "${java[@]}" -cp "bench-classes:$(ls lib/*.jar | tr '\n' ':')" org.jtensor.benchmarks.gpu.GpuReport \
    --summary bench-table.md -jvmArgsAppend "-Dorg.bytedeco.javacpp.cachedir=$PWD/javacpp-cache" "$@" 2>&1 | tee -a "$log"
  rc=${PIPESTATUS[0]}
  if [ -f bench-table.md ]; then cat bench-table.md >>"$summary"; fi
  [ "$rc" -eq 0 ] || { note "- GPU benchmarks: FAILED (rc $rc)"; [ "$status" -ne 0 ] || status=$rc; }
  if [ -x native/cuda_gemm_bench ]; then
    echo >>"$summary"
    native/cuda_gemm_bench 2>&1 | tee -a "$log" | sed 's/^/    /' >>"$summary" || note "- cuda_gemm_bench: FAILED"
  fi
fi
# A folder named by OUT (the device tool's, where one sets it) gets the summary and the logs back.
if [ -n "${OUT:-}" ] && [ -d "$OUT" ]; then cp "$summary" "$log" junit.log "$OUT"/ 2>/dev/null || true; fi
echo
echo "gpu-check: exit $status; summary in $PWD/$summary, everything in $PWD/$log"
cat "$summary"
exit "$status"
