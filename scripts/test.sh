#!/usr/bin/env bash
# Every test: the native CTest suites (allocator, copy kernel, kernels) and the Java suites
# (conformance against libtorch, property chains, lifetimes, the fuzzer, concurrency, ...), the
# jars packed and checked; the GPU run's rehearsal (scripts/gpu-rehearsal.sh: the GPU bundle run
# with the CPU standing in, and the check itself sabotaged); then the CTest suites again under
# ASan and UBSan (scripts/sanitize.sh); then cross-built for linux-arm64 and run under QEMU
# (scripts/arm64.sh), and for windows-x86_64, its native suites under wine (scripts/windows.sh);
# last, jtensor-platform tried in fresh Maven projects (scripts/platform-check.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/toolchain.sh
# Each step's wall time, printed as a table at the end: CI's budget is 30 minutes on 2 cores, and
# this is where to look first when a change makes the run longer.
step_times=()
step() {
  local name=$1 start=$SECONDS; shift
  "$@"
  step_times+=("$(printf '%-16s %5d s' "$name" $((SECONDS - start)))")
}
report_times() {
  printf '  %s\n' ${step_times[@]+"${step_times[@]}"}
  printf '  %-16s %5d s\n' total "$SECONDS"
}
trap 'rc=$?; [ $rc -eq 0 ] || { echo "test.sh: failed (exit $rc); the steps that passed took:"; report_times; }' EXIT
step build+tests mvn -B -Djt.build.jobs="$(nproc)" install "$@"  # verify, then install: scripts/platform-check.sh resolves what it put there
step gpu-rehearsal bash scripts/gpu-rehearsal.sh
step sanitize bash scripts/sanitize.sh
step arm64 bash scripts/arm64.sh
step windows bash scripts/windows.sh
step platform-check bash scripts/platform-check.sh
echo "test.sh: every step passed; wall time per step:"
report_times
