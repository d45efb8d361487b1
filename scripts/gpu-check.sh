#!/usr/bin/env bash
# Runs jtensor's CUDA tests (JUnit tag cuda: CUDA kernels against the CPU's) on a GPU machine
# without a JDK, from the folder scripts/gpu-bundle.sh prepared: ./gpu-check.sh [launcher options].
# Exits non-zero when a test fails, and (3) when they were aborted because this process cannot
# run CUDA: each skip names the missing piece (Cuda.unavailableReason()).
set -euo pipefail
cd "$(dirname "$0")"
[ -x jre/bin/java ] || { echo "gpu-check: run scripts/gpu-bundle.sh first, then me from its folder" >&2; exit 2; }
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null || echo "gpu-check: no nvidia-smi"
status=0
jre/bin/java -Dorg.bytedeco.javacpp.cachedir="$PWD/javacpp-cache" -Xss4m \
  -jar junit-platform-console-standalone.jar execute \
  --class-path "test-classes:$(ls lib/*.jar | tr '\n' ':')" \
  --select-class org.jtensor.CudaKernelsTest --select-class org.jtensor.CudaMatmulTest --select-class org.jtensor.CudaStreamsTest --select-class org.jtensor.CudaIndexTest --details=tree --disable-banner "$@" | tee gpu-check.log || status=$?
if grep -Eq "\[ +[1-9][0-9]* tests (skipped|aborted)" gpu-check.log; then
  echo "gpu-check: CUDA tests were aborted (see the reasons above): this process cannot run CUDA" >&2
  [ "$status" -ne 0 ] || status=3
fi
exit "$status"
