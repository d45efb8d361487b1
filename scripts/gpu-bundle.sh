#!/usr/bin/env bash
# Prepares target/gpu-bundle/: everything a GPU machine without a JDK needs to run, in one command
# (gpu-check.sh there), jtensor's CTest suites labelled cuda, its JUnit tests tagged cuda and its GPU
# benchmarks. It holds a jlink'ed runtime, jtensor's jars (built here, with libjtensor_cuda.so when
# nvcc is present), their runtime dependencies and JMH's, the test and benchmark classes, the CUDA
# CTest executables with the libraries they link, and JUnit's console launcher. Copy it over (or
# target/gpu-bundle.tar.xz, made last) and run ./gpu-check.sh there.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/toolchain.sh
out=target/gpu-bundle
rm -rf "$out" && mkdir -p "$out/lib" "$out/native"
# The jars, from this checkout (nothing goes to ~/.m2); tests are compiled, not run here.
mvn -B -q -o -pl bindings,java-api,benchmarks package -DskipTests
cp bindings/target/jtensor-bindings-*.jar java-api/target/jtensor-api-*.jar "$out/lib/"
mvn -B -q -o -pl java-api dependency:copy-dependencies -DincludeScope=runtime -DexcludeGroupIds=org.jtensor \
  -DoutputDirectory="$PWD/$out/lib"
# JMH and what it needs at run time (the benchmarks' own classes travel as a folder, beside the tests')
mvn -B -q -o -pl benchmarks dependency:copy-dependencies -DincludeScope=runtime \
  -DincludeGroupIds=org.openjdk.jmh,net.sf.jopt-simple,org.apache.commons -DoutputDirectory="$PWD/$out/lib"
# The presets' JNI libraries jtensor never loads (OpenBLAS's LAPACK builds; CUDA's NPP, cuSOLVER,
# cuFFT, cuDNN, ...) are left out of their jars: the whole bundle must travel in 64 MiB.
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
# LD_LIBRARY_PATH there); gpu-check.sh writes their CTestTestfile on the GPU machine.
native=bindings/target/classes/org/jtensor/bindings/linux-x86_64 build=bindings/target/cmake-build
if [ -f "$native/libjtensor_cuda.so" ]; then
  # the tests CMake labels cuda (each named as its executable), listed for gpu-check.sh
  ctest --test-dir "$build" -L cuda -N 2>/dev/null | sed -n 's/^ *Test *#[0-9]*: *//p' >"$out/native/cuda-tests.txt"
  for t in $(cat "$out/native/cuda-tests.txt") cuda_gemm_bench; do cp "$build/$t" "$out/native/"; done
  cp "$native"/libjtensor.so "$native"/libjtensor_cuda.so "$out/native/"
  strip --strip-unneeded "$out"/native/cuda_* 2>/dev/null || true
else
  echo "jtensor: no CUDA build (nvcc missing or -Djt.cuda=OFF): the bundle has no CTest cuda suites" >&2
fi
# JUnit's console launcher, Jupiter included (Maven Central, fetched once into ~/.m2 by Maven itself)
console=org.junit.platform:junit-platform-console-standalone:1.10.2
mvn -B -q dependency:copy -Dartifact=$console -DoutputDirectory="$PWD/$out" -Dmdep.stripVersion=true
# java.management: JMH reads the JVM's arguments through it to start its forks
jlink --add-modules java.base,jdk.unsupported,java.logging,java.management --strip-debug --no-header-files \
  --no-man-pages --compress=2 --output "$out/jre"
cp scripts/gpu-check.sh "$out/gpu-check.sh"
chmod +x "$out/gpu-check.sh"
du -sh "$out"/*
# One compressed file to carry (the device tool: carry target/gpu-bundle.tar.xz, then run
# tar -xJf target/gpu-bundle.tar.xz -C /tmp && /tmp/gpu-bundle/gpu-check.sh)
tar -C target -cf - gpu-bundle | xz -T2 -6 >target/gpu-bundle.tar.xz
ls -la target/gpu-bundle.tar.xz
echo "jtensor: bundle ready in $out and target/gpu-bundle.tar.xz (run ./gpu-check.sh there on the GPU machine)"
