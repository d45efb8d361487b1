#!/usr/bin/env bash
# Checks a classifier jar of jtensor-bindings (issue 23): it holds natives only under
# org/jtensor/bindings/PLATFORM/, at least libjtensor and the JNI glue, and every one of them is
# machine code for PLATFORM, read from the bytes (ELF e_machine; PE comes with windows-x86_64).
# usage: bash scripts/check-platform-jar.sh JAR PLATFORM
set -euo pipefail
jar=$1 platform=$2
case "$platform" in
  linux-x86_64) want=003e ;;  # EM_X86_64
  linux-arm64) want=00b7 ;;   # EM_AARCH64
  *) echo "check-platform-jar: no rule for $platform" >&2; exit 2 ;;
esac
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
unzip -q "$jar" -d "$dir"
libs=$(cd "$dir" && find . -type f \( -name '*.so' -o -name '*.so.*' -o -name '*.dll' -o -name '*.dylib' \) | sort)
for name in libjtensor.so libjniJtNative.so; do
  grep -qx "./org/jtensor/bindings/$platform/$name" <<<"$libs" || { echo "$jar: no org/jtensor/bindings/$platform/$name" >&2; exit 1; }
done
for lib in $libs; do
  case "$lib" in ./org/jtensor/bindings/"$platform"/*) ;; *) echo "$jar: $lib is outside org/jtensor/bindings/$platform/" >&2; exit 1 ;; esac
  magic=$(od -An -tx1 -N4 "$dir/$lib" | tr -d ' ')
  machine=$(od -An -tx2 -j18 -N2 "$dir/$lib" | tr -d ' ')
  if [ "$magic" != 7f454c46 ] || [ "$machine" != "$want" ]; then
    echo "$jar: $lib is not $platform code (magic $magic, ELF machine 0x$machine, want 0x$want)" >&2
    exit 1
  fi
done
echo "$(basename "$jar"): $(wc -w <<<"$libs") native libraries, all $platform code"
