#!/usr/bin/env bash
# windows-x86_64 (issue 23 point 2, docs/platforms.md): the bindings' windows-x86_64 classifier jar
# cross-built with Debian's MinGW-w64 (bindings/pom.xml's build-windows-x86_64 profile,
# cmake/toolchains/windows-x86_64.cmake): jtensor.dll and the JNI glue, MinGW's runtime linked in.
# Every native CTest suite runs under wine64 (the toolchain file's emulator), the ISA check reads the
# DLL, and the jar is checked to hold x86-64 PE code only, importing no MinGW DLL. Installs MinGW-w64
# and wine when they are missing. The jar is installed in the local Maven repository, where
# jtensor-platform finds it (scripts/platform-check.sh). Run by scripts/test.sh. No Windows JVM exists here: the JNI glue is
# built and checked, never loaded, and no Java suite runs on Windows.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/toolchain.sh
missing=()
command -v x86_64-w64-mingw32-g++-posix >/dev/null 2>&1 || missing+=(g++-mingw-w64-x86-64-posix)
command -v wine >/dev/null 2>&1 || missing+=(wine wine64)
install_missing ${missing[@]+"${missing[@]}"}
mkdir -p build/windows
export WINEPREFIX="$PWD/build/windows/wineprefix" WINEDEBUG=-all  # the build's own prefix, made on first use
mvn -B -q -Djt.build.jobs="$(nproc)" -Djavacpp.platform=windows-x86_64 -pl bindings install
log=bindings/target/cmake-build-windows-x86_64/Testing/Temporary/LastTest.log  # each suite's own output
grep -E "[0-9]+ checks, [0-9]+ failed|isa_confinement:" "$log"
checks=$(grep -oE "[0-9]+ checks, 0 failed" "$log" | awk '{ s += $1 } END { print s + 0 }')
suites=$(grep -cE "[0-9]+ checks, 0 failed" "$log")
version=$(project_version)
bash scripts/check-platform-jar.sh "bindings/target/jtensor-bindings-$version-windows-x86_64.jar" windows-x86_64
echo "windows-x86_64: $suites native suites ($checks checks) and the ISA check passed under wine"
