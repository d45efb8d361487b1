#!/usr/bin/env bash
# The GPU run's rehearsal, part of the test command: builds the bundle (scripts/gpu-bundle.sh
# --no-xz), copies it to a clean folder and runs its gpu-check.sh --dry-run there (the bundle's own
# runtime, no Maven repository, HOME elsewhere): every CUDA test class and GPU benchmark must run
# and pass on the CPU standing in, every CTest executable must start from the bundle's libraries.
# Then the check itself is tested: each sabotage below, on a copy of the bundle, must make it fail,
# naming what broke; and `mvn -Pgpu verify` must fail where no GPU is.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/gpu-bundle.sh --no-xz
work=$(mktemp -d /tmp/jt-rehearsal.XXXXXX)
trap 'rm -rf "$work"' EXIT
run() {  # run FOLDER ARGS...: gpu-check.sh in FOLDER with nothing of this machine's Java set-up; its output in FOLDER.out
  local dir=$1; shift
  (cd "$dir" && env -i PATH=/usr/bin:/bin HOME="$work/home" ./gpu-check.sh "$@") >"$dir.out" 2>&1
}
cp -a target/gpu-bundle "$work/bundle"
mkdir -p "$work/home"
if ! run "$work/bundle" --dry-run; then
  cat "$work/bundle.out"
  echo "gpu-rehearsal: FAILED: the dry run of the bundle did not pass (above)" >&2
  exit 1
fi
sed -n '/^| tests: JUnit/,/phase tests/p' "$work/bundle/gpu-summary.md"
grep -h -- "- phase" "$work/bundle/gpu-summary.md"

