#!/usr/bin/env bash
# Prepares target/gpu-bundle/: everything a GPU machine without a JDK needs to run jtensor's
# CUDA tests (JUnit tag cuda) in one command, gpu-check.sh there. It holds a jlink'ed runtime,
# jtensor's jars (built here, with libjtensor_cuda.so when nvcc is present), their runtime
# dependencies, the test classes and JUnit's console launcher. Copy the folder over and run it.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/toolchain.sh
out=target/gpu-bundle
rm -rf "$out" && mkdir -p "$out/lib"
# The jars, from this checkout (nothing goes to ~/.m2); tests are compiled, not run here.
mvn -B -q -o -pl bindings,java-api package -DskipTests
cp bindings/target/jtensor-bindings-*.jar java-api/target/jtensor-api-*.jar "$out/lib/"
mvn -B -q -o -pl java-api dependency:copy-dependencies -DincludeScope=runtime -DexcludeGroupIds=org.jtensor \
  -DoutputDirectory="$PWD/$out/lib"
cp -r java-api/target/test-classes "$out/test-classes"
# JUnit's console launcher, Jupiter included (Maven Central, fetched once into ~/.m2 by Maven itself)
console=org.junit.platform:junit-platform-console-standalone:1.10.2
mvn -B -q dependency:copy -Dartifact=$console -DoutputDirectory="$PWD/$out" -Dmdep.stripVersion=true
jlink --add-modules java.base,jdk.unsupported,java.logging --strip-debug --no-header-files --no-man-pages \
  --compress=2 --output "$out/jre"
cp scripts/gpu-check.sh "$out/gpu-check.sh"
chmod +x "$out/gpu-check.sh"
du -sh "$out" "$out/jre" "$out/lib"
echo "jtensor: bundle ready in $out (run ./gpu-check.sh there on the GPU machine)"
