#!/usr/bin/env bash
# linux-arm64 (issue 23, docs/platforms.md): the native library cross-built with Debian's aarch64
# toolchain (cmake/toolchains/linux-arm64.cmake) and every native CTest suite run under QEMU's
# user-mode emulation; then the classifier jars are checked to hold their platform's code only. Installs
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
# the JNI glue cross-compiled by JavaCPP; the host's Java tests do not run against arm64 natives.
mvn -B -Djt.build.jobs="$(nproc)" -Djavacpp.platform=linux-arm64 -pl bindings package -Dmaven.test.skip.exec=true
version=$(sed -n 's|^  <version>\(.*\)</version>|\1|p' pom.xml | head -1)
for platform in linux-arm64 linux-x86_64; do
  jar="bindings/target/jtensor-bindings-$version-$platform.jar"
  [ -f "$jar" ] || { [ "$platform" = linux-x86_64 ] && continue; }
  bash scripts/check-platform-jar.sh "$jar" "$platform"
done
echo "linux-arm64: the classifier jar holds aarch64 code only, and the native suites passed under qemu-aarch64"
