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
mvn -B -Djt.build.jobs="$(nproc)" install "$@"  # verify, then install: scripts/platform-check.sh resolves what it put there
bash scripts/gpu-rehearsal.sh
bash scripts/sanitize.sh
bash scripts/arm64.sh
bash scripts/windows.sh
bash scripts/platform-check.sh
