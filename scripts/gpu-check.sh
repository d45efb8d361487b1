#!/usr/bin/env bash
# The one command for a GPU machine without a JDK, run from the folder scripts/gpu-bundle.sh made:
#   ./gpu-check.sh [--dry-run] [--phase quick|tests|bench]... [--only TestClass]... [-- JMH options]
# Phases, in this order, each one writing its table to gpu-summary.md and copying the summary and
# the logs to $OUT (where set) as it ends, so a run cut short still returns what it found:
#   quick  the device, every CTest executable cuda-tests.expected lists (CUDA kernels against the
#          CPU's, in C++) and CudaSmokeTest (a case of each kernel family from Java): about a minute;
#   tests  every JUnit class tagged cuda, held by CudaSuite to cuda-tests.expected's counts;
#   bench  GpuReport (each rate beside PyTorch's on this GPU, run before and after jtensor's cases by
#          torch_gpu_peer.py where a python3's torch sees CUDA, beside PyTorch 2.11's H100 figure of
#          issue 10, and the target) and cuda_gemm_bench. JT_TORCH_PEER names another peer command.
# No --phase: all three (with --only: the tests phase alone). --only narrows the tests phase to the
# named classes (a rerun of failures). Each Java run and each executable has a time limit (a hang is
# reported as TIMED OUT, the log's last START line naming the test); the device tool's 10-minute call
# fits one phase, so run them one call each.
# --dry-run: the CPU stands in for the GPU (-Djt.cuda.dryRun=true): every JUnit class and benchmark
# runs, small, CPU against CPU, and each CTest executable must start and report that no GPU is
# here; the test command runs it this way (scripts/gpu-rehearsal.sh) so the bundle cannot rot.
# Exits 0 only when every phase run passed: CUDA or cuBLAS unavailable, a test failed, aborted or
# skipped, a count off cuda-tests.expected, a missing executable or a failing benchmark each fail it,
# named in the summary.
set -uo pipefail
cd "$(dirname "$0")"
[ -x jre/bin/java ] || { echo "gpu-check: run scripts/gpu-bundle.sh first, then me from its folder" >&2; exit 2; }
dry=0 phases=() only=() jmh=()
while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) dry=1 ;;
    --phase) phases+=("$2"); shift ;;
    --only) only+=(--only "$2"); shift ;;
    --) shift; jmh=("$@"); break ;;
    *) echo "gpu-check: unknown argument $1 (see the head of this script)" >&2; exit 2 ;;
  esac
  shift