# sabotage NAME EXPECTED-TEXT ARGS...: the copy in $work/NAME (made and broken by the caller) must fail with EXPECTED-TEXT in its summary.
failed=0
sabotage() {
  local name=$1 want=$2; shift 2
  if run "$work/$name" "$@"; then
    echo "gpu-rehearsal: sabotage '$name' was not caught: gpu-check.sh passed"; failed=1
  elif ! grep -qF -- "$want" "$work/$name/gpu-summary.md"; then
    echo "gpu-rehearsal: sabotage '$name' failed the check without naming it ('$want' not in its summary):"
    tail -20 "$work/$name/gpu-summary.md"; failed=1
  else
    echo "gpu-rehearsal: sabotage '$name' caught: $(grep -m1 -F -- "$want" "$work/$name/gpu-summary.md" | cut -c1-160)"
  fi
}
also_named() {  # also_named NAME EXPECTED-TEXT: the summary of a sabotage run above also names this fault
  if grep -qF -- "$2" "$work/$1/gpu-summary.md"; then
    echo "gpu-rehearsal: sabotage '$1' also caught: $(grep -m1 -F -- "$2" "$work/$1/gpu-summary.md" | cut -c1-160)"
  else
    echo "gpu-rehearsal: sabotage '$1' did not name '$2':"; tail -20 "$work/$1/gpu-summary.md"; failed=1
  fi
}
copy() { cp -al "$work/bundle" "$work/$1"; rm -f "$work/$1"/*.md "$work/$1"/*.log; }  # hard links: break one before changing it

# 1. A CUDA test that fails: a class tagged cuda whose test fails, listed as expected (and not named
# Cuda*Test: the tag alone decides what runs).
copy failing-test
mkdir -p "$work/src/org/jtensor"
cat >"$work/src/org/jtensor/SabotagedGpuCheck.java" <<'JAVA'
package org.jtensor;

@org.junit.jupiter.api.Tag("cuda")
@org.junit.jupiter.api.extension.ExtendWith(CudaAccounting.class)
class SabotagedGpuCheck {
  @org.junit.jupiter.api.Test
  void sabotaged() {
    org.junit.jupiter.api.Assertions.assertEquals(1.0, Tensor.ones(1).to(CudaAccounting.device()).sum().item() + 1, "made to fail");
  }
}
JAVA
rm "$work/failing-test/test-classes/cuda-tests.expected"
{ cat "$work/bundle/test-classes/cuda-tests.expected"; echo "junit tests org.jtensor.SabotagedGpuCheck 1"; } \
  >"$work/failing-test/test-classes/cuda-tests.expected"
javac -d "$work/classes" -cp "$work/bundle/test-classes:$(ls "$work"/bundle/lib/*.jar | tr '\n' ':')" \
  "$work/src/org/jtensor/SabotagedGpuCheck.java"
cp "$work/classes/org/jtensor/SabotagedGpuCheck.class" "$work/failing-test/test-classes/org/jtensor/"
# 2. In the same copy (one run of the tests phase, not two), a class dropped from the bundle: the
# phase must miss it by name beside the failure, so the check also reports every fault, not the first.
rm "$work"/failing-test/test-classes/org/jtensor/CudaIndexTest*.class
sabotage failing-test "FAILED sabotaged() in org.jtensor.SabotagedGpuCheck" --dry-run --phase tests
also_named failing-test "org.jtensor.CudaIndexTest: no test found"

# 3. A jar missing: Jackson, which the conformance data needs (what the first bundle lacked).
copy missing-jar
rm "$work"/missing-jar/lib/jackson-databind-*.jar
sabotage missing-jar "in org.jtensor.conformance.CudaConformanceTest: java.lang.NoClassDefFoundError: com/fasterxml/jackson" --dry-run --phase tests --only CudaConformanceTest

# 4. No GPU and no --dry-run: CUDA cannot load here, which must fail the run (not skip every test).
copy no-gpu
sabotage no-gpu "CUDA unavailable" --phase quick

# 5. A benchmark that cannot run: the bench phase must fail, not drop its row.
copy failing-bench
rm "$work"/failing-bench/bench-classes/org/jtensor/benchmarks/gpu/GpuTrainingBenchmark*.class
sabotage failing-bench "GPU benchmarks: FAILED, Benchmark caught the exception: org.openjdk.jmh.runner.BenchmarkException: Benchmark error [java.lang.NoClassDefFoundError: org/jtensor/benchmarks/gpu/GpuTrainingBenchmark]" --dry-run --phase bench

# 6. A phase mistyped in cuda-tests.expected: its tests would drop out of every run.
copy bad-phase
rm "$work/bad-phase/test-classes/cuda-tests.expected"
sed 's/^ctest quick cuda_gemm_test/ctest quik cuda_gemm_test/; s/^junit quick /junit quik /' \
  "$work/bundle/test-classes/cuda-tests.expected" >"$work/bad-phase/test-classes/cuda-tests.expected"
sabotage bad-phase "cuda-tests.expected: FAILED, not 'junit quick|tests CLASS COUNT'" --dry-run --phase quick

# 7. jtensor's library missing from native/ (found here through the build folder's RUNPATH, not on a GPU machine).
if [ ! -f "$work/bundle/native/NO_CUDA_BUILD" ]; then
  copy missing-library
  rm "$work/missing-library/native/libjtensor.so"
  sabotage missing-library "resolves outside the bundle" --dry-run --phase quick
fi

# 9. The PyTorch peer's figures reach the table: a stand-in peer (JT_TORCH_PEER) reports one case,
# which must appear as this run's PyTorch figure, the median of its two runs (before and after jtensor's).
cp -al "$work/bundle" "$work/peer"; rm -f "$work/peer"/*.md "$work/peer"/*.log
printf '%s\n' 'echo "peer device Stand-in GPU torch 0"' 'echo "peer add4HostCost $1 ignored"' >"$work/peer/fake-peer.sh"
(cd "$work/peer" && env -i PATH=/usr/bin:/bin HOME="$work/home" JT_TORCH_PEER="bash $work/peer/fake-peer.sh 2.0e-5" \
  ./gpu-check.sh --dry-run --phase bench -- 'GpuBenchmark.add4HostCost' -wi 0 -i 1 -r 100ms -f 1) >"$work/peer.out" 2>&1 || true
if grep -q "PyTorch, this run: Stand-in GPU torch 0" "$work/peer/gpu-summary.md" \
   && grep -q "| 4-element add, host cost | .* | 20.00 us (2 runs) |" "$work/peer/gpu-summary.md"; then
  echo "gpu-rehearsal: the PyTorch peer's figures reach the table: $(grep -m1 '4-element add' "$work/peer/gpu-summary.md" | cut -c1-120)"
else
  echo "gpu-rehearsal: the stand-in PyTorch peer's figure is not in the bench table:"; cat "$work/peer.out"; failed=1
fi

# 8. The Maven route on a machine without a GPU: mvn -Pgpu verify must fail, naming what is missing.
if ! command -v nvidia-smi >/dev/null; then
  if out=$(mvn -B -q -Pgpu -pl java-api -am verify -DskipTests 2>&1); then
    echo "gpu-rehearsal: 'mvn -Pgpu verify' passed on a machine without a GPU"; failed=1
  elif ! grep -q "CUDA unavailable" <<<"$out"; then
    echo "gpu-rehearsal: 'mvn -Pgpu verify' failed without naming CUDA as missing:"; tail -20 <<<"$out"; failed=1
  else
    echo "gpu-rehearsal: 'mvn -Pgpu verify' without a GPU caught: $(grep -m1 -o 'CUDA unavailable.\{0,80\}' <<<"$out")"
  fi
fi

[ "$failed" -eq 0 ] || { echo "gpu-rehearsal: FAILED: a sabotage above was not caught" >&2; exit 1; }
echo "gpu-rehearsal: passed: the dry run of the whole bundle, and each sabotage caught by name"
