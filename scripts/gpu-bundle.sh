#!/usr/bin/env bash
# Prepares target/gpu-bundle/: everything a GPU machine without a JDK needs to run gpu-check.sh there:
# a jlink'ed runtime, jtensor's jars (built here, with libjtensor_cuda.so when nvcc is present), their
# runtime and test dependencies (JUnit's launcher, Jackson for the conformance data) and JMH's, the
# test and benchmark classes, the CUDA CTest executables with the libraries they link. Then
# target/gpu-bundle.tar.xz, the one file to carry (skipped with --no-xz, as the rehearsal does).
#   bash scripts/gpu-bundle.sh [--no-xz]
# It fails when the CTest executables labelled cuda are not exactly those cuda-tests.expected lists.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/toolchain.sh
xz=1
[ "${1:-}" = "--no-xz" ] && xz=0
out=target/gpu-bundle
rm -rf "$out" target/gpu-bundle.tar.xz && mkdir -p "$out/lib" "$out/native"  # no older tar.xz may pass for this build
# The jars and classes, from this checkout (nothing goes to ~/.m2, nothing is read from it): each
# dependency copy runs in the reactor beside `package` of jtensor's own modules, which resolves
# them to the jars just built (alone, -pl java-api would look for jtensor-bindings in ~/.m2).
# Tests are compiled, not run here. JMH and what it needs at run time first (the benchmarks' own
# classes travel as a folder, beside the tests').
mvn -B -q -pl bindings,java-api,benchmarks package dependency:copy-dependencies -DskipTests -DincludeScope=runtime \
  -DincludeGroupIds=org.openjdk.jmh,net.sf.jopt-simple,org.apache.commons -DoutputDirectory="$PWD/$out/lib"
# (the host's natives only: a cross-build leaves other platforms' jars beside them)
cp $(ls bindings/target/jtensor-bindings-*.jar | grep -v -e '-linux-arm64\.jar$' -e '-windows-x86_64\.jar$') \
  java-api/target/jtensor-api-*.jar "$out/lib/"
# Test scope holds runtime's too; libtorch (conformance data's generator) and JUnit's testkit's AssertJ and
# Byte Buddy (MemoryAccountingTest's) stay out: no CUDA test needs them.
mvn -B -q -pl bindings,java-api package dependency:copy-dependencies -DskipTests -DincludeScope=test \
  -DexcludeGroupIds=org.jtensor -DexcludeArtifactIds=pytorch,pytorch-platform,assertj-core,byte-buddy -DoutputDirectory="$PWD/$out/lib"
# The presets' JNI libraries jtensor never loads (OpenBLAS's LAPACK builds; CUDA's NPP, cuSOLVER,
# cuFFT, cuDNN, ...) are left out of their jars: the bundle must travel beside the tree in the device
# tool's 64 MiB, so it is held to 56 MiB.
python3 - "$out"/lib/openblas-*-linux-x86_64.jar "$out"/lib/cuda-*-linux-x86_64.jar <<'PY'
import re, shutil, sys, zipfile
unused = re.compile(r"/libjni(openblas|openblas_full|npp\w*|cusolver|cusparse|cufft\w*|curand|cudnn|nccl|nvml|nvjpeg|nvcomp"
                    r"|nvblas|nvrtc|cupti|cufile)\.so$")
for jar in sys.argv[1:]:
    with zipfile.ZipFile(jar) as src, zipfile.ZipFile(jar + ".tmp", "w", zipfile.ZIP_DEFLATED) as dst:
        for e in src.infolist():
            if not unused.search(e.filename):
                dst.writestr(e, src.read(e.filename))
    shutil.move(jar + ".tmp", jar)
PY
cp -r java-api/target/test-classes "$out/test-classes"
cp -r benchmarks/target/classes "$out/bench-classes"
# CTest's cuda suites, built by the bindings' CMake run, and the libraries they link (found through
# LD_LIBRARY_PATH there). CMake's cuda label and cuda-tests.expected must name the same executables.
native=bindings/target/classes/org/jtensor/bindings/linux-x86_64 build=bindings/target/cmake-build
list="$out/test-classes/cuda-tests.expected"
expected=$(awk '$1 == "ctest" { print $3 }' "$list" | sort)
if [ -f "$native/libjtensor_cuda.so" ]; then
  labelled=$(ctest --test-dir "$build" -L cuda -N | sed -n 's/^ *Test *#[0-9]*: *//p' | sort)
  if [ "$labelled" != "$expected" ]; then
    echo "gpu-bundle: CTest's cuda label names [$(echo $labelled)], cuda-tests.expected [$(echo $expected)]: update one" >&2
    exit 1
  fi
  for t in $expected cuda_gemm_bench; do cp "$build/$t" "$out/native/"; done
  cp "$native"/libjtensor.so "$native"/libjtensor_cuda.so "$out/native/"
  strip --strip-unneeded "$out"/native/cuda_* "$out"/native/*.so  # symbols only: the bundle must fit its 56 MiB
else
  echo "jtensor: no CUDA build (nvcc missing or -Djt.cuda=OFF): the bundle has no CTest cuda suites" >&2
  echo "built without nvcc or with -Djt.cuda=OFF" >"$out/native/NO_CUDA_BUILD"
fi
# java.management: JMH reads the JVM's arguments through it to start its forks; jdk.zipfs: JUnit scans jars through it
jlink --add-modules java.base,jdk.unsupported,java.logging,java.management,jdk.zipfs --strip-debug --no-header-files \
  --no-man-pages --compress=2 --output "$out/jre"
cp scripts/gpu-check.sh "$out/gpu-check.sh"
cp benchmarks/peers/torch_gpu_peer.py "$out/"  # PyTorch's side of the GPU benchmarks, run where torch sees the GPU
# which build this is, printed in every summary's first line
echo "$(git describe --always --dirty 2>/dev/null || echo 'no git') built $(date -u '+%Y-%m-%d %H:%M UTC')" >"$out/BUILD"
chmod +x "$out/gpu-check.sh"
du -sh "$out"/*
[ "$xz" -eq 1 ] || { echo "jtensor: bundle ready in $out (no tar.xz: --no-xz)"; exit 0; }
# One compressed file to carry (the device tool: carry target/gpu-bundle.tar.xz, then run
# tar -xJf target/gpu-bundle.tar.xz -C /tmp && /tmp/gpu-bundle/gpu-check.sh --phase quick)
tar -C target -cf - gpu-bundle | xz -T2 -6 >target/gpu-bundle.tar.xz
size=$(stat -c %s target/gpu-bundle.tar.xz)
ls -la target/gpu-bundle.tar.xz
[ "$size" -le $((56 << 20)) ] || { echo "gpu-bundle: target/gpu-bundle.tar.xz is $size bytes, over the 56 MiB limit" >&2; exit 1; }
echo "jtensor: bundle ready in $out and target/gpu-bundle.tar.xz (run ./gpu-check.sh there on the GPU machine)"
