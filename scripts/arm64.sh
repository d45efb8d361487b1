#!/usr/bin/env bash
# linux-arm64 (issue 23, docs/platforms.md): the native library cross-built with Debian's aarch64
# toolchain (cmake/toolchains/linux-arm64.cmake) and every native CTest suite run under QEMU's
# user-mode emulation; then the library is checked to be aarch64 code only. Installs
# g++-aarch64-linux-gnu and qemu-user from Debian's packages when they are missing. Run by
# scripts/test.sh. Timings under QEMU say nothing about real arm64 speed.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/toolchain.sh
missing=()
command -v aarch64-linux-gnu-g++ >/dev/null 2>&1 || missing+=(g++-aarch64-linux-gnu)
command -v qemu-aarch64 >/dev/null 2>&1 || missing+=(qemu-user)
install_missing ${missing[@]+"${missing[@]}"}
build=build/arm64
cmake -S cmake -B "$build" -DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/toolchains/linux-arm64.cmake" \
  -DJT_OUTPUT_DIR="$PWD/$build/lib" >/dev/null
cmake --build "$build" -j "$(nproc)" --target jtensor native_tests
lib="$build/lib/libjtensor.so"
# The ELF header's machine field (offset 18, little-endian): 0xb7 is aarch64, 0x3e x86-64.
machine=$(od -An -tx2 -j18 -N2 "$lib" | tr -d ' ')
if [ "$machine" != "00b7" ]; then
  echo "jtensor: $lib is not aarch64 code (ELF machine 0x$machine)" >&2
  exit 1
fi
ctest --test-dir "$build" --output-on-failure -j "$(nproc)"
echo "linux-arm64: libjtensor.so is aarch64 code, and its native suites passed under qemu-aarch64"
