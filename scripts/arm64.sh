#!/usr/bin/env bash
# linux-arm64 (issue 23, docs/platforms.md): the native library cross-built with Debian's aarch64
# toolchain (cmake/toolchains/linux-arm64.cmake) and every native CTest suite run under QEMU's
# user-mode emulation; the classifier jars are checked to hold their platform's code only; then a
# stated subset of the Java suites runs on Debian's arm64 JVM under QEMU against those jars. Installs
# g++-aarch64-linux-gnu and qemu-user from Debian's packages when they are missing. Run by
# scripts/test.sh. Timings under QEMU say nothing about real arm64 speed.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/toolchain.sh
missing=()
command -v aarch64-linux-gnu-g++ >/dev/null 2>&1 || missing+=(g++-aarch64-linux-gnu)
command -v qemu-aarch64 >/dev/null 2>&1 || missing+=(qemu-user)
install_missing ${missing[@]+"${missing[@]}"}
# The bindings' linux-arm64 classifier jar (bindings/pom.xml's build-linux-arm64 profile): the
# library and CTest suites cross-built in their own CMake tree, the suites run under qemu-aarch64,
# the JNI glue cross-compiled by JavaCPP. java-api is packed beside it only for its test classpath
# with the arm64 natives (the host JVM runs no test against them). Installed in the local Maven
# repository, where jtensor-platform finds it (scripts/platform-check.sh).
mkdir -p build/arm64
mvn -B -Djt.build.jobs="$(nproc)" -Djavacpp.platform=linux-arm64 -Djt.libtorch.platform=linux-x86_64 -pl bindings,java-api \
  install -Dmaven.test.skip.exec=true dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile="$PWD/build/arm64/test-classpath.txt"
version=$(project_version)
for platform in linux-arm64 linux-x86_64; do
  jar="bindings/target/jtensor-bindings-$version-$platform.jar"
  [ -f "$jar" ] || { [ "$platform" = linux-x86_64 ] && continue; }
  bash scripts/check-platform-jar.sh "$jar" "$platform"
done

# Java on an arm64 JVM under QEMU: Debian's arm64 OpenJDK 17 and the runtimes it links, unpacked
# into build/arm64-jdk with apt-get download and dpkg-deb (this machine's own packages stay as they
# are), running a stated subset of the Java suites: all four conformance suites and the
# transformer goldens (PyTorch's values), the elementwise/reduction/matmul properties, views and
# indexing, the convolutions and the attention: the numbers the aarch64 kernels compute. Not the
# concurrency, lifetime or data-loader suites: QEMU runs aarch64 code with the x86-64 host's memory
# order, so arm64's weaker ordering goes untested under it anyway, and their Java logic is the
# host run's (they took about a third of this step's time).
root=build/arm64-jdk
java="$root/usr/lib/jvm/java-17-openjdk-arm64/bin/java"
if [ ! -x "$java" ]; then
  mkdir -p "$root/debs"
  arches=(-o APT::Architectures::=amd64 -o APT::Architectures::=arm64)
  as_root apt-get update -qq "${arches[@]}"
  (cd "$root/debs" && apt-get download -qq "${arches[@]}" openjdk-17-jre-headless:arm64 libc6:arm64 libgcc-s1:arm64 \
    libstdc++6:arm64 zlib1g:arm64)
  for deb in "$root"/debs/*.deb; do dpkg-deb -x "$deb" "$root"; done
fi
console=$(mvn -B -q dependency:get -Dartifact=org.junit.platform:junit-platform-console-standalone:1.10.2 >/dev/null &&
          echo "$HOME/.m2/repository/org/junit/platform/junit-platform-console-standalone/1.10.2/junit-platform-console-standalone-1.10.2.jar")
# The console jar brings JUnit itself; the libtorch peer and the CUDA presets stay out (x86-64 or unused).
cp=$(tr ':' '\n' < build/arm64/test-classpath.txt | grep -v -e /pytorch/ -e /cuda/ -e /junit/ -e /opentest4j/ -e /apiguardian/ | paste -sd:)
classes=(conformance.ViewsConformanceTest conformance.OpsConformanceTest conformance.AutogradConformanceTest
         conformance.PromotionConformanceTest nn.TransformerConformanceTest ElementwisePropertyTest ReductionPropertyTest
         MatmulPropertyTest IndexingTest ShortRunCopyTest CpuCapabilityTest
         nn.DirectConvolutionTest nn.WinogradConvolutionTest nn.AttentionTest)
select=()
for c in "${classes[@]}"; do select+=(--select-class "org.jtensor.$c"); done
# Not the cases tagged emulation-slow (AttentionTest's peak memory: the allocator's high-water mark
# over long sequences, which no aarch64 code changes; 37 of the subset's 80 s under QEMU, 0.3 s natively).
select+=(--exclude-tag emulation-slow)
qemu-aarch64 -L "$root" "$java" -Xss4m -Dorg.bytedeco.javacpp.cachedir="$PWD/build/arm64/javacpp-cache" -jar "$console" execute \
  -cp "java-api/target/test-classes:java-api/target/classes:$cp" "${select[@]}" --details=summary --disable-banner \
  --fail-if-no-tests --reports-dir=build/arm64/reports | tee build/arm64/java-tests.txt | grep -E "tests (successful|failed)|conformance:"
grep -q " 0 tests failed" build/arm64/java-tests.txt
# Each class's time under QEMU, longest first: where to look when this step grows.
python3 - build/arm64/reports/TEST-junit-jupiter.xml <<'PY' || true
import sys, collections, xml.etree.ElementTree as ET
t = collections.Counter()
for case in ET.parse(sys.argv[1]).iter("testcase"):
    t[case.get("classname", "?").replace("org.jtensor.", "")] += float(case.get("time", 0))
print("  " + ", ".join(f"{c} {s:.0f} s" for c, s in t.most_common()))
PY
echo "linux-arm64: the classifier jar holds aarch64 code only; the native suites and ${#classes[@]} Java classes passed under qemu-aarch64"