done
if [ ${#phases[@]} -eq 0 ]; then
  if [ ${#only[@]} -gt 0 ]; then phases=(tests); else phases=(quick tests bench); fi
fi
log=gpu-check.log summary=gpu-summary.md expected=test-classes/cuda-tests.expected
: >"$log"
export LD_LIBRARY_PATH="$PWD/native${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
[ -d /usr/local/cuda/lib64 ] && export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:/usr/local/cuda/lib64"
props=(-Dorg.bytedeco.javacpp.cachedir="$PWD/javacpp-cache" -Xss4m -Djt.cuda.required=true)
[ "$dry" -eq 1 ] && props+=(-Djt.cuda.dryRun=true)
java=(jre/bin/java "${props[@]}")
status=0
note() { echo "$*" | tee -a "$summary"; }
fail() { note "- $*"; status=1; }
save() { if [ -n "${OUT:-}" ] && [ -d "$OUT" ]; then cp "$summary" "$log" hs_err*.log "$OUT"/ 2>/dev/null || true; fi; }
# live: a log written here and, as it grows, into $OUT (what a run killed from outside still returns)
live() { if [ -n "${OUT:-}" ] && [ -d "$OUT" ]; then tee "$OUT/$1" >"$1"; else cat >"$1"; fi; }
# timed SECONDS CMD...: CMD under a limit; exit 124 (named TIMED OUT by the callers) when it ran over
timed() { local limit=$1; shift; timeout -k 10 "$limit" "$@"; }
said() { [ "$1" -eq 124 ] || [ "$1" -eq 137 ] && echo "TIMED OUT after $2 s (the log's last START line names the test)" || echo "rc $1"; }

# cuda-tests.expected must parse: a mistyped phase or kind would drop its tests from every run
bad=$(awk '!/^[[:space:]]*(#|$)/ && !(($1 == "junit" && NF == 4 && $4 ~ /^[1-9][0-9]*$/ || $1 == "ctest" && NF == 3) \
  && ($2 == "quick" || $2 == "tests")) { print "line " NR ": " $0 }' "$expected")
[ -f "$expected" ] && [ -z "$bad" ] || bad="${bad:-$expected is missing}"

{ echo "# jtensor gpu-check, $(date -u '+%Y-%m-%d %H:%M UTC'), bundle of $(cat BUILD 2>/dev/null || echo 'an unknown build')$([ "$dry" -eq 1 ] && echo ', DRY RUN: the CPU stands in, no figure is a GPU'"'"'s')"
  echo
  echo "device: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null || echo 'no nvidia-smi')"
  echo; } >"$summary"

# Each CTest executable of a phase: on a GPU it must pass; in a dry run it must start (its libraries
# resolve) and report that there is no GPU, which is all a machine without one can show.
ctest_phase() {
  local names
  names=$(awk -v p="$1" '$1 == "ctest" && $2 == p { print $3 }' "$expected")
  [ -n "$names" ] || return 0
  if [ -f native/NO_CUDA_BUILD ]; then
    if [ "$dry" -eq 1 ]; then note "- CTest: not in this bundle ($(cat native/NO_CUDA_BUILD)): not rehearsed"
    else fail "CTest: FAILED, not in this bundle ($(cat native/NO_CUDA_BUILD)): rebuild it where nvcc is"; fi
    return
  fi
  echo >>"$summary"
  note "| $1: CTest executable (label cuda) | result | seconds |"
  note "|---|---|---|"
  for t in $names; do
    if [ ! -x "native/$t" ]; then note "| $t | MISSING from native/ | - |"; status=1; continue; fi
    local start=$SECONDS rc out outside
    # jtensor's libraries must come from the bundle, not from a build folder the RUNPATH names
    outside=$(ldd "native/$t" | awk -v d="$PWD/native/" '/libjtensor/ && index($3, d) != 1 { print $1 " -> " $3 }')
    if [ -n "$outside" ]; then note "| $t | FAILED: resolves outside the bundle: $(echo $outside) | - |"; status=1; continue; fi
    out=$(timed 180 "native/$t" 2>&1); rc=$?
    printf '%s\n' "== $t (rc $rc)" "$out" >>"$log"
    if [ "$dry" -eq 1 ]; then
      if [ "$rc" -ne 0 ] && grep -q "no usable GPU" <<<"$out"; then note "| $t | starts, no GPU here (dry run) | $((SECONDS - start)) |"
      else note "| $t | FAILED: rc $rc without a GPU, not the 'no usable GPU' refusal: $(tail -1 <<<"$out") | $((SECONDS - start)) |"; status=1; fi
    elif [ "$rc" -eq 0 ]; then note "| $t | passed | $((SECONDS - start)) |"
    else note "| $t | FAILED ($(said $rc 180)): $(grep -m1 -iE 'fail|error|no usable' <<<"$out" | cut -c1-200) | $((SECONDS - start)) |"; status=1; fi
  done
}

# The JUnit classes of a phase, through CudaSuite (it fails on anything short of every listed test passing).
junit_phase() {
  echo >>"$summary"
  rm -f "junit-$1.md"  # a table left by an earlier run must not stand for this one
  local limit; limit=$([ "$1" = quick ] && echo 240 || echo 560)
  timed "$limit" "${java[@]}" -cp "test-classes:$(ls lib/*.jar | tr '\n' ':')" org.jtensor.CudaSuite --phase "$1" "${only[@]}" \
    --summary "junit-$1.md" 2>&1 | live "junit-$1.log"
  local rc=${PIPESTATUS[0]}
  cat "junit-$1.log" >>"$log"
  if [ -s "junit-$1.md" ]; then cat "junit-$1.md" >>"$summary"
  else note "- $1: FAILED before its table ($(said $rc "$limit")): $(grep -v '^START' "junit-$1.log" | tail -3 | tr '\n' ' ')"; fi
  [ "$rc" -eq 0 ] || status=1
}

bench_phase() {
  echo >>"$summary"
  local opts=("${jmh[@]}")
  [ "$dry" -eq 1 ] && [ ${#opts[@]} -eq 0 ] && opts=(-wi 0 -i 1 -r 100ms -f 1)  # every case once, briefly
  rm -f bench-table.md
  # PyTorch on this GPU, before and after jtensor's cases (GpuReport runs it): the first Python whose torch sees CUDA
  local peer=() py
  if [ -n "${JT_TORCH_PEER:-}" ]; then peer=(--peer "$JT_TORCH_PEER")
  elif [ "$dry" -eq 0 ]; then
    for py in /opt/torch/.venv/bin/python3 python3; do
      if "$py" -c 'import sys, torch; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
        peer=(--peer "$py -u $PWD/torch_gpu_peer.py"); break
      fi
    done
  fi
  timed 420 "${java[@]}" -cp "bench-classes:$(ls lib/*.jar | tr '\n' ':')" org.jtensor.benchmarks.gpu.GpuReport \
    --summary bench-table.md "${peer[@]}" -to 60s "${opts[@]}" 2>&1 | live bench.log
  local rc=${PIPESTATUS[0]}
  cat bench.log >>"$log"
  if [ -s bench-table.md ]; then cat bench-table.md >>"$summary"; else note "- bench: FAILED before its table ($(said $rc 420)): $(tail -3 bench.log | tr '\n' ' ')"; fi
  [ "$rc" -eq 0 ] || status=1
  if [ -f native/NO_CUDA_BUILD ]; then [ "$dry" -eq 1 ] || fail "cuda_gemm_bench: not in this bundle"; return; fi
  if [ ! -x native/cuda_gemm_bench ]; then fail "cuda_gemm_bench: MISSING from native/"; return; fi
  local out
  out=$(timed 120 native/cuda_gemm_bench 2>&1); rc=$?
  printf '%s\n' "== cuda_gemm_bench (rc $rc)" "$out" >>"$log"
  echo >>"$summary"
  if [ "$dry" -eq 1 ]; then
    grep -q "no usable GPU" <<<"$out" && note "- cuda_gemm_bench: starts, no GPU here (dry run)" \
      || fail "cuda_gemm_bench: FAILED, rc $rc without a GPU, not the 'no usable GPU' refusal"
  elif [ "$rc" -eq 0 ]; then sed 's/^/    /' <<<"$out" >>"$summary"
  else sed 's/^/    /' <<<"$out" >>"$summary"; fail "cuda_gemm_bench: FAILED ($(said $rc 120))"; fi
}

overall=0
if [ -n "$bad" ]; then
  note "- cuda-tests.expected: FAILED, not 'junit quick|tests CLASS COUNT' or 'ctest quick|tests NAME': $(echo $bad)"
  save
  exit 1
fi
for phase in "${phases[@]}"; do
  status=0 start=$SECONDS
  case "$phase" in
    quick) ctest_phase quick; junit_phase quick ;;
    tests) ctest_phase tests; junit_phase tests ;;
    bench) bench_phase ;;
    *) echo "gpu-check: no phase '$phase' (quick, tests, bench)" >&2; exit 2 ;;
  esac
  note "- phase $phase: $([ "$status" -eq 0 ] && echo passed || echo FAILED) in $((SECONDS - start)) s"
  [ "$status" -eq 0 ] || overall=1
  save
done
echo
cat "$summary"
echo
echo "gpu-check: exit $overall; summary in $PWD/$summary, everything in $PWD/$log"
exit "$overall"
